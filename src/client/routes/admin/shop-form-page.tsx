import { useQuery } from '@tanstack/react-query';
import { useParams } from 'react-router';
import { useListPath } from '../../components/admin-page';
import { EntityFormPage } from '../../components/entity-form';
import { LastChanged } from '../../features/audit';
import { ShopImagesPanel } from '../../features/images/forms';
import { ManagersPanel } from '../../features/managers';
import { categoriesQuery, floorsQuery } from '../../features/places';
import { shopQuery } from '../../features/shops';
import { ShopForm } from '../../features/shops/forms';

/** /admin/shops/new and /admin/shops/:id. */
export function ShopFormPage() {
  const { id } = useParams();
  const listPath = useListPath('/admin/shops');
  const categories = useQuery(categoriesQuery);
  const floors = useQuery(floorsQuery);
  const shop = useQuery({ ...shopQuery(id ?? ''), enabled: id !== undefined });
  return (
    <EntityFormPage
      id={id}
      aside={id ? <LastChanged entityType="shop" entityId={id} /> : null}
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
            <ManagersPanel shopId={id} shopName={shop.data.name} />
          </div>
        ) : null
      }
      noun="Shop"
      listPath="/admin/shops"
      backText="Back to shops"
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
    </EntityFormPage>
  );
}
