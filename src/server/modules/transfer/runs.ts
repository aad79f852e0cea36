// Import runs (docs/decisions/022): the uploaded file and its preview kept in `import_runs` until the
// admin confirms, so they can leave and come back. Checking and writing happen after the answer, as
// background jobs (lib/jobs): the check in a child process, at most IMPORTS_AT_ONCE at a time, and the
// run's lease (`heartbeat_at`) renewed while this server works on it; the progress of a run this server
// works on is kept in memory and read from there. A run still checking or running whose lease has run
// out was interrupted — its server stopped — and is marked failed when next read, its staged rows
// deleted, so it can be run again (with several servers, only the lease tells a dead one from a busy one).
import { setImmediate as nextTurn } from 'node:timers/promises';
import { and, desc, eq, getTableColumns, inArray, sql } from 'drizzle-orm';
import {
  type ImportCounts,
  type ImportKind,
  type ImportPreview,
  type ImportRun,
  PREVIEW_REFUSED_MAX,
  type RefusedRow,
} from '../../../shared/transfer';
import type { Db, WorkerConnection } from '../../db/client';
import { importRuns } from '../../db/schema';
import { HttpError } from '../../errors';
import type { QueueTicket } from '../../lib/bounded-queue';
import { ChildJobSet } from '../../lib/jobs/child-job';
import { JobLeases } from '../../lib/jobs/lease';
import { JobLimiter } from '../../lib/jobs/limiter';
import type { Actor } from '../../write-path';
import { checkInChild } from './check-process';
import { applyImport, clearStaged, refusedRowsError } from './import-apply';

type RunRow = typeof importRuns.$inferSelect;

/** Every column but the file. */
const { content: _content, ...withoutFile } = getTableColumns(importRuns);

/** The preview as stored: every refused row and every line matched by name (the API gives the first ones and their number). */
type StoredPreview = Omit<ImportPreview, 'matchedByNameTotal'>;

const toRun = (row: RunRow): ImportRun => {
  const preview = row.preview as StoredPreview | null;
  return {
    id: row.id,
    kind: row.kind,
    fileName: row.fileName,
    status: row.status,
    validOnly: row.validOnly,
    rowsTotal: row.rowsTotal,
    rowsChecked: row.rowsChecked,
    preview: preview
      ? {
          ...preview,
          refused: preview.refused.slice(0, PREVIEW_REFUSED_MAX),
          matchedByName: preview.matchedByName.slice(0, PREVIEW_REFUSED_MAX),
          matchedByNameTotal: preview.matchedByName.length,
        }
      : null,
    result: (row.result as ImportRun['result']) ?? null,
    createdByEmail: row.createdByEmail,
    createdAt: row.createdAt.toISOString(),
    finishedAt: row.finishedAt?.toISOString() ?? null,
  };
};

export const importNotFound = () => new HttpError(404, 'NOT_FOUND', 'Import not found');

/** Bytes (or characters) of the file whose line breaks are counted in one turn of the event loop. */
const COUNT_SLICE = 1024 * 1024;

/**
 * Rows in the file (line breaks, roughly: for the progress bar's total only); counted without copies,
 * a slice per turn of the event loop: 200,000 lines counted at once held it about 25 ms.
 */
async function roughRows(content: string | Uint8Array): Promise<number> {
  const at = (from: number) =>
    typeof content === 'string' ? content.indexOf('\n', from) : content.indexOf(0x0a, from);
  let lines = 0;
  let sliceEnd = COUNT_SLICE;
  for (let found = at(0); found !== -1; found = at(found + 1)) {
    lines++;
    if (found >= sliceEnd) {
      sliceEnd = found + COUNT_SLICE;
      await nextTurn();
    }
  }
  const last = typeof content === 'string' ? content.endsWith('\n') : content.at(-1) === 0x0a;
  return Math.max(0, lines - (last ? 1 : 0));
}

/** What an interrupted run says. */
export const INTERRUPTED =
  'The import was interrupted (its server stopped) and nothing was written; run it again';

/** The default lease of a run: renewed every quarter of it. */
export const DEFAULT_IMPORT_LEASE_S = 60;

/** Imports a server checks or writes at once; another is answered 503 + Retry-After until one ends. */
export const IMPORTS_AT_ONCE = 2;

