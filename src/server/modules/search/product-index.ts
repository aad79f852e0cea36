// The products' words in memory, for the embedded database (docs/decisions/016): a search's products
// are found here and the database is handed their ids, so the single embedded session ranks a hundred
// rows by primary key instead of intersecting long trigram posting lists (8 ms for "organic mug").

import { setImmediate as nextTurn } from 'node:timers/promises';
import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client';

/** Words the index answers for: ASCII letters and digits, which mall_fold leaves as they are. */
const INDEXABLE = /^[a-z0-9]+$/;
/** A folded column's runs of ASCII letters and digits: an indexable word found in it lies inside one. */
const RUNS = /[a-z0-9]+/g;

/**
 * Above this many postings to read, the products are scanned in table order instead, until enough
 * match: a common word ("e") is in most names, and its first hundred are near the table's start.
 */
const SCAN_FROM = 20_000;

/** A physical position (ctid "(block,offset)") as one sortable number. */
function position(ctid: string): number {
  const comma = ctid.indexOf(',');
  return Number(ctid.slice(1, comma)) * 65_536 + Number(ctid.slice(comma + 1, -1));
}

export type ProductRow = {
  id: string;
  /** `(block,offset)`: where the row lies in the table. */
  ctid: string;
  /** The folded name and category, as the generated columns search_name and search_category hold them. */
  name: string;
  category: string;
};

/**
 * Which products have every word of a search in their folded name, or every one in their folded
 * category — `LIKE '%word%'` as the database tests it — in the order a scan of the table meets them.
 * The database, asked for the first 101 matches, returns them in that order (a sequential or a bitmap
 * scan reads the table from its start), so the first 101 here are the rows it would rank.
 */
export class ProductIndex {
  private readonly ids: string[];
  private readonly runs: string[];
  /** Each run's products: `runPostings[runPostingStarts[run] … runPostingStarts[run + 1]]`. */
  private readonly runPostings: Int32Array;
  private readonly runPostingStarts: Int32Array;
  private readonly categories: string[];
  private readonly categoryPostings: Int32Array[];
  private readonly runStarts: Int32Array;
  private readonly runsOf: Int32Array;
  private readonly categoryOf: Int32Array;
  /** Scratch marks, one per product (a search is synchronous: nothing else uses it meanwhile). */
  private readonly marks: Uint8Array;

  constructor(parts: ProductIndexParts) {
    this.ids = parts.ids;
    this.runs = parts.runs;
    this.runPostings = parts.runPostings;
    this.runPostingStarts = parts.runPostingStarts;
    this.categories = parts.categories;
    this.categoryPostings = parts.categoryPostings;
    this.runStarts = parts.runStarts;
    this.runsOf = parts.runsOf;
    this.categoryOf = parts.categoryOf;
    this.marks = new Uint8Array(parts.ids.length);
  }

  /** The index of these rows, in any order. */
  static of(rows: readonly ProductRow[]): ProductIndex {
    const builder = new ProductIndexBuilder();
    builder.add(rows);
    return builder.finish();
  }

  get size(): number {
    return this.ids.length;
  }

  /** True when the index can answer for these words (each made only of ASCII letters and digits). */
  static answers(words: readonly string[]): boolean {
    return words.length > 0 && words.every((word) => INDEXABLE.test(word));
  }

  /** The ids of the first `cap` matching products in table order. */
  candidates(words: readonly string[], cap: number): string[] {
    // Which runs hold each word, and which categories hold them all.
    const runHits = words.map((word) => this.runs.map((run) => run.includes(word)));
    const categoryHits = this.categories.map((category) => words.every((word) => category.includes(word)));
    // The postings each way would read: the rarest word's runs' and the matching categories'.
    const postings = runHits.map((hits) =>
      this.postingsOf(hits, (run) =>
        this.runPostings.subarray(this.runPostingStarts[run], this.runPostingStarts[run + 1]),
      ),
    );
    postings.sort((a, b) => a.total - b.total);
    const byCategory = this.postingsOf(
      categoryHits,
      (category) => this.categoryPostings[category] as Int32Array,
    );
    const work = (postings[0]?.total ?? 0) + byCategory.total;
    const places =
      work <= SCAN_FROM
        ? this.fromPostings(postings, byCategory.lists)
        : this.scan(runHits, categoryHits, cap);
    return places
      .sort((a, b) => a - b)
      .slice(0, cap)
      .map((place) => this.ids[place] as string);
  }

  private postingsOf(
    hits: boolean[],
    listOf: (i: number) => Int32Array,
  ): { lists: Int32Array[]; total: number } {
    const lists: Int32Array[] = [];
    let total = 0;
    hits.forEach((hit, i) => {
      if (!hit) return;
      const list = listOf(i);
      lists.push(list);
      total += list.length;
    });
    return { lists, total };
  }

