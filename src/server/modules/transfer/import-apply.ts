// A confirmed import (docs/decisions/022): one performWrite — one transaction — that checks the file
// again against the mall as it now is, creates the missing categories and floors, writes the rows in
// batches, and records one audit entry per changed record plus one for the run. All or nothing, unless
// the admin chose "import the valid rows only".
import { randomUUID } from 'node:crypto';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { eq, sql } from 'drizzle-orm';
import { toPriceString } from '../../../shared/money';
import type { ImportCounts, ImportKind } from '../../../shared/transfer';
import type { Db } from '../../db/client';
import { placeNameKeys } from '../../db/place-name-keys';
import { importRuns, offers, products, shops } from '../../db/schema';
import { HttpError } from '../../errors';
import { type Actor, performWrite, type WriteScope } from '../../write-path';
import { CATEGORY, FLOOR, placeRepository } from '../places/repository';
import { productWriteError } from '../products/repository';
import { shopWriteError } from '../shops/repository';
import {
  type CheckResult,
  checkFile,
  type OfferValues,
  type PlannedRow,
  type ProductValues,
  type ShopValues,
} from './import-check';

/** Rows per multi-row INSERT (8 columns each: far below PostgreSQL's 65,535 parameters). */
const BATCH = 1000;

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

/** Errors of the written tables, said as the forms say them. */
const importWriteError = (error: unknown) => shopWriteError(error) ?? productWriteError(error);

/**
 * Runs the import; `progress` hears how many rows were written. Answers the counts written. The run's
 * row is marked done in the same transaction, so a run is done exactly when its changes are there.
 */
