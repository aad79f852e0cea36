import { useQueries } from '@tanstack/react-query';
import { GitCompareArrows, RefreshCw, Store, Trash2 } from 'lucide-react';
import { type ReactNode, useEffect, useRef, useState } from 'react';
import { Link } from 'react-router';
import { formatRupees } from '../../../shared/money';
import type { Product } from '../../../shared/product';
import { Badge } from '../../components/ui/badge';
import { Button, buttonClass } from '../../components/ui/button';
import { LoadingStatus } from '../../components/ui/loading-status';
import { Price } from '../../components/ui/price';
import { EmptyState } from '../../components/ui/query-states';
import { Skeleton } from '../../components/ui/skeleton';
import { useCompare } from '../../features/compare/compare-context';
import { type CompareRow, compareRows } from '../../features/compare/compare-rows';
import { Picture } from '../../features/images';
import { productQuery } from '../../features/products';
import { cn } from '../../lib/cn';
import { usePageTitle } from '../../lib/page-title';

const shopLinkClass =
  '-mx-1 inline-flex min-h-10 items-center rounded-md px-1 font-medium wrap-anywhere text-indigo-700 hover:underline focus-visible:outline-2 focus-visible:outline-indigo-600';

const GONE_TEXT = 'No longer available';
const GONE_HELP = 'The mall no longer sells this product, so it is left out of the comparison.';

/** The table's column headers; the price's stays on one line. */
const COLUMNS = ['Product', 'Description', 'Price (₹)', 'Shop', 'Remove'];

/** The product's photo, when it has one. */
function ProductPhoto({ product, sizes, className }: { product: Product; sizes: string; className: string }) {
  return product.image ? (
    <Picture image={product.image} name={product.name} sizes={sizes} className={className} />
  ) : null;
}

/** The product's shop: its logo and the link to its page (smaller, and the logo unnamed, on the cards). */
function ShopOf({ product, small = false }: { product: Product; small?: boolean }) {
  return (
    <span className={cn('flex items-center gap-2', small && 'min-w-0')}>
      <Picture
        image={product.shopLogo}
        name={product.shopName}
        sizes={small ? '1.5rem' : '2rem'}
        fit="contain"
        decorative={small}
        className={cn(
          'shrink-0 border border-slate-100 bg-white',
          small ? 'size-6 rounded text-[0.6rem]' : 'size-8 rounded-md text-xs',
        )}
      />
      <Link to={`/user/shops/${product.shopId}`} className={shopLinkClass}>
        {product.shopName}
      </Link>
    </span>
  );
}

/** The row's product name when known (a deleted product is known only if read earlier on this page). */
function rowName(row: CompareRow): string | null {
  if (row.kind === 'product') return row.product.name;
  if (row.kind === 'loading') return null;
  return row.name;
}

function removeLabel(row: CompareRow): string {
  const name = rowName(row);
  if (name) return `Remove ${name}`;
  return row.kind === 'gone' ? 'Remove unavailable product' : 'Remove product';
}

