import { type SQL, sql } from 'drizzle-orm';
import {
  SEARCH_KINDS,
  type SearchKind,
  type SearchOffer,
  type SearchProduct,
  type SearchResults,
  type SearchShop,
} from '../../../shared/search';
import { SEARCH_COUNT_CAP } from '../../../shared/text';
import type { Db } from '../../db/client';
import { activeOn } from '../offers/rules';

/**
 * How alike a search and a stretch of a name must be to count as a match (pg_trgm's word_similarity:
 * the share of the search's trigrams found in the best-matching stretch of the name). "samsng" in
 * "Samsung Galaxy" scores 0.57, "pixl point" in "Pixel Point" 0.62; unrelated words stay under 0.4.
 */
export const FUZZY_THRESHOLD = 0.55;
/** Looser, for "Did you mean …?" only: then the nearest of the mall's words is offered, not shown as a match. */
export const SUGGEST_THRESHOLD = 0.3;

/**
 * The search, folded (lower case, accents gone: mall_fold, migration 0007), with its LIKE patterns —
 * computed once per statement, before any row is compared. It first sets pg_trgm's threshold for this
 * statement's transaction only: every trigram comparison (`%>`) reads its argument from here, so the
 * setting is in place before the index is read. Never a session-wide SET: the embedded database runs
 * every request on one shared session (docs/decisions/016).
 */
function term(q: string, threshold: number): SQL {
  return sql`term as materialized (
    select set_config('pg_trgm.word_similarity_threshold', ${String(threshold)}, true) as threshold_set,
           f,
           esc || '%' as prefix,
           '% ' || esc || '%' as word_prefix,
           '%' || esc || '%' as contains
      from (select f, replace(replace(replace(f, '\\', '\\\\'), '%', '\\%'), '_', '\\_') as esc
              from (select mall_fold(${q}) as f) folded) escaped)`;
}

/** A folded column that matches the search: alike enough (trigram index), or containing it (same index). */
function matches(folded: SQL): SQL {
  return sql`(${folded} %> (select f from term) or ${folded} like (select contains from term))`;
}

/**
 * How well a folded column matches: exact 4, the whole starts with the search 3, a word does 2, it
 * contains it 1, else 0 — plus the trigram likeness (0–1), so that every exact or prefix match ranks
 * above every fuzzy one, and within a tier the closer spelling first.
 */
function score(folded: SQL): SQL {
  return sql`(case when ${folded} = term.f then 4
                   when ${folded} like term.prefix then 3
                   when ' ' || ${folded} like term.word_prefix then 2
                   when ${folded} like term.contains then 1
                   else 0 end + word_similarity(term.f, ${folded}))`;
}

type GroupRow<T> = {
  n: number;
  items: T[] | null;
};

export interface GroupPage<T> {
  items: T[];
  total: number;
  totalCapped: boolean;
  page: number;
  pageSize: number;
}

/**
 * One group's page: the first SEARCH_COUNT_CAP + 1 matches (the indexes find them in any order), ranked,
 * counted, and the page cut out of them — one statement, one round trip.
 */
async function groupPage<T>(
  db: Db,
  query: { candidates: SQL; ranked: SQL; threshold: number; q: string },
  page: number,
  pageSize: number,
): Promise<GroupPage<T>> {
  const { rows } = await db.execute<GroupRow<T>>(sql`
    with ${term(query.q, query.threshold)},
    candidates as materialized (${query.candidates} limit ${SEARCH_COUNT_CAP + 1}),
    ranked as materialized (${query.ranked})
    select (select count(*) from ranked)::int as n,
           (select json_agg(row_to_json(paged) order by paged.rank) from (
              select ranked.*, row_number() over (order by score desc, lower(sort_name), id) as rank
                from ranked order by score desc, lower(sort_name), id
               limit ${pageSize} offset ${(page - 1) * pageSize}) paged) as items`);
  const row = rows[0];
  const n = row?.n ?? 0;
  const items = (row?.items ?? []).map((item) => {
    const { score: _score, sort_name: _sortName, rank: _rank, ...rest } = item as Record<string, unknown>;
    return rest as T;
  });
  return {
    items,
    total: Math.min(n, SEARCH_COUNT_CAP),
    totalCapped: n > SEARCH_COUNT_CAP,
    page,
    pageSize,
  };
}

const fold = (column: string) => sql.raw(`mall_fold(${column})`);

/** Shops by name, category and description; a name match outranks a category one, that a description one. */
function shopsQuery(q: string) {
  const name = fold('s.name');
  const description = fold('s.description');
  const category = fold('c.name');
  return {
    q,
    threshold: FUZZY_THRESHOLD,
    candidates: sql`
      select s.id from shops s where ${matches(name)}
      union select s.id from shops s where ${matches(description)}
      union select s.id from shops s join categories c on c.id = s.category_id where ${matches(category)}`,
    ranked: sql`
      select s.id, s.name, c.name as category, f.name as floor, s.location, s.name as sort_name,
             greatest(${score(name)}, ${score(category)} - 0.25, ${score(description)} - 0.5) as score
        from candidates m join shops s on s.id = m.id
        join categories c on c.id = s.category_id join floors f on f.id = s.floor_id, term`,
  };
}

