import type { RouteObject } from 'react-router';
import { lazyRoute } from '../lib/lazy-route';

const shopForm = () => import('./admin/shop-form-page');
const productForm = () => import('./admin/product-form-page');
const offerForm = () => import('./admin/offer-form-page');

/**
 * The admin area's pages, inside the admin layout and the admin guard (see router.tsx). Each screen is
 * its own chunk, loaded when first opened.
 */
export const adminRoutes: RouteObject[] = [
  lazyRoute(() => import('./admin-dashboard-page'), 'AdminDashboardPage', {
    path: 'admin/dashboard',
  }),
  lazyRoute(() => import('./admin/shops-page'), 'ShopsPage', { path: 'admin/shops' }),
  lazyRoute(shopForm, 'ShopFormPage', { path: 'admin/shops/new' }),
  lazyRoute(shopForm, 'ShopFormPage', { path: 'admin/shops/:id' }),
  lazyRoute(() => import('./admin/products-page'), 'ProductsPage', { path: 'admin/products' }),
  lazyRoute(productForm, 'ProductFormPage', { path: 'admin/products/new' }),
  lazyRoute(productForm, 'ProductFormPage', { path: 'admin/products/:id' }),
  lazyRoute(() => import('./admin/offers-page'), 'OffersPage', { path: 'admin/offers' }),
  lazyRoute(offerForm, 'OfferFormPage', { path: 'admin/offers/new' }),
  lazyRoute(offerForm, 'OfferFormPage', { path: 'admin/offers/:id' }),
  lazyRoute(() => import('./admin/categories-page'), 'CategoriesPage', {
    path: 'admin/categories',
  }),
  lazyRoute(() => import('./admin/activity-page'), 'ActivityPage', { path: 'admin/activity' }),
  lazyRoute(() => import('./admin/import-page'), 'ImportPage', { path: 'admin/imports/new' }),
  lazyRoute(() => import('./admin/import-page'), 'ImportPage', { path: 'admin/imports/:id' }),
  lazyRoute(() => import('./admin/approvals-page'), 'ApprovalsPage', { path: 'admin/approvals' }),
  lazyRoute(() => import('./admin/mall-hours-form-page'), 'MallHoursPage', { path: 'admin/mall-hours' }),
  lazyRoute(() => import('./admin/search-page'), 'SearchPage', { path: 'admin/search' }),
];
