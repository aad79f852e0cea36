import { queryOptions } from '@tanstack/react-query';
import type { PublicSettings } from '../../../shared/settings';
import { api } from '../../lib/api';
import { queryKeys } from '../../lib/query-keys';

/**
 * The mall's time zone and today's date there (GET /api/settings, never cached by the server). Read when
 * needed, never kept long: `today` changes at the mall's midnight, not the browser's.
 */
export const settingsQuery = queryOptions({
  queryKey: queryKeys.settings,
  queryFn: ({ signal }) => api<PublicSettings>('/api/settings', { signal }),
  staleTime: 0,
});
