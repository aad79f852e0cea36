import { useQuery } from '@tanstack/react-query';
import { Map as MapIcon } from 'lucide-react';
import { Link, useParams } from 'react-router';
import { useListPath } from '../../components/admin-page';
import { buttonClass } from '../../components/ui/button';
import { Panel } from '../../components/ui/panel';
import { floorGuideQuery } from '../../features/amenities';
import { ShopImagesPanel } from '../../features/images/forms';
import { ManagersPanel } from '../../features/managers';
import { categoriesQuery, floorsQuery } from '../../features/places';
import { shopQuery } from '../../features/shops';
import { ShopForm } from '../../features/shops/forms';
import { AdminFormPage } from './admin-form-page';

/** /admin/shops/new and /admin/shops/:id. */
export function ShopFormPage() {
  const { id } = useParams();
  const listPath = useListPath('/admin/shops');
  const categories = useQuery(categoriesQuery);
  const floors = useQuery(floorsQuery);
  const shop = useQuery({ ...shopQuery(id ?? ''), enabled: id !== undefined });
  return (
    <AdminFormPage
      kind="shop"
      id={id}
      // issue 14: who keeps this shop's page current
      below={
        id && shop.data ? (
          <div className="space-y-6">
            <ShopImagesPanel
              shopId={id}
              name={shop.data.name}
              logo={shop.data.logo}
              cover={shop.data.cover}
            />
            <ShopPinPanel shopId={id} floorId={shop.data.floorId} pinned={shop.data.pin !== null} />
            <ManagersPanel shopId={id} shopName={shop.data.name} />
          </div>
        ) : null
      }
      record={shop}
      needs={[categories, floors]}
      fields={7}
    >
      {(record) => (
        <ShopForm
          shop={record}
          categories={categories.data ?? []}
          floors={floors.data ?? []}
          listPath={listPath}
        />
      )}
    </AdminFormPage>
  );
}

/** "Place on plan": this shop's pin on its floor's plan (docs/decisions/021). */
function ShopPinPanel({ shopId, floorId, pinned }: { shopId: string; floorId: string; pinned: boolean }) {
  const guide = useQuery(floorGuideQuery);
  const floor = guide.data?.find((entry) => entry.id === floorId);
  if (!floor) return null;
  return (
    <Panel title="On the floor plan">
      {floor.planImage ? (
        <>
          <p className="mt-1 text-sm text-slate-600">
            {pinned ? `Pinned on the plan of ${floor.name}.` : `Not placed on the plan of ${floor.name} yet.`}
          </p>
          <Link
            to={`/admin/floors/${floorId}/plan?shop=${shopId}`}
            className={buttonClass('secondary', 'md', 'mt-3')}
          >
            <MapIcon aria-hidden="true" className="size-4" />
            Place on plan
          </Link>
        </>
      ) : (
        <p className="mt-1 text-sm text-slate-600">
          {floor.name} has no plan yet.{' '}
          <Link to={`/admin/floors/${floorId}/plan`} className="font-medium text-indigo-700 underline">
            Upload the plan of {floor.name}
          </Link>
        </p>
      )}
    </Panel>
  );
}
