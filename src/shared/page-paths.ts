/**
 * Every page path the client's router knows (src/client/router.tsx and routes/*-routes.tsx take their
 * `path` from here), so the server can tell a page from an unknown path and answer the latter with 404
 * (docs/decisions/026) without a second list that could drift. Paths are relative, as the router nests
 * them under pathless layouts; `:name` is a parameter segment. The landing page is the index route ('').
 */
export const PAGE_PATHS = {
  landing: '',
  login: 'login',
  register: 'register',
  managerInvite: 'manage/invite',
  unauthorized: 'unauthorized',
  notFound: '404',
  account: 'account',

  // The public directory (docs/decisions/034): server-rendered for anyone.
  shops: 'shops',
  shop: 'shops/:slug',
  offers: 'offers',
  floors: 'floors',
  search: 'search',
  // What is counted and what is never kept (insights, docs/decisions/035).
  privacy: 'privacy',
  // Events (issue 35): public like the directory.
  events: 'events',
  event: 'events/:id',

  adminDashboard: 'admin/dashboard',
  adminShops: 'admin/shops',
  adminShopNew: 'admin/shops/new',
  adminShop: 'admin/shops/:id',
  adminProducts: 'admin/products',
  adminProductNew: 'admin/products/new',
  adminProduct: 'admin/products/:id',
  adminOffers: 'admin/offers',
  adminOfferNew: 'admin/offers/new',
  adminOffer: 'admin/offers/:id',
  adminCategories: 'admin/categories',
  adminFloorPlan: 'admin/floors/:id/plan',
  adminActivity: 'admin/activity',
  adminImportNew: 'admin/imports/new',
  adminImport: 'admin/imports/:id',
  adminApprovals: 'admin/approvals',
  adminEvents: 'admin/events',
  adminEventNew: 'admin/events/new',
  adminEvent: 'admin/events/:id',
  adminMallHours: 'admin/mall-hours',
  adminMallProfile: 'admin/mall',
  adminSearch: 'admin/search',
  adminInsights: 'admin/insights',
  adminSynonyms: 'admin/synonyms',

  userDashboard: 'user/dashboard',
  userShops: 'user/shops',
  userShop: 'user/shops/:id',
  userFloors: 'user/floors',
  userOffers: 'user/offers',
  userCompare: 'user/compare',
  userSearch: 'user/search',

  manage: 'manage',
  manageShop: 'manage/shops/:id',
  manageShopEdit: 'manage/shops/:id/edit',
  manageProductNew: 'manage/shops/:id/products/new',
  manageProduct: 'manage/shops/:id/products/:productId',
  manageOfferNew: 'manage/shops/:id/offers/new',
  manageOffer: 'manage/shops/:id/offers/:offerId',
  manageEventNew: 'manage/shops/:id/events/new',
  manageEvent: 'manage/shops/:id/events/:eventId',
} as const;

export type PagePath = (typeof PAGE_PATHS)[keyof typeof PAGE_PATHS];

/**
 * A test for "is this pathname one of the client's pages?", matching as the client's router does:
 * case-insensitive, a trailing slash allowed, a parameter any non-empty segment. The 404 page itself
 * is not counted as found (a request for /404 is answered 404 too).
 */
export function pageMatcher(
  paths: readonly string[] = Object.values(PAGE_PATHS),
): (pathname: string) => boolean {
  const canonical = canonicalPage(paths);
  return (pathname) => canonical(pathname) !== null;
}

/**
 * The one address of the page a pathname names, in any spelling the client's router takes (`/Shops/`,
 * `/PRIVACY`): the path's own words as PAGE_PATHS writes them, each parameter as it was asked, no
 * trailing slash. `null` when it names no page. A path with more fixed words wins over one with a
 * parameter in their place (`admin/shops/new` before `admin/shops/:id`), as in the router.
 */
export function canonicalPage(
  paths: readonly string[] = Object.values(PAGE_PATHS),
): (pathname: string) => string | null {
  const patterns = paths
    .filter((path) => path !== PAGE_PATHS.notFound)
    .map((path) => {
      const segments = path.split('/').filter(Boolean);
      const source = segments
        .map((segment) => {
          if (segment.startsWith(':')) return '/([^/]+)';
          if (!/^[a-z0-9-]+$/i.test(segment)) throw new Error(`page path segment not understood: ${segment}`);
          return `/${segment}`;
        })
        .join('');
      const fixed = segments.filter((segment) => !segment.startsWith(':')).length;
      return { segments, fixed, pattern: new RegExp(`^${source}/?$`, 'i') };
    })
    .sort((a, b) => b.fixed - a.fixed);
  return (pathname) => {
    for (const { segments, pattern } of patterns) {
      const match = pattern.exec(pathname);
      if (!match) continue;
      let parameter = 1;
      return `/${segments.map((segment) => (segment.startsWith(':') ? match[parameter++] : segment)).join('/')}`;
    }
    return null;
  };
}
