import type { OpeningHours } from '../../../shared/hours';
import { formatIntervals } from '../../../shared/hours-core';
import { addDays, specialDayOn, wallClock } from '../../../shared/hours-status';
import { useMallClock } from './use-mall-clock';
import { WeekSummary } from './week-summary';

/** A shop's structured week and its coming special days, under its free-text hours. */
export function ShopWeek({ hours }: { hours: OpeningHours }) {
  const clock = useMallClock();
  const today = clock ? wallClock(clock.now, clock.timeZone).date : null;
  // The special days of the next four weeks: what a shopper planning a visit needs.
  const coming = today
    ? hours.special
        .filter((day) => day.date >= today && day.date <= addDays(today, 28))
        .sort((a, b) => a.date.localeCompare(b.date))
    : [];
  const todaySpecial = today ? specialDayOn(hours, today) : undefined;
  return (
    <section aria-labelledby="shop-week" className="mt-6 border-t border-slate-100 pt-6">
      <h2 id="shop-week" className="text-sm font-semibold text-slate-900">
        Weekly hours
      </h2>
      <WeekSummary hours={hours} className="mt-2" />
      {coming.length > 0 ? (
        <>
          <h3 className="mt-4 text-sm font-semibold text-slate-900">Special days</h3>
          <ul className="mt-1 space-y-1 text-sm text-slate-600">
            {coming.map((day) => (
              <li key={day.date}>
                <span className="font-medium text-slate-700">
                  {day === todaySpecial ? 'Today' : day.date}
                </span>
                : {formatIntervals(day.intervals)}
                {day.note ? ` (${day.note})` : ''}
              </li>
            ))}
          </ul>
        </>
      ) : null}
    </section>
  );
}
