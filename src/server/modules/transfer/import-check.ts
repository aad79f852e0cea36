// The check of an import file against the mall (docs/decisions/022): every row validated by the form's
// own zod schema, matched to a record (by code, else by exact name within its parent), and sorted into
// created / updated / unchanged / refused. The preview and the confirmed run use the same check; the run
// makes it again inside its transaction, against the mall as it then is.
import { and, asc, eq, gt } from 'drizzle-orm';
import type { AnyPgColumn, SelectedFields } from 'drizzle-orm/pg-core';
import type { SelectResultFields } from 'drizzle-orm/query-builders/select.types';
import type { z } from 'zod';
import {
  EventInput,
  EventPatch,
  type EventPlaceKind,
  type EventRepeat,
  type EventStatus,
} from '../../../shared/event';
import { SynonymInput } from '../../../shared/insights';
import { numberFromText, toPriceString } from '../../../shared/money';
import { END_BEFORE_START, OfferInput } from '../../../shared/offer';
import { PlaceInput } from '../../../shared/place';
import { ProductInput } from '../../../shared/product';
import { ShopInput } from '../../../shared/shop';
import type { ImportCounts, ImportKind, RefusedRow } from '../../../shared/transfer';
import { placeNameKeys } from '../../db/place-name-keys';
import { amenities, categories, floors, offers, products, searchSynonyms, shops } from '../../db/schema';
import { HttpError } from '../../errors';
import type { Executor } from '../../write-path';
import { repeatFromRrule, repeatKey } from '../events/recurrence';
import { amenityPlaceName, listAllEvents, liveTerms } from '../events/repository';
import { OFFER_OF_ANOTHER_SHOP } from '../products/repository';
import { synonymKeys } from '../synonyms/repository';
import { type CsvRow, type CsvSource, readRows } from './csv';

/** A stand-in id for a category or floor the run will create: the schema only checks it is an id. */
const TO_CREATE = '00000000-0000-4000-8000-000000000000';

/** The file's column for each field of the form, so a refused row names the column to fix. */
const COLUMN_OF: Record<string, string> = {
  categoryId: 'category',
  floorId: 'floor',
  openingHours: 'opening_hours',
  externalCode: 'code',
  shopId: 'shop',
  offerId: 'offer',
  startDate: 'start_date',
  endDate: 'end_date',
  placeKind: 'place_kind',
  placeId: 'place',
  allDay: 'all_day',
  startTime: 'start_time',
  endTime: 'end_time',
};

export type ShopValues = z.output<typeof ShopInput> & { categoryName: string; floorName: string };
export type ProductValues = z.output<typeof ProductInput> & { shopName: string; offerTitle: string | null };
export type OfferValues = z.output<typeof OfferInput> & { shopName: string };
/** An event as it is stored, with the names its audit entry shows (eventSnapshot's). */
export interface EventValues {
  shopId: string | null;
  shopName: string | null;
  title: string;
  description: string;
  placeKind: EventPlaceKind;
  placeId: string | null;
  placeName: string;
  allDay: boolean;
  startDate: string;
  startTime: string | null;
  endDate: string;
  endTime: string | null;
  tags: string[];
  repeat: EventRepeat | null;
  status: EventStatus;
}
/** A synonym as stored: both sides folded as search folds them (synonymKeys). */
export interface SynonymValues {
  term: string;
  replacement: string;
}

export type PlannedRow<V> =
  | { line: number; action: 'create'; values: V }
  | { line: number; action: 'update'; id: string; values: V; before: V; byName: boolean }
  | { line: number; action: 'unchanged'; id: string; byName: boolean };

export interface CheckResult {
  counts: ImportCounts;
  refused: RefusedRow[];
  matchedByName: number[];
  newCategories: string[];
  newFloors: string[];
}

export type Progress = (rowsChecked: number) => void;

/** Where a confirmed run's rows to create or update go, a batch at a time (none for a preview). */
export type PlannedSink<V> = (batch: PlannedRow<V>[]) => Promise<void>;

/** Planned rows handed on at once: a staging statement's worth (500 rows: tens of milliseconds). */
const SINK_BATCH = 500;
/** Existing products read per query while the index is built (a short statement each, likewise). */
const INDEX_PAGE = 2000;
/** Below every id: where reading a table by pages of ids starts. */
const BEFORE_EVERY_ID = '00000000-0000-0000-0000-000000000000';

/**
 * Every row of `table` with the given `columns` (which include its id), read in pages of `INDEX_PAGE` by
 * id: short statements, and no answer holding a large mall's whole table to parse at once.
 */
async function inPages<TColumns extends SelectedFields & { id: AnyPgColumn }>(
  tx: Executor,
  table: typeof shops | typeof offers,
  columns: TColumns,
): Promise<SelectResultFields<TColumns>[]> {
  const all: SelectResultFields<TColumns>[] = [];
  // drizzle cannot type a query over generic columns; the rows are those columns' values.
  for (let after = BEFORE_EVERY_ID; ; ) {
    const rows = (await tx
      .select(columns as SelectedFields)
      .from(table)
      .where(gt(table.id, after))
      .orderBy(asc(table.id))
      .limit(INDEX_PAGE)) as SelectResultFields<TColumns>[];
    for (const row of rows) all.push(row);
    const last = rows.at(-1) as { id: string } | undefined; // the id column's value
    if (rows.length < INDEX_PAGE || !last) return all;
    after = last.id;
  }
}

