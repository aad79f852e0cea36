import { useQuery } from '@tanstack/react-query';
import { Clock } from 'lucide-react';
import { formatIntervals } from '../../../shared/hours-core';
import { hoursStatus, intervalsOn, specialDayOn, wallClock } from '../../../shared/hours-status';
import { cn } from '../../lib/cn';
import { mallHoursQuery } from './api';
import { StatusAfterHours } from './status-after-hours';
import { useMallClock } from './use-mall-clock';

/** "Mall hours today: 07:00–23:30 · Open now · closes 23:30", with a special day's note. */
export function MallHoursToday({ className }: { className?: string }) {
  const clock = useMallClock();
  const mall = useQuery(mallHoursQuery);
  const hours = mall.data?.hours;
  if (mall.isError) return null;
  if (!clock || mall.isPending) {
    return <p className={cn('h-5 text-sm text-slate-500', className)} aria-hidden="true" />;
  }
  if (!hours) return null;
  const today = wallClock(clock.now, clock.timeZone).date;
  const special = specialDayOn(hours, today);
  const status = hoursStatus(hours, clock.now, { timeZone: clock.timeZone });
  return (
    <p className={cn('flex flex-wrap items-center gap-x-2 gap-y-1 text-sm text-slate-700', className)}>
      <Clock aria-hidden="true" className="size-4 text-indigo-600" />
      <span>
        <span className="font-medium">Mall hours today:</span> {formatIntervals(intervalsOn(hours, today))}
        {special?.note ? ` (${special.note})` : ''}
      </span>
      <StatusAfterHours status={status} />
    </p>
  );
}
