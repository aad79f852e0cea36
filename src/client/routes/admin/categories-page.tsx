import { AdminPageHeader } from '../../components/admin-page';
import { AmenitiesPanel } from '../../features/amenities/forms';
import { PlaceList } from '../../features/places/forms';
import { usePageTitle } from '../../lib/page-title';

export function CategoriesPage() {
  usePageTitle('Categories & Floors');
  return (
    <div className="space-y-6">
      <AdminPageHeader
        title="Categories & Floors"
        description="Shops choose their category and floor from these lists. A rename shows on every shop at once. Floors are listed by level, lowest first."
      />
      <div className="grid items-start gap-6 lg:grid-cols-2">
        <PlaceList kind="categories" title="Categories" label="Category" />
        <PlaceList kind="floors" title="Floors" label="Floor" />
      </div>
      <AmenitiesPanel />
    </div>
  );
}