interface Existing<V> {
  id: string;
  code: string | null;
  name: string;
  values: V;
}

/**
 * Records by code and by exact name, within a parent (a shop, or the mall: ''): a map per parent, so no
 * key string is made per record (a large mall's 200,000 products are indexed at once).
 */
class Index<V> {
  private byCode = new Map<string, Map<string, Existing<V>>>();
  private byName = new Map<string, Map<string, Existing<V> | Existing<V>[]>>();
  private static within<T>(maps: Map<string, Map<string, T>>, parent: string): Map<string, T> {
    let map = maps.get(parent);
    if (!map) {
      map = new Map();
      maps.set(parent, map);
    }
    return map;
  }
  add(parent: string, record: Existing<V>) {
    if (record.code !== null) Index.within(this.byCode, parent).set(record.code, record);
    const names = Index.within(this.byName, parent);
    const found = names.get(record.name);
    if (found === undefined) names.set(record.name, record);
    else if (Array.isArray(found)) found.push(record);
    else names.set(record.name, [found, record]);
  }
  code(parent: string, code: string) {
    return this.byCode.get(parent)?.get(code);
  }
  named(parent: string, name: string): Existing<V>[] {
    const found = this.byName.get(parent)?.get(name);
    return found === undefined ? [] : Array.isArray(found) ? found : [found];
  }
}

/**
 * One copy of each repeated text (a shop's id, a category, a description shared by many products):
 * every row read from the database brings its own copies, which 200,000 indexed products would keep.
 */
function interner() {
  const seen = new Map<string, string>();
  return <T extends string | null>(text: T): T => {
    if (text === null) return text;
    const known = seen.get(text);
    if (known !== undefined) return known as T;
    seen.set(text, text);
    return text;
  };
}

type Refusal = { column: string; message: string };

function issuesOf(error: z.ZodError): Refusal[] {
  const seen = new Set<string>();
  const out: Refusal[] = [];
  for (const issue of error.issues) {
    const field = String(issue.path[0] ?? '');
    if (seen.has(field)) continue;
    seen.add(field);
    out.push({ column: COLUMN_OF[field] ?? field, message: issue.message });
  }
  return out;
}

/** An optional column: absent from the file → undefined (an update keeps the record's value). */
const cell = (row: CsvRow, column: string): string | undefined =>
  column in row.cells ? (row.cells[column] as string) : undefined;

const sameJson = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** What a row's shop is: by code when the file gives one, else by exact name. */
interface ShopRef {
  id: string;
  name: string;
  code: string | null;
}
function shopResolver(all: ShopRef[]) {
  const byCode = new Map(all.filter((s) => s.code !== null).map((s) => [s.code as string, s]));
  const byName = new Map<string, ShopRef[]>();
  for (const shop of all) byName.set(shop.name, [...(byName.get(shop.name) ?? []), shop]);
  return (row: CsvRow): ShopRef | Refusal => {
    const code = cell(row, 'shop_code')?.trim();
    const name = cell(row, 'shop')?.trim();
    if (code) {
      const shop = byCode.get(code);
      return shop ?? { column: 'shop_code', message: `Unknown shop code "${code}"` };
    }
    if (!name) return { column: 'shop', message: 'Shop is required' };
    const found = byName.get(name) ?? [];
    if (found.length === 1) return found[0] as ShopRef;
    if (found.length > 1)
      return { column: 'shop', message: `Several shops are named "${name}"; give the shop_code` };
    return { column: 'shop', message: `Unknown shop "${name}"` };
  };
}

async function loadShops(tx: Executor): Promise<ShopRef[]> {
  return inPages(tx, shops, { id: shops.id, name: shops.name, code: shops.externalCode });
}

/**
 * A row refused, or planned under its key in the file (`\u0000<column>\u0000<value>` after its parent):
 * a second row with the same key is refused, by `same` when given, else naming the key's column and value.
 */
type RowOutcome<V> =
  | { refused: Refusal[] }
  | { planned: PlannedRow<V>; key: string; same?: (earlierLine: number) => Refusal };

