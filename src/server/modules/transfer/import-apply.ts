// A confirmed import (docs/decisions/022), in two steps so that no long transaction holds the database:
//
// 1. Stage: the file is checked again against the mall as it now is, and each batch of rows to create or
//    update goes to `import_staged_rows` (the target table's columns and the audit entry's changes) in a
//    statement of its own. Other requests run between two batches — on PGlite's one session too.
// 2. Publish: one performWrite — one transaction — of a few set-based statements: the missing categories
//    and floors, INSERT … SELECT and UPDATE … FROM the staged rows, their audit entries the same way, the
//    run's own entry, and the run marked done. All or nothing: a kill -9 before COMMIT leaves only staged
//    rows, which nobody reads and the lease sweep (runs.ts) deletes.
import { randomUUID } from 'node:crypto';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { eq, sql } from 'drizzle-orm';
import { toPriceString } from '../../../shared/money';
import type { ImportCounts, ImportKind } from '../../../shared/transfer';
import type { Db } from '../../db/client';
import { placeNameKeys } from '../../db/place-name-keys';
import { importRuns } from '../../db/schema';
import { HttpError } from '../../errors';
import { type Actor, changedFields, performWrite, type Snapshot, type WriteScope } from '../../write-path';
import { CATEGORY, FLOOR, placeRepository } from '../places/repository';
import { productWriteError } from '../products/repository';
import { shopWriteError } from '../shops/repository';
import {
  type AnyValues,
  type CheckResult,
  checkFile,
  type OfferValues,
  type PlannedRow,
  type ProductValues,
  type ShopValues,
} from './import-check';

/** Rows made ready for staging between two turns of the event loop. */
const STAGE_SLICE = 250;
/** Staged rows deleted per statement once a run is over (each a short statement between requests). */
const CLEAR_BATCH = 1000;

export interface ApplyRun {
  id: string;
  kind: ImportKind;
  fileName: string;
  content: string;
  validOnly: boolean;
}

export const refusedRowsError = (refused: number) =>
  new HttpError(
    409,
    'ROWS_REFUSED',
    `${refused} ${refused === 1 ? 'row is' : 'rows are'} refused, so nothing was imported. Correct ${refused === 1 ? 'it' : 'them'}, or import the valid rows only`,
  );

/** The mall changed between the check and the publish in a way the staged rows cannot follow. */
const staleError = () =>
  new HttpError(
    409,
    'IMPORT_STALE',
    'Records this file changes were deleted or added while it ran, so nothing was imported. Run it again',
  );

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

/** A stand-in id the check gives a category or floor the run creates (import-check.ts). */
const TO_CREATE = '00000000-0000-4000-8000-000000000000';

/**
 * Per kind: the table, its columns as the staged `values` carry them (snake_case, read back with
 * jsonb_populate_record), the audit entity, and how a row's values become that. Shops name a place the
 * run creates by its name key (decision 011), resolved when published, once the place exists.
 */
interface KindSpec<V> {
  table: 'shops' | 'products' | 'offers';
  entityType: 'shop' | 'product' | 'offer';
  columns: readonly string[];
  /** Extra columns of a created row, as SQL (an import's offers are approved: decision 015). */
  createOnly?: Record<string, string>;
  /** A column's value when published, when not simply the staged one. */
  expression?: Record<string, string>;
  values(v: V): Record<string, unknown>;
  snapshot(v: V): Snapshot;
  name(v: V): string;
  shopId(v: V, id: string): string;
}

const placeKey = (id: unknown, name: string) => (id === TO_CREATE ? placeNameKeys(name).nameKey : null);

const SPECS: {
  shops: KindSpec<ShopValues>;
  products: KindSpec<ProductValues>;
  offers: KindSpec<OfferValues>;
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
};

/** Errors of the written tables, said as the forms say them. */
const importWriteError = (error: unknown) => shopWriteError(error) ?? productWriteError(error);

/** A batch of planned rows into `import_staged_rows`: one statement, one array parameter per column. */
async function stage(
  db: Db,
  runId: string,
  spec: KindSpec<AnyValues>,
  from: number,
  batch: PlannedRow<AnyValues>[],
) {
  const seq: number[] = [];
  const action: string[] = [];
  const entityId: string[] = [];
  const shopId: string[] = [];
  const entityName: string[] = [];
  const values: string[] = [];
  const changes: string[] = [];
  for (const [i, row] of batch.entries()) {
    // A turn of the event loop every few hundred rows: the snapshots and their JSON take a while.
    if (i > 0 && i % STAGE_SLICE === 0) await nextTurn();
    if (row.action === 'unchanged') continue;
    const id = row.action === 'create' ? randomUUID() : row.id;
    seq.push(from + i);
    action.push(row.action);
    entityId.push(id);
    shopId.push(spec.shopId(row.values, id));
    entityName.push(spec.name(row.values));
    values.push(JSON.stringify(spec.values(row.values)));
    const before = row.action === 'update' ? spec.snapshot(row.before) : null;
    changes.push(JSON.stringify(changedFields(before, spec.snapshot(row.values))));
  }
  await db.$client.query(
    `insert into import_staged_rows (run_id, seq, action, entity_id, shop_id, entity_name, values, changes)
     select $1::uuid, * from unnest($2::int[], $3::text[], $4::uuid[], $5::uuid[], $6::text[], $7::jsonb[], $8::jsonb[])`,
    [runId, seq, action, entityId, shopId, entityName, values, changes],
  );
}

