import { useQuery } from '@tanstack/react-query';
import { useParams } from 'react-router';
import { EntityFormPage } from '../../components/entity-form';
import { ShopImagesPanel } from '../../features/images/forms';
import { shopQuery } from '../../features/shops';
import { ShopListingForm } from '../../features/shops/forms';

/** /manage/shops/:id/edit: the shop's description, location, contact and opening hours. */
export function ManagedShopEditPage() {
  const { id = '' } = useParams();
  const shop = useQuery(shopQuery(id));
  const back = `/manage/shops/${id}`;
  return (
    <EntityFormPage
      id={id}
      below={
        shop.data ? (
          <ShopImagesPanel shopId={id} name={shop.data.name} logo={shop.data.logo} cover={shop.data.cover} />
        ) : null
      }
      noun="Shop"
      listPath="/manage"
      backText="Back to my shops"
      record={shop}
      needs={[]}
      fields={5}
    >
      {(record) => (record ? <ShopListingForm shop={record} listPath={back} /> : null)}
    </EntityFormPage>
  );
}
