import { Clock } from 'lucide-react';
import { useEffect, useState } from 'react';
import type { MallHours } from '../../../shared/hours';
import { formatIntervals } from '../../../shared/hours-core';
import {
  adoptZoneOffsets,
  hoursStatus,
  intervalsOn,
  specialDayOn,
  wallClock,
} from '../../../shared/hours-status';
import type { PublicSettings } from '../../../shared/settings';
import { api } from '../../lib/api';
import { StatusAfterHours } from './status-after-hours';

/**
 * The mall's hours today for visitors on the landing page, which has no query client (decision 007):
 * two small reads, the verdict recomputed every 30 s from them and the server's clock offset.
 */
export function LandingMallHours() {
  const [data, setData] = useState<{ hours: MallHours; settings: PublicSettings; offset: number } | null>(
    null,
  );
  const [, setTick] = useState(0);
  useEffect(() => {
    const controller = new AbortController();
    Promise.all([
      api<MallHours>('/api/mall-hours', { signal: controller.signal }),
      api<PublicSettings>('/api/settings', { signal: controller.signal }),
    ])
      .then(([hours, settings]) => {
        adoptZoneOffsets(settings.timeZone, settings.offsets);
        setData({ hours, settings, offset: Date.parse(settings.now) - Date.now() });
      })
      .catch(() => {});
    const timer = setInterval(() => setTick((n) => n + 1), 30_000);
    return () => {
      controller.abort();
      clearInterval(timer);
    };
  }, []);
  const hours = data?.hours.hours;
  if (!data || !hours) return <p className="h-6" aria-hidden="true" />;
  const now = Date.now() + data.offset;
  const { timeZone } = data.settings;
  const today = wallClock(now, timeZone).date;
  const note = specialDayOn(hours, today)?.note;
  const status = hoursStatus(hours, now, { timeZone });
  return (
    <p className="inline-flex flex-wrap items-center justify-center gap-x-2 text-sm text-slate-700">
      <Clock aria-hidden="true" className="size-4 text-indigo-600" />
      <span>
        <span className="font-medium">Mall hours today:</span> {formatIntervals(intervalsOn(hours, today))}
        {note ? ` (${note})` : ''}
      </span>
      <StatusAfterHours status={status} />
    </p>
  );
}
