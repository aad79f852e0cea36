import { queryOptions } from '@tanstack/react-query';
import type { AdminStats } from '../../../shared/auth';
import { api } from '../../lib/api';

export const statsQuery = queryOptions({
  queryKey: ['stats'],
  queryFn: ({ signal }) => api<AdminStats>('/api/stats', { signal }),
});
