import type { RouteObject } from 'react-router';

/**
 * The admin area's pages, inside the admin layout and the admin guard (see router.tsx). Each screen is
 * its own chunk, loaded when first opened.
 */
export const adminRoutes: RouteObject[] = [
  {
    path: 'admin/dashboard',
    lazy: async () => ({ Component: (await import('./admin-dashboard-page')).AdminDashboardPage }),
  },
  {
    path: 'admin/shops',
    lazy: async () => ({ Component: (await import('./admin/shops-page')).ShopsPage }),
  },
  {
    path: 'admin/shops/new',
    lazy: async () => ({ Component: (await import('./admin/shop-form-page')).ShopFormPage }),
  },
  {
    path: 'admin/shops/:id',
    lazy: async () => ({ Component: (await import('./admin/shop-form-page')).ShopFormPage }),
  },
  {
    path: 'admin/products',
    lazy: async () => ({ Component: (await import('./admin/products-page')).ProductsPage }),
  },
  {
    path: 'admin/products/new',
    lazy: async () => ({ Component: (await import('./admin/product-form-page')).ProductFormPage }),
  },
  {
    path: 'admin/products/:id',
    lazy: async () => ({ Component: (await import('./admin/product-form-page')).ProductFormPage }),
  },
  {
    path: 'admin/offers',
    lazy: async () => ({ Component: (await import('./admin/offers-page')).OffersPage }),
  },
  {
    path: 'admin/offers/new',
    lazy: async () => ({ Component: (await import('./admin/offer-form-page')).OfferFormPage }),
  },
  {
    path: 'admin/offers/:id',
    lazy: async () => ({ Component: (await import('./admin/offer-form-page')).OfferFormPage }),
  },
  {
    path: 'admin/categories',
    lazy: async () => ({ Component: (await import('./admin/categories-page')).CategoriesPage }),
  },
];