/** Products by name and category. */
function productsQuery(q: string) {
  const name = fold('p.name');
  const category = fold('p.category');
  return {
    q,
    threshold: FUZZY_THRESHOLD,
    candidates: sql`
      select p.id from products p where ${matches(name)}
      union select p.id from products p where ${matches(category)}`,
    ranked: sql`
      select p.id, p.name, p.category, p.price::text as price, p.shop_id as "shopId", s.name as "shopName",
             p.name as sort_name, greatest(${score(name)}, ${score(category)} - 0.25) as score
        from candidates m join products p on p.id = m.id join shops s on s.id = p.shop_id, term`,
  };
}

/** Offers by title: only those running on the mall's `today`, as shoppers see them (offers/rules.ts). */
function offersQuery(q: string, today: string) {
  const title = fold('offers.title');
  return {
    q,
    threshold: FUZZY_THRESHOLD,
    candidates: sql`select offers.id from offers where ${matches(title)} and ${activeOn(today)}`,
    ranked: sql`
      select offers.id, offers.title, offers.discount, offers.end_date::text as "endDate",
             offers.shop_id as "shopId", s.name as "shopName", offers.title as sort_name, ${score(title)} as score
        from candidates m join offers on offers.id = m.id join shops s on s.id = offers.shop_id, term`,
  };
}

/**
 * The nearest of the mall's own words to `word` — from shop, category, product and running offer names
 * alike enough to it — or null. A handful of candidates per table, each name split into words.
 */
async function nearestWord(db: Db, word: string, today: string): Promise<string | null> {
  const near = (folded: SQL) => sql`${folded} %> (select f from term)`;
  const { rows } = await db.execute<{ word: string }>(sql`
    with ${term(word, SUGGEST_THRESHOLD)},
    names as (
      (select mall_fold(name) as v from shops where ${near(fold('name'))} limit 20)
      union all (select mall_fold(name) from categories where ${near(fold('name'))} limit 20)
      union all (select mall_fold(name) from products where ${near(fold('name'))} limit 20)
      union all (select mall_fold(category) from products where ${near(fold('category'))} limit 20)
      union all (select mall_fold(title) from offers where ${near(fold('title'))} and ${activeOn(today)} limit 20)),
    words as (
      select distinct w from names, regexp_split_to_table(v, '[^[:alnum:]]+') as w where length(w) >= 2)
    select w as word from words, term
     where word_similarity(term.f, w) >= ${SUGGEST_THRESHOLD}
     order by similarity(w, term.f) desc, word_similarity(term.f, w) desc, w
     limit 1`);
  return rows[0]?.word ?? null;
}

/** The mall-wide search's queries. */
export function searchRepository(db: Db) {
  async function suggest(q: string, today: string): Promise<string | null> {
    const words = q.split(/\s+/).filter(Boolean).slice(0, 6);
    const { rows } = await db.execute<{ f: string }>(sql`select mall_fold(${words.join(' ')}) as f`);
    const folded = (rows[0]?.f ?? '').split(/\s+/).filter(Boolean);
    const nearest = await Promise.all(folded.map((word) => nearestWord(db, word, today)));
    const suggestion = folded.map((word, i) => nearest[i] ?? word).join(' ');
    return suggestion && suggestion !== folded.join(' ') ? suggestion : null;
  }

  return {
    /**
     * Every group's first page (`kind` omitted) or one group's `page`, best match first; when nothing
     * matched at all, a "Did you mean …?" from the mall's words.
     */
    async search(
      q: string,
      options: { kind?: SearchKind; page: number; pageSize: number; today: string },
    ): Promise<SearchResults> {
      const { kind, page, pageSize, today } = options;
      const wanted = kind ? [kind] : SEARCH_KINDS;
      const run = {
        shops: () => groupPage<SearchShop>(db, shopsQuery(q), page, pageSize),
        products: () => groupPage<SearchProduct>(db, productsQuery(q), page, pageSize),
        offers: () => groupPage<SearchOffer>(db, offersQuery(q, today), page, pageSize),
      };
      const groups = await Promise.all(
        SEARCH_KINDS.map((k) => (wanted.includes(k) ? run[k]() : Promise.resolve(null))),
      );
      const [shops, products, offers] = groups as [
        GroupPage<SearchShop> | null,
        GroupPage<SearchProduct> | null,
        GroupPage<SearchOffer> | null,
      ];
      const found = groups.some((group) => group && group.total > 0);
      return {
        q,
        ...(shops ? { shops } : {}),
        ...(products ? { products } : {}),
        ...(offers ? { offers } : {}),
        didYouMean: found || page > 1 ? null : await suggest(q, today),
      };
    },
  };
}
