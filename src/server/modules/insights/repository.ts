import { sql } from 'drizzle-orm';
import type { InsightsReport, SearchRow, ShopInsights } from '../../../shared/insights';
import type { Db } from '../../db/client';

/** Rows in each "top" table of a report. */
export const TOP_ROWS = 20;
/** Searches that found nothing shown (each is searched again for what the mall has closest). */
export const EMPTY_ROWS = 20;

const VIEW_METRICS = ['shop_view', 'offer_view', 'product_view'];

interface Range {
  from: string;
  to: string;
}

const num = (value: unknown): number => Number(value ?? 0);

/** The report's reads over insight_counts (decision 035): sums per metric, item, text and day. */
export function insightsRepository(db: Db) {
  async function perDay(range: Range, metrics: string[], subjects?: SQLSubjects) {
    const { rows } = await db.execute<{ day: string; n: string }>(sql`
      select d::date::text as day, coalesce(sum(c.n), 0)::bigint as n
        from generate_series(${range.from}::date, ${range.to}::date, interval '1 day') d
        left join insight_counts c
          on c.day = d::date and c.metric in (${sql.join(
            metrics.map((metric) => sql`${metric}`),
            sql`, `,
          )}) ${subjects ? sql`and ${subjects}` : sql``}
       group by d order by d`);
    return rows.map((row) => ({ day: row.day, n: num(row.n) }));
  }

  async function totals(range: Range, subjects?: SQLSubjects): Promise<Record<string, number>> {
    const { rows } = await db.execute<{ metric: string; n: string }>(sql`
      select metric, sum(n)::bigint as n from insight_counts c
       where day between ${range.from}::date and ${range.to}::date ${subjects ? sql`and ${subjects}` : sql``}
       group by metric`);
    return Object.fromEntries(rows.map((row) => [row.metric, num(row.n)]));
  }

  async function top(range: Range, metric: string, names: 'shops' | 'offers' | 'products') {
    const name = names === 'offers' ? sql`o.title` : names === 'shops' ? sql`o.name` : sql`o.name`;
    const table = sql.raw(names);
    const { rows } = await db.execute<{ id: string; name: string | null; n: string }>(sql`
      select c.subject as id, ${name} as name, c.n from (
        select subject, sum(n)::bigint as n from insight_counts
         where metric = ${metric} and day between ${range.from}::date and ${range.to}::date
         group by subject order by sum(n) desc, subject limit ${TOP_ROWS}) c
      left join ${table} o on o.id::text = c.subject
      order by c.n desc, c.subject`);
    return rows.map((row) => ({ id: row.id, name: row.name ?? '(deleted)', n: num(row.n) }));
  }

  async function searches(range: Range, order: 'searches' | 'empty', limit: number): Promise<SearchRow[]> {
    const { rows } = await db.execute<Record<string, string>>(sql`
      select subject as text,
             sum(n) filter (where metric = 'search')::bigint as searches,
             coalesce(sum(n) filter (where metric = 'search_empty'), 0)::bigint as empty,
             coalesce(sum(n) filter (where metric = 'search_shops'), 0)::bigint as shops,
             coalesce(sum(n) filter (where metric = 'search_products'), 0)::bigint as products,
             coalesce(sum(n) filter (where metric = 'search_offers'), 0)::bigint as offers,
             coalesce(sum(n) filter (where metric = 'dym_offered'), 0)::bigint as offered,
             coalesce(sum(n) filter (where metric = 'dym_taken'), 0)::bigint as taken
        from insight_counts
       where subject <> '' and day between ${range.from}::date and ${range.to}::date
         and metric in ('search', 'search_empty', 'search_shops', 'search_products', 'search_offers',
                        'dym_offered', 'dym_taken')
       group by subject
      having sum(n) filter (where metric = 'search') > 0
         ${order === 'empty' ? sql`and sum(n) filter (where metric = 'search_empty') > 0` : sql``}
       order by ${order === 'empty' ? sql`empty` : sql`searches`} desc, subject
       limit ${limit}`);
    return rows.map((row) => {
      const n = num(row.searches);
      const average = (value: unknown) => Math.round((num(value) / Math.max(1, n)) * 10) / 10;
      return {
        text: row.text ?? '',
        searches: n,
        empty: num(row.empty),
        shops: average(row.shops),
        products: average(row.products),
        offers: average(row.offers),
        didYouMeanOffered: num(row.offered),
        didYouMeanTaken: num(row.taken),
      };
    });
  }

  return {
    /** The mall's report, less what the empty searches find now (the route adds it). */
    async report(range: Range): Promise<Omit<InsightsReport, 'emptySearches'> & { empty: SearchRow[] }> {
      const [all, views, searchDays, topShops, topOffers, topProducts, topSearches, empty, other] =
        await Promise.all([
          totals(range),
          perDay(range, VIEW_METRICS),
          perDay(range, ['search']),
          top(range, 'shop_view', 'shops'),
          top(range, 'offer_view', 'offers'),
          top(range, 'product_view', 'products'),
          searches(range, 'searches', TOP_ROWS),
          searches(range, 'empty', EMPTY_ROWS),
          db.execute<{ n: string }>(sql`
            select coalesce(sum(n), 0)::bigint as n from insight_counts
             where metric = 'search' and subject = '' and day between ${range.from}::date and ${range.to}::date`),
        ]);
      return {
        ...range,
        totals: all,
        viewsPerDay: views,
        searchesPerDay: searchDays,
        topShops,
        topOffers,
        topProducts,
        topSearches,
        empty,
        otherSearches: num(other.rows[0]?.n),
      };
    },

    /** One shop's numbers: its page's views and taps, and the views of its offers and products. */
    async shop(range: Range, shopId: string): Promise<ShopInsights> {
      const own = sql`(c.subject = ${shopId}
        or (c.metric = 'offer_view' and c.subject in (select id::text from offers where shop_id = ${shopId}))
        or (c.metric in ('product_view', 'compare_add')
            and c.subject in (select id::text from products where shop_id = ${shopId})))`;
      const [all, views] = await Promise.all([totals(range, own), perDay(range, ['shop_view'], own)]);
      return { ...range, shopId, totals: all, viewsPerDay: views };
    },
  };
}

type SQLSubjects = ReturnType<typeof sql>;