/** Sorts the rows, counting as it goes; the rows to write go to `sink` in batches (a preview has none). */
async function sortRows<V>(
  rows: AsyncIterable<CsvRow>,
  progress: Progress | undefined,
  check: (row: CsvRow) => RowOutcome<V> | Promise<RowOutcome<V>>,
  sink: PlannedSink<V> | undefined,
): Promise<Omit<CheckResult, 'newCategories' | 'newFloors'>> {
  const counts = { created: 0, updated: 0, unchanged: 0, refused: 0 };
  const refused: RefusedRow[] = [];
  let planned: PlannedRow<V>[] = [];
  const matchedByName: number[] = [];
  const keys = new Map<string, number>();
  let checked = 0;
  for await (const row of rows) {
    const outcome = await check(row);
    if ('refused' in outcome) {
      counts.refused++;
      refused.push({ line: row.line, errors: outcome.refused });
    } else {
      const earlier = keys.get(outcome.key);
      if (earlier !== undefined) {
        counts.refused++;
        const [kind, value] = outcome.key.split('\u0000').slice(1);
        refused.push({
          line: row.line,
          errors: [
            outcome.same?.(earlier) ?? {
              column: kind as string,
              message: `The same ${kind} "${value}" is on line ${earlier} too`,
            },
          ],
        });
      } else {
        keys.set(outcome.key, row.line);
        const plan = outcome.planned;
        counts[plan.action === 'create' ? 'created' : plan.action === 'update' ? 'updated' : 'unchanged']++;
        if (plan.action !== 'create' && plan.byName) matchedByName.push(plan.line);
        if (sink && plan.action !== 'unchanged') planned.push(plan);
      }
    }
    if (planned.length >= SINK_BATCH && sink) {
      await sink(planned);
      planned = [];
    }
    if (++checked % 1000 === 0) progress?.(checked);
  }
  if (planned.length > 0 && sink) await sink(planned);
  progress?.(checked);
  return { counts, refused, matchedByName };
}

/** Decides create / update / unchanged for a valid row's values against what exists. */
function plan<V>(
  line: number,
  values: V,
  existing: Existing<V> | undefined,
  byName: boolean,
  compare: (before: V, after: V) => boolean,
): PlannedRow<V> {
  if (!existing) return { line, action: 'create', values };
  if (compare(existing.values, values)) return { line, action: 'unchanged', id: existing.id, byName };
  return { line, action: 'update', id: existing.id, values, before: existing.values, byName };
}

/** Finds the record a row means: its code in the parent, else its exact name (only one such). */
function match<V>(
  index: Index<V>,
  parent: string,
  code: string | null | undefined,
  name: string,
  noun: string,
): { existing?: Existing<V>; byName: boolean } | Refusal {
  if (code) return { existing: index.code(parent, code), byName: false };
  const named = index.named(parent, name);
  if (named.length > 1)
    return { column: 'code', message: `Several ${noun} have this name; give each its code` };
  return { existing: named[0], byName: named.length === 1 };
}

// ---------------------------------------------------------------------------------------------- shops

