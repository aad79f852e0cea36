import './zod-config';
import { z } from 'zod';

/**
 * What the browser may know of the server's settings: a short list chosen on purpose (nothing secret),
 * sent by GET /api/settings. `today` is the mall's date when the answer was made, in `timeZone`.
 */
export const PublicSettings = z.object({
  /** The mall's IANA time zone (MALL_TIMEZONE), e.g. "Asia/Kolkata". */
  timeZone: z.string(),
  /** The mall's calendar date now, YYYY-MM-DD: the day offers are active on. */
  today: z.string(),
  /**
   * The server's clock when the answer was made (ISO instant): the browser keeps its offset from its own
   * clock, so "Open now · closes 21:00" follows the server's time, not a wrong device clock (decision 017).
   */
  now: z.string(),
  /**
   * The zone's offsets from UTC (spans of epoch ms) from three days before `now` to three weeks after:
   * the browser reads the mall's wall clock from them by arithmetic, without Intl (shared/hours-status.ts).
   */
  offsets: z.array(z.object({ from: z.number(), to: z.number(), offsetMs: z.number() })),
  /** The public directory is on (MALL_PUBLIC_DIRECTORY, docs/decisions/034): its pages are there for visitors. */
  publicDirectory: z.boolean(),
});
export type PublicSettings = z.infer<typeof PublicSettings>;
