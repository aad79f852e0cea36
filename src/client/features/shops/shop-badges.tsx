import { MapPin, Tag } from 'lucide-react';
import type { Shop } from '../../../shared/shop';
import { Badge } from '../../components/ui/badge';

/** A shop's category and floor, as two badges ('Category: Fashion', 'Floor: Ground'). */
export function ShopBadges({
  shop,
  className,
}: {
  shop: Pick<Shop, 'category' | 'floor'>;
  className: string;
}) {
  return (
    <div className={className}>
      <Badge tone="indigo">
        <Tag aria-hidden="true" className="size-3 shrink-0" />
        <span className="sr-only">Category: </span>
        <span className="truncate">{shop.category}</span>
      </Badge>
      <Badge>
        <MapPin aria-hidden="true" className="size-3 shrink-0" />
        <span className="sr-only">Floor: </span>
        <span className="truncate">{shop.floor}</span>
      </Badge>
    </div>
  );
}
