import type { RouteObject } from 'react-router';
import { PAGE_PATHS } from '../../shared/page-paths';
import { lazyRoute } from '../lib/lazy-route';

const shopForm = () => import('./admin/shop-form-page');
const productForm = () => import('./admin/product-form-page');
const offerForm = () => import('./admin/offer-form-page');
const eventForm = () => import('./admin/event-form-page');

/**
 * The admin area's pages, inside the admin layout and the admin guard (see router.tsx). Each screen is
 * its own chunk, loaded when first opened.
 */
export const adminRoutes: RouteObject[] = [
  lazyRoute(() => import('./admin-dashboard-page'), 'AdminDashboardPage', {
    path: PAGE_PATHS.adminDashboard,
  }),
  lazyRoute(() => import('./admin/shops-page'), 'ShopsPage', { path: PAGE_PATHS.adminShops }),
  lazyRoute(shopForm, 'ShopFormPage', { path: PAGE_PATHS.adminShopNew }),
  lazyRoute(shopForm, 'ShopFormPage', { path: PAGE_PATHS.adminShop }),
  lazyRoute(() => import('./admin/products-page'), 'ProductsPage', { path: PAGE_PATHS.adminProducts }),
  lazyRoute(productForm, 'ProductFormPage', { path: PAGE_PATHS.adminProductNew }),
  lazyRoute(productForm, 'ProductFormPage', { path: PAGE_PATHS.adminProduct }),
  lazyRoute(() => import('./admin/offers-page'), 'OffersPage', { path: PAGE_PATHS.adminOffers }),
  lazyRoute(offerForm, 'OfferFormPage', { path: PAGE_PATHS.adminOfferNew }),
  lazyRoute(offerForm, 'OfferFormPage', { path: PAGE_PATHS.adminOffer }),
  lazyRoute(() => import('./admin/events-page'), 'EventsPage', { path: PAGE_PATHS.adminEvents }),
  lazyRoute(eventForm, 'EventFormPage', { path: PAGE_PATHS.adminEventNew }),
  lazyRoute(eventForm, 'EventFormPage', { path: PAGE_PATHS.adminEvent }),
  lazyRoute(() => import('./admin/categories-page'), 'CategoriesPage', {
    path: PAGE_PATHS.adminCategories,
  }),
  lazyRoute(() => import('./admin/floor-plan-page'), 'FloorPlanPage', { path: PAGE_PATHS.adminFloorPlan }),
  lazyRoute(() => import('./admin/activity-page'), 'ActivityPage', { path: PAGE_PATHS.adminActivity }),
  lazyRoute(() => import('./admin/import-page'), 'ImportPage', { path: PAGE_PATHS.adminImportNew }),
  lazyRoute(() => import('./admin/import-page'), 'ImportPage', { path: PAGE_PATHS.adminImport }),
  lazyRoute(() => import('./admin/approvals-page'), 'ApprovalsPage', { path: PAGE_PATHS.adminApprovals }),
  lazyRoute(() => import('./admin/mall-hours-form-page'), 'MallHoursPage', {
    path: PAGE_PATHS.adminMallHours,
  }),
  lazyRoute(() => import('./admin/mall-profile-page'), 'MallProfilePage', {
    path: PAGE_PATHS.adminMallProfile,
  }),
  lazyRoute(() => import('./admin/search-page'), 'SearchPage', { path: PAGE_PATHS.adminSearch }),
  lazyRoute(() => import('./admin/insights-page'), 'InsightsPage', { path: PAGE_PATHS.adminInsights }),
  lazyRoute(() => import('./admin/synonyms-page'), 'SynonymsPage', { path: PAGE_PATHS.adminSynonyms }),
];
