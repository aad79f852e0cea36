// API tests: the real app (buildApp) on a real database — a PostgreSQL database made from the run's
// migrated template, on the run's embedded server or DATABASE_URL's — driven with app.inject.
import { randomBytes } from 'node:crypto';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import pg from 'pg';
import { expect, inject } from 'vitest';
import type { SessionUser } from '../../shared/auth';
import { type AppOptions, buildApp } from '../app';
import { SESSION_COOKIE } from '../auth/sessions';
import { type Database, openPostgres } from '../db/client';
import type { UndeclaredStatus } from '../errors';
import { BoundedQueue } from '../lib/bounded-queue';
import type { RateLimits } from '../rate-limits';
import { databaseUrlFor } from './global-setup';

export const TEST_TIME_ZONE = 'Asia/Kolkata';
export const OPERATOR_CODE = 'operator-invite-code-for-tests';

export interface TestApp {
  app: FastifyInstance;
  database: Database;
  /** Moves the app's clock (not the database's) forward by `ms`. */
  advanceClock(ms: number): void;
  /** The app's clock. */
  now(): Date;
  /**
   * Waits until every change committed so far has reached the app's session cache (decision 027): what a
   * write made outside the app (SQL in a test) needs before the next request; a write through the app
   * waits for it itself.
   */
  settle(): Promise<void>;
  close(): Promise<void>;
}

/**
 * Every answer a test app gives whose status its route's schema does not declare (errors.ts
 * `checkDeclaredStatuses`): the API reference would not list it. close() fails the test file with them.
 */
function undeclaredStatusRecorder() {
  const seen = new Map<string, string>();
  return {
    record({ method, route, status }: UndeclaredStatus) {
      const answer = `${method} ${route} answered ${status}, which its schema.response does not declare`;
      if (!seen.has(answer)) seen.set(answer, expect.getState().currentTestName ?? '(outside a test)');
    },
    problems: () => [...seen].map(([answer, test]) => `${answer} (in "${test}")`),
  };
}

