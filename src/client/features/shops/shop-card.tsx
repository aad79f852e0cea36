// A shop in the shopper's list of shops.
import { useId } from 'react';
import { Link } from 'react-router';
import type { Shop } from '../../../shared/shop';
import { Skeleton } from '../../components/ui/skeleton';
import { useDirectoryArea } from '../../lib/directory-area';
import { OpenStatus } from '../hours';
import { Picture } from '../images';
import { ShopBadges, ShopBadgesSkeleton } from './shop-badges';

/** The whole card links to the shop's page; `from` is the list to go back to from there. */
export function ShopCard({ shop, from }: { shop: Shop; from: string }) {
  const nameId = useId();
  const area = useDirectoryArea();
  return (
    <article
      aria-labelledby={nameId}
      className="relative flex h-full min-h-44 flex-col rounded-2xl border border-slate-200 bg-white p-5 shadow-sm transition hover:border-indigo-300 hover:shadow-md has-[a:focus-visible]:outline-2 has-[a:focus-visible]:outline-offset-2 has-[a:focus-visible]:outline-indigo-600"
    >
      <Picture
        image={shop.logo}
        name={shop.name}
        sizes="4rem"
        fit="contain"
        className="mb-3 size-16 rounded-xl border border-slate-100 bg-white text-xl"
      />
      <h3 id={nameId} className="text-lg font-semibold text-slate-900">
        {/* why: the whole card is the link's target area, while its name stays just the shop's name */}
        <Link
          to={area.shop(shop)}
          state={{ from }}
          className="wrap-anywhere outline-none after:absolute after:inset-0 after:rounded-2xl hover:text-indigo-700"
        >
          {shop.name}
        </Link>
      </h3>
      <p className="mt-1 line-clamp-2 text-sm text-slate-600">{shop.description}</p>
      <OpenStatus hours={shop.hours} className="mt-3 self-start" />
      <ShopBadges shop={shop} className="mt-auto flex flex-wrap gap-2 pt-4" />
    </article>
  );
}

export function ShopCardSkeleton() {
  return (
    <div className="flex h-full min-h-44 flex-col rounded-2xl border border-slate-200 bg-white p-5 shadow-sm">
      <Skeleton className="h-7 w-2/3" />
      <Skeleton className="mt-2 h-4 w-full" />
      <Skeleton className="mt-1.5 h-4 w-3/4" />
      <ShopBadgesSkeleton className="mt-auto flex gap-2 pt-4" />
    </div>
  );
}
