// npm run restore -- --in FILE [--force]
// Restores a backup made by `npm run backup` into the configured database: the embedded one in
// MALL_DATA_DIR (only into an empty or new database unless --force; no server may be using it; a backup
// of an older release comes back migrated, one of a newer release is refused), or the PostgreSQL
// database in DATABASE_URL (pg_restore --clean --if-exists --no-owner, all or nothing; into
// a database that already holds a mall only with --force).
// Exit codes: 0 done, 1 failed (the reason is printed; nothing was changed), 2 wrong usage.
import { parseEnv } from '../src/server/env';
import { describeContents, restoreDatabase } from '../src/server/ops/backup';
import { fromCaller, parseOptions, runOps } from './ops-cli';

const USAGE = `Usage: npm run restore -- --in FILE [--force]

Restores FILE (made by npm run backup) into the configured database:
  embedded (MALL_DATA_DIR, default ./data)  into the embedded database there, which must hold no mall
                                             yet (a new MALL_DATA_DIR is fine); stop the server first
  PostgreSQL (DATABASE_URL set)              pg_restore into that database, which must hold no mall yet

  --in FILE    the backup (relative to the folder you run npm in)
  --force      replace the database that is there (its data is lost)`;

const options = parseOptions(USAGE, { in: { type: 'string' }, force: { type: 'boolean' } });
if (typeof options.in !== 'string' || options.in === '') {
  console.error(`--in FILE is required.\n\n${USAGE}`);
  process.exit(2);
}
const input = fromCaller(options.in);

await runOps(async () => {
  const env = parseEnv();
  const started = performance.now();
  const result = await restoreDatabase(env, input, { force: options.force === true });
  const target =
    result.kind === 'embedded' ? `the embedded database in ${env.MALL_DATA_DIR}` : 'the PostgreSQL database';
  console.log(
    `Restored ${result.file} into ${target}${result.replaced ? ' (replacing what was there)' : ''}: ` +
      `${describeContents(result.contents)}, in ${((performance.now() - started) / 1000).toFixed(1)} s.`,
  );
});
