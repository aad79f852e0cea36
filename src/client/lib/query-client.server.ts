// The query client as the server's renderer sees it (docs/decisions/034): the build of the renderer
// (scripts/build-server.mjs) and the API tests (vitest.config.ts) put this module in the place of
// ./query-client.ts. Every render has its own client (no page may show another's reads); the modules
// that import `queryClient` reach the one of the render they run in, which the server keeps in an
// AsyncLocalStorage and names here.
import type { QueryClient } from '@tanstack/react-query';

let current: () => QueryClient | undefined = () => undefined;

/** Called once by the renderer: where the render in progress keeps its client. */
export function setQueryClientSource(source: () => QueryClient | undefined): void {
  current = source;
}

function active(): QueryClient {
  const client = current();
  if (!client) throw new Error('queryClient used outside a server render');
  return client;
}

export const queryClient: QueryClient = new Proxy({} as QueryClient, {
  get(_target, property) {
    const client = active();
    const value = Reflect.get(client, property, client);
    return typeof value === 'function' ? value.bind(client) : value;
  },
});
