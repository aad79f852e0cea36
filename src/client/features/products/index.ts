export {
  type ProductFilters,
  productQuery,
  productsQuery,
  useCreateProduct,
  useDeleteProduct,
  useUpdateProduct,
} from './api';
export { ProductCard, ProductCardSkeleton } from './product-card';
export { ProductName, productPriceColumn } from './product-columns';