/** Deletes a run's staged rows, a batch per statement (a run over, or interrupted). */
export async function clearStaged(db: Db, runId: string): Promise<void> {
  for (;;) {
    const { rowCount } = await db.$client.query(
      `delete from import_staged_rows where run_id = $1 and seq in
         (select seq from import_staged_rows where run_id = $1 order by seq limit ${CLEAR_BATCH})`,
      [runId],
    );
    if ((rowCount ?? 0) < CLEAR_BATCH) return;
    await nextTurn();
  }
}

/** The staged rows into the mall's table and the audit log: a few set-based statements in `scope`. */
async function publish(
  scope: WriteScope,
  spec: KindSpec<AnyValues>,
  runId: string,
  counts: ImportCounts,
): Promise<void> {
  const value = (column: string) => spec.expression?.[column] ?? `r.${column}`;
  const extra = Object.entries(spec.createOnly ?? {});
  const staged = (action: 'create' | 'update') =>
    sql`import_staged_rows s cross join lateral jsonb_populate_record(null::${sql.raw(spec.table)}, s.values) r
      where s.run_id = ${runId}::uuid and s.action = ${action}`;
  const inserted = await scope.tx.execute(
    sql`insert into ${sql.raw(spec.table)} (id, ${sql.raw([...spec.columns, ...extra.map(([c]) => c)].join(', '))})
     select s.entity_id, ${sql.raw([...spec.columns.map(value), ...extra.map(([, v]) => v)].join(', '))}
       from ${staged('create')} order by s.seq`,
  );
  if ((inserted.rowCount ?? 0) !== counts.created) throw staleError();
  const updated = await scope.tx.execute(
    sql`update ${sql.raw(spec.table)} t set ${sql.raw(spec.columns.map((c) => `${c} = ${value(c)}`).join(', '))}
       from ${staged('update')} and t.id = s.entity_id`,
  );
  if ((updated.rowCount ?? 0) !== counts.updated) throw staleError();
  await scope.tx.execute(sql`insert into audit_log
      (at, actor_id, actor_email, entity_type, entity_id, entity_name, action, changes, detail, shop_id)
    select ${scope.at.toISOString()}::timestamptz, ${scope.actor.id}::uuid, ${scope.actor.email},
      ${spec.entityType}, s.entity_id, s.entity_name, s.action, s.changes,
      ${JSON.stringify({ importRun: runId })}::jsonb, s.shop_id
      from import_staged_rows s where s.run_id = ${runId}::uuid order by s.seq`);
}

/** What the staging step found: the counts and the categories and floors to create. */
export type Staged = Pick<CheckResult, 'counts' | 'newCategories' | 'newFloors'>;

/**
 * Step 1: checks the file against the mall as it now is and stages the rows to write, a batch per
 * statement; `progress` hears how many rows were checked. Refused rows stop it unless "valid rows only".
 */
export async function stageImport(db: Db, run: ApplyRun, progress?: (rows: number) => void): Promise<Staged> {
  const spec = SPECS[run.kind] as KindSpec<AnyValues>;
  await clearStaged(db, run.id);
  let seq = 0;
  const check = await checkFile(run.kind, db, run.content, progress, async (batch) => {
    await stage(db, run.id, spec, seq, batch);
    seq += batch.length;
  });
  if (check.counts.refused > 0 && !run.validOnly) throw refusedRowsError(check.counts.refused);
  return check;
}

/**
 * Step 2: publishes the staged rows in one transaction — the missing places, the rows, their audit
 * entries, the run's entry and the run marked done — or nothing (IMPORT_STALE when the mall changed
 * under the staged rows).
 */
export async function publishImport(
  db: Db,
  actor: Actor,
  run: ApplyRun,
  staged: Staged,
  now: () => Date,
): Promise<ImportCounts> {
  const spec = SPECS[run.kind] as KindSpec<AnyValues>;
  const counts = staged.counts;
  return performWrite(
    db,
    actor,
    async (scope) => {
      // The categories and floors the file names that the mall lacks: created first, logged like the form's.
      for (const [names, kind] of [
        [staged.newCategories, CATEGORY],
        [staged.newFloors, FLOOR],
      ] as const) {
        const places = placeRepository(db, kind);
        for (const name of names) {
          const created = await places.insert(scope.tx, { name });
          scope.record({
            entityType: kind.noun,
            entityId: created.id,
            entityName: name,
            action: 'create',
            after: created.level === undefined ? { name } : { name, level: created.level },
            detail: { importRun: run.id },
          });
        }
      }
      await publish(scope, spec, run.id, counts);
      scope.record({
        entityType: 'import',
        entityId: run.id,
        entityName: run.fileName,
        action: 'create',
        detail: { kind: run.kind, fileName: run.fileName, validOnly: run.validOnly, ...counts },
      });
      await scope.tx
        .update(importRuns)
        .set({ status: 'done', result: { counts }, finishedAt: scope.at, validOnly: run.validOnly })
        .where(eq(importRuns.id, run.id));
      return counts;
    },
    { now, errors: importWriteError },
  );
}

/**
 * Runs the import: stage, then publish; the staged rows are deleted afterwards whatever happened.
 * The run's row is marked done in the publishing transaction, so a run is done exactly when its changes
 * are there.
 */
export async function applyImport(
  db: Db,
  actor: Actor,
  run: ApplyRun,
  options: { now: () => Date; progress?: (rows: number) => void },
): Promise<ImportCounts> {
  try {
    const staged = await stageImport(db, run, options.progress);
    return await publishImport(db, actor, run, staged, options.now);
  } finally {
    await clearStaged(db, run.id).catch(() => undefined);
  }
}
