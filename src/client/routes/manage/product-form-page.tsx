import { useQuery } from '@tanstack/react-query';
import { useParams } from 'react-router';
import { EntityFormPage } from '../../components/entity-form';
import { ProductPhotoPanel } from '../../features/images/forms';
import { shopOffersQuery } from '../../features/offers';
import { productQuery } from '../../features/products';
import { ProductForm } from '../../features/products/forms';
import { shopQuery } from '../../features/shops';

/** /manage/shops/:id/products/new and /manage/shops/:id/products/:productId: the admin's form, shop fixed. */
export function ManagedProductFormPage() {
  const { id: shopId = '', productId } = useParams();
  const shop = useQuery(shopQuery(shopId));
  const product = useQuery({ ...productQuery(productId ?? ''), enabled: productId !== undefined });
  // the form shows the shop's live offers as a field: loaded with the form, so it does not jump.
  const offers = useQuery(shopOffersQuery(shopId));
  const back = `/manage/shops/${shopId}`;
  return (
    <EntityFormPage
      id={productId}
      below={
        productId && product.data ? (
          <ProductPhotoPanel productId={productId} name={product.data.name} image={product.data.image} />
        ) : null
      }
      noun="Product"
      listPath={back}
      backText="Back to the shop"
      record={product}
      needs={[shop]}
      waiting={offers.isPending}
      fields={5}
    >
      {(record) => (
        <ProductForm
          product={record}
          shops={[]}
          listPath={back}
          fixedShop={{ id: shopId, name: shop.data?.name ?? '' }}
        />
      )}
    </EntityFormPage>
  );
}
