import { queryOptions } from '@tanstack/react-query';
import { adoptZoneOffsets } from '../../../shared/hours-status';
import type { PublicSettings } from '../../../shared/settings';
import { api } from '../../lib/api';
import { queryKeys } from '../../lib/query-keys';

/**
 * The mall's time zone and today's date there (GET /api/settings, never cached by the server). Read when
 * needed, never kept long: `today` changes at the mall's midnight, not the browser's.
 */
export const settingsQuery = queryOptions({
  queryKey: queryKeys.settings,
  queryFn: async ({ signal }) => {
    const settings = await api<PublicSettings>('/api/settings', { signal });
    // the mall's clock is read from these offsets from now on, not with Intl (shared/hours-status.ts).
    adoptZoneOffsets(settings.timeZone, settings.offsets);
    return settings;
  },
  staleTime: 0,
});
