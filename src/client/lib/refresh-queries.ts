import type { QueryClient, QueryKey } from '@tanstack/react-query';

/**
 * After a write: marks the cached reads stale and refetches the ones on screen. A fetch already under way
 * is cancelled first: it may have read the database before the write, and a first load (no data yet)
 * would otherwise be reused by the refetch instead of being replaced.
 */
export function refreshQueries(queryClient: QueryClient, keys: readonly QueryKey[]): void {
  for (const queryKey of keys) {
    void queryClient.cancelQueries({ queryKey }).then(() => queryClient.invalidateQueries({ queryKey }));
  }
}
