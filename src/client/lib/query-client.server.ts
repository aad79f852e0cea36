// The query client as the server's renderer sees it (docs/decisions/034, 044): the build of the renderer
// (scripts/build-server.mjs) and the API tests (vitest.config.ts) put this module in the place of
// ./query-client.ts. Every render has its own client (no page may show another's reads). A render's
// reads are started with its client named (the screens' `prefetch`, lib/lazy-route.tsx); the modules
// that import `queryClient` while React draws the page reach the client of the render under way, which
// `renderingWith` names for exactly that synchronous call: no other render can run inside it.
import type { QueryClient } from '@tanstack/react-query';

let current: QueryClient | undefined;

/** Runs `render` (synchronous: React's renderToString) with `client` as the `queryClient` it reaches. */
export function renderingWith<T>(client: QueryClient, render: () => T): T {
  const before = current;
  current = client;
  try {
    return render();
  } finally {
    current = before;
  }
}

function active(): QueryClient {
  if (!current) throw new Error('queryClient used outside a server render');
  return current;
}

export const queryClient: QueryClient = new Proxy({} as QueryClient, {
  get(_target, property) {
    const client = active();
    const value = Reflect.get(client, property, client);
    return typeof value === 'function' ? value.bind(client) : value;
  },
});
