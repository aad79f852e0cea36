import { type SQL, sql } from 'drizzle-orm';
import {
  SEARCH_CAP,
  SEARCH_KINDS,
  type SearchKind,
  type SearchOffer,
  type SearchProduct,
  type SearchResults,
  type SearchShop,
} from '../../../shared/search';
import type { Db } from '../../db/client';
import { approvedOnly } from '../offers/repository';
import { activeOn } from '../offers/rules';
import { synonymRepository } from '../synonyms/repository';
import { searchKey, Vocabulary, wordsOf } from './vocabulary';

/** Words of a search taken into account; the rest are ignored (a pasted paragraph is not a search). */
const MAX_WORDS = 8;

/**
 * The whole search, folded by the database (mall_fold, migration 0010), for ranking: exact, prefix and
 * word-prefix patterns, LIKE wildcards escaped.
 */
function term(q: string): SQL {
  return sql`term as materialized (
    select f, esc || '%' as prefix, '% ' || esc || '%' as word_prefix, '%' || esc || '%' as contains
      from (select f, replace(replace(replace(f, '\\', '\\\\'), '%', '\\%'), '_', '\\_') as esc
              from (select mall_fold(${q}::text) as f) folded) escaped)`;
}

/**
 * "This folded column contains every word", each word's pattern written out from its parameter: every
 * function in it is immutable, so the planner folds the pattern into a constant and estimates how many
 * rows match — a scan that stops at the first few hundred for a common word, the trigram index for a
 * rare one.
 */
function containsAll(words: readonly string[]) {
  return (folded: SQL): SQL =>
    sql`(${sql.join(
      words.map(
        (word) =>
          sql`${folded} like ('%' || replace(replace(replace(mall_fold(${word}::text), '\\', '\\\\'), '%', '\\%'), '_', '\\_') || '%')`,
      ),
      sql` and `,
    )})`;
}
const anyOf = (conditions: SQL[]): SQL => sql`(${sql.join(conditions, sql` or `)})`;

/**
 * How well a folded column matches the whole search: exact 4, the whole starts with it 3, a word does 2,
 * it contains it 1, else 0 (the words only, apart) — plus the trigram likeness (0–1): exact and prefix
 * matches first, then the closer ones.
 */
function score(folded: SQL): SQL {
  return sql`(${tier(folded)} + word_similarity(term.f, ${folded}))`;
}

/** The tier alone: for long text (a shop's description), where the likeness would cost more than it tells. */
function tier(folded: SQL): SQL {
  return sql`(case when ${folded} = term.f then 4
                   when ${folded} like term.prefix then 3
                   when ' ' || ${folded} like term.word_prefix then 2
                   when ${folded} like term.contains then 1
                   else 0 end)`;
}

export interface GroupPage<T> {
  items: T[];
  total: number;
  totalCapped: boolean;
  page: number;
  pageSize: number;
}

interface GroupQuery {
  /** The ids of the rows that have every word in one of their searched columns (served by their indexes). */
  matches: SQL;
  /** `id, sort_name, score` of every candidate (`candidates` holds the ids; `term` and `cats` are in scope). */
  ranked: (candidates: SQL) => SQL;
  /** The page's items, from `paged` (id, rank), with what the answer shows (names of shops…). */
  items: (paged: SQL) => SQL;
}

const CAP = SEARCH_CAP + 1;

/**
 * One group's common table expressions: the first SEARCH_CAP + 1 matching rows (found in no particular
 * order), ranked, and the page cut out. With more matches than that the count says "100+" and the
 * ranking is among those found first: a longer search narrows it.
 */
function groupCtes(kind: SearchKind, words: number, query: GroupQuery, page: number, pageSize: number): SQL {
  // Several words are rarely all in one name, however common each is; seeing the LIMIT, the planner
  // expects the first matches soon and scans the table — to its end when they are few (365 ms for
  // "smart green tea" over 200,000 products). Behind OFFSET 0 it plans for every match: the trigram
  // index for a rare combination. One word keeps the LIMIT in sight: a common word is found sooner by
  // the scan that stops at the first 101.
  const fence = words > 1 ? sql` offset 0` : sql``;
  const candidates = raw(`${kind}_candidates`);
  const ranked = raw(`${kind}_ranked`);
  const paged = raw(`${kind}_paged`);
  return sql`
    ${candidates} as materialized (select id from (${query.matches}${fence}) x limit ${CAP}),
    ${ranked} as materialized (${query.ranked(candidates)}),
    ${paged} as materialized (
      select id, row_number() over (order by score desc, lower(sort_name), id) as rank
        from ${ranked} order by score desc, lower(sort_name), id
       limit ${pageSize} offset ${(page - 1) * pageSize})`;
}

