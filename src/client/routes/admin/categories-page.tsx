import { AdminPageHeader } from '../../components/admin-page';
import { PlaceList } from '../../features/places/forms';

export function CategoriesPage() {
  return (
    <div className="space-y-6">
      <AdminPageHeader
        title="Categories & Floors"
        description="Shops choose their category and floor from these lists. A rename shows on every shop at once."
      />
      <div className="grid items-start gap-6 lg:grid-cols-2">
        <PlaceList kind="categories" title="Categories" label="Category" />
        <PlaceList kind="floors" title="Floors" label="Floor" />
      </div>
    </div>
  );
}
