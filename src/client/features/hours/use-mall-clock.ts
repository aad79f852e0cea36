import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { queryClient } from '../../lib/query-client';
import { settingsQuery } from '../settings';
import { mallHoursQuery } from './api';

/** How often a shown status is recomputed: "Closes in 20 min" moves on by itself. */
const TICK_MS = 30_000;

const clockQuery = { ...settingsQuery, staleTime: 10 * 60_000 };

/**
 * Starts reading what an open-now status needs (the clock and the mall's hours) with a screen's own
 * reads (its `prefetch`), rather than after the screen has rendered its shops.
 */
export function prefetchMallClock(): void {
  void queryClient.prefetchQuery(clockQuery);
  void queryClient.prefetchQuery(mallHoursQuery);
}

/**
 * The mall's clock in the browser: the server's time (GET /api/settings) kept as an offset from the
 * device's clock, so a wrong device clock does not open or close shops, plus the mall's time zone.
 * Re-renders every 30 s and when the tab comes back into view; null until the settings are known.
 */
export function useMallClock(): { now: number; timeZone: string } | null {
  const settings = useQuery(clockQuery);
  const [tick, setTick] = useState(0);
  useEffect(() => {
    const timer = setInterval(() => setTick((n) => n + 1), TICK_MS);
    const onVisible = () => {
      if (document.visibilityState === 'visible') setTick((n) => n + 1);
    };
    document.addEventListener('visibilitychange', onVisible);
    return () => {
      clearInterval(timer);
      document.removeEventListener('visibilitychange', onVisible);
    };
  }, []);
  if (!settings.data) return null;
  // The answer was made at most a round trip before it arrived; the offset is good to that.
  const offset = Date.parse(settings.data.now) - settings.dataUpdatedAt;
  void tick;
  return { now: Date.now() + (Number.isFinite(offset) ? offset : 0), timeZone: settings.data.timeZone };
}

/** "Now" for the Open-now filter: the mall clock's minute as the API takes it (UTC, YYYY-MM-DDTHH:MMZ). */
export function openAtParam(now: number): string {
  return `${new Date(now).toISOString().slice(0, 16)}Z`;
}
