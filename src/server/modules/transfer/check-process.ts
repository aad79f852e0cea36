// The server's side of an import check (check-child.ts, docs/decisions/022, fifth amendment): the check
// is a background job (lib/jobs) run in a pooled child process, over a connection of its own to the
// database; this side hands it the run and the upload, and hears only progress and the result.
import type { ImportKind } from '../../../shared/transfer';
import type { WorkerConnection } from '../../db/client';
import { type ChildJob, runInChild } from '../../lib/jobs/child-job';
import { ProcessPool } from '../../lib/jobs/process-pool';
import type { CheckResult } from './import-check';

/** The check's connection as PostgreSQL lists it (pg_stat_activity.application_name). */
export const CHECK_APPLICATION_NAME = 'super-mall import check';

/** The check as its process receives it. */
export interface SentRequest {
  runId: string;
  kind: ImportKind;
  /** A confirmed run: stage the rows to create or update (a preview stages nothing). */
  stage: boolean;
  /** The check's own connection to the database (`Database.workerConnection`). */
  connection: WorkerConnection;
  /** The mall's time zone (MALL_TIMEZONE): an event's repeat UNTIL is written in it. */
  timeZone: string;
}

export interface CheckRequest extends SentRequest {
  /**
   * The upload's bytes, for the check to store in the run's row before it checks them. Written to the
   * process's standard input as they are, then freed here: unusable after.
   */
  file?: Uint8Array;
}

export type CheckChild = ChildJob<CheckResult>;

const runningFromSource = import.meta.url.endsWith('.ts');

/**
 * The check's heap: the old generation's limit is a guard (a runaway check fails its run, not the
 * server; 200,000 rows take far less: the check keeps one key per row and the refused rows, not the
 * rows); a small young generation keeps the many short-lived rows from growing its memory.
 */
const CHECK_HEAP_MB = 256;
const CHECK_SEMI_SPACE_MB = 1;

/**
 * The check processes: one is started with the server (`warmCheckProcess`), and a process goes back to
 * the pool when its check ends, so an import forks nothing. At most 2 wait.
 */
const checkProcesses = new ProcessPool<SentRequest, CheckResult>({
  // The production build bundles check-child.ts as import-check.js beside the server's code.
  entry: new URL(runningFromSource ? './check-child-source.mjs' : './import-check.js', import.meta.url),
  execArgv: [`--max-old-space-size=${CHECK_HEAP_MB}`, `--max-semi-space-size=${CHECK_SEMI_SPACE_MB}`],
  keepWaiting: 2,
});

/** Starts a check process to wait for the first import (the server's start-up). */
export function warmCheckProcess(): void {
  checkProcesses.warm();
}

/** Ends the waiting check processes (tests). Checks under way are stopped by their runs. */
export function endWaitingCheckProcesses(): Promise<void> {
  return checkProcesses.endWaiting();
}

/**
 * Checks (and, for a confirmed run, stages) the run's file in a check process, over the check's own
 * connection; with `request.file`, the process stores the upload in the run's row first.
 */
export function checkInChild(request: CheckRequest, progress?: (rows: number) => void): CheckChild {
  const { file, ...sent } = request;
  return runInChild(checkProcesses, sent, { noun: 'check', input: file, progress });
}
