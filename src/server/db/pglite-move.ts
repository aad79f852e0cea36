import type { Database } from './client';
import type { StartLog } from './migrate';

// PLACEHOLDER — being written (moves a PGlite data folder of an earlier release into the embedded server).
export async function moveFromPglite(_database: Database, _dataDir: string, _log: StartLog): Promise<boolean> {
  return false;
}
