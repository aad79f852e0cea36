// Where the directory's links lead: the public pages (/shops, docs/decisions/034) or the signed-in
// shopper's area (/user/shops). One set of screens serves both; only their links and the shopper's own
// tools (Compare) differ.
import { createContext, useContext } from 'react';

export interface DirectoryArea {
  name: 'public' | 'user';
  shops: string;
  /** A shop's page: by slug in public (readable, indexable), by id in the shopper's area. */
  shop(shop: { id: string; slug: string }): string;
  /** A shop's page when only its id is known (a search result's product): public answers it with a redirect. */
  shopById(id: string): string;
  offers: string;
  floors: string;
  search: string;
  /** The shopper's comparison list (signed-in only: the spec's Compare stays behind sign-in). */
  compare: boolean;
}

export const PUBLIC_AREA: DirectoryArea = {
  name: 'public',
  shops: '/shops',
  shop: ({ slug }) => `/shops/${encodeURIComponent(slug)}`,
  shopById: (id) => `/shops/${encodeURIComponent(id)}`,
  offers: '/offers',
  floors: '/floors',
  search: '/search',
  compare: false,
};

export const USER_AREA: DirectoryArea = {
  name: 'user',
  shops: '/user/shops',
  shop: ({ id }) => `/user/shops/${encodeURIComponent(id)}`,
  shopById: (id) => `/user/shops/${encodeURIComponent(id)}`,
  offers: '/user/offers',
  floors: '/user/floors',
  search: '/user/search',
  compare: true,
};

const AreaContext = createContext<DirectoryArea>(USER_AREA);
export const DirectoryAreaProvider = AreaContext.Provider;

export function useDirectoryArea(): DirectoryArea {
  return useContext(AreaContext);
}
