// What a confirmed import stages (docs/decisions/022): per kind, the table's columns as the staged
// `values` carry them and the audit entry's changes. Made in the check's child process
// (check-child.ts), so the server at most sends each batch to the database.
import { randomUUID } from 'node:crypto';
import { toPriceString } from '../../../shared/money';
import { placeNameKeys } from '../../db/place-name-keys';
import { changedFields, type Snapshot } from '../../write-path';
import type {
  AnyValues,
  EventValues,
  OfferValues,
  PlannedRow,
  ProductValues,
  ShopValues,
  SynonymValues,
} from './import-check';

const shopSnapshot = (v: ShopValues) => ({
  name: v.name,
  description: v.description ?? '',
  category: v.categoryName,
  floor: v.floorName,
  location: v.location ?? '',
  contact: v.contact ?? '',
  openingHours: v.openingHours ?? '',
  externalCode: v.externalCode ?? null,
});
const productSnapshot = (v: ProductValues) => ({
  name: v.name,
  description: v.description ?? '',
  price: toPriceString(v.price),
  category: v.category ?? '',
  shop: v.shopName,
  offer: v.offerTitle,
  externalCode: v.externalCode ?? null,
});
const offerSnapshot = (v: OfferValues) => ({
  title: v.title,
  description: v.description ?? '',
  discount: v.discount,
  startDate: v.startDate,
  endDate: v.endDate,
  shop: v.shopName,
});

/** An event as the events API's audit entries show it (events/repository.ts eventSnapshot). */
const eventSnapshot = (v: EventValues) => ({
  title: v.title,
  description: v.description,
  shop: v.shopName,
  place: v.placeName,
  allDay: v.allDay,
  start: v.startTime ? `${v.startDate} ${v.startTime}` : v.startDate,
  end: v.endTime ? `${v.endDate} ${v.endTime}` : v.endDate,
  tags: v.tags.join(', '),
  repeat: v.repeat,
  status: v.status,
});
/** As the synonyms API's entries (synonyms/repository.ts synonymSnapshot). */
const synonymSnapshot = (v: SynonymValues) => ({ term: v.term, replacement: v.replacement });

/** A stand-in id the check gives a category or floor the run creates (import-check.ts). */
const TO_CREATE = '00000000-0000-4000-8000-000000000000';

/**
 * Per kind: the table, its columns as the staged `values` carry them (snake_case, read back with
 * jsonb_populate_record), the audit entity, and how a row's values become that. Shops name a place the
 * run creates by its name key (decision 011), resolved when published, once the place exists.
 */
export interface KindSpec<V> {
  table: 'shops' | 'products' | 'offers' | 'events' | 'search_synonyms';
  entityType: 'shop' | 'product' | 'offer' | 'event' | 'synonym';
  columns: readonly string[];
  /** Extra columns of a created row, as SQL (an import's offers are approved: decision 015). */
  createOnly?: Record<string, string>;
  /** A column's value when published, when not simply the staged one. */
  expression?: Record<string, string>;
  values(v: V): Record<string, unknown>;
  snapshot(v: V): Snapshot;
  name(v: V): string;
  /** The shop the audit entry names (a manager reads their shop's history by it); none for the mall's. */
  shopId(v: V, id: string): string | null;
}

const placeKey = (id: unknown, name: string) => (id === TO_CREATE ? placeNameKeys(name).nameKey : null);

