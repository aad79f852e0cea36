import type { RouteObject } from 'react-router';
import { admitsManager, RequireManager } from '../components/require-role';
import { lazyRoute } from '../lib/lazy-route';

const productForm = () => import('./manage/product-form-page');
const offerForm = () => import('./manage/offer-form-page');

/**
 * A shop manager's area (docs/decisions/015), inside the user layout and guard (a manager keeps the
 * whole /user area) and its own guard: a user with a shop to manage.
 */
export const manageRoutes: RouteObject[] = [
  {
    element: <RequireManager />,
    handle: admitsManager,
    children: [
      lazyRoute(() => import('./manage/my-shops-page'), 'MyShopsPage', { path: 'manage' }),
      lazyRoute(() => import('./manage/shop-page'), 'ManagedShopPage', { path: 'manage/shops/:id' }),
      lazyRoute(() => import('./manage/shop-edit-page'), 'ManagedShopEditPage', {
        path: 'manage/shops/:id/edit',
      }),
      lazyRoute(productForm, 'ManagedProductFormPage', { path: 'manage/shops/:id/products/new' }),
      lazyRoute(productForm, 'ManagedProductFormPage', { path: 'manage/shops/:id/products/:productId' }),
      lazyRoute(offerForm, 'ManagedOfferFormPage', { path: 'manage/shops/:id/offers/new' }),
      lazyRoute(offerForm, 'ManagedOfferFormPage', { path: 'manage/shops/:id/offers/:offerId' }),
    ],
  },
];
