import { useQuery } from '@tanstack/react-query';
import { useParams } from 'react-router';
import { AMENITY_LABELS } from '../../../shared/amenity';
import { EntityFormPage } from '../../components/entity-form';
import { amenitiesQuery } from '../../features/amenities';
import { LastChanged } from '../../features/audit';
import { allEventsQuery } from '../../features/events';
import { EventForm } from '../../features/events/forms';
import { floorsQuery } from '../../features/places';
import { settingsQuery } from '../../features/settings';
import { allShopsQuery } from '../../features/shops';

/** /admin/events/new and /admin/events/:id: an admin's event is live at once. */
export function EventFormPage() {
  const { id } = useParams();
  const shops = useQuery(allShopsQuery);
  const floors = useQuery(floorsQuery);
  const amenities = useQuery(amenitiesQuery);
  const settings = useQuery(settingsQuery);
  const all = useQuery({ ...allEventsQuery, enabled: id !== undefined });
  const record = {
    ...all,
    data: id ? all.data?.items.find((event) => event.id === id) : undefined,
  } as typeof all & { data: NonNullable<typeof all.data>['items'][number] | undefined };
  return (
    <EntityFormPage
      id={id}
      aside={id ? <LastChanged entityType="event" entityId={id} /> : null}
      noun="Event"
      listPath="/admin/events"
      backText="Back to events"
      record={record as never}
      needs={[shops, floors, amenities, settings]}
      fields={10}
    >
      {(event) => (
        <EventForm
          event={event as never}
          today={settings.data?.today ?? ''}
          shops={shops.data ?? []}
          floors={floors.data ?? []}
          amenities={(amenities.data ?? []).map((amenity) => ({
            id: amenity.id,
            label: `${AMENITY_LABELS[amenity.kind]}${amenity.location ? `, ${amenity.location}` : ''} (${amenity.floor})`,
          }))}
          listPath="/admin/events"
        />
      )}
    </EntityFormPage>
  );
}
