// The mall's calendar as the browser needs it (shared/settings.ts): the mall's time zone, today's date
// there, the server's clock, and the table of the zone's UTC offsets around now, from which the browser
// reads the mall's wall clock by arithmetic, without Intl (shared/hours-status.ts).
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { type OffsetSpan, zoneOffsets } from '../../shared/hours-status';
import { PublicSettings } from '../../shared/settings';
import { mallToday } from '../lib/mall-time';

/** Public, never cached: GET /api/settings. */
export const timeZoneRoutes: FastifyPluginAsyncZod<{
  timeZone: string;
  now: () => Date;
  publicDirectory: boolean;
}> = async (app, { timeZone, now, publicDirectory }) => {
  const offsetsNear = offsetTable(timeZone);
  app.get('/api/settings', { schema: { response: { 200: PublicSettings } } }, async (_request, reply) => {
    reply.header('cache-control', 'no-store');
    const at = now();
    return {
      timeZone,
      today: mallToday(timeZone, at),
      now: at.toISOString(),
      offsets: offsetsNear(at),
      publicDirectory,
    };
  });
};

/** The zone's offsets around the hour `at` is in: worked out once an hour (some 600 Intl readings). */
function offsetTable(timeZone: string): (at: Date) => OffsetSpan[] {
  let offsetsHour = Number.NaN;
  let offsetsOfHour: OffsetSpan[] = [];
  return (at) => {
    const hour = Math.floor(at.getTime() / 3_600_000) * 3_600_000;
    if (hour !== offsetsHour) {
      offsetsOfHour = zoneOffsets(timeZone, hour - 3 * 86_400_000, hour + 22 * 86_400_000);
      offsetsHour = hour;
    }
    return offsetsOfHour;
  };
}
