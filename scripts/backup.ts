// npm run backup -- --out FILE [--force]
// Backs up the configured database: the embedded one in MALL_DATA_DIR (a gzip'd tarball of every table
// in COPY text format and the image files, while the server runs or not: src/server/ops/backup.ts), or
// the PostgreSQL database in DATABASE_URL (pg_dump, custom format, while servers run). Restore with
// `npm run restore -- --in FILE`.
// Exit codes: 0 done, 1 failed (the reason is printed), 2 wrong usage.
import { parseEnv } from '../src/server/env';
import { backupDatabase, describeContents, formatBytes } from '../src/server/ops/backup';
import { fromCaller, parseOptions, runOps } from './ops-cli';

const USAGE = `Usage: npm run backup -- --out FILE [--force]

Backs up the configured database to FILE:
  embedded (MALL_DATA_DIR, default ./data)  every table and the image files, gzip'd; the server may keep
                                             running (else the backup starts the database itself)
  PostgreSQL (DATABASE_URL set)              pg_dump --format=custom; servers may keep running

  --out FILE   where to write the backup (relative to the folder you run npm in)
  --force      overwrite FILE when it exists`;

const options = parseOptions(USAGE, { out: { type: 'string' }, force: { type: 'boolean' } });
if (typeof options.out !== 'string' || options.out === '') {
  console.error(`--out FILE is required.\n\n${USAGE}`);
  process.exit(2);
}
const out = fromCaller(options.out);

await runOps(async () => {
  const env = parseEnv();
  const started = performance.now();
  const result = await backupDatabase(env, out, { force: options.force === true });
  const source =
    result.kind === 'embedded' ? `the embedded database in ${env.MALL_DATA_DIR}` : 'the PostgreSQL database';
  console.log(
    `Backed up ${source} (${describeContents(result.contents)}) to ${result.file} ` +
      `(${formatBytes(result.bytes)}) in ${((performance.now() - started) / 1000).toFixed(1)} s.`,
  );
});