  /**
   * Few postings (a rare word): the products whose name has every word — a product's mark counts the
   * words found so far, k after the k rarest — and those of the matching categories.
   */
  private fromPostings(words: { lists: Int32Array[] }[], categories: Int32Array[]): number[] {
    const marks = this.marks;
    const out = new Set<number>();
    try {
      words.forEach(({ lists }, k) => {
        const last = k === words.length - 1;
        for (const list of lists)
          for (const place of list)
            if (marks[place] === k) {
              marks[place] = k + 1;
              if (last) out.add(place);
            }
      });
    } finally {
      // only the rarest word's products can carry a mark
      for (const list of words[0]?.lists ?? []) for (const place of list) marks[place] = 0;
    }
    for (const list of categories) for (const place of list) out.add(place);
    return [...out];
  }

  /** Many postings (a common word): the products in table order, until `cap` match. */
  private scan(runHits: boolean[][], categoryHits: boolean[], cap: number): number[] {
    const out: number[] = [];
    for (let place = 0; place < this.ids.length && out.length < cap; place++) {
      if (categoryHits[this.categoryOf[place] as number]) {
        out.push(place);
        continue;
      }
      const from = this.runStarts[place] as number;
      const to = this.runStarts[place + 1] as number;
      let all = true;
      for (const hits of runHits) {
        let found = false;
        for (let at = from; at < to && !found; at++) found = hits[this.runsOf[at] as number] === true;
        if (!found) {
          all = false;
          break;
        }
      }
      if (all) out.push(place);
    }
    return out;
  }
}

interface ProductIndexParts {
  /** Product ids by their place in the table. */
  ids: string[];
  /** Each run of letters and digits of the names, with the products (places, ascending) it is in. */
  runs: string[];
  /**
   * The products (places, ascending) of each run, all runs' lists end to end:
   * `runPostings[runPostingStarts[run] … runPostingStarts[run + 1]]` — one array, not one per run
   * (names with codes or numbers have hundreds of thousands of distinct runs).
   */
  runPostings: Int32Array;
  runPostingStarts: Int32Array;
  categories: string[];
  categoryPostings: Int32Array[];
  /** Each product's runs (indexes into `runs`): `runsOf[runStarts[place] … runStarts[place + 1]]`. */
  runStarts: Int32Array;
  runsOf: Int32Array;
  /** Each product's category (index into `categories`). */
  categoryOf: Int32Array;
}

/** Entries of the index's arrays handled per turn of the event loop while a build finishes. */
const FINISH_SLICE = 20_000;

/** Builds the index batch by batch, the batches in table order (rows within one in any order). */
export class ProductIndexBuilder {
  private readonly ids: string[] = [];
  private readonly runStarts: number[] = [];
  private readonly runsOf: number[] = [];
  private readonly categoryOf: number[] = [];
  /** Each run's number (its index into `runs`); its products are found from `runsOf` at the end. */
  private readonly runAt = new Map<string, number>();
  private readonly byCategory = new Map<string, { at: number; places: number[] }>();

  add(rows: readonly ProductRow[]): void {
    // a range of the table comes in table order; sorted only when it does not
    const at = rows.map((row) => position(row.ctid));
    const sorted = at.every((value, i) => i === 0 || (at[i - 1] as number) < value);
    const order = sorted
      ? rows
      : rows
          .map((row, i) => ({ row, at: at[i] as number }))
          .sort((a, b) => a.at - b.at)
          .map(({ row }) => row);
    for (const row of order) {
      const place = this.ids.length;
      this.ids.push(row.id);
      const first = this.runsOf.length;
      this.runStarts.push(first);
      for (const run of row.name.match(RUNS) ?? []) {
        let at = this.runAt.get(run);
        if (at === undefined) {
          at = this.runAt.size;
          this.runAt.set(run, at);
        }
        // a run twice in one name ("mini mini") is listed once
        if (this.runsOf.indexOf(at, first) === -1) this.runsOf.push(at);
      }
      let entry = this.byCategory.get(row.category);
      if (!entry) {
        entry = { at: this.byCategory.size, places: [] };
        this.byCategory.set(row.category, entry);
      }
      entry.places.push(place);
      this.categoryOf.push(entry.at);
    }
  }

  /** The index, at once (tests, small indexes). */
  finish(): ProductIndex {
    const steps = this.finishing();
    for (let step = steps.next(); ; step = steps.next()) if (step.done) return step.value;
  }

  /**
   * The index, a slice per turn of the event loop (the server's builds): each run's products are
   * `runsOf` turned around (counted, then filled in place order, so each list ascends) into one array,
   * with no object per run. With a list per run, made at once, 400,000 products named with numbers
   * (400,000 distinct runs, as an import of SKUs gives) held the server's thread 160–440 ms, and 60 ms
   * with one array.
   */
  async finishInSlices(): Promise<ProductIndex> {
    const steps = this.finishing();
    for (let step = steps.next(); ; step = steps.next()) {
      if (step.done) return step.value;
      await nextTurn();
    }
  }

