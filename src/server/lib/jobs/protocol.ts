// The messages between the server and a background job's child process (process-pool.ts, child-job.ts on
// the server's side, job-child.ts in the process), and what both sides agree on. Nothing here is about
// what a job does: a job's request and result are its module's own types.

/** The nice value of a job process's threads where SCHED_IDLE cannot be had (job-child.ts). */
export const JOB_NICE = 10;

/** A failed job's error as it crosses the process boundary: an HttpError keeps its status and code. */
export interface JobFailure {
  statusCode?: number;
  code?: string;
  message: string;
}

/**
 * Server → job process: a job to run. `inputBytes`: the number of bytes of its input the server writes
 * to the process's standard input (a file's bytes: copied into no IPC message).
 */
export interface JobRequestMessage<Request> {
  type: 'request';
  request: Request;
  inputBytes?: number;
}

/**
 * Job process → server: progress (a count: rows, items…), then one outcome. `last`: the process could
 * not clean up after the job (its connection would not close) and ends; it is not kept for another job.
 */
export type JobMessage<Result> =
  | { type: 'progress'; count: number }
  | { type: 'done'; result: Result; last?: boolean }
  | { type: 'failed'; error: JobFailure; last?: boolean };
