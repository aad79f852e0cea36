// The shops' products: reads for both areas, writes for admins.
import type { Product, ProductInput } from '../../../shared/product';
import { pageQuery, recordQuery } from '../../lib/list-query';
import { queryKeys } from '../../lib/query-keys';
import { recordWrites } from '../../lib/record-writes';

export interface ProductFilters {
  q?: string;
  shopId?: string;
  category?: string;
  onOffer?: boolean;
  page?: number;
  pageSize?: number;
}

export const productsQuery = pageQuery<Product, ProductFilters>(queryKeys.products, '/api/products');
export const productQuery = recordQuery<Product>(queryKeys.products, '/api/products');

const { shops, products, stats, managedShops } = queryKeys;
const writes = recordWrites<Product, ProductInput>({
  path: '/api/products',
  root: products,
  refresh: {
    // A shop's detail counts its products.
    create: [products, shops, stats, managedShops],
    update: [products, shops, managedShops],
    delete: [products, shops, stats, managedShops],
  },
});
export const useCreateProduct = writes.useCreate;
export const useUpdateProduct = writes.useUpdate;
export const useDeleteProduct = writes.useDelete;
