// CSV export (docs/decisions/022): every row of a kind, or the ones a list's filters keep, read in pages
// by id and written as they are read — 200,000 products never sit in memory. Cells that a spreadsheet
// would run as formulas are escaped and every cell of a row quoted (`line`); the file starts with a BOM so
// spreadsheets read it as UTF-8.
import { Readable } from 'node:stream';
import { stringify } from 'csv-stringify/sync';
import { and, asc, eq, gt, inArray, type SQL } from 'drizzle-orm';
import type { z } from 'zod';
import { COLUMNS, type ExportKind, type ExportQuery } from '../../../shared/transfer';
import type { Db } from '../../db/client';
import { categories, floors, offers, products, searchSynonyms, shops } from '../../db/schema';
import { timingOf } from '../events/ical';
import { rruleValue } from '../events/recurrence';
import { eventRepository } from '../events/repository';
import { offerFilters } from '../offers/repository';
import { productFilters } from '../products/repository';
import { shopRepository } from '../shops/repository';
import { escapeCell, UTF8_BOM } from './csv';

/** Rows per read: a page of products is a few hundred kilobytes. */
const PAGE = 2000;
const FIRST_ID = '00000000-0000-0000-0000-000000000000';

/**
 * One row of a file: every cell quoted, an empty one too. A spreadsheet whose list separator is `;` (or
 * one told to split on tabs) splits a comma file on that instead: a cell `a;=1+1` left bare becomes `a`
 * and a formula `=1+1`, which escapeCell's leading `'` cannot reach. Quoted, every `;` and tab of a cell
 * lies between a cell's own pair of quotes, and every row starts with a quote: a reader that keeps
 * quoted text together keeps it together whichever separator it splits on. (Quoting only the cells
 * holding one would not do: the row's earlier cells, read as one bare field up to the `;`, start before
 * the quote.) A spreadsheet reading commas takes the quotes off (numbers stay numbers); the import does.
 */
const line = (cells: readonly (string | number | null)[]) =>
  stringify([cells.map((value) => escapeCell(value === null ? '' : String(value)))], {
    record_delimiter: '\r\n',
    quoted: true,
    quoted_empty: true,
  });

/** The header row: the columns' own names (no separator, no formula), bare as a spreadsheet writes them. */
const headerLine = (columns: readonly string[]) => stringify([columns], { record_delimiter: '\r\n' });

/** Keyset pages of a query: `read(after)` answers up to PAGE rows with ids above `after`. */
async function* pages<T extends { id: string }>(read: (after: string) => Promise<T[]>) {
  let after = FIRST_ID;
  for (;;) {
    const rows = await read(after);
    if (rows.length > 0) yield rows;
    if (rows.length < PAGE) return;
    after = rows[rows.length - 1]?.id as string;
  }
}

type Filters<K extends ExportKind> = z.output<(typeof ExportQuery)[K]>;