/** `connection`: the checks' own connection to the database (`Database.workerConnection`). */
export function importRunStore(
  db: Db,
  now: () => Date,
  leaseSeconds: number | undefined = DEFAULT_IMPORT_LEASE_S,
  connection: WorkerConnection,
  /** The mall's time zone (MALL_TIMEZONE): the checks read an event's repeat in it. */
  timeZone: string,
) {
  /**
   * Runs this process is checking or writing: their progress, newer than the stored row, and their
   * leases, renewed while they are here (database clock, as the sweep compares).
   */
  const active = new JobLeases<ImportRun>({
    seconds: leaseSeconds,
    renew: (ids) => db.update(importRuns).set({ heartbeatAt: sql`now()` }).where(inArray(importRuns.id, ids)),
  });
  /**
   * The imports this server checks or writes at once: a ticket is taken before a run's row is written
   * and turned in when its check or run ends, whatever way it ends; no one waits for a turn (503).
   */
  const places = new JobLimiter(IMPORTS_AT_ONCE);
  /** The child processes checking runs now: ended when the server closes. */
  const checks = new ChildJobSet();

  /** Marks failed every run checking or running whose lease ran out (not this server's own). */
  async function sweep(): Promise<void> {
    const interrupted = await db
      .update(importRuns)
      .set({ status: 'failed', result: { error: INTERRUPTED, interrupted: true }, finishedAt: now() })
      .where(
        and(
          inArray(importRuns.status, ['checking', 'running']),
          active.expired({
            id: importRuns.id,
            heartbeatAt: importRuns.heartbeatAt,
            createdAt: importRuns.createdAt,
          }),
        ),
      )
      .returning({ id: importRuns.id });
    for (const { id } of interrupted) await clearStaged(db, id);
  }

  /**
   * A run that ended in an error: failed, with the error's words when it is one of ours. Nobody awaits a
   * run: a failure to record its failure (the database gone at shutdown) is the lease's to report, not
   * an unhandled rejection.
   */
  async function recordFailure(id: string, error: unknown, fallback: string): Promise<void> {
    const message = error instanceof HttpError ? error.message : fallback;
    await db
      .update(importRuns)
      .set({ status: 'failed', result: { error: message }, finishedAt: now() })
      .where(eq(importRuns.id, id))
      .catch(() => undefined);
  }

  /** The run's row without its file (megabytes: the check's process reads it in chunks). */
  async function stored(id: string): Promise<RunRow> {
    const [row] = await db.select(withoutFile).from(importRuns).where(eq(importRuns.id, id));
    if (!row) throw importNotFound();
    return { content: '', ...row };
  }

  /** `file`: the upload's bytes, for the check's process to store first (see `start`). */
  async function preview(id: string, kind: ImportKind, ticket: QueueTicket, file?: Buffer): Promise<void> {
    const run = active.get(id);
    try {
      const child = checkInChild({ runId: id, kind, stage: false, connection, timeZone, file }, (rows) => {
        if (run) run.rowsChecked = rows;
      });
      checks.watch(child);
      const check = await child.result;
      const stored: StoredPreview = {
        counts: check.counts,
        refused: check.refused,
        matchedByName: check.matchedByName,
        newCategories: check.newCategories,
        newFloors: check.newFloors,
      };
      const total =
        check.counts.created + check.counts.updated + check.counts.unchanged + check.counts.refused;
      await db
        .update(importRuns)
        .set({ status: 'previewed', preview: stored, rowsTotal: total, rowsChecked: total })
        .where(eq(importRuns.id, id));
    } catch (error) {
      await recordFailure(id, error, 'The file could not be checked');
    } finally {
      ticket.release();
      active.release(id);
    }
  }

  /** confirm's work: `ticket` is turned in when the run ends, or by confirm if it does not start. */
  async function startRun(
    actor: Actor,
    id: string,
    validOnly: boolean,
    ticket: QueueTicket,
  ): Promise<ImportRun> {
    if (active.has(id))
      throw new HttpError(409, 'IMPORT_BUSY', 'This import is already being checked or run');
    await sweep();
    const row = await stored(id);
    if (row.status !== 'previewed' && row.status !== 'failed')
      throw new HttpError(409, 'IMPORT_NOT_READY', `This import cannot be run now (it is ${row.status})`);
    if (row.status === 'failed' && !row.preview)
      throw new HttpError(409, 'IMPORT_NOT_READY', 'This file could not be read; upload a corrected one');
    const preview = row.preview as StoredPreview;
    if (preview.counts.refused > 0 && !validOnly) {
      throw refusedRowsError(preview.counts.refused);
    }
    // Claimed only if no one else did meanwhile (another request, another server): the run's lock.
    const claimed = await db
      .update(importRuns)
      .set({
        status: 'running',
        validOnly,
        result: null,
        finishedAt: null,
        rowsChecked: 0,
        heartbeatAt: sql`now()`,
      })
      .where(and(eq(importRuns.id, id), inArray(importRuns.status, ['previewed', 'failed'])))
      .returning({ id: importRuns.id });
    if (claimed.length === 0 || active.has(id))
      throw new HttpError(409, 'IMPORT_BUSY', 'This import is already being checked or run');
    const run: ImportRun = { ...toRun(row), status: 'running', validOnly, rowsChecked: 0, result: null };
    active.hold(id, run);
    void (async () => {
      try {
        await applyImport(
          db,
          actor,
          { id, kind: row.kind, fileName: row.fileName, validOnly },
          {
            now,
            progress: (rows) => {
              run.rowsChecked = rows;
            },
            onCheck: (check) => checks.watch(check),
            connection,
            timeZone,
          },
        );
      } catch (error) {
        await recordFailure(id, error, 'The import failed; nothing was written');
      } finally {
        ticket.release();
        active.release(id);
      }
    })();
    return { ...run };
  }

  return {
    /**
     * A place among the imports this server checks or writes at once, taken now — or null when they are
     * all taken. Hand it to `start` or `confirm`, which turn it in when the run's check or run ends (or
     * fails to start). Each holds rows and a child process: 8 files of 10 MB checked at once took a
     * server from 0.8 to 1.9 GB.
     */
    reserve(): QueueTicket | null {
      return places.reserve();
    },

    /**
     * Stores the file and starts its check in a child process; answers the run as it starts
     * ("checking"). `ticket` (from `reserve`) is turned in when the check ends.
     */
    async start(
      actor: Actor,
      kind: ImportKind,
      fileName: string,
      /** The file's text, or its UTF-8 bytes (BOM removed): stored as they are (a Buffer goes as binary). */
      content: string | Buffer,
      ticket: QueueTicket,
    ): Promise<ImportRun> {
      // The check's child process stores the upload's bytes over its own connection (they reach it
      // through its standard input): pg's copies of a 14 MB file into its Bind message, and the
      // collections they start, stay out of the server. The run's row is written first, without the file.
      const handOver = Buffer.isBuffer(content);
      let row: Omit<RunRow, 'content'> | undefined;
      try {
        const rowsTotal = await roughRows(content);
        [row] = await db
          .insert(importRuns)
          .values({
            kind,
            fileName,
            // A Buffer is sent in binary format, which for text is the UTF-8 bytes themselves.
            content: handOver ? '' : (content as string),
            status: 'checking',
            heartbeatAt: sql`now()`,
            rowsTotal,
            createdBy: actor.id,
            createdByEmail: actor.email,
            createdAt: now(),
          })
          .returning(withoutFile);
        if (!row) throw new Error('insert returned no row');
      } catch (error) {
        ticket.release();
        throw error;
      }
      const run = toRun({ ...row, content: '' });
      active.hold(run.id, run);
      void preview(run.id, kind, ticket, handOver ? (content as Buffer) : undefined);
      return run;
    },

    async get(id: string): Promise<ImportRun> {
      const live = active.get(id);
      if (live) return { ...live };
      await sweep();
      return toRun(await stored(id));
    },

    async list(): Promise<ImportRun[]> {
      await sweep();
      const { preview: _preview, ...listed } = withoutFile;
      const rows = await db.select(listed).from(importRuns).orderBy(desc(importRuns.createdAt)).limit(20);
      return rows.map((row) => active.get(row.id) ?? toRun({ ...row, content: '', preview: null }));
    },

    /** Every refused row of a previewed run: the error file. */
    async refused(id: string): Promise<{ run: ImportRun; refused: RefusedRow[] }> {
      const row = await stored(id);
      const preview = row.preview as StoredPreview | null;
      return { run: toRun(row), refused: preview?.refused ?? [] };
    },

    /**
     * Starts the confirmed run: all or nothing, or the valid rows only. Answers at once ("running");
     * the run's row says "done" when its transaction commits, or "failed" with the reason.
     */
    async confirm(actor: Actor, id: string, validOnly: boolean, ticket: QueueTicket): Promise<ImportRun> {
      try {
        return await startRun(actor, id, validOnly, ticket);
      } catch (error) {
        ticket.release();
        throw error;
      }
    },

    /** Ends the checks' child processes (the server is closing): their runs fail, their tickets return. */
    async close(): Promise<void> {
      await checks.stopAll();
    },
  };
}

export type ImportRunStore = ReturnType<typeof importRunStore>;
export type { ImportCounts };
