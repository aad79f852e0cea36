import type { RouteObject } from 'react-router';
import { PAGE_PATHS } from '../../shared/page-paths';
import { admitsManager, RequireManager } from '../components/require-role';
import { lazyRoute } from '../lib/lazy-route';

const productForm = () => import('./manage/product-form-page');
const offerForm = () => import('./manage/offer-form-page');
const eventForm = () => import('./manage/event-form-page');

/**
 * A shop manager's area (docs/decisions/015), inside the user layout and guard (a manager keeps the
 * whole /user area) and its own guard: a user with a shop to manage.
 */
export const manageRoutes: RouteObject[] = [
  {
    element: <RequireManager />,
    handle: admitsManager,
    children: [
      lazyRoute(() => import('./manage/my-shops-page'), 'MyShopsPage', { path: PAGE_PATHS.manage }),
      lazyRoute(() => import('./manage/shop-page'), 'ManagedShopPage', { path: PAGE_PATHS.manageShop }),
      lazyRoute(() => import('./manage/shop-edit-page'), 'ManagedShopEditPage', {
        path: PAGE_PATHS.manageShopEdit,
      }),
      lazyRoute(productForm, 'ManagedProductFormPage', { path: PAGE_PATHS.manageProductNew }),
      lazyRoute(productForm, 'ManagedProductFormPage', { path: PAGE_PATHS.manageProduct }),
      lazyRoute(offerForm, 'ManagedOfferFormPage', { path: PAGE_PATHS.manageOfferNew }),
      lazyRoute(offerForm, 'ManagedOfferFormPage', { path: PAGE_PATHS.manageOffer }),
      lazyRoute(eventForm, 'ManagedEventFormPage', { path: PAGE_PATHS.manageEventNew }),
      lazyRoute(eventForm, 'ManagedEventFormPage', { path: PAGE_PATHS.manageEvent }),
    ],
  },
];