async function* rowsOf(
  db: Db,
  kind: ExportKind,
  query: Record<string, unknown>,
  context: { today: string; timeZone: string },
): AsyncGenerator<(string | number | null)[][]> {
  if (kind === 'shops') {
    // Shops are few: the list's own query, page by page, so every filter (Open now too) is the list's.
    const repository = shopRepository(db, { timeZone: context.timeZone });
    for (let page = 1; ; page++) {
      const answer = await repository.list({ ...(query as Filters<'shops'>), page, pageSize: 100 });
      yield answer.items.map((s) => [
        s.externalCode,
        s.name,
        s.category,
        s.floor,
        s.description,
        s.location,
        s.contact,
        s.openingHours,
      ]);
      if (answer.items.length < 100) return;
    }
  }
  if (kind === 'products') {
    const where = productFilters(query as Filters<'products'>);
    for await (const rows of pages((after) =>
      db
        .select({
          id: products.id,
          shopCode: shops.externalCode,
          shop: shops.name,
          code: products.externalCode,
          name: products.name,
          price: products.price,
          category: products.category,
          description: products.description,
          offer: offers.title,
        })
        .from(products)
        .innerJoin(shops, eq(shops.id, products.shopId))
        .leftJoin(offers, eq(offers.id, products.offerId))
        .where(and(gt(products.id, after), where as SQL | undefined))
        .orderBy(asc(products.id))
        .limit(PAGE),
    )) {
      yield rows.map((r) => [
        r.shopCode,
        r.shop,
        r.code,
        r.name,
        r.price,
        r.category,
        r.description,
        r.offer,
      ]);
    }
    return;
  }
  if (kind === 'offers') {
    const where = offerFilters(query as Filters<'offers'>, context.today);
    for await (const rows of pages((after) =>
      db
        .select({
          id: offers.id,
          shopCode: shops.externalCode,
          shop: shops.name,
          title: offers.title,
          description: offers.description,
          discount: offers.discount,
          startDate: offers.startDate,
          endDate: offers.endDate,
        })
        .from(offers)
        .innerJoin(shops, eq(shops.id, offers.shopId))
        .where(and(gt(offers.id, after), where))
        .orderBy(asc(offers.id))
        .limit(PAGE),
    )) {
      yield rows.map((r) => [r.shopCode, r.shop, r.title, r.description, r.discount, r.startDate, r.endDate]);
    }
    return;
  }
  if (kind === 'events') {
    yield await eventRows(db, query as Filters<'events'>, context.timeZone);
    return;
  }
  if (kind === 'categories') {
    const rows = await db.select({ name: categories.name }).from(categories).orderBy(asc(categories.name));
    yield rows.map((r) => [r.name]);
    return;
  }
  if (kind === 'synonyms') {
    const rows = await db
      .select({ term: searchSynonyms.term, replacement: searchSynonyms.replacement })
      .from(searchSynonyms)
      .orderBy(asc(searchSynonyms.term));
    yield rows.map((r) => [r.term, r.replacement]);
    return;
  }
  const rows = await db
    .select({ name: floors.name, level: floors.level })
    .from(floors)
    .orderBy(asc(floors.level));
  yield rows.map((r) => [r.name, r.level]);
}

/** Approved events, as the feeds list them (few: one read), with their shops' codes. */
async function eventRows(
  db: Db,
  query: Filters<'events'>,
  timeZone: string,
): Promise<(string | number | null)[][]> {
  const found = await eventRepository(db).listApproved({ tag: query.tag, shopId: query.shopId });
  const shopIds = [...new Set(found.flatMap((event) => (event.shopId ? [event.shopId] : [])))];
  const codes = new Map(
    shopIds.length === 0
      ? []
      : (
          await db
            .select({ id: shops.id, code: shops.externalCode })
            .from(shops)
            .where(inArray(shops.id, shopIds))
        ).map((row) => [row.id, row.code]),
  );
  return found.map((event) => [
    event.shopId ? (codes.get(event.shopId) ?? null) : null,
    event.shopName,
    event.title,
    event.description,
    event.place.kind,
    event.place.kind === 'mall' ? '' : event.place.name,
    event.allDay ? 'yes' : 'no',
    event.startDate,
    event.startTime,
    event.endDate,
    event.endTime,
    event.tags.join(' '),
    rruleValue(timingOf(event), timeZone),
    (event.repeat?.except ?? []).join(' '),
    event.status,
  ]);
}

/** The export as a stream of CSV text: a page is read only when the previous one has been sent. */
export function exportStream(
  db: Db,
  kind: ExportKind,
  query: Record<string, unknown>,
  context: { today: string; timeZone: string },
): Readable {
  async function* text() {
    yield `${UTF8_BOM}${headerLine(COLUMNS[kind])}`;
    for await (const rows of rowsOf(db, kind, query, context)) {
      yield rows.map(line).join('');
    }
  }
  return Readable.from(text(), { objectMode: false });
}

/** A CSV file of the given rows (the template, the error file): small, made at once. */
export function csvText(header: readonly string[], rows: readonly (readonly string[])[]): string {
  return `${UTF8_BOM}${headerLine(header)}${rows.map(line).join('')}`;
}
