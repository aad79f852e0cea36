import { QueryClientProvider } from '@tanstack/react-query';
import { Outlet } from 'react-router';
import { queryClient } from '../lib/query-client';

/**
 * Provides the query cache to the signed-in areas. A route of its own (loaded lazily) so that
 * react-query stays out of the landing page's and the auth screens' JavaScript; the client is a
 * module singleton, so the cache lives on across both areas.
 */
export function QueryBoundary() {
  return (
    <QueryClientProvider client={queryClient}>
      <Outlet />
    </QueryClientProvider>
  );
}
