/** Dates as people read them. */

/** "2026-12-31" → the local date format ("31/12/2026", "12/31/2026"…), without time-zone drift. */
export function formatDate(isoDate: string): string {
  const [year, month, day] = isoDate.split('-').map(Number);
  if (!year || !month || !day) return isoDate;
  return new Date(year, month - 1, day).toLocaleDateString();
}
