import type { Offer } from '../../../shared/offer';
import {
  type AdminListConfig,
  AdminListPage,
  adminPage,
  prefetchAdminList,
} from '../../components/admin-list-page';
import { TransferActions } from '../../features/imports';
import { OfferStatusBadge, offersQuery, useDeleteOffer } from '../../features/offers';
import { shopFilter } from '../../features/shops';
import { formatDate } from '../../lib/format-date';
import { useMediaQuery } from '../../lib/use-media-query';

const offers: AdminListConfig<Offer> = {
  title: 'Manage Offers',
  description: 'Active offers first, then by end date.',
  resource: 'offer',
  path: '/admin/offers',
  addLabel: 'Add New Offer',
  search: { label: 'Search offers', placeholder: 'Search by offer title' },
  singular: 'offer',
  plural: 'offers',
  query: (request) => offersQuery({ ...adminPage(request), shopId: shopFilter.shopId(request) }),
  filters: shopFilter.render,
  columns: [
    {
      header: 'Title',
      cell: (offer) => (
        <div className="min-w-0">
          <p className="font-medium wrap-anywhere text-slate-900">{offer.title}</p>
          <p className="text-xs wrap-anywhere text-slate-600 lg:hidden">
            {offer.shopName || 'Unknown'} · until {formatDate(offer.endDate)}
          </p>
          <PhoneStatus offer={offer} />
        </div>
      ),
    },
    { header: 'Shop', className: 'hidden lg:table-cell', cell: (offer) => offer.shopName || 'Unknown' },
    {
      header: 'Discount',
      className: 'text-right tabular-nums',
      width: 'w-28',
      cell: (offer) => `${offer.discount}%`,
    },
    {
      header: 'Valid Until',
      className: 'hidden lg:table-cell whitespace-nowrap',
      width: 'w-36',
      cell: (offer) => formatDate(offer.endDate),
    },
    {
      header: 'Status',
      className: 'hidden sm:table-cell',
      width: 'w-32',
      cell: (offer) => <WideStatus offer={offer} />,
    },
  ],
  name: (offer) => offer.title,
  owner: (offer) => ({ shopId: offer.shopId }),
  useDelete: useDeleteOffer,
  deleted: 'Offer deleted',
  transfer: {
    filters: (request) => ({ q: request.q || undefined, shopId: shopFilter.shopId(request) }),
    render: (filters) => <TransferActions kind="offers" noun="offers" filters={filters} />,
  },
  useConfirmation: (target) => ({
    title: target ? `Delete "${target.title}"?` : '',
    description: <p>Products using it will no longer be on offer.</p>,
  }),
};

// The Status column is hidden on phones, where the status goes under the title instead: Active / Expired
// / Upcoming is what the list is read for. Rendered in one place only, so it is read once.
const SM = '(min-width: 40rem)';

function PhoneStatus({ offer }: { offer: Offer }) {
  return useMediaQuery(SM) ? null : (
    <div className="mt-1">
      <OfferStatusBadge offer={offer} />
    </div>
  );
}

function WideStatus({ offer }: { offer: Offer }) {
  return useMediaQuery(SM) ? <OfferStatusBadge offer={offer} /> : null;
}

export const prefetch = (search: URLSearchParams) => prefetchAdminList(offers, search);

export function OffersPage() {
  return <AdminListPage config={offers} />;
}