  /** The index's making; it yields where a turn of the event loop may come between. */
  private *finishing(): Generator<void, ProductIndex> {
    const runs = [...this.runAt.keys()];
    const categories = [...this.byCategory.keys()];
    yield;
    this.runStarts.push(this.runsOf.length);
    const runStarts = new Int32Array(this.runStarts);
    yield;
    const runsOf = new Int32Array(this.runsOf);
    yield;
    const runPostingStarts = new Int32Array(runs.length + 1);
    for (let k = 0; k < runsOf.length; k++) {
      (runPostingStarts[(runsOf[k] as number) + 1] as number)++;
      if (k % FINISH_SLICE === FINISH_SLICE - 1) yield;
    }
    for (let run = 0; run < runs.length; run++)
      (runPostingStarts[run + 1] as number) += runPostingStarts[run] as number;
    yield;
    const runPostings = new Int32Array(runsOf.length);
    const next = runPostingStarts.slice(0, runs.length);
    for (let place = 0; place + 1 < runStarts.length; place++) {
      for (let k = runStarts[place] as number; k < (runStarts[place + 1] as number); k++) {
        const run = runsOf[k] as number;
        runPostings[(next[run] as number)++] = place;
      }
      if (place % FINISH_SLICE === FINISH_SLICE - 1) yield;
    }
    return new ProductIndex({
      ids: this.ids,
      runs,
      runPostings,
      runPostingStarts,
      categories,
      categoryPostings: [...this.byCategory.values()].map(({ places }) => new Int32Array(places)),
      runStarts,
      runsOf,
      categoryOf: new Int32Array(this.categoryOf),
    });
  }
}

/** Blocks of the table read per statement while building (about 2,000 products): the session is free between. */
const BLOCKS_PER_READ = 64;
/** A build starts no sooner than this many times the last one's length after it started. */
const BUILD_SPACING = 5;

const isNewer = (version: string, than: string) =>
  /^\d+$/.test(version) && /^\d+$/.test(than) ? BigInt(version) > BigInt(than) : version !== than;

/**
 * The index of the directory's latest version: built in the background when a search of a newer
 * version asks for it, and null until then — the search asks the database meanwhile, so a product added
 * a moment ago is found. Built a few hundred blocks of the table at a time, so that other requests'
 * queries run in between and the event loop is never held for long; a build during which the directory
 * changed is thrown away. Builds are spaced (BUILD_SPACING) so that a stream of writes cannot keep the
 * embedded database's one session busy reading products.
 */
export function productIndexCache(db: Db) {
  let built: { version: string; index: ProductIndex } | null = null;
  let building: Promise<void> | null = null;
  let lastStart = Number.NEGATIVE_INFINITY;
  let lastLength = 0;

  const currentVersion = async () => {
    const { rows } = await db.execute<{ version: string; blocks: number }>(sql`
      select (select version from catalog_version where id = 1)::text as version,
             (pg_relation_size('products') / current_setting('block_size')::int)::int as blocks`);
    return rows[0] ?? { version: 'none', blocks: 0 };
  };

  async function build(): Promise<void> {
    const { version, blocks } = await currentVersion();
    const builder = new ProductIndexBuilder();
    for (let block = 0; block < blocks; block += BLOCKS_PER_READ) {
      const { rows } = await db.execute<ProductRow>(sql`
        select id::text as id, ctid::text as ctid, search_name as name, search_category as category
          from products where ctid >= ${`(${block},0)`}::tid and ctid < ${`(${block + BLOCKS_PER_READ},0)`}::tid`);
      builder.add(rows);
    }
    // rows written past the last block counted, or moved, while reading: the next version's build has them
    if ((await currentVersion()).version === version)
      built = { version, index: await builder.finishInSlices() };
  }

  function start(): Promise<void> {
    lastStart = performance.now();
    const run = build()
      // a failed build leaves the last one in place: a later search tries again
      .catch(() => undefined)
      .finally(() => {
        lastLength = performance.now() - lastStart;
        if (building === run) building = null;
      });
    building = run;
    return run;
  }

  return {
    /** The index of `version` if built; else null, and a build starts when none runs and it is time. */
    get(version: string): ProductIndex | null {
      if (built?.version === version) return built.index;
      const due = performance.now() >= lastStart + BUILD_SPACING * lastLength;
      if (!building && due && (!built || isNewer(version, built.version))) void start();
      return null;
    },
    /** Starts a build when none is built or building (at start-up). */
    build(): void {
      if (!built && !building) void start();
    },
    /** The index of `version`, built now if need be (tests, benches); null when the directory moved on. */
    async ready(version: string): Promise<ProductIndex | null> {
      if (building) await building;
      if (built?.version !== version) await start();
      return built?.version === version ? built.index : null;
    },
  };
}
