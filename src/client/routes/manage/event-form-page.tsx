import { useQuery } from '@tanstack/react-query';
import { Info } from 'lucide-react';
import { useParams } from 'react-router';
import { AMENITY_LABELS } from '../../../shared/amenity';
import type { ReviewedEvent } from '../../../shared/event';
import { EntityFormPage } from '../../components/entity-form';
import { amenitiesQuery } from '../../features/amenities';
import { managedEventsQuery } from '../../features/events';
import { EventForm } from '../../features/events/forms';
import { floorsQuery } from '../../features/places';
import { settingsQuery } from '../../features/settings';
import { shopQuery } from '../../features/shops';

/** What the manager edits: the terms waiting for approval, when there are some, else the live ones. */
function termsToEdit(event: ReviewedEvent): ReviewedEvent {
  const proposal = (event.review?.proposal ?? {}) as Record<string, unknown>;
  const merged = { ...event, ...proposal } as ReviewedEvent & { placeKind?: string; placeId?: string | null };
  if (proposal.placeKind !== undefined || proposal.placeId !== undefined) {
    merged.place = {
      ...event.place,
      kind: (proposal.placeKind as ReviewedEvent['place']['kind']) ?? event.place.kind,
      id: (proposal.placeId as string | null | undefined) ?? event.place.id,
    };
  }
  return merged;
}

/** /manage/shops/:id/events/new and /:eventId: the event form, the shop fixed, sent for approval. */
export function ManagedEventFormPage() {
  const { id: shopId = '', eventId } = useParams();
  const shop = useQuery(shopQuery(shopId));
  const events = useQuery(managedEventsQuery(shopId));
  const floors = useQuery(floorsQuery);
  const amenities = useQuery(amenitiesQuery);
  const settings = useQuery(settingsQuery);
  const back = `/manage/shops/${shopId}`;
  const found = eventId ? events.data?.items.find((event) => event.id === eventId) : undefined;
  const record = { ...events, data: found };
  return (
    <EntityFormPage
      id={eventId}
      noun="Event"
      listPath={back}
      backText="Back to the shop"
      record={record as never}
      needs={[shop, floors, amenities, settings]}
      fields={10}
    >
      {(event) => (
        <EventForm
          event={event ? termsToEdit(event as ReviewedEvent) : undefined}
          today={settings.data?.today ?? ''}
          shops={shop.data ? [{ id: shop.data.id, name: shop.data.name }] : []}
          floors={floors.data ?? []}
          amenities={(amenities.data ?? []).map((amenity) => ({
            id: amenity.id,
            label: `${AMENITY_LABELS[amenity.kind]}${amenity.location ? `, ${amenity.location}` : ''} (${amenity.floor})`,
          }))}
          listPath={back}
          fixedShop={{ id: shopId, name: shop.data?.name ?? '' }}
          submitLabel="Send for approval"
          done={{ created: 'Event sent for approval', updated: 'Change sent for approval' }}
          note={
            <p className="flex items-start gap-2 rounded-lg border border-indigo-200 bg-indigo-50 px-3 py-2.5 text-sm text-indigo-900">
              <Info aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
              {found?.approved
                ? 'This event is live. Your change goes live after the mall office approves it; visitors see the current details until then.'
                : 'The event goes live after the mall office approves it. Visitors do not see it until then.'}
            </p>
          }
        />
      )}
    </EntityFormPage>
  );
}
