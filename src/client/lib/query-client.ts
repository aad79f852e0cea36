import { QueryClient } from '@tanstack/react-query';
import { ApiError } from './api';

export const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      staleTime: 30_000,
      // a 4xx answer will not change by asking again; network and 5xx failures may.
      retry: (failureCount, error) =>
        failureCount < 2 && !(error instanceof ApiError && error.status >= 400 && error.status < 500),
    },
  },
});

/** Only the server's renderer uses it (query-client.server.ts); in the browser there is one client. */
export function renderingWith<T>(_client: QueryClient, _render: () => T): T {
  throw new Error('renderingWith is for the server renderer (lib/query-client.server.ts)');
}
