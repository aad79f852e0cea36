// /admin/floors/:id/plan: a floor's plan (upload, replace, remove) and its pins (docs/decisions/021).
// ?shop=<id> starts with that shop chosen (the shop form's "Place on plan").
import { useQuery } from '@tanstack/react-query';
import { ArrowLeft, Map as MapIcon } from 'lucide-react';
import { Link, useParams, useSearchParams } from 'react-router';
import { AdminPageHeader } from '../../components/admin-page';
import { Panel } from '../../components/ui/panel';
import { EmptyState, QueryView } from '../../components/ui/query-states';
import { Skeleton } from '../../components/ui/skeleton';
import { floorGuideQuery } from '../../features/amenities';
import { PinEditor } from '../../features/floor-plans/forms';
import { ImageUpload } from '../../features/images/forms';
import { usePageTitle } from '../../lib/page-title';

const BACK =
  '-ml-2 inline-flex min-h-10 items-center gap-1.5 rounded-lg px-2 text-sm font-medium text-slate-600 hover:bg-slate-100 hover:text-slate-900 focus-visible:outline-2 focus-visible:outline-indigo-600';

export function FloorPlanPage() {
  const { id = '' } = useParams();
  const [search] = useSearchParams();
  const guide = useQuery(floorGuideQuery);
  const floor = guide.data?.find((entry) => entry.id === id);
  usePageTitle(floor ? `Plan of ${floor.name}` : guide.isSuccess ? 'Floor not found' : undefined);

  return (
    <div className="space-y-6">
      <Link to="/admin/categories" className={BACK}>
        <ArrowLeft aria-hidden="true" className="size-4" />
        Back to categories &amp; floors
      </Link>
      <QueryView
        query={guide}
        loading={
          <div role="status" className="space-y-4">
            <span className="sr-only">Loading the floor</span>
            <Skeleton className="h-8 w-64" />
            <Skeleton className="h-64 w-full" />
          </div>
        }
      >
        {() =>
          floor ? (
            <div className="space-y-6">
              <AdminPageHeader
                title={`Plan of ${floor.name}`}
                description="Upload the floor's plan, then place each shop and amenity on it. Shoppers see the plan on the Floors page and on each shop's page."
              />
              <Panel title="Plan image" hideTitle>
                <ImageUpload
                  label="Floor plan"
                  url={`/api/floors/${floor.id}/plan`}
                  image={floor.planImage}
                  name={`Plan of ${floor.name}`}
                  hint="JPEG, PNG, WebP or AVIF, up to 10 MB; saved as soon as chosen. A replaced plan keeps its pins; removing it removes them."
                  boxClassName="aspect-[16/10] w-32 sm:w-48"
                  removeDescription="Every pin on this floor is removed with it."
                />
              </Panel>
              <Panel title="Place pins">
                {floor.planImage ? (
                  floor.shops.length + floor.amenities.length === 0 ? (
                    <p className="mt-2 text-sm text-slate-600">No shops or amenities on this floor yet.</p>
                  ) : (
                    <div className="mt-4">
                      <PinEditor key={floor.id} floor={floor} initial={search.get('shop') ?? undefined} />
                    </div>
                  )
                ) : (
                  <p className="mt-2 text-sm text-slate-600">
                    Upload the plan first; then place the pins here.
                  </p>
                )}
              </Panel>
            </div>
          ) : (
            <EmptyState title="Floor not found" icon={<MapIcon aria-hidden="true" className="size-6" />} />
          )
        }
      </QueryView>
    </div>
  );
}
