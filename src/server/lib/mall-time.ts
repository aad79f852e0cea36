const formatters = new Map<string, Intl.DateTimeFormat>();

/**
 * The mall's calendar date ('YYYY-MM-DD') at `at` in `timeZone`. Offers run from the start of their
 * start date to the end of their end date in the mall's time zone, so "active" compares these dates.
 */
export function mallToday(timeZone: string, at: Date = new Date()): string {
  let formatter = formatters.get(timeZone);
  if (!formatter) {
    // en-CA formats dates as YYYY-MM-DD. Made once per zone: every directory read asks.
    formatter = new Intl.DateTimeFormat('en-CA', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
    });
    formatters.set(timeZone, formatter);
  }
  return formatter.format(at);
}
