// Prepares one migrated database per API test run, which every test file then copies (fast and
// isolated): a PGlite data-dir dump, or a PostgreSQL template database.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { openEmbedded, openPostgres } from '../db/client';
import { runMigrations } from '../db/migrate';

declare module 'vitest' {
  export interface ProvidedContext {
    testDatabase: 'pglite' | 'postgres';
    /** pglite: a file holding the migrated data-dir dump. */
    pgliteTemplatePath: string;
    /** postgres: the server, and the migrated template database on it. */
    postgresUrl: string;
    postgresTemplate: string;
  }
}

export function databaseUrlFor(serverUrl: string, database: string): string {
  const url = new URL(serverUrl);
  url.pathname = `/${database}`;
  return url.toString();
}

export default async function setup(project: TestProject) {
  const kind = process.env.MALL_TEST_DATABASE === 'postgres' ? 'postgres' : 'pglite';
  project.provide('testDatabase', kind);

  if (kind === 'pglite') {
    const database = await openEmbedded();
    await runMigrations(database);
    const dump = await database.dump?.();
    await database.close();
    if (!dump) throw new Error('could not dump the PGlite template');
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'super-mall-api-'));
    const file = path.join(dir, 'template.tar.gz');
    fs.writeFileSync(file, dump);
    project.provide('pgliteTemplatePath', file);
    project.provide('postgresUrl', '');
    project.provide('postgresTemplate', '');
    return () => fs.rmSync(dir, { recursive: true, force: true });
  }

  const serverUrl = process.env.DATABASE_URL;
  if (!serverUrl)
    throw new Error('MALL_TEST_DATABASE=postgres needs DATABASE_URL (npm run test:api starts a server)');
  const template = `mall_test_template_${process.pid}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`drop database if exists ${template}`);
  await admin.query(`create database ${template}`);
  const database = await openPostgres(databaseUrlFor(serverUrl, template), 2);
  await runMigrations(database);
  await database.close();
  project.provide('pgliteTemplatePath', '');
  project.provide('postgresUrl', serverUrl);
  project.provide('postgresTemplate', template);
  return async () => {
    await admin.query(`drop database if exists ${template}`);
    await admin.end();
  };
}
