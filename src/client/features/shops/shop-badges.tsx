import { MapPin, Tag } from 'lucide-react';
import type { Shop } from '../../../shared/shop';
import { Badge } from '../../components/ui/badge';
import { Skeleton } from '../../components/ui/skeleton';

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

/** The two badges' place while the shop loads. */
export function ShopBadgesSkeleton({ className }: { className: string }) {
  return (
    <div className={className}>
      <Skeleton className="h-5 w-20 rounded-full" />
      <Skeleton className="h-5 w-24 rounded-full" />
    </div>
  );
}