export async function applyImport(
  db: Db,
  actor: Actor,
  run: ApplyRun,
  options: { now: () => Date; progress?: (phase: 'checked' | 'written', rows: number) => void },
): Promise<ImportCounts> {
  return performWrite(
    db,
    actor,
    async (scope) => {
      const check = await checkFile(
        run.kind,
        scope.tx,
        run.content,
        (rows) => options.progress?.('checked', rows),
        true,
      );
      if (check.counts.refused > 0 && !run.validOnly) throw refusedRowsError(check.counts.refused);
      const detail = { importRun: run.id };
      let written = 0;
      const wrote = async (n: number) => {
        written += n;
        options.progress?.('written', written);
        // The entries so far go now (in this transaction), not in one huge message at COMMIT.
        await scope.flush();
        await nextTurn();
      };
      if (run.kind === 'shops') await writeShops(db, scope, check as CheckResult<ShopValues>, detail, wrote);
      if (run.kind === 'products')
        await writeProducts(scope, check as CheckResult<ProductValues>, detail, wrote);
      if (run.kind === 'offers') await writeOffers(scope, check as CheckResult<OfferValues>, detail, wrote);
      const counts = check.counts;
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
    { now: options.now, errors: importWriteError },
  );
}

type Wrote = (n: number) => Promise<void>;

async function inBatches<T>(items: T[], wrote: Wrote, each: (batch: T[]) => Promise<void>) {
  for (let i = 0; i < items.length; i += BATCH) {
    const batch = items.slice(i, i + BATCH);
    await each(batch);
    await wrote(batch.length);
  }
}

const creates = <V>(planned: PlannedRow<V>[]) =>
  planned.filter((row): row is Extract<PlannedRow<V>, { action: 'create' }> => row.action === 'create');
const updates = <V>(planned: PlannedRow<V>[]) =>
  planned.filter((row): row is Extract<PlannedRow<V>, { action: 'update' }> => row.action === 'update');

async function writeShops(
  db: Db,
  { tx, record }: WriteScope,
  check: CheckResult<ShopValues>,
  detail: Record<string, unknown>,
  wrote: Wrote,
) {
  // The categories and floors the file names that the mall lacks: created first, logged like the form's.
  const placeIds = new Map<string, string>();
  for (const [names, kind] of [
    [check.newCategories, CATEGORY],
    [check.newFloors, FLOOR],
  ] as const) {
    const places = placeRepository(db, kind);
    for (const name of names) {
      const created = await places.insert(tx, { name });
      placeIds.set(`${kind.noun}\u0000${placeNameKeys(name).nameKey}`, created.id);
      const after = created.level === undefined ? { name } : { name, level: created.level };
      record({
        entityType: kind.noun,
        entityId: created.id,
        entityName: name,
        action: 'create',
        after,
        detail,
      });
    }
  }
  const resolve = (v: ShopValues) => ({
    ...v,
    categoryId:
      placeIds.get(`category\u0000${placeNameKeys(v.categoryName).nameKey}`) ?? (v.categoryId as string),
    floorId: placeIds.get(`floor\u0000${placeNameKeys(v.floorName).nameKey}`) ?? (v.floorId as string),
  });
  const columns = (v: ShopValues) => ({
    name: v.name,
    description: v.description ?? '',
    categoryId: v.categoryId,
    floorId: v.floorId,
    location: v.location ?? '',
    contact: v.contact ?? '',
    openingHours: v.openingHours ?? '',
    externalCode: v.externalCode ?? null,
  });
  await inBatches(creates(check.planned), wrote, async (batch) => {
    const rows = batch.map((row) => ({ id: randomUUID(), ...columns(resolve(row.values)) }));
    await tx.insert(shops).values(rows);
    batch.forEach((row, i) => {
      const id = rows[i]?.id as string;
      record({
        entityType: 'shop',
        entityId: id,
        entityName: row.values.name,
        shopId: id,
        action: 'create',
        after: shopSnapshot(row.values),
        detail,
      });
    });
  });
  await inBatches(updates(check.planned), wrote, async (batch) => {
    for (const row of batch) {
      await tx
        .update(shops)
        .set(columns(resolve(row.values)))
        .where(eq(shops.id, row.id));
      record({
        entityType: 'shop',
        entityId: row.id,
        entityName: row.values.name,
        shopId: row.id,
        action: 'update',
        before: shopSnapshot(row.before),
        after: shopSnapshot(row.values),
        detail,
      });
    }
  });
}

async function writeProducts(
  { tx, record }: WriteScope,
  check: CheckResult<ProductValues>,
  detail: Record<string, unknown>,
  wrote: Wrote,
) {
  const columns = (v: ProductValues) => ({
    name: v.name,
    description: v.description ?? '',
    price: toPriceString(v.price),
    category: v.category ?? '',
    shopId: v.shopId,
    offerId: v.offerId ?? null,
    externalCode: v.externalCode ?? null,
  });
  await inBatches(creates(check.planned), wrote, async (batch) => {
    const rows = batch.map((row) => ({ id: randomUUID(), ...columns(row.values) }));
    await tx.insert(products).values(rows);
    batch.forEach((row, i) => {
      record({
        entityType: 'product',
        entityId: rows[i]?.id as string,
        entityName: row.values.name,
        shopId: row.values.shopId,
        action: 'create',
        after: productSnapshot(row.values),
        detail,
      });
    });
  });
  await inBatches(updates(check.planned), wrote, async (batch) => {
    // One statement per batch: the new values joined to the products by id.
    const values = sql.join(
      batch.map((row) => {
        const c = columns(row.values);
        return sql`(${row.id}::uuid, ${c.name}, ${c.description}, ${c.price}::numeric, ${c.category}, ${c.offerId}::uuid, ${c.externalCode})`;
      }),
      sql`, `,
    );
    await tx.execute(sql`update ${products} set name = v.name, description = v.description, price = v.price,
      category = v.category, offer_id = v.offer_id, external_code = v.external_code
      from (values ${values}) as v(id, name, description, price, category, offer_id, external_code)
      where ${products.id} = v.id`);
    for (const row of batch) {
      record({
        entityType: 'product',
        entityId: row.id,
        entityName: row.values.name,
        shopId: row.values.shopId,
        action: 'update',
        before: productSnapshot(row.before),
        after: productSnapshot(row.values),
        detail,
      });
    }
  });
}

async function writeOffers(
  { tx, record }: WriteScope,
  check: CheckResult<OfferValues>,
  detail: Record<string, unknown>,
  wrote: Wrote,
) {
  const columns = (v: OfferValues) => ({
    title: v.title,
    description: v.description ?? '',
    discount: v.discount,
    startDate: v.startDate,
    endDate: v.endDate,
    shopId: v.shopId,
  });
  await inBatches(creates(check.planned), wrote, async (batch) => {
    // An admin's offers are approved at once (docs/decisions/015): an import is an admin's.
    const rows = batch.map((row) => ({ id: randomUUID(), ...columns(row.values), approved: true }));
    await tx.insert(offers).values(rows);
    batch.forEach((row, i) => {
      record({
        entityType: 'offer',
        entityId: rows[i]?.id as string,
        entityName: row.values.title,
        shopId: row.values.shopId,
        action: 'create',
        after: offerSnapshot(row.values),
        detail,
      });
    });
  });
  await inBatches(updates(check.planned), wrote, async (batch) => {
    for (const row of batch) {
      await tx.update(offers).set(columns(row.values)).where(eq(offers.id, row.id));
      record({
        entityType: 'offer',
        entityId: row.id,
        entityName: row.values.title,
        shopId: row.values.shopId,
        action: 'update',
        before: offerSnapshot(row.before),
        after: offerSnapshot(row.values),
        detail,
      });
    }
  });
}
