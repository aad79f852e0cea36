import { useQuery } from '@tanstack/react-query';
import { Clock } from 'lucide-react';
import type { OpeningHours } from '../../../shared/hours';
import { hoursStatus, statusValidUntil } from '../../../shared/hours-status';
import { Badge } from '../../components/ui/badge';
import { cn } from '../../lib/cn';
import { usePageValidity } from '../../lib/page-validity';
import { mallHoursQuery } from './api';
import { useMallClock } from './use-mall-clock';

/**
 * "Open now · closes 21:00", "Closes in 20 min", "Closed · opens tomorrow 10:00": computed here from the
 * cached hours and the server's clock, again every 30 s (never a cached verdict). Nothing without
 * structured hours: the free text speaks then.
 */
export function OpenStatus({ hours, className }: { hours: OpeningHours | null; className?: string }) {
  const clock = useMallClock();
  const mall = useQuery(mallHoursQuery);
  const validity = usePageValidity();
  if (!hours) return null;
  // Its room is kept while the clock and the mall's hours load: appearing later, the badge moved the
  // shop page's details down (Lighthouse's CLS 0.013).
  if (!clock || mall.isPending)
    return (
      <Badge className={cn(className, 'invisible')}>
        <Clock aria-hidden="true" className="size-3 shrink-0" />
        <span>Open now</span>
      </Badge>
    );
  const status = hoursStatus(hours, clock.now, { timeZone: clock.timeZone, mall: mall.data?.hours ?? null });
  // On the server: the rendered page is served from its cache only while this status still holds.
  validity?.until(statusValidUntil(status, clock.now));
  if (status.state === 'unknown') return null;
  const tone = status.state === 'closed' ? 'rose' : status.closingSoon ? 'amber' : 'green';
  return (
    <Badge tone={tone} className={className}>
      <Clock aria-hidden="true" className="size-3 shrink-0" />
      <span data-testid="open-status">{status.label}</span>
    </Badge>
  );
}
