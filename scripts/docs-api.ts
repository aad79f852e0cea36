// npm run docs:api — writes docs/api.md's route table from the app itself (docs/decisions/028): builds
// the server on a fresh embedded database in a temporary folder, reads its OpenAPI document and route table, and
// replaces the text between the markers. Deterministic: run it again after adding routes (or merging
// someone's) and commit the result; `--check` only says whether the file is behind (exit code 1).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { routeTable, withRouteTable } from '../src/server/api-reference';
import { buildApp } from '../src/server/app';
import { openEmbedded } from '../src/server/db/client';
import { runMigrations } from '../src/server/db/migrate';

const file = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'docs', 'api.md');
const check = process.argv.includes('--check');

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'super-mall-docs-'));
const database = await openEmbedded(dataDir);
try {
  await runMigrations(database);
  const app = await buildApp({ database, timeZone: 'Asia/Kolkata' });
  try {
    await app.ready();
    const before = fs.readFileSync(file, 'utf8');
    const after = withRouteTable(before, routeTable(app));
    if (check) {
      console.log(
        before === after ? 'docs/api.md is up to date.' : 'docs/api.md is behind: run npm run docs:api',
      );
      process.exitCode = before === after ? 0 : 1;
    } else if (before === after) console.log('docs/api.md was up to date.');
    else {
      fs.writeFileSync(file, after);
      console.log('docs/api.md: route table written.');
    }
  } finally {
    await app.close();
  }
} finally {
  await database.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
}
