// How a managed shop's offers and events stand with the mall office, as the "My shops" cards say it.
import type { ManagedShop } from '../../../shared/managers';

const count = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** "2 offers and 1 event", "1 event", "3 offers"; empty when both are 0. */
export function offersAndEvents(offers: number, events: number): string {
  const parts: string[] = [];
  if (offers > 0) parts.push(count(offers, 'offer', 'offers'));
  if (events > 0) parts.push(count(events, 'event', 'events'));
  return parts.join(' and ');
}

/** The card's lines: what waits for approval, what came back; null where there is none. */
export function reviewCounts(
  shop: Pick<ManagedShop, 'pendingOffers' | 'sentBackOffers' | 'pendingEvents' | 'sentBackEvents'>,
) {
  const waiting = offersAndEvents(shop.pendingOffers, shop.pendingEvents);
  const sentBack = offersAndEvents(shop.sentBackOffers, shop.sentBackEvents);
  return {
    waiting: waiting ? `${waiting} waiting for approval` : null,
    sentBack: sentBack ? `${sentBack} sent back` : null,
    /** Any event waiting or sent back: the card links to the shop's events. */
    events: shop.pendingEvents + shop.sentBackEvents > 0,
  };
}
