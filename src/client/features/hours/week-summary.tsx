import type { OpeningHours } from '../../../shared/hours';
import { weekGroups } from '../../../shared/hours-core';
import { cn } from '../../lib/cn';

/** The week in a few lines: "Mon–Sat 10:00–21:00", "Sun Closed". */
export function WeekSummary({ hours, className }: { hours: OpeningHours; className?: string }) {
  return (
    <dl className={cn('grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm', className)}>
      {weekGroups(hours.weekly).map((group) => (
        <div key={group.days} className="contents">
          <dt className="font-medium text-slate-700">{group.days}</dt>
          <dd className="text-slate-600">{group.intervals}</dd>
        </div>
      ))}
    </dl>
  );
}
