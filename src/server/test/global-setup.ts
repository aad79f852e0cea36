// Prepares one migrated template database per API test run, which every test file then copies (fast and
// isolated). The server: DATABASE_URL when set (an external PostgreSQL where tests may create and drop
// databases), else the embedded PostgreSQL server (db/embedded-postgres.ts) started here on a temporary
// data folder and removed afterwards — the same server `npm start` runs.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { openPostgres } from '../db/client';
import { startEmbeddedPostgres } from '../db/embedded-postgres';
import { runMigrations } from '../db/migrate';

declare module 'vitest' {
  export interface ProvidedContext {
    /** embedded: the run's own embedded server; external: DATABASE_URL's. */
    testServer: 'embedded' | 'external';
    /** The server, and the migrated template database on it. */
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
  let serverUrl = process.env.DATABASE_URL;
  let stopServer = async () => {};
  if (!serverUrl) {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'super-mall-api-'));
    const server = await startEmbeddedPostgres({ dataDir });
    serverUrl = server.url;
    stopServer = async () => {
      await server.stop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    };
  }
  project.provide('testServer', process.env.DATABASE_URL ? 'external' : 'embedded');
  const template = `mall_test_template_${process.pid}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`drop database if exists ${template}`);
  await admin.query(`create database ${template}`);
  const database = await openPostgres(databaseUrlFor(serverUrl, template), 2);
  await runMigrations(database);
  await database.close();
  project.provide('postgresUrl', serverUrl);
  project.provide('postgresTemplate', template);
  return async () => {
    await admin.query(`drop database if exists ${template}`);
    await admin.end();
    await stopServer();
  };
}