/** The columns one group adds to the answer's single row: its count and its page as JSON. */
function groupColumns(kind: SearchKind, query: GroupQuery): SQL {
  const ranked = raw(`${kind}_ranked`);
  const paged = raw(`${kind}_paged`);
  return sql`(select count(*) from ${ranked})::int as ${raw(`${kind}_n`)},
           (select json_agg(row_to_json(items) order by items.rank) from (${query.items(paged)}) items)
             as ${raw(`${kind}_items`)}`;
}

function groupPage<T>(
  row: Record<string, unknown>,
  kind: SearchKind,
  page: number,
  pageSize: number,
): GroupPage<T> {
  const n = (row[`${kind}_n`] as number | null) ?? 0;
  const items = ((row[`${kind}_items`] as Record<string, unknown>[] | null) ?? []).map((item) => {
    const picked: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(item)) if (!INTERNAL.has(key)) picked[key] = value;
    return picked as T;
  });
  return { items, total: Math.min(n, SEARCH_CAP), totalCapped: n > SEARCH_CAP, page, pageSize };
}

/**
 * Every wanted group's page in one statement — one round trip and one plan — with the term and the folded
 * category names worked out once for all of them.
 */
async function searchGroups(
  db: Db,
  q: string,
  words: number,
  queries: Partial<Record<SearchKind, GroupQuery>>,
  page: number,
  pageSize: number,
): Promise<Partial<Record<SearchKind, GroupPage<unknown>>>> {
  const kinds = SEARCH_KINDS.filter((kind) => queries[kind]);
  const ctes = kinds.map((kind) => groupCtes(kind, words, queries[kind] as GroupQuery, page, pageSize));
  const columns = kinds.map((kind) => groupColumns(kind, queries[kind] as GroupQuery));
  const statement = sql`
    with ${term(q)},
    cats as materialized (select id, name, mall_fold(name) as f from categories),
    ${sql.join(ctes, sql`,`)}
    select ${sql.join(columns, sql`, `)}`;
  const { rows } = await db.execute<Record<string, unknown>>(statement);
  const row = rows[0] ?? {};
  return Object.fromEntries(kinds.map((kind) => [kind, groupPage(row, kind, page, pageSize)]));
}

/** Columns the ranking needs and the answer does not carry. */
const INTERNAL = new Set(['rank']);

const raw = (text: string) => sql.raw(text);

/**
 * Shops by name, category and description; a name match outranks a category one, that a description one.
 * The three are looked up apart and put together: in one condition joined by OR the planner reads every
 * shop's description (10–18 ms on the large mall, embedded); apart, each is one index's lookup.
 */
function shopsQuery(words: readonly string[]): GroupQuery {
  const contains = containsAll(words);
  return {
    matches: sql`select id from shops where ${contains(raw('search_name'))}
                 union select id from shops where ${contains(raw('search_description'))}
                 union select id from shops
                  where category_id = any(array(select c.id from cats c where ${contains(raw('c.f'))}))`,
    ranked: (candidates) => sql`
      select s.id, s.name as sort_name,
             greatest(${score(raw('s.search_name'))}, ${tier(raw('c.f'))} - 0.25,
                      ${tier(raw('s.search_description'))} - 0.5) as score
        from ${candidates} m join shops s on s.id = m.id join cats c on c.id = s.category_id, term`,
    items: (paged) => sql`
      select s.id, s.slug, s.name, c.name as category, f.name as floor, s.location, s.logo_image as logo, paged.rank
        from ${paged} paged join shops s on s.id = paged.id
        join cats c on c.id = s.category_id join floors f on f.id = s.floor_id`,
  };
}

/**
 * Products by name and category. A category is a word or two: its tier says enough, and the likeness —
 * a trigram comparison per candidate, the dearest part of the ranking — is worked out for the name only.
 */
function productsQuery(words: readonly string[]): GroupQuery {
  const contains = containsAll(words);
  return {
    matches: sql`select id from products
                  where ${anyOf([contains(raw('search_name')), contains(raw('search_category'))])}`,
    ranked: (candidates) => sql`
      select p.id, p.name as sort_name,
             greatest(${score(raw('p.search_name'))}, ${tier(raw('p.search_category'))} - 0.25) as score
        from ${candidates} m join products p on p.id = m.id, term`,
    items: (paged) => sql`
      select p.id, p.name, p.category, p.price::text as price, p.shop_id as "shopId", s.name as "shopName",
             p.image, paged.rank
        from ${paged} paged join products p on p.id = paged.id join shops s on s.id = p.shop_id`,
  };
}

/**
 * Offers by title: only approved ones running on the mall's `today`, as shoppers see them (offers/rules.ts;
 * a shop manager's offer waits for an admin: docs/decisions/015).
 */