async function openTestDatabase(): Promise<{ database: Database; drop: () => Promise<void> }> {
  const serverUrl = inject('postgresUrl');
  const name = `mall_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`create database ${name} template ${inject('postgresTemplate')}`);
  await admin.end();
  const opened = await openPostgres(databaseUrlFor(serverUrl, name), 5);
  // On the run's embedded server the app is told so, as main.ts's would be: its images go to files
  // (a temporary folder), as an embedded mall's go under MALL_DATA_DIR; on DATABASE_URL's, to the table.
  const database: Database = inject('testServer') === 'embedded' ? { ...opened, kind: 'embedded' } : opened;
  return {
    database,
    drop: async () => {
      const client = new pg.Client({ connectionString: serverUrl });
      await client.connect();
      await client.query(`drop database if exists ${name} with (force)`);
      await client.end();
    },
  };
}

export async function createTestApp(
  options: {
    operatorInviteCode?: string;
    rateLimits?: RateLimits;
    trustProxy?: boolean | string;
  } & Pick<
    AppOptions,
    | 'maxDbQueue'
    | 'maxEventLoopDelayMs'
    | 'overloadSampleIntervalMs'
    | 'clientDir'
    | 'hashQueue'
    | 'serverTimeouts'
    | 'benchRoutes'
    | 'sessionCache'
    | 'logger'
    | 'publicDirectory'
    | 'insights'
    | 'insightsFlushMs'
    | 'passwordHashing'
  > = {},
): Promise<TestApp> {
  const { database, drop } = await openTestDatabase();
  const undeclared = undeclaredStatusRecorder();
  let offsetMs = 0;
  const now = () => new Date(Date.now() + offsetMs);
  const app = await buildApp({
    database,
    timeZone: TEST_TIME_ZONE,
    operatorInviteCode: 'operatorInviteCode' in options ? options.operatorInviteCode : OPERATOR_CODE,
    now,
    rateLimits: options.rateLimits,
    trustProxy: options.trustProxy,
    maxDbQueue: options.maxDbQueue,
    // No event-loop check unless a test asks for one (overload.api.test.ts, the stress tests): a test file
    // shares its process with vitest's module loading, and on a busy machine a second of lag there made
    // ordinary requests 503.
    maxEventLoopDelayMs: options.maxEventLoopDelayMs ?? 0,
    overloadSampleIntervalMs: options.overloadSampleIntervalMs,
    clientDir: options.clientDir,
    hashQueue: options.hashQueue,
    serverTimeouts: options.serverTimeouts,
    benchRoutes: options.benchRoutes,
    sessionCache: options.sessionCache,
    logger: options.logger,
    publicDirectory: options.publicDirectory,
    insights: options.insights,
    insightsFlushMs: options.insightsFlushMs,
    // Cheap password hashes unless a test names a cost (auth/passwords.ts; `passwordHashing: undefined`
    // for the app's own default): the suite signs up thousands of people, and at OWASP's cost each took
    // about 0.3 s of a core.
    passwordHashing: 'passwordHashing' in options ? options.passwordHashing : 'fast-for-tests',
    onUndeclaredStatus: (answer) => undeclared.record(answer),
  });
  await app.ready();
  return {
    app,
    database,
    advanceClock(ms) {
      offsetMs += ms;
    },
    now,
    settle: async () => {
      await app.sessionChanges?.sync();
    },
    async close() {
      await app.close();
      await database.close();
      await drop();
      // Declare the status on the route (`response: { …, ...errorAnswers(409) }`), not here.
      expect(undeclared.problems(), 'answers whose status the route does not declare').toEqual([]);
    },
  };
}

export function sessionCookie(response: LightMyRequestResponse): string {
  const cookie = response.cookies.find((c) => c.name === SESSION_COOKIE);
  if (!cookie?.value)
    throw new Error(`no session cookie in a ${response.statusCode} response: ${response.body}`);
  return cookie.value;
}

let counter = 0;
export function uniqueEmail(prefix = 'person'): string {
  counter += 1;
  return `${prefix}.${counter}.${randomBytes(3).toString('hex')}@example.com`;
}

export interface SignedIn {
  user: SessionUser;
  cookie: string;
  /** Headers for app.inject as this person. */
  headers: { cookie: string };
}

function signedIn(response: LightMyRequestResponse): SignedIn {
  const cookie = sessionCookie(response);
  return { user: response.json().user, cookie, headers: { cookie: `${SESSION_COOKIE}=${cookie}` } };
}

export async function registerAs(
  app: FastifyInstance,
  role: 'user' | 'admin',
  fields: { email?: string; password?: string; inviteCode?: string } = {},
): Promise<SignedIn> {
  const response = await app.inject({
    method: 'POST',
    url: '/api/auth/register',
    payload: {
      email: fields.email ?? uniqueEmail(role),
      password: fields.password ?? 'secret-password',
      role,
      ...(role === 'admin' ? { inviteCode: fields.inviteCode ?? OPERATOR_CODE } : {}),
    },
  });
  if (response.statusCode !== 201)
    throw new Error(`register failed: ${response.statusCode} ${response.body}`);
  return signedIn(response);
}

export async function login(app: FastifyInstance, email: string, password: string): Promise<SignedIn> {
  const response = await app.inject({ method: 'POST', url: '/api/auth/login', payload: { email, password } });
  if (response.statusCode !== 200) throw new Error(`login failed: ${response.statusCode} ${response.body}`);
  return signedIn(response);
}

/**
 * A queue (for `hashQueue`) that runs the test's `afterTask` once, right after the next task it runs
 * has ended and given its place back: a way to land another request between a password's check and the
 * write that follows it.
 */
export class QueueWithAHook extends BoundedQueue {
  afterTask: (() => Promise<void>) | null = null;

  override reserve() {
    const ticket = super.reserve();
    if (!ticket) return null;
    const run = ticket.run.bind(ticket);
    ticket.run = async (task) => {
      const result = await run(task);
      const next = this.afterTask;
      this.afterTask = null;
      if (next) await next();
      return result;
    };
    return ticket;
  }
}
