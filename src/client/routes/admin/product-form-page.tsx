import { useQuery } from '@tanstack/react-query';
import { useParams } from 'react-router';
import { useListPath } from '../../components/admin-page';
import { ProductPhotoPanel } from '../../features/images/forms';
import { shopOffersQuery } from '../../features/offers';
import { productQuery } from '../../features/products';
import { ProductForm } from '../../features/products/forms';
import { allShopsQuery } from '../../features/shops';
import { AdminFormPage } from './admin-form-page';

/** /admin/products/new and /admin/products/:id. */
export function ProductFormPage() {
  const { id } = useParams();
  const listPath = useListPath('/admin/products');
  const shops = useQuery(allShopsQuery);
  const product = useQuery({ ...productQuery(id ?? ''), enabled: id !== undefined });
  const productShopId = product.data?.shopId ?? '';
  // the form shows the shop's offers as a field of its own; loading them with the product keeps
  // that field from appearing under the form, pushing the buttons down, after the form has shown.
  const shopOffers = useQuery({ ...shopOffersQuery(productShopId), enabled: Boolean(productShopId) });
  return (
    <AdminFormPage
      kind="product"
      id={id}
      below={
        id && product.data ? (
          <ProductPhotoPanel productId={id} name={product.data.name} image={product.data.image} />
        ) : null
      }
      record={product}
      needs={[shops]}
      waiting={Boolean(productShopId) && shopOffers.isPending}
      fields={6}
    >
      {(record) => <ProductForm product={record} shops={shops.data ?? []} listPath={listPath} />}
    </AdminFormPage>
  );
}
