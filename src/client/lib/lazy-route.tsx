import type { QueryClient } from '@tanstack/react-query';
import { type ComponentType, lazy } from 'react';
import { matchRoutes, type NonIndexRouteObject, type Params, type RouteObject } from 'react-router';
import type { SessionUser } from '../../shared/auth';

/**
 * A screen's module: the component, and optionally `prefetch`, which starts the screen's reads from its
 * URL's query string and path parameters (react-query's prefetchQuery with the same query options the screen uses)
 * into `client`: the server's render names its own; in the browser, the app's one client.
 */
type ScreenModule<Name extends string> = { [P in Name]: ComponentType } & {
  prefetch?: (search: URLSearchParams, params: Params, client?: QueryClient) => void | Promise<void>;
};

interface LazyRouteHandle {
  preload(): Promise<unknown>;
  prefetch(search: URLSearchParams, params: Params, client?: QueryClient): Promise<void>;
}

/**
 * A guard route's handle: whom the guard lets through. preloadMatches asks it before starting any read
 * of the routes below, so a page's data is never requested for someone the guard will send away.
 */
export interface GuardHandle {
  admits(user: SessionUser | null): boolean;
}

/** Who is signed in, as far as the client knows: `ready` false while the server has not said yet. */
export interface KnownSession {
  ready: boolean;
  user: SessionUser | null;
}

interface ScreenSource {
  /** The screen, once its module has arrived. */
  loaded(): ComponentType | undefined;
  /** The screen through React.lazy, while its module is on its way. */
  Pending: ComponentType;
}

/**
 * A module already here renders at once: React.lazy would suspend once even then, showing the spinner,
 * and React reveals a suspended screen no sooner than 300 ms after its spinner appeared.
 */
function LazyScreen({ source }: { source: ScreenSource }) {
  const Loaded = source.loaded();
  return Loaded ? <Loaded /> : <source.Pending />;
}

/**
 * A route whose screen is its own chunk, loaded when first shown: `name` is the component's export in
 * the module that `load` imports. See preloadMatches for when the download and the reads start.
 */
export function lazyRoute<Name extends string>(
  load: () => Promise<ScreenModule<Name>>,
  name: Name,
  route: Pick<NonIndexRouteObject, 'path' | 'children'> = {},
): NonIndexRouteObject {
  let loading: Promise<ScreenModule<Name>> | undefined;
  let loaded: ScreenModule<Name> | undefined;
  const preload = () => {
    loading ??= load().then((module) => {
      loaded = module;
      return module;
    });
    return loading;
  };
  const source: ScreenSource = {
    loaded: () => loaded?.[name],
    Pending: lazy<ComponentType>(async () => ({ default: (await preload())[name] })),
  };
  const handle: LazyRouteHandle = {
    preload,
    prefetch: async (search, params, client) => (await preload()).prefetch?.(search, params, client),
  };
  return { ...route, element: <LazyScreen source={source} />, handle };
}

// react-router ranks the whole route tree on each match (a phone spends some 20 ms on it): the start,
// the session and each render of the screens ask for the same path, so the last answer is kept.
let lastMatch: { routes: RouteObject[]; pathname: string; matches: ReturnType<typeof matchRoutes> } | null =
  null;
function matchedRoutes(routes: RouteObject[], pathname: string) {
  if (lastMatch?.routes !== routes || lastMatch.pathname !== pathname) {
    lastMatch = { routes, pathname, matches: matchRoutes(routes, pathname) };
  }
  return lastMatch.matches ?? [];
}

/**
 * Starts loading the chunks of every route that `location` matches at once (guard, layout and page),
 * instead of one after another as each lazy parent renders and reveals the next, and the page's reads
 * as soon as its module has arrived, instead of after it has rendered.
 *
 * Guards decide first (docs/decisions/024): below a guard that refuses the session nothing loads, and
 * below a guard that cannot decide yet (the session is not known) chunks load but no data is read —
 * a shopper opening /admin/dashboard never asks for the admin's statistics.
 */
export function preloadMatches(
  routes: RouteObject[],
  location: { pathname: string; search: string },
  session: KnownSession = { ready: false, user: null },
  options: {
    /** Receives each read started (the server's render waits for them all: docs/decisions/034). */
    reads?: Promise<unknown>[];
    /** Chunks only: a server-rendered page hydrates from the reads it arrived with. */
    chunksOnly?: boolean;
    /** Where the reads go: the server's render passes its own client (the browser has one). */
    client?: QueryClient;
  } = {},
): Promise<void> {
  const loads: Promise<unknown>[] = [];
  const { reads, chunksOnly = false, client } = options;
  let mayRead = !chunksOnly;
  for (const match of matchedRoutes(routes, location.pathname)) {
    const handle = match.route.handle as Partial<LazyRouteHandle & GuardHandle> | undefined;
    if (handle?.admits) {
      if (!session.ready) mayRead = false;
      else if (!handle.admits(session.user)) break;
    }
    if (handle?.preload) loads.push(handle.preload());
    if (mayRead && handle?.prefetch) {
      const read = handle
        .prefetch(new URLSearchParams(location.search), match.params, client)
        .catch(() => undefined);
      reads?.push(read);
    }
  }
  // a chunk that fails to load fails again when rendered, and the error screen shows then.
  return Promise.all(loads).then(
    () => undefined,
    () => undefined,
  );
}