export function ComparePage() {
  usePageTitle('Compare Products');
  const { items: ids, remove } = useCompare();
  // One read per product, each time the screen opens (staleTime 0): the list keeps only ids, so
  // prices, offers and deletions show as the server has them now. The server caches these reads.
  const answers = useQueries({ queries: ids.map((id) => ({ ...productQuery(id), staleTime: 0 })) });
  const rows = compareRows(ids, answers);
  const loading = rows.some((row) => row.kind === 'loading');

  const listRef = useRef<HTMLDivElement>(null);
  const browseLink = useRef<HTMLAnchorElement>(null);
  // the focused Remove button disappears with its row; focus moves to the next row's button (or
  // the previous one, or the empty state's link) instead of falling back to the page.
  const [focusIndex, setFocusIndex] = useState<number | null>(null);
  const [announcement, setAnnouncement] = useState('');

  useEffect(() => {
    if (focusIndex === null) return;
    setFocusIndex(null);
    const next = ids[Math.min(focusIndex, ids.length - 1)];
    if (!next) {
      browseLink.current?.focus();
      return;
    }
    // The table (wide screens) and the cards (phones) both have the button; focus the one shown.
    const buttons = listRef.current?.querySelectorAll<HTMLButtonElement>('button[data-remove]') ?? [];
    for (const button of buttons) {
      if (button.dataset.remove === next && button.offsetParent !== null) button.focus();
    }
  }, [focusIndex, ids]);

  function handleRemove(index: number, row: CompareRow) {
    remove(row.id);
    setAnnouncement(`${rowName(row) ?? 'Product'} removed from comparison.`);
    setFocusIndex(index);
  }

  function removeButton(row: CompareRow, index: number, className?: string) {
    return (
      <Button
        data-remove={row.id}
        variant="secondary"
        className={cn('min-h-10', className)}
        aria-label={removeLabel(row)}
        onClick={() => handleRemove(index, row)}
      >
        <Trash2 aria-hidden="true" className="size-4" />
        Remove
      </Button>
    );
  }

  function retryButton(index: number) {
    const answer = answers[index];
    const retrying = answer?.isFetching ?? false;
    return (
      <Button
        variant="secondary"
        className="min-h-10"
        disabled={retrying}
        onClick={() => void answer?.refetch()}
      >
        <RefreshCw aria-hidden="true" className={cn('size-4', retrying && 'animate-spin')} />
        Try again
      </Button>
    );
  }

  function price(row: Extract<CompareRow, { kind: 'product' }>) {
    const { product } = row;
    return (
      <>
        <Price price={product.price} discountedPrice={product.offerPrice} format={formatRupees} />
        {product.offerPrice && product.offer ? (
          <p className="mt-0.5 text-xs text-slate-500">{product.offer.discount}% off</p>
        ) : null}
        {row.lowest ? (
          // A block of its own: beside a price without an offer it would run into the figure.
          <div className="mt-1.5">
            <Badge tone="green">Lowest price</Badge>
          </div>
        ) : null}
      </>
    );
  }

  /** The table row of a product that could not be shown: one message across the middle columns. */
  function messageRow(row: CompareRow, index: number, title: ReactNode, message: ReactNode) {
    return (
      <tr key={row.id} className="align-top">
        <th scope="row" className="w-48 px-4 py-4 font-semibold wrap-anywhere text-slate-500">
          {title}
        </th>
        <td colSpan={3} className="px-4 py-4 text-slate-600">
          {message}
        </td>
        <td className="px-4 py-3">{removeButton(row, index)}</td>
      </tr>
    );
  }

  function tableRow(row: CompareRow, index: number) {
    switch (row.kind) {
      case 'loading':
        return (
          <tr key={row.id} className="align-top">
            <th scope="row" className="w-48 px-4 py-4">
              <Skeleton className="h-5 w-32" />
            </th>
            <td className="px-4 py-4">
              <Skeleton className="h-4 w-48" />
            </td>
            <td className="px-4 py-4">
              <Skeleton className="h-5 w-24" />
            </td>
            <td className="px-4 py-4">
              <Skeleton className="h-5 w-28" />
            </td>
            <td className="px-4 py-3">{removeButton(row, index)}</td>
          </tr>
        );
      case 'gone':
        return messageRow(
          row,
          index,
          <>
            {row.name ? <span className="block">{row.name}</span> : null}
            <Badge tone="amber" className={row.name ? 'mt-1.5' : undefined}>
              {GONE_TEXT}
            </Badge>
          </>,
          GONE_HELP,
        );
      case 'error':
        return messageRow(
          row,
          index,
          row.name ?? 'Could not load this product',
          <div role="alert" className="text-red-700">
            <p className="font-medium">{row.message}</p>
            <div className="mt-2">{retryButton(index)}</div>
          </div>,
        );
      case 'product': {
        const { product } = row;
        return (
          <tr key={row.id} className="align-top">
            <th scope="row" className="w-48 px-4 py-4 font-semibold wrap-anywhere text-slate-900">
              <ProductPhoto product={product} sizes="6rem" className="mb-2 aspect-[4/3] w-24 rounded-lg" />
              {product.name}
            </th>
            <td className="min-w-48 px-4 py-4 wrap-anywhere text-slate-600">
              {product.description || <span className="text-slate-400">—</span>}
            </td>
            <td className="px-4 py-4 whitespace-nowrap">{price(row)}</td>
            <td className="px-4 py-2">
              <ShopOf product={product} />
            </td>
            <td className="px-4 py-3">{removeButton(row, index)}</td>
          </tr>
        );
      }
    }
  }

  function card(row: CompareRow, index: number) {
    const frame = 'rounded-2xl border border-slate-200 bg-white p-4 shadow-sm';
    switch (row.kind) {
      case 'loading':
        return (
          <article aria-label="Loading product" className={frame}>
            <div className="flex items-start justify-between gap-3">
              <Skeleton className="h-5 w-40" />
              <Skeleton className="h-5 w-20" />
            </div>
            <Skeleton className="mt-2 h-4 w-full" />
            <div className="mt-2 flex items-center justify-between gap-3">
              <Skeleton className="h-5 w-28" />
              {removeButton(row, index, 'shrink-0')}
            </div>
          </article>
        );
      case 'gone':
      case 'error':
        return (
          <article
            aria-label={row.name ?? (row.kind === 'gone' ? GONE_TEXT : 'Could not load this product')}
            className={frame}
          >
            {row.name || row.kind === 'error' ? (
              <h2 className="font-semibold wrap-anywhere text-slate-500">
                {row.name ?? 'Could not load this product'}
              </h2>
            ) : null}
            {row.kind === 'gone' ? (
              <>
                <Badge tone="amber" className={row.name ? 'mt-1.5' : undefined}>
                  {GONE_TEXT}
                </Badge>
                <p className="mt-1.5 text-sm text-slate-600">{GONE_HELP}</p>
              </>
            ) : (
              <div role="alert" className="mt-1 text-sm text-red-700">
                <p className="font-medium">{row.message}</p>
              </div>
            )}
            <div className="mt-3 flex flex-wrap items-center justify-end gap-3">
              {row.kind === 'error' ? retryButton(index) : null}
              {removeButton(row, index, 'shrink-0')}
            </div>
          </article>
        );
      case 'product': {
        const { product } = row;
        return (
          <article aria-label={product.name} className={frame}>
            <div className="flex items-start gap-3">
              <ProductPhoto
                product={product}
                sizes="4rem"
                className="aspect-square w-16 shrink-0 rounded-lg"
              />
              {/* The price goes under a name that does not fit beside it, instead of the name breaking
                  inside a word ("AirBoo / k 14"). */}
              <div className="flex min-w-0 flex-1 flex-wrap items-start justify-between gap-x-3 gap-y-1">
                <h2 className="min-w-0 font-semibold wrap-anywhere text-slate-900">{product.name}</h2>
                <div className="ml-auto shrink-0 text-right">{price(row)}</div>
              </div>
            </div>
            {product.description ? (
              <p className="mt-1 text-sm wrap-anywhere text-slate-600">{product.description}</p>
            ) : null}
            <div className="mt-2 flex items-center justify-between gap-3 text-sm">
              <ShopOf product={product} small />
              {removeButton(row, index, 'shrink-0')}
            </div>
          </article>
        );
      }
    }
  }

  return (
    <div className="space-y-6">
      <div>
        <div className="flex items-center gap-3">
          <h1 className="text-2xl font-bold tracking-tight text-slate-900 sm:text-3xl">Compare Products</h1>
          {loading ? <LoadingStatus label="Loading products" /> : null}
        </div>
        <p className="mt-1 text-sm text-slate-600">
          Products you add from a shop's page stay here while this tab is open.
        </p>
      </div>
      <p className="sr-only" aria-live="polite">
        {announcement}
      </p>

      {rows.length === 0 ? (
        <EmptyState
          title="No products selected for comparison"
          icon={<GitCompareArrows aria-hidden="true" className="size-6" />}
        >
          <p>Open a shop and press Compare on the products you are choosing between.</p>
          <Link ref={browseLink} to="/user/shops" className={buttonClass('primary', 'md', 'min-h-10')}>
            <Store aria-hidden="true" className="size-4" />
            Browse Shops
          </Link>
        </EmptyState>
      ) : (
        <div ref={listRef}>
          {/* Wide screens: the table. */}
          <div className="hidden overflow-x-auto rounded-2xl border border-slate-200 bg-white shadow-sm sm:block">
            <table className="w-full text-left text-sm">
              <caption className="sr-only">Products selected for comparison</caption>
              <thead className="bg-slate-50 text-xs font-semibold tracking-wide text-slate-500 uppercase">
                <tr>
                  {COLUMNS.map((column) => (
                    <th
                      key={column}
                      scope="col"
                      className={cn('px-4 py-3', column === 'Price (₹)' && 'whitespace-nowrap')}
                    >
                      {column}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody className="divide-y divide-slate-100">{rows.map(tableRow)}</tbody>
            </table>
          </div>

          {/* Phones: the same facts as cards, so nothing scrolls sideways. */}
          <ul aria-label="Products selected for comparison" className="space-y-3 sm:hidden">
            {rows.map((row, index) => (
              <li key={row.id}>{card(row, index)}</li>
            ))}
          </ul>
        </div>
      )}
    </div>
  );
}
