import { useQuery } from '@tanstack/react-query';
import { useParams } from 'react-router';
import { allEventsQuery } from '../../features/events';
import { EventForm, useEventFormChoices } from '../../features/events/forms';
import { allShopsQuery } from '../../features/shops';
import { AdminFormPage } from './admin-form-page';

/** /admin/events/new and /admin/events/:id: an admin's event is live at once. */
export function EventFormPage() {
  const { id } = useParams();
  const shops = useQuery(allShopsQuery);
  const choices = useEventFormChoices();
  const all = useQuery({ ...allEventsQuery, enabled: id !== undefined });
  const record = {
    ...all,
    data: id ? all.data?.items.find((event) => event.id === id) : undefined,
  } as typeof all & { data: NonNullable<typeof all.data>['items'][number] | undefined };
  return (
    <AdminFormPage
      kind="event"
      id={id}
      record={record as never}
      needs={[shops, ...choices.reads]}
      fields={10}
    >
      {(event) => (
        <EventForm
          {...choices.props}
          event={event as never}
          shops={shops.data ?? []}
          listPath="/admin/events"
        />
      )}
    </AdminFormPage>
  );
}
