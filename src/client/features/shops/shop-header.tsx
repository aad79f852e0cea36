// The head of a shop's page: name, badges, description, location, contact and opening hours.
import { Clock, MapPin, Phone } from 'lucide-react';
import type { ReactNode } from 'react';
import type { ShopDetail } from '../../../shared/shop';
import { Skeleton } from '../../components/ui/skeleton';
import { OpenStatus, ShopWeek } from '../hours';
import { Picture } from '../images';
import { ContactLinks } from './contact-links';
import { ShopBadges, ShopBadgesSkeleton } from './shop-badges';

/** How wide a shop's cover is shown (its page's largest paint: preloaded by the page, shop-detail-page.tsx). */
export const COVER_SIZES = '(min-width: 1024px) 960px, 100vw';

/** `countTaps`: the shopper's page, where taps on the contact links are counted (not a manager's preview). */
export function ShopHeader({ shop, countTaps = false }: { shop: ShopDetail; countTaps?: boolean }) {
  return (
    <section
      aria-labelledby="shop-name"
      className="rounded-2xl border border-slate-200 bg-white p-5 shadow-sm sm:p-8"
    >
      {shop.cover ? (
        <Picture
          image={shop.cover}
          name={shop.name}
          sizes={COVER_SIZES}
          eager
          className="-mx-5 -mt-5 mb-5 aspect-[3/1] rounded-t-2xl sm:-mx-8 sm:-mt-8 sm:mb-6"
        />
      ) : null}
      <div className="flex items-center gap-4">
        <Picture
          image={shop.logo}
          name={shop.name}
          sizes="4rem"
          fit="contain"
          eager
          className="size-16 shrink-0 rounded-xl border border-slate-100 bg-white text-xl"
        />
        <h1
          id="shop-name"
          className="min-w-0 text-2xl font-bold tracking-tight wrap-anywhere text-slate-900 sm:text-3xl"
        >
          {shop.name}
        </h1>
      </div>
      <ShopBadges shop={shop} className="mt-3 flex flex-wrap gap-2" />
      <OpenStatus hours={shop.hours} className="mt-3 text-sm" />
      {shop.description ? (
        <p className="mt-4 max-w-3xl wrap-anywhere text-slate-700">{shop.description}</p>
      ) : null}
      <dl className="mt-6 grid gap-4 border-t border-slate-100 pt-6 sm:grid-cols-3">
        <Detail
          icon={<MapPin aria-hidden="true" className="size-4" />}
          label="Location"
          value={shop.location}
        />
        <Detail
          icon={<Phone aria-hidden="true" className="size-4" />}
          label="Contact"
          value={shop.contact}
          // Phone numbers, emails and web addresses are links (tel:, mailto:, https).
          content={
            shop.contact ? (
              <ContactLinks contact={shop.contact} shopId={countTaps ? shop.id : undefined} />
            ) : undefined
          }
        />
        <Detail
          icon={<Clock aria-hidden="true" className="size-4" />}
          label="Opening hours"
          value={shop.openingHours}
        />
      </dl>
      {shop.hours ? <ShopWeek hours={shop.hours} /> : null}
    </section>
  );
}

function Detail({
  icon,
  label,
  value,
  content,
}: {
  icon: ReactNode;
  label: string;
  value: string;
  /** How to show a value that is not plain text. */
  content?: ReactNode;
}) {
  // why: a <dl>'s groups may hold only <dt> and <dd> (axe's definition-list / dlitem): the icon sits in
  // the <dt>, placed beside both by absolute positioning (display: contents on the <dt> would take its
  // meaning away in some browsers). min-w-0 and wrap-anywhere: a long unbroken value wraps.
  return (
    <div className="relative min-w-0 pl-11">
      <dt className="text-xs font-medium tracking-wide text-slate-600 uppercase">
        <span className="absolute top-0.5 left-0 flex size-8 items-center justify-center rounded-lg bg-slate-100 text-slate-600">
          {icon}
        </span>
        {label}
      </dt>
      <dd className="mt-0.5 text-sm wrap-anywhere text-slate-900">
        {content ?? (value || <span className="text-slate-600">Not listed</span>)}
      </dd>
    </div>
  );
}

export function ShopHeaderSkeleton() {
  return (
    <div className="rounded-2xl border border-slate-200 bg-white p-5 shadow-sm sm:p-8">
      <span className="sr-only" role="status">
        Loading shop
      </span>
      <Skeleton className="h-8 w-1/2 sm:h-9" />
      <ShopBadgesSkeleton className="mt-3 flex gap-2" />
      <Skeleton className="mt-4 h-5 w-full max-w-3xl" />
      <div className="mt-6 grid gap-4 border-t border-slate-100 pt-6 sm:grid-cols-3">
        {[0, 1, 2].map((key) => (
          <div key={key} className="flex gap-3">
            <Skeleton className="size-8 shrink-0 rounded-lg" />
            <div className="flex-1 space-y-1.5">
              <Skeleton className="h-3.5 w-20" />
              <Skeleton className="h-4 w-3/4" />
            </div>
          </div>
        ))}
      </div>
    </div>
  );
}
