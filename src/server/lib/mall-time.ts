const formatters = new Map<string, Intl.DateTimeFormat>();
/** Per zone, the last minute asked and its date: every directory read and public page asks, mostly in the same minute. */
const lastSeen = new Map<string, { minute: number; date: string }>();

/**
 * The mall's calendar date ('YYYY-MM-DD') at `at` in `timeZone`. Offers run from the start of their
 * start date to the end of their end date in the mall's time zone, so "active" compares these dates.
 */
export function mallToday(timeZone: string, at: Date = new Date()): string {
  // Days change on a whole minute in every zone in use (offsets are whole minutes), so a minute has one date.
  const minute = Math.floor(at.getTime() / 60_000);
  const seen = lastSeen.get(timeZone);
  if (seen?.minute === minute) return seen.date;
  let formatter = formatters.get(timeZone);
  if (!formatter) {
    // en-CA formats dates as YYYY-MM-DD. Made once per zone.
    formatter = new Intl.DateTimeFormat('en-CA', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
    });
    formatters.set(timeZone, formatter);
  }
  const date = formatter.format(at);
  lastSeen.set(timeZone, { minute, date });
  return date;
}
