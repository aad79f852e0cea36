import type { Offer } from '../../../shared/offer';
import { Badge } from '../../components/ui/badge';

/** The label the server decided on the mall's date: the browser's calendar decides nothing. */
export function OfferStatusBadge({ offer }: { offer: Pick<Offer, 'status'> }) {
  if (offer.status === 'active') return <Badge tone="green">Active</Badge>;
  if (offer.status === 'upcoming') return <Badge tone="indigo">Upcoming</Badge>;
  return <Badge>Expired</Badge>;
}
