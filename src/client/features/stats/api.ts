import { queryOptions } from '@tanstack/react-query';
import type { AdminStats } from '../../../shared/auth';
import { api } from '../../lib/api';
import { queryKeys } from '../../lib/query-keys';

export const statsQuery = queryOptions({
  queryKey: queryKeys.stats,
  queryFn: ({ signal }) => api<AdminStats>('/api/stats', { signal }),
});
