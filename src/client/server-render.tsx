// The public directory's pages rendered on the server (docs/decisions/034): the same route tree, screens
// and queries as the browser's, their reads answered by the app in-process and waited for, then HTML
// and the query cache the browser hydrates from. Built into dist/server/render.js
// (scripts/build-server.mjs), with lib/query-client.server.ts for lib/query-client.ts; never shipped to
// browsers.
import { type DehydratedState, dehydrate, QueryClient, type QueryKey } from '@tanstack/react-query';
import { createContext, type ReactNode, useContext } from 'react';
// biome-ignore lint/style/noRestrictedImports: React's HTML renderer, not our src/server; server-only
import { renderToString } from 'react-dom/server';
import { StaticRouter } from 'react-router';
import { AppRoot } from './app-root';
import { preloadFloorPlan } from './features/floor-plans';
import { setApiTransport } from './lib/api';
import { preloadMatches } from './lib/lazy-route';
import { PageValidityProvider } from './lib/page-validity';
import { renderingWith } from './lib/query-client';
import { routes } from './router';

export interface RenderIo {
  /** The API, in-process (the server's app.inject), as a visitor with no session reads it. */
  fetch: typeof fetch;
}

export interface RenderedPage {
  /** What goes inside #root. */
  html: string;
  /** Resource hints React found (a preloaded picture): they belong in <head>. */
  hints: string;
  /** The reads the page was drawn from, for the browser to hydrate with. */
  state: DehydratedState;
  /** The page holds until this instant (epoch ms; Infinity: until the directory changes). */
  validUntil: number;
  /** A read failed: the page shows its error state and must not be kept. */
  failed: boolean;
  /** A read the page made, by its query key (the server builds the page's title and data from them). */
  data(key: QueryKey): unknown;
}

let io: RenderIo | null = null;

/** The address being rendered, for the router below (AppRoot takes a router component, not a location). */
const RenderUrl = createContext('/');
function PageRouter({ children }: { children: ReactNode }) {
  return <StaticRouter location={useContext(RenderUrl)}>{children}</StaticRouter>;
}

/** Once, before any render: how this renderer reaches the API and its clients. */
export function installRenderer(next: RenderIo): void {
  io = next;
  setApiTransport(next.fetch);
}

/** Renders the page at `url` (path and query) as its first visit draws it, every read done. */
export async function renderPage(url: string): Promise<RenderedPage> {
  if (!io) throw new Error('renderPage before installRenderer');
  // Never retried here: a failed read shows its error state (a shop not found says so, not "Loading": a
  // query in error would otherwise render as refetching on mount), and the page is not kept.
  const client = new QueryClient({
    defaultOptions: { queries: { retry: false, retryOnMount: false, staleTime: 30_000 } },
  });
  const location = new URL(url, 'http://render.invalid');
  const reads: Promise<unknown>[] = [];
  await preloadMatches(
    routes,
    { pathname: location.pathname, search: location.search },
    { ready: true, user: null },
    { reads, client },
  );
  // the lazily loaded parts of a screen too: a render draws them rather than their placeholders
  await Promise.all([...reads, preloadFloorPlan()]);
  let validUntil = Number.POSITIVE_INFINITY;
  const validity = {
    until(instant: number) {
      validUntil = Math.min(validUntil, instant);
    },
  };
  // Synchronous: the `queryClient` the screens import is this render's for exactly this call.
  const rendered = renderingWith(client, () =>
    renderToString(
      <RenderUrl.Provider value={`${location.pathname}${location.search}`}>
        <PageValidityProvider value={validity}>
          <AppRoot router={PageRouter} />
        </PageValidityProvider>
      </RenderUrl.Provider>,
    ),
  );
  // React puts the resource hints it finds first in its output; #root must hold exactly what the
  // browser's first render makes, or hydration fails (as scripts/prerender.mjs does for the landing).
  const hints = /^(?:<link [^>]*\/>)*/.exec(rendered)?.[0] ?? '';
  const failed = client
    .getQueryCache()
    .getAll()
    .some((query) => query.state.status === 'error');
  return {
    html: rendered.slice(hints.length),
    hints,
    state: dehydrate(client),
    validUntil,
    failed,
    data: (key) => client.getQueryData(key),
  };
}
