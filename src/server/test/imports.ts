import type { FastifyInstance } from 'fastify';
import type { ImportRun } from '../../shared/transfer';
import type { SignedIn } from './harness';

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The import run once it has left `checking` / `running`.
 *
 * Waits for a time, not a count of polls: the check runs at idle priority (decision 022), and with
 * other test files (in CI, the browser tests and a second API run) beside it a small check has taken
 * over 10 s and a big one over 60 s. A hang still fails, later.
 */
export async function importSettled(app: FastifyInstance, admin: SignedIn, id: string): Promise<ImportRun> {
  const deadline = Date.now() + 150_000;
  let last: ImportRun | undefined;
  while (Date.now() < deadline) {
    const response = await app.inject({ url: `/api/imports/${id}`, headers: admin.headers });
    if (response.statusCode !== 200)
      throw new Error(`reading import run ${id}: ${response.statusCode} ${response.body}`);
    last = response.json() as ImportRun;
    if (last.status !== 'checking' && last.status !== 'running') return last;
    await pause(25);
  }
  throw new Error(`import run ${id} did not settle in 150 s (last status: ${last?.status})`);
}

/**
 * Starts an import, asking again while the server answers 503 IMPORTS_BUSY: two runs at once per
 * server (decision 022), and a run confirmed by an earlier test may still be publishing.
 */
export async function startImport<R extends { statusCode: number }>(start: () => Promise<R>): Promise<R> {
  const deadline = Date.now() + 150_000;
  let started = await start();
  while (started.statusCode === 503 && Date.now() < deadline) {
    await pause(25);
    started = await start();
  }
  return started;
}
