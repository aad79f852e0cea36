import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { toast } from 'sonner';
import type { Shop } from '../../../shared/shop';
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
import { shopDeleteConsequence, shopQuery, shopsQuery, useDeleteShop } from '../../features/shops';
import { errorMessage, isNotFound } from '../../lib/api';
import { queryClient } from '../../lib/query-client';
import { readListParams, useListParams } from '../../lib/use-list-params';

const PAGE_SIZE = 20;

function listQuery(q: string, page: number) {
  return shopsQuery({ q: q || undefined, page, pageSize: PAGE_SIZE });
}

/** Starts this screen's reads from its URL before it renders (lib/lazy-route.tsx). */
export function prefetch(search: URLSearchParams): void {
  const { q, page } = readListParams(search);
  void queryClient.prefetchQuery(listQuery(q, page));
}

export function ShopsPage() {
  const list = useListParams();
  const shops = useQuery(listQuery(list.q, list.page));
  usePageInRange(shops.data, list.page, list.setPage);
  const remove = useDeleteShop();
  const [target, setTarget] = useState<Shop | null>(null);
  // fresh counts of what the delete takes with it, fetched when the confirmation opens.
  const detail = useQuery({ ...shopQuery(target?.id ?? ''), enabled: target !== null, staleTime: 0 });

  async function confirmDelete() {
    if (!target) return;
    try {
      await remove.mutateAsync(target.id);
      toast.success('Shop deleted');
    } catch (error) {
      toast.error(errorMessage(error));
    } finally {
      setTarget(null);
    }
  }

  const columns: Column<Shop>[] = [
    {
      header: 'Name',
      cell: (shop) => (
        <div className="min-w-0">
          <p className="font-medium text-slate-900">{shop.name}</p>
          {/* why: below lg the category and floor columns are hidden; show them under the name */}
          <p className="text-xs text-slate-500 lg:hidden">
            {shop.category} · {shop.floor}
          </p>
        </div>
      ),
    },
    { header: 'Category', className: 'hidden lg:table-cell', cell: (shop) => shop.category },
    { header: 'Floor', className: 'hidden lg:table-cell', cell: (shop) => shop.floor },
    {
      header: 'Actions',
      srOnlyHeader: true,
      className: 'text-right',
      // the Edit and Delete buttons; icons only below sm
      width: 'w-30 sm:w-54',
      cell: (shop) => (
        <RowActions
          name={shop.name}
          editTo={`/admin/shops/${shop.id}`}
          onDelete={() => setTarget(shop)}
          deleting={remove.isPending && remove.variables === shop.id}
        />
      ),
    },
  ];

  return (
    <div className="space-y-6">
      <AdminPageHeader
        title="Manage Shops"
        description="The mall's shops, by name."
        action={<AddLink to="/admin/shops/new">Add New Shop</AddLink>}
      />
      <div className="max-w-md">
        <SearchField
          label="Search shops"
          placeholder="Search by shop name"
          value={list.text}
          onChange={(event) => list.setText(event.target.value)}
        />
      </div>

      <AdminListTable
        query={shops}
        columns={columns}
        page={list.page}
        pageSize={PAGE_SIZE}
        singular="shop"
        plural="shops"
        onPageChange={list.setPage}
      />

      <ConfirmDialog
        open={target !== null}
        title={target ? `Delete ${target.name}?` : ''}
        description={
          detail.isSuccess ? (
            <p>{`${shopDeleteConsequence(detail.data)} This cannot be undone.`.trim()}</p>
          ) : detail.isError ? (
            <p className="text-red-600">
              {isNotFound(detail.error) ? 'This shop no longer exists.' : errorMessage(detail.error)}
            </p>
          ) : (
            <p>Counting its products and offers…</p>
          )
        }
        confirmDisabled={!detail.isSuccess || detail.isFetching}
        pending={remove.isPending}
        onConfirm={confirmDelete}
        onCancel={() => setTarget(null)}
      />
    </div>
  );
}