export async function checkShops(
  tx: Executor,
  text: CsvSource,
  progress?: Progress,
  sink?: PlannedSink<ShopValues>,
): Promise<CheckResult> {
  // One after another: inside the confirm's transaction they share one connection.
  const cats = await tx.select({ id: categories.id, name: categories.name }).from(categories);
  const fls = await tx.select({ id: floors.id, name: floors.name }).from(floors);
  const all = await inPages(tx, shops, {
    id: shops.id,
    code: shops.externalCode,
    name: shops.name,
    description: shops.description,
    categoryId: shops.categoryId,
    floorId: shops.floorId,
    location: shops.location,
    contact: shops.contact,
    openingHours: shops.openingHours,
  });
  // Places by how their names look (docs/decisions/011): "books" finds "Books".
  const catByKey = new Map(cats.map((c) => [placeNameKeys(c.name).nameKey, c]));
  const floorByKey = new Map(fls.map((f) => [placeNameKeys(f.name).nameKey, f]));
  const catName = new Map(cats.map((c) => [c.id, c.name]));
  const floorName = new Map(fls.map((f) => [f.id, f.name]));
  const newCategories = new Map<string, string>();
  const newFloors = new Map<string, string>();
  const index = new Index<ShopValues>();
  for (const shop of all) {
    index.add('', {
      id: shop.id,
      code: shop.code,
      name: shop.name,
      values: {
        name: shop.name,
        description: shop.description,
        categoryId: shop.categoryId,
        floorId: shop.floorId,
        location: shop.location,
        contact: shop.contact,
        openingHours: shop.openingHours,
        externalCode: shop.code,
        categoryName: catName.get(shop.categoryId) ?? '',
        floorName: floorName.get(shop.floorId) ?? '',
      },
    });
  }
  // A place the file names that does not exist yet is created by the run: its name goes through the
  // categories' and floors' own schema first, so a line break, a control or direction character, an
  // invisible-only or an over-long name is refused with the form's message, never created.
  const place = (
    name: string,
    byKey: Map<string, { id: string; name: string }>,
    listed: Map<string, string>,
    created: Map<string, string>,
  ): { id: string; name: string } | { message: string } | null => {
    if (!name) return null;
    const key = placeNameKeys(name).nameKey;
    const found = byKey.get(key);
    if (found) return found;
    // a new name an earlier row spelt already: that spelling (the first) is the one created
    const earlier = listed.get(key);
    if (earlier !== undefined) return { id: TO_CREATE, name: earlier };
    const parsed = PlaceInput.shape.name.safeParse(name);
    if (!parsed.success) return { message: parsed.error.issues[0]?.message ?? 'Name is required' };
    if (!created.has(key)) created.set(key, parsed.data);
    return { id: TO_CREATE, name: created.get(key) as string };
  };
  const compare = (a: ShopValues, b: ShopValues) =>
    a.name === b.name &&
    a.description === b.description &&
    a.categoryName === b.categoryName &&
    a.floorName === b.floorName &&
    a.location === b.location &&
    a.contact === b.contact &&
    a.openingHours === b.openingHours &&
    a.externalCode === b.externalCode;
  // New places are only listed for rows that are otherwise valid.
  const pendingCats = new Map<string, string>();
  const pendingFloors = new Map<string, string>();
  const result = await sortRows<ShopValues>(
    readRows('shops', text),
    progress,
    (row) => {
      pendingCats.clear();
      pendingFloors.clear();
      const categoryPlace = place(row.cells.category?.trim() ?? '', catByKey, newCategories, pendingCats);
      const floorPlace = place(row.cells.floor?.trim() ?? '', floorByKey, newFloors, pendingFloors);
      const placeRefusals: Refusal[] = [];
      if (categoryPlace && 'message' in categoryPlace)
        placeRefusals.push({ column: 'category', message: categoryPlace.message });
      if (floorPlace && 'message' in floorPlace)
        placeRefusals.push({ column: 'floor', message: floorPlace.message });
      const category = categoryPlace && 'id' in categoryPlace ? categoryPlace : null;
      const floor = floorPlace && 'id' in floorPlace ? floorPlace : null;
      const input = {
        name: row.cells.name ?? '',
        description: cell(row, 'description'),
        // A refused place name stands in as one to create, so its column carries the name's own message.
        categoryId: category?.id ?? (categoryPlace ? TO_CREATE : ''),
        floorId: floor?.id ?? (floorPlace ? TO_CREATE : ''),
        location: cell(row, 'location'),
        contact: cell(row, 'contact'),
        openingHours: cell(row, 'opening_hours'),
        externalCode: cell(row, 'code'),
      };
      const parsed = ShopInput.safeParse(input);
      if (!parsed.success || placeRefusals.length > 0)
        return { refused: [...placeRefusals, ...(parsed.success ? [] : issuesOf(parsed.error))] };
      const found = match(index, '', parsed.data.externalCode, parsed.data.name, 'shops');
      if ('message' in found) return { refused: [found] };
      const before = found.existing?.values;
      const values: ShopValues = {
        name: parsed.data.name,
        description: parsed.data.description ?? before?.description ?? '',
        categoryId: parsed.data.categoryId,
        floorId: parsed.data.floorId,
        location: parsed.data.location ?? before?.location ?? '',
        contact: parsed.data.contact ?? before?.contact ?? '',
        openingHours: parsed.data.openingHours ?? before?.openingHours ?? '',
        externalCode: parsed.data.externalCode ?? before?.externalCode ?? null,
        categoryName: category?.name ?? '',
        floorName: floor?.name ?? '',
      };
      for (const [key, name] of pendingCats) newCategories.set(key, name);
      for (const [key, name] of pendingFloors) newFloors.set(key, name);
      const key = values.externalCode
        ? `\u0000code\u0000${values.externalCode}`
        : `\u0000name\u0000${values.name}`;
      return { planned: plan(row.line, values, found.existing, found.byName, compare), key };
    },
    sink,
  );
  return { ...result, newCategories: [...newCategories.values()], newFloors: [...newFloors.values()] };
}

// ------------------------------------------------------------------------------------------- products

