import { useQuery } from '@tanstack/react-query';
import { startTransition, useEffect, useState } from 'react';
import { isHydrating } from '../../lib/hydration';
import { queryClient } from '../../lib/query-client';
import { settingsQuery } from '../settings';
import { mallHoursQuery } from './api';

/** How often a shown status is recomputed: "Closes in 20 min" moves on by itself. */
const TICK_MS = 30_000;

export const clockQuery = { ...settingsQuery, staleTime: 10 * 60_000 };

/**
 * Starts reading what an open-now status needs (the clock and the mall's hours) with a screen's own
 * reads (its `prefetch`), rather than after the screen has rendered its shops.
 */
export function prefetchMallClock(client = queryClient): Promise<unknown> {
  return Promise.all([client.prefetchQuery(clockQuery), client.prefetchQuery(mallHoursQuery)]);
}

/**
 * The mall's clock in the browser: the server's time (GET /api/settings) kept as an offset from the
 * device's clock, so a wrong device clock does not open or close shops, plus the mall's time zone.
 * Re-renders every 30 s and when the tab comes back into view; null until the settings are known.
 */
export function useMallClock(): { now: number; timeZone: string } | null {
  const settings = useQuery(clockQuery);
  const rendering = useServerRender();
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
  // A page rendered on the server shows the status at its render's instant (the settings' `now`, read
  // then), and the browser's first render, which hydrates that page, must draw the same: the live clock
  // takes over right after (docs/decisions/034).
  if (rendering) return { now: Date.parse(settings.data.now), timeZone: settings.data.timeZone };
  // The answer was made at most a round trip before it arrived; the offset is good to that.
  const offset = Date.parse(settings.data.now) - settings.dataUpdatedAt;
  void tick;
  return { now: Date.now() + (Number.isFinite(offset) ? offset : 0), timeZone: settings.data.timeZone };
}

/** "Now" for the Open-now filter: the mall clock's minute as the API takes it (UTC, YYYY-MM-DDTHH:MMZ). */
export function openAtParam(now: number): string {
  return `${new Date(now).toISOString().slice(0, 16)}Z`;
}

/**
 * True on the server and while the browser hydrates a server-rendered page; false afterwards. The switch
 * to the live clock is a transition, drawn in slices: as an external store's change it was one synchronous
 * re-render of every card on the page right after hydration (Lighthouse's longest task on /shops).
 */
function useServerRender(): boolean {
  const [serverInstant, setServerInstant] = useState(isHydrating);
  useEffect(() => {
    if (serverInstant) startTransition(() => setServerInstant(false));
  }, [serverInstant]);
  return serverInstant;
}
