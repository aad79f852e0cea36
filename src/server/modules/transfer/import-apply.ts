// A confirmed import (docs/decisions/022), in two steps so that no long transaction holds the database:
//
// 1. Stage: the file is checked again against the mall as it now is, and each batch of rows to create or
//    update goes to `import_staged_rows` (the target table's columns and the audit entry's changes) in a
//    statement of its own, over the check's own connection (check-child.ts).
// 2. Publish: one performWrite — one transaction — of a few set-based statements: the missing categories
//    and floors, INSERT … SELECT and UPDATE … FROM the staged rows, their audit entries the same way, the
//    run's own entry, and the run marked done. All or nothing: a kill -9 before COMMIT leaves only staged
//    rows, which nobody reads and the lease sweep (runs.ts) deletes.
import { setImmediate as nextTurn } from 'node:timers/promises';
import { eq, sql } from 'drizzle-orm';
import type { ImportCounts, ImportKind } from '../../../shared/transfer';
import type { Db, WorkerConnection } from '../../db/client';
import { importRuns } from '../../db/schema';
import { HttpError } from '../../errors';
import { type Actor, performWrite, type WriteScope } from '../../write-path';
import { eventWriteError } from '../events/repository';
import { CATEGORY, FLOOR, placeRepository } from '../places/repository';
import { productWriteError } from '../products/repository';
import { shopWriteError } from '../shops/repository';
import { synonymWriteError } from '../synonyms/repository';
import { type CheckChild, checkInChild } from './check-process';
import type { AnyValues, CheckResult } from './import-check';
import { type KindSpec, SPECS } from './staging';

/** Staged rows deleted per statement once a run is over (each a short statement between requests). */
const CLEAR_BATCH = 1000;

export interface ApplyRun {
  id: string;
  kind: ImportKind;
  fileName: string;
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

/** Errors of the written table, said as its forms say them (an event's place gone: "Choose the place"). */
const importWriteError = (kind: ImportKind) => (error: unknown) => {
  if (kind === 'events') return eventWriteError(error);
  if (kind === 'synonyms') return synonymWriteError(error);
  return shopWriteError(error) ?? productWriteError(error);
};

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

/** How a run's check reports and reaches the database. */
export interface CheckOptions {
  progress?: (rows: number) => void;
  onCheck?: (check: CheckChild) => void;
  /** The check's own connection (`Database.workerConnection`). */
  connection: WorkerConnection;
  /** The mall's time zone (the check reads an event's repeat in it). */
  timeZone: string;
}

/** What the staging step found: the counts and the categories and floors to create. */
export type Staged = Pick<CheckResult, 'counts' | 'newCategories' | 'newFloors'>;

/**
 * Step 1: checks the file against the mall as it now is and stages the rows to write, a batch per
 * statement; `progress` hears how many rows were checked. Refused rows stop it unless "valid rows only".
 */
export async function stageImport(db: Db, run: ApplyRun, options: CheckOptions): Promise<Staged> {
  await clearStaged(db, run.id);
  const child = checkInChild(
    {
      runId: run.id,
      kind: run.kind,
      stage: true,
      connection: options.connection,
      timeZone: options.timeZone,
    },
    options.progress,
  );
  options.onCheck?.(child);
  const check = await child.result;
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
        .set({
          status: 'done',
          result: { counts },
          finishedAt: scope.at,
          validOnly: run.validOnly,
          // Every row of the file was checked again (the claim had set 0): a done run says so.
          rowsChecked: counts.created + counts.updated + counts.unchanged + counts.refused,
        })
        .where(eq(importRuns.id, run.id));
      return counts;
    },
    { now, errors: importWriteError(run.kind) },
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
  options: CheckOptions & { now: () => Date },
): Promise<ImportCounts> {
  try {
    const staged = await stageImport(db, run, options);
    return await publishImport(db, actor, run, staged, options.now);
  } finally {
    await clearStaged(db, run.id).catch(() => undefined);
  }
}