export async function checkProducts(
  tx: Executor,
  text: CsvSource,
  progress?: Progress,
  sink?: PlannedSink<ProductValues>,
): Promise<CheckResult> {
  const shopList = await loadShops(tx);
  const offerList = await inPages(tx, offers, { id: offers.id, shopId: offers.shopId, title: offers.title });
  const resolveShop = shopResolver(shopList);
  const shopName = new Map(shopList.map((s) => [s.id, s.name]));
  const offersByTitle = new Map<string, { id: string; shopId: string }[]>();
  const offerTitle = new Map<string, string>();
  for (const offer of offerList) {
    offersByTitle.set(offer.title, [...(offersByTitle.get(offer.title) ?? []), offer]);
    offerTitle.set(offer.id, offer.title);
  }
  // The products of each shop the file names, read when its first row comes (in pages by id, a few
  // columns each): what the rows are matched against. Only those shops: a file for new shops, or for a
  // few of a large mall's 2,000, holds none or a few of its 200,000 products in memory, not all.
  const index = new Index<ProductValues>();
  const one = interner();
  const indexed = new Set<string>();
  const indexShop = async (shopId: string) => {
    if (indexed.has(shopId)) return;
    indexed.add(shopId);
    let after = BEFORE_EVERY_ID;
    for (;;) {
      const page = await tx
        .select({
          id: products.id,
          code: products.externalCode,
          name: products.name,
          description: products.description,
          price: products.price,
          category: products.category,
          offerId: products.offerId,
        })
        .from(products)
        .where(and(eq(products.shopId, shopId), gt(products.id, after)))
        .orderBy(asc(products.id))
        .limit(INDEX_PAGE);
      for (const p of page) {
        const name = one(p.name);
        index.add(shopId, {
          id: p.id,
          code: p.code,
          name,
          values: {
            name,
            description: one(p.description),
            price: Number(p.price),
            category: one(p.category),
            shopId,
            offerId: one(p.offerId),
            externalCode: p.code,
            shopName: shopName.get(shopId) ?? '',
            offerTitle: p.offerId ? (offerTitle.get(p.offerId) ?? null) : null,
          },
        });
      }
      if (page.length < INDEX_PAGE) break;
      after = page[page.length - 1]?.id as string;
    }
  };
  const compare = (a: ProductValues, b: ProductValues) =>
    a.name === b.name &&
    a.description === b.description &&
    toPriceString(a.price) === toPriceString(b.price) &&
    a.category === b.category &&
    (a.offerId ?? null) === (b.offerId ?? null) &&
    a.externalCode === b.externalCode;
  const result = await sortRows<ProductValues>(
    readRows('products', text),
    progress,
    async (row) => {
      const refusals: Refusal[] = [];
      const shop = resolveShop(row);
      if ('message' in shop) refusals.push(shop);
      const shopId = 'message' in shop ? TO_CREATE : shop.id;
      const title = cell(row, 'offer')?.trim();
      let offerId: string | null | undefined;
      if (title) {
        const candidates = offersByTitle.get(title) ?? [];
        const own = candidates.filter((o) => o.shopId === shopId);
        if (own.length === 1) offerId = own[0]?.id;
        else if (own.length > 1)
          refusals.push({ column: 'offer', message: `The shop has several offers titled "${title}"` });
        else if (candidates.length > 0 && !('message' in shop))
          refusals.push({ column: 'offer', message: OFFER_OF_ANOTHER_SHOP });
        else if (!('message' in shop)) refusals.push({ column: 'offer', message: 'Unknown offer' });
      } else if (title === '') offerId = null;
      const parsed = ProductInput.safeParse({
        name: row.cells.name ?? '',
        description: cell(row, 'description'),
        // As written, never trimmed: " 5" is no more a price than "0x10" (numberFromText).
        price: numberFromText(row.cells.price ?? ''),
        category: cell(row, 'category'),
        shopId,
        externalCode: cell(row, 'code'),
      });
      if (!parsed.success) refusals.push(...issuesOf(parsed.error));
      if (refusals.length > 0 || !parsed.success || 'message' in shop) return { refused: refusals };
      await indexShop(shop.id);
      const found = match(
        index,
        shop.id,
        parsed.data.externalCode,
        parsed.data.name,
        'products of this shop',
      );
      if ('message' in found) return { refused: [found] };
      const before = found.existing?.values;
      const values: ProductValues = {
        name: parsed.data.name,
        description: parsed.data.description ?? before?.description ?? '',
        price: parsed.data.price,
        category: parsed.data.category ?? before?.category ?? '',
        shopId: shop.id,
        offerId: offerId === undefined ? (before?.offerId ?? null) : offerId,
        externalCode: parsed.data.externalCode ?? before?.externalCode ?? null,
        shopName: shop.name,
        offerTitle: offerId ? (title ?? null) : offerId === null ? null : (before?.offerTitle ?? null),
      };
      const key = values.externalCode
        ? `${shop.id}\u0000code\u0000${values.externalCode}`
        : `${shop.id}\u0000name\u0000${values.name}`;
      return { planned: plan(row.line, values, found.existing, found.byName, compare), key };
    },
    sink,
  );
  return { ...result, newCategories: [], newFloors: [] };
}

// --------------------------------------------------------------------------------------------- offers

export async function checkOffers(
  tx: Executor,
  text: CsvSource,
  progress?: Progress,
  sink?: PlannedSink<OfferValues>,
): Promise<CheckResult> {
  const shopList = await loadShops(tx);
  const offerList = await inPages(tx, offers, {
    id: offers.id,
    shopId: offers.shopId,
    title: offers.title,
    description: offers.description,
    discount: offers.discount,
    startDate: offers.startDate,
    endDate: offers.endDate,
  });
  const resolveShop = shopResolver(shopList);
  const shopName = new Map(shopList.map((s) => [s.id, s.name]));
  const index = new Index<OfferValues>();
  for (const o of offerList) {
    const { id, ...values } = o;
    index.add(o.shopId, {
      id,
      code: null,
      name: o.title,
      values: { ...values, shopName: shopName.get(o.shopId) ?? '' },
    });
  }
  const compare = (a: OfferValues, b: OfferValues) =>
    sameJson(
      [a.title, a.description, a.discount, a.startDate, a.endDate],
      [b.title, b.description, b.discount, b.startDate, b.endDate],
    );
  const result = await sortRows<OfferValues>(
    readRows('offers', text),
    progress,
    (row) => {
      const refusals: Refusal[] = [];
      const shop = resolveShop(row);
      if ('message' in shop) refusals.push(shop);
      const parsed = OfferInput.safeParse({
        title: row.cells.title ?? '',
        description: cell(row, 'description'),
        discount: numberFromText(row.cells.discount ?? ''),
        startDate: row.cells.start_date?.trim() ?? '',
        endDate: row.cells.end_date?.trim() ?? '',
        shopId: 'message' in shop ? TO_CREATE : shop.id,
      });
      if (!parsed.success) refusals.push(...issuesOf(parsed.error));
      if (refusals.length > 0 || !parsed.success || 'message' in shop) return { refused: refusals };
      const found = match(index, shop.id, null, parsed.data.title, 'offers of this shop');
      if ('message' in found) return { refused: [{ column: 'title', message: found.message }] };
      const before = found.existing?.values;
      const values: OfferValues = {
        ...parsed.data,
        description: parsed.data.description ?? before?.description ?? '',
        shopName: shop.name,
      };
      return {
        planned: plan(row.line, values, found.existing, false, compare),
        key: `${shop.id}\u0000title\u0000${values.title}`,
      };
    },
    sink,
  );
  return { ...result, newCategories: [], newFloors: [] };
}

