// `npm run export` (scripts/export.ts) end to end, on a real database of each kind: the CLI's file,
// read back by `npm run import` (scripts/import.ts), is a run that changes nothing.
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { databaseUrlFor } from '../../test/global-setup';

const run = promisify(execFile);
const root = path.resolve(import.meta.dirname, '../../../..');
const tsx = path.join(root, 'node_modules', '.bin', 'tsx');

let dir: string;
let env: NodeJS.ProcessEnv;
let dropDatabase = async () => {};

/** A command-line script run as an admin would run it, on this test's database. */
async function cli(script: string, ...args: string[]): Promise<{ stdout: string; stderr: string }> {
  return run(tsx, [path.join(root, 'scripts', script), ...args], { cwd: root, env, timeout: 90_000 });
}

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'super-mall-export-cli-'));
  env = { ...process.env, MALL_DEMO_DATA: 'off', LOG_LEVEL: 'warn', MALL_DATA_DIR: path.join(dir, 'data') };
  delete env.DATABASE_URL;
  if (inject('testServer') === 'external') {
    // A database of its own, from the migrated template, that the scripts open by its URL.
    const serverUrl = inject('postgresUrl');
    const name = `mall_test_cli_${randomBytes(6).toString('hex')}`;
    const admin = new pg.Client({ connectionString: serverUrl });
    await admin.connect();
    await admin.query(`create database ${name} template ${inject('postgresTemplate')}`);
    await admin.end();
    env.DATABASE_URL = databaseUrlFor(serverUrl, name);
    dropDatabase = async () => {
      const client = new pg.Client({ connectionString: serverUrl });
      await client.connect();
      await client.query(`drop database if exists ${name} with (force)`);
      await client.end();
    };
  }
  // Embedded: a new data directory, whose embedded server the first script starts and migrates (no demo mall).
  // Records with cells a spreadsheet would mangle: a formula, quotes, a comma, a line break, non-ASCII.
  const shops = path.join(dir, 'shops.csv');
  fs.writeFileSync(
    shops,
    [
      'code,name,category,floor,description',
      'S-1,=Café Zoë,Food,Ground Floor,"Coffee, cake and ""more"""',
      'S-2,Books & Co,Books,First Floor,"Two lines:\nnew and used"',
      '',
    ].join('\n'),
  );
  await cli('import.ts', shops, '--kind', 'shops');
  const products = path.join(dir, 'products.csv');
  fs.writeFileSync(
    products,
    [
      'shop_code,code,name,price,category,description',
      "S-1,P-1,Latte,3.50,Drinks,'-20% before noon",
      'S-1,P-2,+Extra shot,0.80,Drinks,',
      'S-2,P-3,Atlas “World”,24.99,Maps,"Big, heavy"',
      'S-2,,@home cookbook,19.00,Cooking,No code: matched by name',
      '',
    ].join('\n'),
  );
  await cli('import.ts', products, '--kind', 'products');
}, 180_000);

afterAll(async () => {
  await dropDatabase();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('npm run export', () => {
  it.each([
    ['shops', 2],
    ['products', 4],
  ] as const)(
    'writes the %s as CSV (BOM, formulas escaped) that npm run import reads back with zero changes',
    async (kind, rows) => {
      const file = path.join(dir, `exported-${kind}.csv`);
      const exported = await cli('export.ts', '--kind', kind, '--out', file);
      expect(exported.stderr).toContain(`Exported ${kind} to ${file}`);
      const text = fs.readFileSync(file, 'utf8');
      expect(text.startsWith('\uFEFF')).toBe(true);
      // No cell starts a formula: the export's leading ' keeps =, +, - and @ as text.
      if (kind === 'shops') expect(text).toContain("'=Café Zoë");
      else {
        expect(text).toContain("'+Extra shot");
        expect(text).toContain("'@home cookbook");
        expect(text).toContain(`,"'-20% before noon"`);
      }

      const preview = await cli('import.ts', file, '--kind', kind, '--preview');
      expect(preview.stdout).toContain(`Preview: 0 to create, 0 to update, ${rows} unchanged, 0 refused`);
    },
    120_000,
  );

  it('writes to stdout without --out, the same rows', async () => {
    const { stdout } = await cli('export.ts', '--kind', 'products');
    expect(stdout).toBe(fs.readFileSync(path.join(dir, 'exported-products.csv'), 'utf8'));
  }, 60_000);
});
