import { useIsFetching, useQuery } from '@tanstack/react-query';
import { ArrowLeft, CalendarDays, Eye, History, Pencil, Percent, Plus } from 'lucide-react';
import { type ReactNode, useEffect, useId, useMemo, useRef, useState } from 'react';
import { Link, useLocation, useParams } from 'react-router';
import type { Product } from '../../../shared/product';
import { type AdminListConfig, AdminListPage, adminPage } from '../../components/admin-list-page';
import { RecordNotFound } from '../../components/admin-page';
import { buttonClass } from '../../components/ui/button';
import { EmptyState, QueryView, SkeletonCards } from '../../components/ui/query-states';
import { AuditTrail } from '../../features/audit';
import { EventsView, formatWhen, managedEventsQuery } from '../../features/events';
import { ShopNumbers } from '../../features/insights';
import {
  MANAGED_ACTIVITY_PAGE_SIZE,
  managedActivityQuery,
  managedOffersQuery,
  OfferReviewStatus,
} from '../../features/managers';
import { ProductName, productPriceColumn, productsQuery, useDeleteProduct } from '../../features/products';
import { settingsQuery } from '../../features/settings';
import { ShopHeader, ShopHeaderSkeleton, shopQuery } from '../../features/shops';
import { isNotFound } from '../../lib/api';
import { formatDate } from '../../lib/format-date';
import { usePageTitle } from '../../lib/page-title';

const linkClass =
  '-ml-2 inline-flex min-h-10 items-center gap-1.5 rounded-lg px-2 text-sm font-medium text-slate-600 hover:bg-slate-100 hover:text-slate-900 focus-visible:outline-2 focus-visible:outline-indigo-600';

/** /manage/shops/:id: the shop as its manager keeps it — details, offers, products, recent history. */
export function ManagedShopPage() {
  const { id = '' } = useParams();
  const shop = useQuery(shopQuery(id));
  const notFound = shop.isError && isNotFound(shop.error);
  usePageTitle(notFound ? 'Shop not found' : (shop.data?.name ?? (shop.isError ? 'Shop' : undefined)));

  if (notFound) {
    return <RecordNotFound message="Shop not found" to="/manage" linkText="Back to my shops" />;
  }

  return (
    <div className="space-y-10">
      <div className="space-y-4">
        <Link to="/manage" className={linkClass}>
          <ArrowLeft aria-hidden="true" className="size-4" />
          My shops
        </Link>
        <QueryView query={shop} loading={<ShopHeaderSkeleton />}>
          {(data) => <ShopHeader shop={data} />}
        </QueryView>
        <div className="flex flex-wrap gap-3">
          <Link to={`/manage/shops/${id}/edit`} className={buttonClass('primary')}>
            <Pencil aria-hidden="true" className="size-4" />
            Edit shop details
          </Link>
          <Link to={`/user/shops/${id}`} className={buttonClass('secondary')}>
            <Eye aria-hidden="true" className="size-4" />
            See the shoppers' page
          </Link>
        </div>
      </div>
      {shop.isSuccess ? <ShopNumbers shopId={id} /> : null}
      {shop.isSuccess ? (
        <>
          <ManagedOffers shopId={id} />
          <ManagedEvents shopId={id} />
          <ManagedProducts shopId={id} />
          <ShopHistory shopId={id} />
        </>
      ) : null}
    </div>
  );
}

function ManagedOffers({ shopId }: { shopId: string }) {
  const offers = useQuery(managedOffersQuery(shopId));
  return (
    <ManagedSection
      title="Offers"
      description="A new offer, or a change to a live one, goes live after the mall office approves it. Shoppers keep seeing the live terms meanwhile."
      add={{ to: `/manage/shops/${shopId}/offers/new`, label: 'Add offer' }}
    >
      <QueryView
        query={offers}
        loading={
          <SkeletonCards count={2} className="space-y-3" label="Loading offers" card="h-28 rounded-2xl" />
        }
        isEmpty={(data) => data.length === 0}
        empty={
          <EmptyState
            title="This shop has no offers yet."
            icon={<Percent aria-hidden="true" className="size-6" />}
          />
        }
      >
        {(data) => (
          <ul aria-label="Offers" className="space-y-3">
            {data.map((offer) => (
              <ManagedItem
                key={offer.id}
                title={offer.title}
                detail={`${offer.discount}% off · ${formatDate(offer.startDate)} – ${formatDate(offer.endDate)}`}
                editTo={`/manage/shops/${shopId}/offers/${offer.id}`}
              >
                <OfferReviewStatus offer={offer} />
              </ManagedItem>
            ))}
          </ul>
        )}
      </QueryView>
    </ManagedSection>
  );
}

/** One of the shop's lists: its heading, what happens to a change, the Add link, the list. */
function ManagedSection({
  id,
  title,
  description,
  add,
  children,
}: {
  id?: string;
  title: string;
  description: string;
  add: { to: string; label: string };
  children: ReactNode;
}) {
  const headingId = useId();
  return (
    <section id={id} aria-labelledby={headingId} className="scroll-mt-20 space-y-4">
      <div className="flex flex-wrap items-end justify-between gap-4">
        <div>
          <h2 id={headingId} className="text-xl font-bold tracking-tight text-slate-900">
            {title}
          </h2>
          <p className="mt-1 text-sm text-slate-600">{description}</p>
        </div>
        <Link to={add.to} className={buttonClass('primary')}>
          <Plus aria-hidden="true" className="size-4" />
          {add.label}
        </Link>
      </div>
      {children}
    </section>
  );
}