// --------------------------------------------------------------------------------------------- events

/** A yes/no cell as the export writes it (any case; true/false too), or undefined. */
function yesNo(text: string | undefined): boolean | undefined {
  const value = text?.trim().toLowerCase();
  if (value === 'yes' || value === 'true') return true;
  if (value === 'no' || value === 'false') return false;
  return undefined;
}
/** A cell of words separated by spaces (tags, exception dates): absent stays undefined. */
const wordsIn = (text: string | undefined): string[] | undefined =>
  text === undefined ? undefined : text.split(/\s+/).filter((word) => word !== '');
/** An optional cell: absent stays undefined (the record's value kept), empty is null. */
const orNull = (text: string | undefined): string | null | undefined =>
  text === undefined ? undefined : text.trim() === '' ? null : text.trim();

export const ALL_DAY_YES_OR_NO = 'All day is yes or no';
export const EXCEPT_WITHOUT_REPEAT = 'Exceptions are for repeating events';

/** An event's stored terms as the import's values. */
function eventValuesOf(event: Awaited<ReturnType<typeof listAllEvents>>[number]): EventValues {
  return { shopId: event.shopId, shopName: event.shopName, placeName: event.place.name, ...liveTerms(event) };
}

/** The schema's problems by the file's columns: an exception date's under `except`. */
function eventIssuesOf(error: z.ZodError): Refusal[] {
  const seen = new Set<string>();
  const out: Refusal[] = [];
  for (const issue of error.issues) {
    const field = String(issue.path[0] ?? '');
    const column = field === 'repeat' && issue.path[1] === 'except' ? 'except' : (COLUMN_OF[field] ?? field);
    if (seen.has(column)) continue;
    seen.add(column);
    out.push({ column, message: issue.message });
  }
  return out;
}

/** One of several places of a name: the one the event has now, else the one `also` names, else none. */
function oneOf<T extends { id: string }>(found: T[], current: string | null | undefined, also?: string) {
  if (found.length === 1) return found[0];
  return found.find((place) => place.id === current) ?? found.find((place) => place.id === also);
}

/**
 * Events (docs/decisions/038): each row through the events API's own schema (EventInput: the fields,
 * the timing as a whole, the place, the repeat), its RRULE read back as the export writes it, its
 * organizer and place found by name. A row updates the event of the same organizer (shop, or the mall)
 * with exactly its title and start date — the one starting at its start time when that day has several
 * — and creates one otherwise (approved, as an admin's event is). `timeZone`: the mall's, which a timed
 * repeat's UNTIL is written in.
 */
