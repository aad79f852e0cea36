import type { RouteObject } from 'react-router';
import { PAGE_PATHS } from '../../shared/page-paths';
import { lazyRoute } from '../lib/lazy-route';

/**
 * The public directory's pages, inside the public layout (see router.tsx): the shopper area's screens
 * themselves, whose links the layout points at the public addresses (lib/directory-area.tsx).
 */
export const publicRoutes: RouteObject[] = [
  lazyRoute(() => import('./user/shops-page'), 'ShopsPage', { path: PAGE_PATHS.shops }),
  lazyRoute(() => import('./user/shop-detail-page'), 'ShopDetailPage', { path: PAGE_PATHS.shop }),
  lazyRoute(() => import('./user/offers-page'), 'OffersPage', { path: PAGE_PATHS.offers }),
  lazyRoute(() => import('./user/floors-page'), 'FloorsPage', { path: PAGE_PATHS.floors }),
  lazyRoute(() => import('./user/search-page'), 'SearchPage', { path: PAGE_PATHS.search }),
  lazyRoute(() => import('./user/events-page'), 'EventsPage', { path: PAGE_PATHS.events }),
  lazyRoute(() => import('./user/event-detail-page'), 'EventDetailPage', { path: PAGE_PATHS.event }),
];