/** An offer or an event in the shop's list: its title, when, Edit, and where its review stands. */
function ManagedItem({
  title,
  detail,
  editTo,
  children,
}: {
  title: string;
  detail: string;
  editTo: string;
  children: ReactNode;
}) {
  const titleId = useId();
  return (
    <li aria-labelledby={titleId} className="rounded-2xl border border-slate-200 bg-white p-5 shadow-sm">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="min-w-0">
          <h3 id={titleId} className="text-lg font-semibold wrap-anywhere text-slate-900">
            {title}
          </h3>
          <p className="text-sm text-slate-600">{detail}</p>
        </div>
        <Link to={editTo} className={buttonClass('secondary', 'sm')}>
          <Pencil aria-hidden="true" className="size-4" />
          Edit<span className="sr-only"> {title}</span>
        </Link>
      </div>
      <div className="mt-3">{children}</div>
    </li>
  );
}

const STOP_FOLLOWING = ['wheel', 'touchstart', 'keydown', 'pointerdown'] as const;

/**
 * Scrolls to the element `id` once per visit to the address with `#id` (the router follows no
 * fragment), when `ready`; then, for a few seconds and until the person scrolls themselves, again
 * whenever the page's height changes: what arrives above it later (the numbers' chart) pushes it down.
 */
function useScrollToFragment(id: string, ready: boolean) {
  const { hash, key } = useLocation();
  const scrolledFor = useRef<string | null>(null);
  const wanted = ready && hash === `#${id}`;
  useEffect(() => {
    if (!wanted || scrolledFor.current === key) return;
    const target = document.getElementById(id);
    if (!target) return;
    scrolledFor.current = key;
    target.scrollIntoView();
    const follow = new ResizeObserver(() => target.scrollIntoView());
    follow.observe(document.body);
    const stop = () => follow.disconnect();
    const timer = window.setTimeout(stop, 3000);
    for (const name of STOP_FOLLOWING) window.addEventListener(name, stop, { passive: true });
    return () => {
      stop();
      window.clearTimeout(timer);
      for (const name of STOP_FOLLOWING) window.removeEventListener(name, stop);
    };
  }, [wanted, id, key]);
}

/**
 * The shop's events (issue 35): submitted for approval like offers. "My shops" links here (`#events`):
 * scrolled to once its list and the page's other reads have arrived.
 */
function ManagedEvents({ shopId }: { shopId: string }) {
  const events = useQuery(managedEventsQuery(shopId));
  const fetching = useIsFetching();
  useScrollToFragment('events', events.isSuccess && fetching === 0);
  return (
    <ManagedSection
      id="events"
      title="Events"
      description="A new event, or a change to a live one, goes live after the mall office approves it."
      add={{ to: `/manage/shops/${shopId}/events/new`, label: 'Add event' }}
    >
      <EventsView
        query={events}
        placeholders={[1, 'h-28 rounded-2xl']}
        empty={
          <EmptyState
            title="This shop has no events yet."
            icon={<CalendarDays aria-hidden="true" className="size-6" />}
          />
        }
      >
        {(event) => (
          <ManagedItem
            key={event.id}
            title={event.title}
            detail={formatWhen(event)}
            editTo={`/manage/shops/${shopId}/events/${event.id}`}
          >
            <p className="text-sm font-medium text-slate-700">
              {event.review?.state === 'sent_back'
                ? `Sent back: ${event.review.comment ?? ''}`
                : event.review?.state === 'pending'
                  ? event.approved
                    ? 'Live; your change is waiting for approval'
                    : 'Waiting for approval'
                  : 'Live'}
            </p>
          </ManagedItem>
        )}
      </EventsView>
    </ManagedSection>
  );
}

function ManagedProducts({ shopId }: { shopId: string }) {
  const config = useMemo<AdminListConfig<Product>>(
    () => ({
      title: 'Products',
      description: "This shop's products, by name. A change shows to shoppers at once.",
      headingLevel: 'h2',
      resource: 'product',
      path: `/manage/shops/${shopId}/products`,
      addLabel: 'Add product',
      search: { label: 'Search products', placeholder: 'Search by product name' },
      singular: 'product',
      plural: 'products',
      query: (request) => productsQuery({ ...adminPage(request), shopId }),
      columns: [
        {
          header: 'Name',
          cell: (product) => <ProductName product={product} />,
        },
        productPriceColumn,
      ],
      name: (product) => product.name,
      owner: (product) => ({ shopId: product.shopId }),
      useDelete: useDeleteProduct,
      deleted: 'Product deleted',
      useConfirmation: (target) => ({
        title: target ? `Delete ${target.name}?` : '',
        description: <p>Shoppers will no longer see it. This cannot be undone.</p>,
      }),
    }),
    [shopId],
  );
  return (
    <section className="space-y-4">
      <AdminListPage config={config} />
    </section>
  );
}

function ShopHistory({ shopId }: { shopId: string }) {
  const [page, setPage] = useState(1);
  const entries = useQuery(managedActivityQuery(shopId, page));
  const settings = useQuery(settingsQuery);
  const headingId = useId();
  return (
    <section aria-labelledby={headingId} className="space-y-4">
      <div>
        <h2 id={headingId} className="text-xl font-bold tracking-tight text-slate-900">
          Recent history
        </h2>
        <p className="mt-1 text-sm text-slate-600">
          Every change to this shop, its products, offers and managers, newest first, with the mall office's
          decisions on offers.
        </p>
      </div>
      <AuditTrail
        entries={entries}
        page={page}
        pageSize={MANAGED_ACTIVITY_PAGE_SIZE}
        onPageChange={setPage}
        loadingLabel="Loading history"
        pagesLabel="History pages"
        timeZone={settings.data?.timeZone}
        linkRecords={false}
        empty={
          <EmptyState title="No changes yet." icon={<History aria-hidden="true" className="size-6" />} />
        }
      />
    </section>
  );
}
