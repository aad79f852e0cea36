// The products' words in memory, for the embedded database (docs/decisions/016): a search's products
// are found here and the database is handed their ids, so the single embedded session ranks a hundred
// rows by primary key instead of intersecting long trigram posting lists (8 ms for "organic mug").

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
  /** Product ids by their place in the table. */
  private readonly ids: string[];
  /** Each run of letters and digits of the names, with the products (places, ascending) it is in. */
  private readonly runs: string[] = [];
  private readonly runPostings: Int32Array[] = [];
  private readonly categories: string[] = [];
  private readonly categoryPostings: Int32Array[] = [];
  /** Each product's runs (indexes into `runs`): `runsOf[runStarts[place] … runStarts[place + 1]]`. */
  private readonly runStarts: Int32Array;
  private readonly runsOf: Int32Array;
  /** Each product's category (index into `categories`). */
  private readonly categoryOf: Int32Array;
  /** Scratch marks, one per product (a search is synchronous: nothing else uses it meanwhile). */
  private readonly marks: Uint8Array;

  constructor(rows: readonly ProductRow[]) {
    const ordered = rows
      .map((row) => ({ row, at: position(row.ctid) }))
      .sort((a, b) => a.at - b.at)
      .map(({ row }) => row);
    this.ids = ordered.map((row) => row.id);
    this.marks = new Uint8Array(ordered.length);
    this.runStarts = new Int32Array(ordered.length + 1);
    this.categoryOf = new Int32Array(ordered.length);
    const byRun = new Map<string, { at: number; places: number[] }>();
    const byCategory = new Map<string, { at: number; places: number[] }>();
    const runsOf: number[] = [];
    ordered.forEach((row, place) => {
      this.runStarts[place] = runsOf.length;
      for (const run of new Set(row.name.match(RUNS) ?? [])) {
        let entry = byRun.get(run);
        if (!entry) {
          entry = { at: byRun.size, places: [] };
          byRun.set(run, entry);
        }
        entry.places.push(place);
        runsOf.push(entry.at);
      }
      let entry = byCategory.get(row.category);
      if (!entry) {
        entry = { at: byCategory.size, places: [] };
        byCategory.set(row.category, entry);
      }
      entry.places.push(place);
      this.categoryOf[place] = entry.at;
    });
    this.runStarts[ordered.length] = runsOf.length;
    this.runsOf = Int32Array.from(runsOf);
    for (const [run, { places }] of byRun) {
      this.runs.push(run);
      this.runPostings.push(Int32Array.from(places));
    }
    for (const [category, { places }] of byCategory) {
      this.categories.push(category);
      this.categoryPostings.push(Int32Array.from(places));
    }
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
    const postings = runHits.map((hits) => this.postingsOf(hits, this.runPostings));
    postings.sort((a, b) => a.total - b.total);
    const byCategory = this.postingsOf(categoryHits, this.categoryPostings);
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

  private postingsOf(hits: boolean[], all: Int32Array[]): { lists: Int32Array[]; total: number } {
    const lists: Int32Array[] = [];
    let total = 0;
    hits.forEach((hit, i) => {
      if (!hit) return;
      const list = all[i] as Int32Array;
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

/**
 * The index of the directory's version: built in the background when a search first asks for it, and
 * null until then — the search asks the database meanwhile, so a product added a moment ago is found.
 */
export function productIndexCache(db: Db) {
  let current: {
    version: string;
    index: ProductIndex | null;
    building: Promise<ProductIndex | null>;
  } | null = null;

  async function build(): Promise<ProductIndex> {
    const { rows } = await db.execute<ProductRow>(
      sql`select id::text as id, ctid::text as ctid, search_name as name, search_category as category from products`,
    );
    return new ProductIndex(rows);
  }

  return {
    /** The index of `version` if built; else null, and its building starts. */
    get(version: string): ProductIndex | null {
      if (current?.version !== version) {
        const entry: NonNullable<typeof current> = { version, index: null, building: Promise.resolve(null) };
        entry.building = build().then(
          (index) => {
            entry.index = index;
            return index;
          },
          // a failed build is not kept: the next search tries again
          () => {
            if (current === entry) current = null;
            return null;
          },
        );
        current = entry;
      }
      return current.index;
    },
    /** The index of `version`, waiting for its building (tests). */
    async ready(version: string): Promise<ProductIndex | null> {
      this.get(version);
      return current?.building ?? null;
    },
  };
}
