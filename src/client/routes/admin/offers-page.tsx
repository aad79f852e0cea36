import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { toast } from 'sonner';
import type { Offer } from '../../../shared/offer';
import {
  AddLink,
  AdminListTable,
  AdminPageHeader,
  RowActions,
  usePageInRange,
} from '../../components/admin-page';
import { ConfirmDialog } from '../../components/ui/confirm-dialog';
import type { Column } from '../../components/ui/data-table';
import { SearchField } from '../../components/ui/search-field';
import { OfferStatusBadge, offersQuery, useDeleteOffer } from '../../features/offers';
import { ShopFilter } from '../../features/shops';
import { errorMessage } from '../../lib/api';
import { formatDate } from '../../lib/format-date';
import { queryClient } from '../../lib/query-client';
import { readListParams, useListParams } from '../../lib/use-list-params';

const PAGE_SIZE = 20;

function listQuery(q: string, shopId: string, page: number) {
  return offersQuery({ q: q || undefined, shopId: shopId || undefined, page, pageSize: PAGE_SIZE });
}

/** Starts this screen's reads from its URL before it renders (lib/lazy-route.tsx). */
export function prefetch(search: URLSearchParams): void {
  const { q, page } = readListParams(search);
  void queryClient.prefetchQuery(listQuery(q, search.get('shopId') ?? '', page));
}

export function OffersPage() {
  const list = useListParams();
  const shopId = list.filter('shopId');
  const offers = useQuery(listQuery(list.q, shopId, list.page));
  usePageInRange(offers.data, list.page, list.setPage);
  const remove = useDeleteOffer();
  const [target, setTarget] = useState<Offer | null>(null);

  async function confirmDelete() {
    if (!target) return;
    try {
      await remove.mutateAsync(target.id);
      toast.success('Offer deleted');
    } catch (error) {
      toast.error(errorMessage(error));
    } finally {
      setTarget(null);
    }
  }

  const columns: Column<Offer>[] = [
    {
      header: 'Title',
      cell: (offer) => (
        <div className="min-w-0">
          <p className="font-medium text-slate-900">{offer.title}</p>
          <p className="text-xs text-slate-500 lg:hidden">
            {offer.shopName || 'Unknown'} · until {formatDate(offer.endDate)}
          </p>
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
      cell: (offer) => <OfferStatusBadge offer={offer} />,
    },
    {
      header: 'Actions',
      srOnlyHeader: true,
      className: 'text-right',
      // the Edit and Delete buttons; icons only below sm
      width: 'w-30 sm:w-54',
      cell: (offer) => (
        <RowActions
          name={offer.title}
          editTo={`/admin/offers/${offer.id}`}
          onDelete={() => setTarget(offer)}
          deleting={remove.isPending && remove.variables === offer.id}
        />
      ),
    },
  ];

  return (
    <div className="space-y-6">
      <AdminPageHeader
        title="Manage Offers"
        description="Active offers first, then by end date."
        action={<AddLink to="/admin/offers/new">Add New Offer</AddLink>}
      />
      <div className="grid gap-4 sm:grid-cols-2 lg:max-w-3xl">
        <SearchField
          label="Search offers"
          placeholder="Search by offer title"
          value={list.text}
          onChange={(event) => list.setText(event.target.value)}
        />
        <ShopFilter value={shopId} onChange={(value) => list.setFilter('shopId', value)} />
      </div>

      <AdminListTable
        query={offers}
        columns={columns}
        page={list.page}
        pageSize={PAGE_SIZE}
        singular="offer"
        plural="offers"
        onPageChange={list.setPage}
      />

      <ConfirmDialog
        open={target !== null}
        title={target ? `Delete "${target.title}"?` : ''}
        description={<p>Products using it will no longer be on offer.</p>}
        pending={remove.isPending}
        onConfirm={confirmDelete}
        onCancel={() => setTarget(null)}
      />
    </div>
  );
}
