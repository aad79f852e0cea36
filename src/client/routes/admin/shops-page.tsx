import { useQuery } from '@tanstack/react-query';
import type { Shop } from '../../../shared/shop';
import {
  type AdminListConfig,
  AdminListPage,
  adminPage,
  prefetchAdminList,
} from '../../components/admin-list-page';
import { TransferActions } from '../../features/imports';
import { shopDeleteConsequence, shopQuery, shopsQuery, useDeleteShop } from '../../features/shops';
import { errorMessage, isNotFound } from '../../lib/api';

const shops: AdminListConfig<Shop> = {
  title: 'Manage Shops',
  description: "The mall's shops, by name.",
  resource: 'shop',
  path: '/admin/shops',
  addLabel: 'Add New Shop',
  search: { label: 'Search shops', placeholder: 'Search by shop name' },
  singular: 'shop',
  plural: 'shops',
  query: (request) => shopsQuery(adminPage(request)),
  columns: [
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
  ],
  name: (shop) => shop.name,
  owner: (shop) => ({ shopId: shop.id }),
  useDelete: useDeleteShop,
  deleted: 'Shop deleted',
  transfer: {
    filters: (request) => ({ q: request.q || undefined }),
    render: (filters) => <TransferActions kind="shops" noun="shops" filters={filters} />,
  },
  useConfirmation: useShopDeleteConfirmation,
};

/** The confirmation names what goes with the shop: fresh counts, read when it opens. */
function useShopDeleteConfirmation(target: Shop | null) {
  const detail = useQuery({ ...shopQuery(target?.id ?? ''), enabled: target !== null, staleTime: 0 });
  return {
    title: target ? `Delete ${target.name}?` : '',
    description: detail.isSuccess ? (
      <p>{`${shopDeleteConsequence(detail.data)} This cannot be undone.`.trim()}</p>
    ) : detail.isError ? (
      <p className="text-red-600">
        {isNotFound(detail.error) ? 'This shop no longer exists.' : errorMessage(detail.error)}
      </p>
    ) : (
      <p>Counting its products and offers…</p>
    ),
    ready: detail.isSuccess && !detail.isFetching,
  };
}

export const prefetch = (search: URLSearchParams) => prefetchAdminList(shops, search);

export function ShopsPage() {
  return <AdminListPage config={shops} />;
}
