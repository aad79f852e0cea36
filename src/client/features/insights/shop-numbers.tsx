// A shop's own numbers for the last 30 days (its managers' page): views of its page, offers and
// products, compare additions and taps on its contact links, with views per day.
import { useQuery } from '@tanstack/react-query';
import type { ShopInsights } from '../../../shared/insights';
import { QueryView } from '../../components/ui/query-states';
import { shopInsightsQuery } from './api';
import { LazyDayChart } from './lazy-chart';

const FIGURES: ReadonlyArray<[keyof ShopInsights['totals'] & string, string]> = [
  ['shop_view', 'Page views'],
  ['offer_view', 'Offer views'],
  ['product_view', 'Product views'],
  ['compare_add', 'Added to compare'],
  ['tap_phone', 'Phone taps'],
  ['tap_email', 'Email taps'],
  ['tap_website', 'Website taps'],
];

export function ShopNumbers({ shopId }: { shopId: string }) {
  const numbers = useQuery(shopInsightsQuery(shopId));
  return (
    <section aria-labelledby="shop-numbers" className="space-y-4">
      <div>
        <h2 id="shop-numbers" className="text-xl font-bold tracking-tight text-slate-900">
          Your shop's numbers
        </h2>
        <p className="mt-1 text-sm text-slate-600">
          The last 30 days, counted without cookies and without knowing who (see the Privacy page).
        </p>
      </div>
      <QueryView query={numbers} loading={<div className="h-32 animate-pulse rounded-2xl bg-slate-100" />}>
        {(data) => (
          <>
            <dl className="grid grid-cols-2 gap-3 sm:grid-cols-4">
              {FIGURES.map(([metric, label]) => (
                <div key={metric} className="rounded-xl border border-slate-200 bg-white p-3 shadow-sm">
                  <dt className="text-xs font-medium text-slate-600">{label}</dt>
                  <dd className="mt-1 text-2xl font-semibold text-slate-900">{data.totals[metric] ?? 0}</dd>
                </div>
              ))}
            </dl>
            <LazyDayChart label="Page views per day" days={data.viewsPerDay} />
          </>
        )}
      </QueryView>
    </section>
  );
}
