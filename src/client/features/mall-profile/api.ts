// The mall's profile (docs/decisions/034): read by anyone, set by admins on the Mall profile screen.
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type { MallProfile, MallProfileInput } from '../../../shared/mall-profile';
import { api } from '../../lib/api';
import { queryKeys } from '../../lib/query-keys';

/** Its own key: nothing else's write changes it (its logo's upload is on its own screen). */
const MALL_PROFILE_KEY = ['mall-profile'] as const;

export const mallProfileQuery = queryOptions({
  queryKey: MALL_PROFILE_KEY,
  queryFn: ({ signal }) => api<MallProfile>('/api/mall/profile', { signal }),
  // Read again on every visit: the logo's upload, saved at once, does not pass through this cache.
  staleTime: 0,
});

export function useSaveMallProfile() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: MallProfileInput) =>
      api<MallProfile>('/api/mall/profile', { method: 'PUT', body: input }),
    onSuccess: (saved) => {
      client.setQueryData(MALL_PROFILE_KEY, saved);
      void client.invalidateQueries({ queryKey: queryKeys.audit });
    },
  });
}
