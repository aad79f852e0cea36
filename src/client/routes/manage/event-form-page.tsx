import { useQuery } from '@tanstack/react-query';
import { useParams } from 'react-router';
import type { ReviewedEvent } from '../../../shared/event';
import { EntityFormPage } from '../../components/entity-form';
import { managedEventsQuery } from '../../features/events';
import { EventForm, useEventFormChoices } from '../../features/events/forms';
import { sentForApproval } from '../../features/managers';
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
  const choices = useEventFormChoices();
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
      needs={[shop, ...choices.reads]}
      fields={10}
    >
      {(event) => (
        <EventForm
          {...choices.props}
          {...sentForApproval(
            { noun: 'event', audience: 'visitors', what: 'details' },
            found?.approved === true,
          )}
          event={event ? termsToEdit(event as ReviewedEvent) : undefined}
          shops={shop.data ? [{ id: shop.data.id, name: shop.data.name }] : []}
          listPath={back}
          fixedShop={{ id: shopId, name: shop.data?.name ?? '' }}
        />
      )}
    </EntityFormPage>
  );
}
