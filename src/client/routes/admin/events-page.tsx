// /admin/events (issue 35): every event, approved or waiting, with its next state; add, edit, delete
// (after a confirmation naming it). Decisions on shops' events are in Approvals.
import { useQuery } from '@tanstack/react-query';
import { CalendarDays, Plus } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { toast } from 'sonner';
import type { ReviewedEvent } from '../../../shared/event';
import { AdminScreen } from '../../components/admin-page';
import { Badge } from '../../components/ui/badge';
import { Button, buttonClass } from '../../components/ui/button';
import { ConfirmDialog } from '../../components/ui/confirm-dialog';
import { EmptyState } from '../../components/ui/query-states';
import { allEventsQuery, EventsView, formatWhen, useDeleteEvent } from '../../features/events';
import { TransferActions } from '../../features/imports';
import { errorMessage } from '../../lib/api';
import { queryClient } from '../../lib/query-client';

export function prefetch(): void {
  void queryClient.prefetchQuery(allEventsQuery);
}

function stateOf(event: ReviewedEvent): { label: string; tone: 'green' | 'amber' | 'rose' | 'neutral' } {
  if (event.review?.state === 'sent_back') return { label: 'Sent back', tone: 'rose' };
  if (!event.approved) return { label: 'Waiting for approval', tone: 'amber' };
  if (event.review?.state === 'pending') return { label: 'Live, change waiting', tone: 'amber' };
  if (event.status === 'cancelled') return { label: 'Cancelled', tone: 'neutral' };
  return { label: 'Live', tone: 'green' };
}

export function EventsPage() {
  const events = useQuery(allEventsQuery);
  const remove = useDeleteEvent();
  const [deleting, setDeleting] = useState<ReviewedEvent | null>(null);

  async function confirmDelete() {
    if (!deleting) return;
    try {
      await remove.mutateAsync(deleting.id);
      toast.success(`"${deleting.title}" deleted`);
      setDeleting(null);
    } catch (error) {
      toast.error(errorMessage(error));
    }
  }

  return (
    <AdminScreen
      title="Events"
      description="The mall's events and the shops'. Shops' new events and changes go live once approved in Approvals."
    >
      <div className="flex flex-wrap justify-end gap-3">
        {/* the approved events as CSV, and a file of them imported with a preview (docs/import-export.md) */}
        <TransferActions kind="events" noun="events" filters={{}} />
        <Link to="/admin/events/new" className={buttonClass('primary', 'md')}>
          <Plus aria-hidden="true" className="size-4" />
          Add Event
        </Link>
      </div>
      <EventsView
        query={events}
        placeholders={[3, 'h-24 rounded-2xl']}
        empty={
          <EmptyState title="No events yet" icon={<CalendarDays aria-hidden="true" className="size-6" />}>
            <p>Add the mall's first event.</p>
          </EmptyState>
        }
      >
        {(event) => {
          const state = stateOf(event);
          return (
            <li
              key={event.id}
              className="flex flex-col gap-3 rounded-2xl border border-slate-200 bg-white p-4 shadow-sm sm:flex-row sm:items-center sm:justify-between"
            >
              <div className="min-w-0">
                <p className="font-semibold wrap-anywhere text-slate-900">{event.title}</p>
                <p className="text-sm text-slate-600">
                  {formatWhen(event)}
                  {event.repeat ? ` · repeats ${event.repeat.freq}` : ''} · {event.shopName ?? 'The mall'}
                </p>
              </div>
              <div className="flex flex-wrap items-center gap-2">
                <Badge tone={state.tone}>{state.label}</Badge>
                <Link to={`/admin/events/${event.id}`} className={buttonClass('secondary', 'sm')}>
                  Edit<span className="sr-only"> {event.title}</span>
                </Link>
                <Button variant="danger" size="sm" onClick={() => setDeleting(event)}>
                  Delete<span className="sr-only"> {event.title}</span>
                </Button>
              </div>
            </li>
          );
        }}
      </EventsView>
      <ConfirmDialog
        open={deleting !== null}
        title="Delete this event?"
        description={
          deleting
            ? `"${deleting.title}" and all its dates will be removed from the site and the calendars.`
            : ''
        }
        pending={remove.isPending}
        onConfirm={confirmDelete}
        onCancel={() => setDeleting(null)}
      />
    </AdminScreen>
  );
}
