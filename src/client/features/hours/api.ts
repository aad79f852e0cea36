// The mall's own opening hours: read by everyone (the landing page too), set by admins.
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type { MallHours, MallHoursInput } from '../../../shared/hours';
import { api } from '../../lib/api';
import { queryKeys } from '../../lib/query-keys';

export const mallHoursQuery = queryOptions({
  queryKey: queryKeys.mallHours,
  queryFn: ({ signal }) => api<MallHours>('/api/mall-hours', { signal }),
  // The hours, not a verdict: the verdict is recomputed on a timer from them (use-mall-clock.ts).
  staleTime: 5 * 60_000,
});

export function useSetMallHours() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: MallHoursInput) => api<MallHours>('/api/mall-hours', { method: 'PUT', body: input }),
    onSuccess: (saved) => {
      client.setQueryData(queryKeys.mallHours, saved);
      // Which shops are open depends on the mall's hours.
      void client.invalidateQueries({ queryKey: queryKeys.shops });
      void client.invalidateQueries({ queryKey: queryKeys.audit });
    },
  });
}
