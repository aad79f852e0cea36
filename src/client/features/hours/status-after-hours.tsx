import type { hoursStatus } from '../../../shared/hours-status';

/**
 * "· Open now · closes 23:30" after a day's hours, green when open and red when closed. On a phone the
 * status wraps to a line of its own, where a leading dot would dangle, so the dot shows from `sm` up.
 */
export function StatusAfterHours({ status }: { status: ReturnType<typeof hoursStatus> }) {
  return (
    <span className={status.state === 'open' ? 'text-emerald-700' : 'text-rose-700'}>
      <span aria-hidden="true" className="hidden sm:inline">
        ·{' '}
      </span>
      {status.label}
    </span>
  );
}
