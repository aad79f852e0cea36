import { GitCompareArrows, Store, Trash2 } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { Link } from 'react-router';
import { formatRupees } from '../../../shared/money';
import { Badge } from '../../components/ui/badge';
import { Button, buttonClass } from '../../components/ui/button';
import { Price } from '../../components/ui/price';
import { EmptyState } from '../../components/ui/query-states';
import { useCompare } from '../../features/compare/compare-context';
import { type CompareItem, lowestPriceIds } from '../../features/compare/compare-store';
import { cn } from '../../lib/cn';

const shopLinkClass =
  '-mx-1 inline-flex min-h-10 items-center rounded-md px-1 font-medium break-words text-indigo-700 hover:underline focus-visible:outline-2 focus-visible:outline-indigo-600';

export function ComparePage() {
  const { items, remove } = useCompare();
  const lowest = lowestPriceIds(items);
  const listRef = useRef<HTMLDivElement>(null);
  const browseLink = useRef<HTMLAnchorElement>(null);
  // the focused Remove button disappears with its row; focus moves to the next row's button (or
  // the previous one, or the empty state's link) instead of falling back to the page.
  const [focusIndex, setFocusIndex] = useState<number | null>(null);
  const [announcement, setAnnouncement] = useState('');

  useEffect(() => {
    if (focusIndex === null) return;
    setFocusIndex(null);
    const next = items[Math.min(focusIndex, items.length - 1)];
    if (!next) {
      browseLink.current?.focus();
      return;
    }
    // The table (wide screens) and the cards (phones) both have the button; focus the one shown.
    const buttons = listRef.current?.querySelectorAll<HTMLButtonElement>('button[data-remove]') ?? [];
    for (const button of buttons) {
      if (button.dataset.remove === next.id && button.offsetParent !== null) button.focus();
    }
  }, [focusIndex, items]);

  function handleRemove(index: number, item: CompareItem) {
    remove(item.id);
    setAnnouncement(`${item.name} removed from comparison.`);
    setFocusIndex(index);
  }

  function removeButton(item: CompareItem, index: number, className?: string) {
    return (
      <Button
        data-remove={item.id}
        variant="secondary"
        className={cn('min-h-10', className)}
        aria-label={`Remove ${item.name}`}
        onClick={() => handleRemove(index, item)}
      >
        <Trash2 aria-hidden="true" className="size-4" />
        Remove
      </Button>
    );
  }

  function price(item: CompareItem) {
    return (
      <>
        <Price price={item.price} discountedPrice={item.offerPrice} format={formatRupees} />
        {item.offerPrice && item.offer ? (
          <p className="mt-0.5 text-xs text-slate-500">{item.offer.discount}% off</p>
        ) : null}
        {lowest.has(item.id) ? (
          <Badge tone="green" className="mt-1.5">
            Lowest price
          </Badge>
        ) : null}
      </>
    );
  }

  return (
    <div className="space-y-6">
      <div>
        <h1 className="text-2xl font-bold tracking-tight text-slate-900 sm:text-3xl">Compare Products</h1>
        <p className="mt-1 text-sm text-slate-600">
          Products you add from a shop's page stay here while this tab is open.
        </p>
      </div>
      <p className="sr-only" aria-live="polite">
        {announcement}
      </p>

      {items.length === 0 ? (
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
                  <th scope="col" className="px-4 py-3">
                    Product
                  </th>
                  <th scope="col" className="px-4 py-3">
                    Description
                  </th>
                  <th scope="col" className="px-4 py-3 whitespace-nowrap">
                    Price (₹)
                  </th>
                  <th scope="col" className="px-4 py-3">
                    Shop
                  </th>
                  <th scope="col" className="px-4 py-3">
                    Remove
                  </th>
                </tr>
              </thead>
              <tbody className="divide-y divide-slate-100">
                {items.map((item, index) => (
                  <tr key={item.id} className="align-top">
                    <th scope="row" className="w-48 px-4 py-4 font-semibold break-words text-slate-900">
                      {item.name}
                    </th>
                    <td className="min-w-48 px-4 py-4 break-words text-slate-600">
                      {item.description || <span className="text-slate-400">—</span>}
                    </td>
                    <td className="px-4 py-4 whitespace-nowrap">{price(item)}</td>
                    <td className="px-4 py-2">
                      <Link to={`/user/shops/${item.shopId}`} className={shopLinkClass}>
                        {item.shopName}
                      </Link>
                    </td>
                    <td className="px-4 py-3">{removeButton(item, index)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>

          {/* Phones: the same facts as cards, so nothing scrolls sideways. */}
          <ul aria-label="Products selected for comparison" className="space-y-3 sm:hidden">
            {items.map((item, index) => (
              <li key={item.id}>
                <article
                  aria-label={item.name}
                  className="rounded-2xl border border-slate-200 bg-white p-4 shadow-sm"
                >
                  <div className="flex items-start justify-between gap-3">
                    <h2 className="min-w-0 font-semibold break-words text-slate-900">{item.name}</h2>
                    <div className="shrink-0 text-right">{price(item)}</div>
                  </div>
                  {item.description ? (
                    <p className="mt-1 text-sm break-words text-slate-600">{item.description}</p>
                  ) : null}
                  <div className="mt-2 flex items-center justify-between gap-3 text-sm">
                    <Link to={`/user/shops/${item.shopId}`} className={shopLinkClass}>
                      {item.shopName}
                    </Link>
                    {removeButton(item, index, 'shrink-0')}
                  </div>
                </article>
              </li>
            ))}
          </ul>
        </div>
      )}
    </div>
  );
}
