// A product as the shopper sees it on its shop's page, with its Compare button (signed-in shoppers only:
// the public directory shows the same card without it).
import { Check, Plus } from 'lucide-react';
import { useId } from 'react';
import { formatRupees } from '../../../shared/money';
import type { Product } from '../../../shared/product';
import { Badge } from '../../components/ui/badge';
import { Button } from '../../components/ui/button';
import { Price } from '../../components/ui/price';
import { Skeleton } from '../../components/ui/skeleton';
import { cn } from '../../lib/cn';
import { useDirectoryArea } from '../../lib/directory-area';
import { useCompare } from '../compare/compare-context';
import { hasItem, toCompareItem } from '../compare/compare-store';
import { Picture } from '../images';

export function ProductCard({ product, onAdded }: { product: Product; onAdded: () => void }) {
  const nameId = useId();
  const { compare } = useDirectoryArea();

  return (
    <article
      aria-labelledby={nameId}
      className="flex h-full flex-col rounded-2xl border border-slate-200 bg-white p-4 shadow-sm sm:min-h-48 sm:p-5"
    >
      {/* On a phone the photo is a thumbnail beside the name, so a shop's products are not a screen each. */}
      <div className="flex items-start gap-4 sm:block">
        {product.image ? (
          <Picture
            image={product.image}
            name={product.name}
            sizes="(min-width: 1024px) 20rem, (min-width: 640px) 45vw, 6rem"
            className="size-24 shrink-0 rounded-xl sm:-mx-5 sm:-mt-5 sm:mb-4 sm:aspect-[4/3] sm:size-auto sm:rounded-none sm:rounded-t-2xl"
          />
        ) : null}
        <div className="min-w-0 flex-1">
          <div className="flex items-start justify-between gap-3">
            <h3 id={nameId} className="min-w-0 font-semibold wrap-anywhere text-slate-900">
              {product.name}
            </h3>
            {product.offerId ? (
              <Badge tone="rose" className="shrink-0">
                On Offer
              </Badge>
            ) : null}
          </div>
          {product.description ? (
            <p className="mt-1.5 text-sm wrap-anywhere text-slate-600">{product.description}</p>
          ) : null}
        </div>
      </div>
      <div className="mt-auto pt-4">
        <Price
          price={product.price}
          discountedPrice={product.offerPrice}
          format={formatRupees}
          className="text-lg"
        />
        {product.offerPrice && product.offer ? (
          <p className="mt-0.5 text-xs text-slate-500">
            {product.offer.title} · {product.offer.discount}% off
          </p>
        ) : null}
        {compare ? <CompareButton product={product} nameId={nameId} onAdded={onAdded} /> : null}
      </div>
    </article>
  );
}

function CompareButton({
  product,
  nameId,
  onAdded,
}: {
  product: Product;
  nameId: string;
  onAdded: () => void;
}) {
  const { items, add } = useCompare();
  const added = hasItem(items, product.id);
  return (
    <Button
      variant={added ? 'secondary' : 'primary'}
      className={cn('mt-3 min-h-10 w-full', added && 'cursor-default')}
      aria-disabled={added || undefined}
      aria-describedby={nameId}
      onClick={() => {
        if (added) return;
        add(toCompareItem(product));
        onAdded();
      }}
    >
      {added ? (
        <Check aria-hidden="true" className="size-4" />
      ) : (
        <Plus aria-hidden="true" className="size-4" />
      )}
      {added ? 'Added to compare' : 'Compare'}
    </Button>
  );
}

export function ProductCardSkeleton() {
  // the Compare button's room only where the card will have it (not in the public directory)
  const { compare } = useDirectoryArea();
  return (
    <div
      aria-hidden="true"
      className="flex h-full min-h-48 flex-col rounded-2xl border border-slate-200 bg-white p-5 shadow-sm"
    >
      <Skeleton className="h-6 w-2/3" />
      <Skeleton className="mt-2 h-4 w-full" />
      <div className="mt-auto pt-4">
        <Skeleton className="h-7 w-24" />
        {compare ? <Skeleton className="mt-3 h-10 w-full rounded-lg" /> : null}
      </div>
    </div>
  );
}