function offersQuery(words: readonly string[], today: string): GroupQuery {
  return {
    matches: sql`select id from offers
                  where ${containsAll(words)(raw('search_title'))} and ${activeOn(today)} and ${approvedOnly}`,
    ranked: (candidates) => sql`
      select o.id, o.title as sort_name, ${score(raw('o.search_title'))} as score
        from ${candidates} m join offers o on o.id = m.id, term`,
    items: (paged) => sql`
      select o.id, o.title, o.discount, o.end_date::text as "endDate", o.shop_id as "shopId",
             s.name as "shopName", s.logo_image as "shopLogo", paged.rank
        from ${paged} paged join offers o on o.id = paged.id join shops s on s.id = o.shop_id`,
  };
}

/** The mall's words up to this many are read and built before the search that needs them is answered. */
const SMALL_VOCABULARY = 20_000;
/** More are rebuilt no sooner than this many times the last build's length after it started. */
const REBUILD_SPACING = 5;

/**
 * The words a search is corrected to, per directory version and mall date: the mall's words (table
 * search_words, kept by triggers: migration 0010) and the words of the approved offers running today.
 * Concurrent searches share one read.
 *
 * The mall's words are only ever added to, so while their count is the same they are the same: a change
 * that adds no word (a price, a description, a shop's hours — or a manager's burst of edits) reads one
 * count and today's offers' titles, and the words built before serve on (issue 31). A count that moved
 * rebuilds them, a slice at a time (Vocabulary.build). Up to SMALL_VOCABULARY words a search waits for
 * that, so a word added a moment ago is corrected to at once; more (a catalogue of product codes:
 * hundreds of thousands, about a second to build) are rebuilt in the background, at most once per
 * REBUILD_SPACING builds' time, while searches go on with the words there are.
 */
function vocabularyCache(db: Db) {
  let current: { key: string; words: Promise<Vocabulary> } | null = null;
  let mall: { count: number; words: Vocabulary } | null = null;
  let building: { count: number; words: Promise<Vocabulary> } | null = null;
  let lastStart = Number.NEGATIVE_INFINITY;
  let lastLength = 0;
  let later: NodeJS.Timeout | null = null;

  /** The mall's words, all of them read and built again. */
  function rebuild(count: number, background = false): Promise<Vocabulary> {
    lastStart = performance.now();
    const run = {
      count,
      words: (async () => {
        const { rows } = await db.execute<{ w: string }>(sql`select word as w from search_words`);
        // read into words a slice at a time too: 400,000 rows at once held the thread 40 ms
        function* words() {
          for (const row of rows) yield row.w;
        }
        const built = await Vocabulary.build(words());
        // what was read: a word added meanwhile moves the count again, and the next search rebuilds
        if (!mall || rows.length >= mall.count) {
          // built while searches went on with older words: the next search reads its version's again
          if (background) current = null;
          mall = { count: rows.length, words: built };
        }
        return built;
      })(),
    };
    building = run;
    run.words.then(
      () => {
        lastLength = performance.now() - lastStart;
        if (building === run) building = null;
      },
      // a failed read is not kept: the next search tries again
      () => {
        if (building === run) building = null;
      },
    );
    return run.words;
  }

  /** The mall's words when there are `count`: as built, being built, or built now. */
  function mallWords(count: number): Promise<Vocabulary> {
    if (mall?.count === count) return Promise.resolve(mall.words);
    if (building?.count === count) return building.words;
    if (!mall || mall.words.size <= SMALL_VOCABULARY) return rebuild(count);
    // not yet time: the rebuild is due then, whether or not another search comes
    const wait = lastStart + REBUILD_SPACING * lastLength - performance.now();
    if (!building && !later) {
      later = setTimeout(
        () => {
          later = null;
          rebuild(count, true).catch(() => undefined);
        },
        Math.max(0, wait),
      );
      later.unref();
    }
    return Promise.resolve(mall.words);
  }

  async function load(today: string): Promise<Vocabulary> {
    // The offers' titles are split here, not by the database: running offers share few distinct titles
    // (200 among 7,900 on the large mall), and splitting every one with a regular expression in SQL
    // kept the embedded database busy for 50–100 ms after each change to the directory.
    const { rows } = await db.execute<{ n: number; titles: string[] | null }>(sql`
      select (select count(*) from search_words)::int as n,
             (select array_agg(distinct search_title) from offers
               where ${activeOn(today)} and ${approvedOnly}) as titles`);
    const { n, titles } = rows[0] ?? { n: 0, titles: null };
    const offers = new Vocabulary((titles ?? []).flatMap((title) => wordsOf(title)));
    return (await mallWords(n)).with(offers);
  }

  return function vocabulary(version: string, today: string): Promise<Vocabulary> {
    const key = `${version} ${today}`;
    if (current?.key !== key) {
      const words = load(today);
      current = { key, words };
      // a failed read is not kept: the next search tries again
      words.catch(() => {
        if (current?.words === words) current = null;
      });
    }
    return current.words;
  };
}

