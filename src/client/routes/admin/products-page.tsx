import type { Product } from '../../../shared/product';
import {
  type AdminListConfig,
  AdminListPage,
  adminPage,
  prefetchAdminList,
} from '../../components/admin-list-page';
import { TransferActions } from '../../features/imports';
import { ProductName, productPriceColumn, productsQuery, useDeleteProduct } from '../../features/products';
import { shopFilter } from '../../features/shops';

const products: AdminListConfig<Product> = {
  title: 'Manage Products',
  description: "Every shop's products, by name.",
  resource: 'product',
  path: '/admin/products',
  addLabel: 'Add New Product',
  search: { label: 'Search products', placeholder: 'Search by product name' },
  singular: 'product',
  plural: 'products',
  query: (request) => productsQuery({ ...adminPage(request), shopId: shopFilter.shopId(request) }),
  filters: shopFilter.render,
  columns: [
    {
      header: 'Name',
      cell: (product) => (
        <div className="min-w-0">
          <ProductName product={product} />
          <p className="text-xs text-slate-500 lg:hidden">{product.shopName || 'Unknown'}</p>
        </div>
      ),
    },
    { header: 'Shop', className: 'hidden lg:table-cell', cell: (product) => product.shopName || 'Unknown' },
    productPriceColumn,
    {
      header: 'Category',
      className: 'hidden lg:table-cell',
      cell: (product) => product.category || <span className="text-slate-400">—</span>,
    },
  ],
  name: (product) => product.name,
  owner: (product) => ({ shopId: product.shopId }),
  useDelete: useDeleteProduct,
  deleted: 'Product deleted',
  transfer: {
    filters: (request) => ({ q: request.q || undefined, shopId: shopFilter.shopId(request) }),
    render: (filters) => <TransferActions kind="products" noun="products" filters={filters} />,
  },
  useConfirmation: (target) => ({
    title: target ? `Delete ${target.name}?` : '',
    description: <p>This cannot be undone.</p>,
  }),
};

export const prefetch = (search: URLSearchParams) => prefetchAdminList(products, search);

export function ProductsPage() {
  return <AdminListPage config={products} />;
}
