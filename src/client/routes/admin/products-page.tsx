import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { toast } from 'sonner';
import { formatDollars } from '../../../shared/money';
import type { Product } from '../../../shared/product';
import {
  AddLink,
  AdminListTable,
  AdminPageHeader,
  RowActions,
  usePageInRange,
} from '../../components/admin-page';
import { Badge } from '../../components/ui/badge';
import { ConfirmDialog } from '../../components/ui/confirm-dialog';
import type { Column } from '../../components/ui/data-table';
import { SearchField } from '../../components/ui/search-field';
import { productsQuery, useDeleteProduct } from '../../features/products';
import { ShopFilter } from '../../features/shops';
import { errorMessage } from '../../lib/api';
import { queryClient } from '../../lib/query-client';
import { readListParams, useListParams } from '../../lib/use-list-params';

const PAGE_SIZE = 20;

function listQuery(q: string, shopId: string, page: number) {
  return productsQuery({ q: q || undefined, shopId: shopId || undefined, page, pageSize: PAGE_SIZE });
}

/** Starts this screen's reads from its URL before it renders (lib/lazy-route.tsx). */
export function prefetch(search: URLSearchParams): void {
  const { q, page } = readListParams(search);
  void queryClient.prefetchQuery(listQuery(q, search.get('shopId') ?? '', page));
}

export function ProductsPage() {
  const list = useListParams();
  const shopId = list.filter('shopId');
  const products = useQuery(listQuery(list.q, shopId, list.page));
  usePageInRange(products.data, list.page, list.setPage);
  const remove = useDeleteProduct();
  const [target, setTarget] = useState<Product | null>(null);

  async function confirmDelete() {
    if (!target) return;
    try {
      await remove.mutateAsync(target.id);
      toast.success('Product deleted');
    } catch (error) {
      toast.error(errorMessage(error));
    } finally {
      setTarget(null);
    }
  }

  const columns: Column<Product>[] = [
    {
      header: 'Name',
      cell: (product) => (
        <div className="min-w-0">
          <p className="font-medium text-slate-900">
            {product.name}
            {product.offer ? (
              <Badge tone="green" className="ml-2 align-middle">
                {product.offer.discount}% off
              </Badge>
            ) : null}
          </p>
          <p className="text-xs text-slate-500 lg:hidden">{product.shopName || 'Unknown'}</p>
        </div>
      ),
    },
    { header: 'Shop', className: 'hidden lg:table-cell', cell: (product) => product.shopName || 'Unknown' },
    {
      header: 'Price',
      className: 'text-right whitespace-nowrap tabular-nums',
      width: 'w-28',
      cell: (product) => formatDollars(product.price),
    },
    {
      header: 'Category',
      className: 'hidden lg:table-cell',
      cell: (product) => product.category || <span className="text-slate-400">—</span>,
    },
    {
      header: 'Actions',
      srOnlyHeader: true,
      className: 'text-right',
      // the Edit and Delete buttons; icons only below sm
      width: 'w-30 sm:w-54',
      cell: (product) => (
        <RowActions
          name={product.name}
          editTo={`/admin/products/${product.id}`}
          onDelete={() => setTarget(product)}
          deleting={remove.isPending && remove.variables === product.id}
        />
      ),
    },
  ];

  return (
    <div className="space-y-6">
      <AdminPageHeader
        title="Manage Products"
        description="Every shop's products, by name."
        action={<AddLink to="/admin/products/new">Add New Product</AddLink>}
      />
      <div className="grid gap-4 sm:grid-cols-2 lg:max-w-3xl">
        <SearchField
          label="Search products"
          placeholder="Search by product name"
          value={list.text}
          onChange={(event) => list.setText(event.target.value)}
        />
        <ShopFilter value={shopId} onChange={(value) => list.setFilter('shopId', value)} />
      </div>

      <AdminListTable
        query={products}
        columns={columns}
        page={list.page}
        pageSize={PAGE_SIZE}
        singular="product"
        plural="products"
        onPageChange={list.setPage}
      />

      <ConfirmDialog
        open={target !== null}
        title={target ? `Delete ${target.name}?` : ''}
        description={<p>This cannot be undone.</p>}
        pending={remove.isPending}
        onConfirm={confirmDelete}
        onCancel={() => setTarget(null)}
      />
    </div>
  );
}