export async function checkEvents(
  tx: Executor,
  text: CsvSource,
  timeZone: string,
  progress?: Progress,
  sink?: PlannedSink<EventValues>,
): Promise<CheckResult> {
  const shopList = await loadShops(tx);
  const resolveShop = shopResolver(shopList);
  const shopsByName = new Map<string, ShopRef[]>();
  for (const shop of shopList) shopsByName.set(shop.name, [...(shopsByName.get(shop.name) ?? []), shop]);
  const floorList = await tx.select({ id: floors.id, name: floors.name }).from(floors);
  const floorByKey = new Map(floorList.map((f) => [placeNameKeys(f.name).nameKey, f]));
  const amenityList = await tx
    .select({ id: amenities.id, kind: amenities.kind, location: amenities.location })
    .from(amenities);
  const amenitiesByName = new Map<string, { id: string; name: string }[]>();
  for (const a of amenityList) {
    const name = amenityPlaceName(a.kind, a.location);
    amenitiesByName.set(name, [...(amenitiesByName.get(name) ?? []), { id: a.id, name }]);
  }
  // Every event, approved or waiting (few: one read), by organizer, title and start date.
  const byStart = new Map<string, { id: string; values: EventValues }[]>();
  const startKey = (shopId: string | null, title: string, date: string) =>
    `${shopId ?? ''}\u0000${title}\u0000${date}`;
  for (const event of await listAllEvents(tx)) {
    const key = startKey(event.shopId, event.title, event.startDate);
    byStart.set(key, [...(byStart.get(key) ?? []), { id: event.id, values: eventValuesOf(event) }]);
  }
  const compare = (a: EventValues, b: EventValues) =>
    sameJson(
      [
        a.shopId,
        a.title,
        a.description,
        a.placeKind,
        a.placeId,
        a.allDay,
        a.startDate,
        a.startTime,
        a.endDate,
        a.endTime,
        a.tags,
        repeatKey(a.repeat, a.startDate),
        a.status,
      ],
      [
        b.shopId,
        b.title,
        b.description,
        b.placeKind,
        b.placeId,
        b.allDay,
        b.startDate,
        b.startTime,
        b.endDate,
        b.endTime,
        b.tags,
        repeatKey(b.repeat, b.startDate),
        b.status,
      ],
    );

  const result = await sortRows<EventValues>(
    readRows('events', text),
    progress,
    (row) => {
      const refusals: Refusal[] = [];
      // The organizer: a shop by its code or exact name; no shop at all is the mall's own event.
      let organizer: ShopRef | null = null;
      let organizerKnown = true;
      if (cell(row, 'shop_code')?.trim() || cell(row, 'shop')?.trim()) {
        const shop = resolveShop(row);
        if ('message' in shop) {
          refusals.push(shop);
          organizerKnown = false;
        } else organizer = shop;
      }
      const allDay = yesNo(row.cells.all_day);
      if (allDay === undefined) refusals.push({ column: 'all_day', message: ALL_DAY_YES_OR_NO });
      const startTime = orNull(cell(row, 'start_time'));

      // The event the row means, when its key fields are valid.
      const title = EventPatch.shape.title.safeParse(row.cells.title ?? '');
      const startDate = EventPatch.shape.startDate.safeParse(row.cells.start_date?.trim() ?? '');
      let before: { id: string; values: EventValues } | undefined;
      if (organizerKnown && title.success && startDate.success) {
        const found =
          byStart.get(startKey(organizer?.id ?? null, title.data ?? '', startDate.data ?? '')) ?? [];
        const atTime = found.filter(
          (event) => event.values.startTime === (allDay ? null : (startTime ?? null)),
        );
        if (found.length === 1) before = found[0];
        else if (atTime.length === 1) before = atTime[0];
        else if (atTime.length > 1)
          refusals.push({
            column: 'title',
            message: `Several events of this organizer are titled "${title.data}" and start at the same time on ${startDate.data}; rename one of them in Events`,
          });
      }
      const was = before?.values;

      // The place, by name: of its kind; of several of that name, the one the event has now.
      const placeKind = (row.cells.place_kind ?? '').trim();
      const placeCell = cell(row, 'place')?.trim();
      let placeId: string | null | undefined;
      let placeName = '';
      if (placeCell === undefined) {
        // column left out: the event's place kept, when the kind is the same
        if (was && was.placeKind === placeKind) {
          placeId = was.placeId;
          placeName = was.placeName;
        }
      } else if (placeKind === 'mall') {
        // a name for the whole mall: the schema says "The whole mall has no place to choose"
        placeId = placeCell ? TO_CREATE : null;
        placeName = 'The whole mall';
      } else if (placeCell === '') {
        placeId = null;
      } else if (placeKind === 'floor') {
        const floor = floorByKey.get(placeNameKeys(placeCell).nameKey);
        if (floor) [placeId, placeName] = [floor.id, floor.name];
        else refusals.push({ column: 'place', message: `Unknown floor "${placeCell}"` });
      } else if (placeKind === 'amenity' || placeKind === 'shop') {
        const named = (placeKind === 'amenity' ? amenitiesByName : shopsByName).get(placeCell) ?? [];
        const place = oneOf(named, was?.placeKind === placeKind ? was.placeId : null, organizer?.id);
        if (place) [placeId, placeName] = [place.id, place.name];
        else
          refusals.push({
            column: 'place',
            message:
              named.length === 0
                ? `Unknown ${placeKind} "${placeCell}"`
                : placeKind === 'amenity'
                  ? `Several amenities are "${placeCell}"; give them locations that tell them apart`
                  : `Several shops are named "${placeCell}"`,
          });
      }

      // The repeat: its RRULE, and the exception dates beside it.
      const repeatCell = cell(row, 'repeat');
      let repeat: Record<string, unknown> | null | undefined;
      if (repeatCell !== undefined && repeatCell.trim() !== '') {
        const read = repeatFromRrule(repeatCell, timeZone);
        if ('message' in read) refusals.push({ column: 'repeat', message: read.message });
        else repeat = read.repeat;
      } else if (repeatCell !== undefined) repeat = null;
      else repeat = was?.repeat ?? null;
      // The exceptions: the cell's (empty: none); its column left out, the event's.
      const except = wordsIn(cell(row, 'except'));
      if (repeat && except !== undefined) {
        const { except: _earlier, ...rule } = repeat;
        repeat = except.length > 0 ? { ...rule, except } : rule;
      } else if (repeat && repeatCell !== undefined && was?.repeat?.except?.length)
        repeat = { ...repeat, except: was.repeat.except };
      else if (repeat === null && except && except.length > 0)
        refusals.push({ column: 'except', message: EXCEPT_WITHOUT_REPEAT });

      // A column left out keeps the event's value; the whole checked as the events API checks it.
      const keep = <T>(value: T | undefined, kept: T | undefined) => (value === undefined ? kept : value);
      const parsed = EventInput.safeParse({
        title: row.cells.title ?? '',
        description: keep(cell(row, 'description'), was?.description),
        shopId: organizer?.id ?? null,
        placeKind,
        placeId,
        allDay,
        startDate: row.cells.start_date?.trim() ?? '',
        startTime: keep(startTime, was?.startTime),
        endDate: row.cells.end_date?.trim() ?? '',
        endTime: keep(orNull(cell(row, 'end_time')), was?.endTime),
        tags: keep(wordsIn(cell(row, 'tags')), was?.tags),
        repeat,
        status: keep(orNull(cell(row, 'status')) ?? undefined, was?.status),
      });
      if (!parsed.success) {
        const columns = new Set(refusals.map((r) => r.column));
        for (const issue of eventIssuesOf(parsed.error)) if (!columns.has(issue.column)) refusals.push(issue);
      }
      if (refusals.length > 0 || !parsed.success) return { refused: refusals };
      const data = parsed.data;
      const stored = data.repeat ?? null;
      const values: EventValues = {
        shopId: organizer?.id ?? null,
        shopName: organizer?.name ?? null,
        title: data.title,
        description: data.description ?? '',
        placeKind: data.placeKind,
        placeId: data.placeKind === 'mall' ? null : (data.placeId ?? null),
        placeName: data.placeKind === 'mall' ? 'The whole mall' : placeName,
        allDay: data.allDay,
        startDate: data.startDate,
        startTime: data.allDay ? null : (data.startTime ?? null),
        endDate: data.endDate,
        endTime: data.allDay ? null : (data.endTime ?? null),
        tags: [...new Set(data.tags ?? [])],
        // The same repeat written another way (days the start's weekday, an interval of 1) stays as stored.
        repeat:
          was && repeatKey(was.repeat, data.startDate) === repeatKey(stored, data.startDate)
            ? was.repeat
            : stored,
        status: data.status ?? 'scheduled',
      };
      const time = values.startTime ?? '';
      return {
        planned: plan(
          row.line,
          values,
          before && { ...before, code: null, name: values.title },
          false,
          compare,
        ),
        key: before
          ? `\u0000event\u0000${before.id}`
          : `${values.shopId ?? ''}\u0000event\u0000${values.title} ${values.startDate} ${time}`,
        same: (line) => ({
          column: 'title',
          message: `The same event ("${values.title}" on ${values.startDate}${time ? ` at ${time}` : ''}) is on line ${line} too`,
        }),
      };
    },
    sink,
  );
  return { ...result, newCategories: [], newFloors: [] };
}