/** Longest synonym term, in words, looked for at each place in a search. */
const SYNONYM_MAX_WORDS = 4;

/**
 * A search's folded words with each synonym's term replaced by what it stands for ("loo" → "toilets"),
 * the longest term first where several start at the same word; a replacement is not replaced again.
 */
export function withSynonyms(words: readonly string[], synonyms: ReadonlyMap<string, string>): string[] {
  if (synonyms.size === 0) return [...words];
  const out: string[] = [];
  let i = 0;
  while (i < words.length) {
    let matched = 0;
    for (let length = Math.min(SYNONYM_MAX_WORDS, words.length - i); length > 0; length--) {
      const replacement = synonyms.get(words.slice(i, i + length).join(' '));
      if (replacement !== undefined) {
        out.push(...wordsOf(replacement));
        matched = length;
        break;
      }
    }
    if (matched === 0) {
      out.push(words[i] as string);
      matched = 1;
    }
    i += matched;
  }
  return out;
}

/**
 * The synonyms, read once per directory version: adding one raises the version (migration 0017), so
 * every server reads them again at its next search. Concurrent searches share one read.
 */
function synonymCache(db: Db) {
  const repository = synonymRepository(db);
  let current: { version: string; map: Promise<Map<string, string>> } | null = null;
  return (version: string): Promise<Map<string, string>> => {
    if (current?.version !== version) {
      const map = repository.map();
      const seen = { version, map };
      current = seen;
      // a failed read is not kept: the next search tries again
      map.catch(() => {
        if (current === seen) current = null;
      });
    }
    return current.map;
  };
}

/** The mall-wide search's queries. */
export function searchRepository(db: Db) {
  const vocabulary = vocabularyCache(db);
  const synonyms = synonymCache(db);

  return {
    /**
     * Every group's first page (`kind` omitted) or one group's `page`, best match first. Words the mall
     * does not have are corrected to its nearest words first (typo tolerance); when nothing matches even
     * then, a "Did you mean …?" from the mall's words at a looser likeness.
     */
    async search(
      q: string,
      options: { kind?: SearchKind; page: number; pageSize: number; today: string; version: string },
    ): Promise<SearchResults> {
      const { kind, page, pageSize, today } = options;
      const [words, synonymMap] = await Promise.all([
        vocabulary(options.version, today),
        synonyms(options.version),
      ]);
      // the shopper's words in the mall's: a synonym's term replaced before typos are corrected
      const typed = withSynonyms(wordsOf(searchKey(q)), synonymMap).slice(0, MAX_WORDS);
      const corrected = words.correct(typed);
      const searched = corrected.join(' ');
      const n = corrected.length;
      const wanted = kind ? [kind] : SEARCH_KINDS;
      const queries: Partial<Record<SearchKind, GroupQuery>> = {};
      // A word no product or running offer has anywhere ("xm", a misspelt "xl" too short to correct):
      // those groups are empty without asking. Asked, a word of two letters has no trigram to look up,
      // and the database reads all 200,000 products to find none.
      const noItems = corrected.some((word) => words.rulesOut(word));
      // nothing to look for (only punctuation): every group is empty, and the database is not asked
      if (n > 0) {
        if (wanted.includes('shops')) queries.shops = shopsQuery(corrected);
        if (wanted.includes('products') && !noItems) queries.products = productsQuery(corrected);
        if (wanted.includes('offers') && !noItems) queries.offers = offersQuery(corrected, today);
      }
      const found =
        Object.keys(queries).length > 0 ? await searchGroups(db, searched, n, queries, page, pageSize) : {};
      const empty = { items: [], total: 0, totalCapped: false, page, pageSize };
      const groups = SEARCH_KINDS.map((k) => (wanted.includes(k) ? (found[k] ?? empty) : null));
      const [shops, products, offers] = groups as [
        GroupPage<SearchShop> | null,
        GroupPage<SearchProduct> | null,
        GroupPage<SearchOffer> | null,
      ];
      const anything = groups.some((group) => group && group.total > 0);
      const suggestion = anything || kind ? null : words.suggest(corrected);
      return {
        q,
        searched,
        ...(shops ? { shops } : {}),
        ...(products ? { products } : {}),
        ...(offers ? { offers } : {}),
        // a suggestion only when the whole search found nothing, not one group (?kind=)
        didYouMean: suggestion && suggestion !== searched ? suggestion : null,
      };
    },
  };
}