export const SPECS: {
  shops: KindSpec<ShopValues>;
  products: KindSpec<ProductValues>;
  offers: KindSpec<OfferValues>;
  events: KindSpec<EventValues>;
  synonyms: KindSpec<SynonymValues>;
} = {
  shops: {
    table: 'shops',
    entityType: 'shop',
    columns: [
      'name',
      'description',
      'category_id',
      'floor_id',
      'location',
      'contact',
      'opening_hours',
      'external_code',
    ],
    expression: {
      category_id: `coalesce(r.category_id, (select c.id from categories c where c.name_key = s.values->>'category_key'))`,
      floor_id: `coalesce(r.floor_id, (select f.id from floors f where f.name_key = s.values->>'floor_key'))`,
    },
    values: (v) => ({
      name: v.name,
      description: v.description ?? '',
      category_id: v.categoryId === TO_CREATE ? null : v.categoryId,
      floor_id: v.floorId === TO_CREATE ? null : v.floorId,
      category_key: placeKey(v.categoryId, v.categoryName),
      floor_key: placeKey(v.floorId, v.floorName),
      location: v.location ?? '',
      contact: v.contact ?? '',
      opening_hours: v.openingHours ?? '',
      external_code: v.externalCode ?? null,
    }),
    snapshot: shopSnapshot,
    name: (v) => v.name,
    shopId: (_v, id) => id,
  },
  products: {
    table: 'products',
    entityType: 'product',
    columns: ['name', 'description', 'price', 'category', 'shop_id', 'offer_id', 'external_code'],
    values: (v) => ({
      name: v.name,
      description: v.description ?? '',
      price: toPriceString(v.price),
      category: v.category ?? '',
      shop_id: v.shopId,
      offer_id: v.offerId ?? null,
      external_code: v.externalCode ?? null,
    }),
    snapshot: productSnapshot,
    name: (v) => v.name,
    shopId: (v) => v.shopId,
  },
  offers: {
    table: 'offers',
    entityType: 'offer',
    columns: ['title', 'description', 'discount', 'start_date', 'end_date', 'shop_id'],
    createOnly: { approved: 'true' },
    values: (v) => ({
      title: v.title,
      description: v.description ?? '',
      discount: v.discount,
      start_date: v.startDate,
      end_date: v.endDate,
      shop_id: v.shopId,
    }),
    snapshot: offerSnapshot,
    name: (v) => v.title,
    shopId: (v) => v.shopId,
  },
  events: {
    table: 'events',
    entityType: 'event',
    columns: [
      'shop_id',
      'title',
      'description',
      'place_kind',
      'place_floor_id',
      'place_amenity_id',
      'place_shop_id',
      'all_day',
      'start_date',
      'start_time',
      'end_date',
      'end_time',
      'tags',
      'repeat',
      'status',
    ],
    // An admin's event is live at once (review-decisions.ts submissionOf); an update leaves a review as it is,
    // as the admin's own edit does.
    createOnly: { approved: 'true' },
    values: (v) => ({
      shop_id: v.shopId,
      title: v.title,
      description: v.description,
      place_kind: v.placeKind,
      place_floor_id: v.placeKind === 'floor' ? v.placeId : null,
      place_amenity_id: v.placeKind === 'amenity' ? v.placeId : null,
      place_shop_id: v.placeKind === 'shop' ? v.placeId : null,
      all_day: v.allDay,
      start_date: v.startDate,
      start_time: v.startTime,
      end_date: v.endDate,
      end_time: v.endTime,
      tags: v.tags,
      repeat: v.repeat,
      status: v.status,
    }),
    snapshot: eventSnapshot,
    name: (v) => v.title,
    shopId: (v) => v.shopId,
  },
  synonyms: {
    table: 'search_synonyms',
    entityType: 'synonym',
    columns: ['term', 'replacement'],
    values: (v) => ({ term: v.term, replacement: v.replacement }),
    snapshot: synonymSnapshot,
    name: (v) => v.term,
    shopId: () => null,
  },
};

/**
 * Writes a batch of staged rows: one statement whose parameter $2 is the batch's JSON, sent as bytes (a
 * Buffer parameter goes in binary format: for text, the UTF-8 bytes themselves); $1 is the run.
 */
export const STAGE_ROWS_SQL = `insert into import_staged_rows (run_id, seq, action, entity_id, shop_id, entity_name, values, changes)
  select $1::uuid, r.seq, r.action, r.entity_id, r.shop_id, r.entity_name, r."values", r.changes
    from jsonb_to_recordset($2::text::jsonb) as r(seq int, action text, entity_id uuid, shop_id uuid,
      entity_name text, "values" jsonb, changes jsonb)`;

/**
 * One batch of staged rows as the UTF-8 bytes of one JSON array (a record per row), written by the
 * check's own connection as it is (one text parameter read by jsonb_to_recordset).
 */
export interface StageBatch {
  rows: number;
  json: Uint8Array;
}

const encoder = new TextEncoder();

/** A batch of planned rows as staged (unchanged rows left out); `from` numbers them. */
export function stageBatch(
  kind: keyof typeof SPECS,
  from: number,
  batch: PlannedRow<AnyValues>[],
): StageBatch {
  const spec = SPECS[kind] as KindSpec<AnyValues>;
  const records: unknown[] = [];
  for (const [i, row] of batch.entries()) {
    if (row.action === 'unchanged') continue;
    const id = row.action === 'create' ? randomUUID() : row.id;
    const before = row.action === 'update' ? spec.snapshot(row.before) : null;
    records.push({
      seq: from + i,
      action: row.action,
      entity_id: id,
      shop_id: spec.shopId(row.values, id),
      entity_name: spec.name(row.values),
      values: spec.values(row.values),
      changes: changedFields(before, spec.snapshot(row.values)),
    });
  }
  return { rows: records.length, json: encoder.encode(JSON.stringify(records)) };
}