// ------------------------------------------------------------------------------------------- synonyms

/**
 * Search synonyms (docs/decisions/035, 038): each row through the synonyms API's schema and its folding
 * (synonymKeys: a term with no letter, a replacement equal to its term refused with its messages), then
 * upserted by the folded term.
 */
export async function checkSynonyms(
  tx: Executor,
  text: CsvSource,
  progress?: Progress,
  sink?: PlannedSink<SynonymValues>,
): Promise<CheckResult> {
  const all = await tx
    .select({ id: searchSynonyms.id, term: searchSynonyms.term, replacement: searchSynonyms.replacement })
    .from(searchSynonyms);
  const byTerm = new Map(all.map((s) => [s.term, s]));
  const result = await sortRows<SynonymValues>(
    readRows('synonyms', text),
    progress,
    (row) => {
      const parsed = SynonymInput.safeParse({
        term: row.cells.term ?? '',
        replacement: row.cells.replacement ?? '',
      });
      if (!parsed.success) return { refused: issuesOf(parsed.error) };
      let values: SynonymValues;
      try {
        values = synonymKeys(parsed.data);
      } catch (error) {
        if (error instanceof HttpError && error.fields)
          return {
            refused: Object.entries(error.fields).map(([column, message]) => ({ column, message })),
          };
        throw error;
      }
      const found = byTerm.get(values.term);
      const existing = found && {
        id: found.id,
        code: null,
        name: found.term,
        values: { term: found.term, replacement: found.replacement },
      };
      return {
        planned: plan(row.line, values, existing, false, (a, b) => a.replacement === b.replacement),
        key: `\u0000term\u0000${values.term}`,
      };
    },
    sink,
  );
  return { ...result, newCategories: [], newFloors: [] };
}

export { END_BEFORE_START };

export type AnyValues = ShopValues | ProductValues | OfferValues | EventValues | SynonymValues;

/** `timeZone`: the mall's (an event's RRULE UNTIL is read in it). */
export function checkFile(
  kind: ImportKind,
  tx: Executor,
  text: CsvSource,
  timeZone: string,
  progress?: Progress,
  sink?: PlannedSink<AnyValues>,
): Promise<CheckResult> {
  switch (kind) {
    case 'shops':
      return checkShops(tx, text, progress, sink as PlannedSink<ShopValues> | undefined);
    case 'products':
      return checkProducts(tx, text, progress, sink as PlannedSink<ProductValues> | undefined);
    case 'offers':
      return checkOffers(tx, text, progress, sink as PlannedSink<OfferValues> | undefined);
    case 'events':
      return checkEvents(tx, text, timeZone, progress, sink as PlannedSink<EventValues> | undefined);
    case 'synonyms':
      return checkSynonyms(tx, text, progress, sink as PlannedSink<SynonymValues> | undefined);
  }
}
