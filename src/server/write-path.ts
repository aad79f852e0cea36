import { randomBytes } from 'node:crypto';
import { drizzle } from 'drizzle-orm/node-postgres';
import type { FastifyRequest } from 'fastify';
import type { AuditAction, AuditEntityType } from '../shared/audit';
import type { Db } from './db/client';
import { HttpError } from './errors';
import { FOREIGN_KEY_VIOLATION, pgError, UNIQUE_VIOLATION } from './lib/db-errors';

/**
 * The one write path (docs/decisions/012). Every change to the mall — create, update, delete, cascade,
 * invite, role change, sign-up — runs inside `performWrite`: one transaction, the acting person known,
 * PostgreSQL errors mapped to API errors, and the audit log written in the same transaction, so a change
 * is never committed without its record nor recorded without being committed. The catalogue version is
 * raised by the database's deferred triggers in that same transaction (migration 0002), so a cached read
 * never outlives a write however it was made.
 *
 * Repositories take a `WriteTx` for their writing methods: a transaction only this function makes, so a
 * write outside the path does not type-check. The route-table test (modules/audit/audit.api.test.ts) performs
 * every write route and checks it left exactly its expected audit rows.
 */

/** Who acts: a signed-in account, or the command line (id null, the command's name as `email`). */
export interface Actor {
  id: string | null;
  email: string;
}

type Transaction = Parameters<Parameters<Db['transaction']>[0]>[0];
declare const writeBrand: unique symbol;
/** A transaction opened by performWrite; repositories' writing methods require one. */
export type WriteTx = Transaction & { readonly [writeBrand]: true };
/** Where a read may run: the database, or inside a write's transaction. */
export type Executor = Db | Transaction;

/**
 * Independent reads: at once on the pool (each on a connection of its own), one after the other inside a
 * transaction — a transaction is one connection, and pg refuses overlapping queries on one client
 * (deprecated in pg 8, an error from pg 9).
 */
export async function readsOn<T extends readonly unknown[]>(
  executor: Executor,
  db: Db,
  reads: { [K in keyof T]: () => PromiseLike<T[K]> },
): Promise<T> {
  if (executor === db) return (await Promise.all(reads.map((read) => read()))) as unknown as T;
  const results: unknown[] = [];
  for (const read of reads) results.push(await read());
  return results as unknown as T;
}

/** A snapshot of a record's fields as people read them (names rather than ids), for the log. */
export type Snapshot = Record<string, unknown>;

export interface Change {
  entityType: AuditEntityType;
  entityId: string | null;
  entityName: string;
  /** The shop the record is or belongs to (a manager reads their shop's history by it). */
  shopId?: string | null;
  action: AuditAction;
  /** The record before (null for a create) and after (null for a delete). */
  before?: Snapshot | null;
  after?: Snapshot | null;
  detail?: Record<string, unknown> | null;
  /** Who the log names, when not the write's actor: a new admin account is its own author. */
  actor?: Actor;
}

export interface WriteScope {
  tx: WriteTx;
  actor: Actor;
  at: Date;
  /** Adds an entry to the audit log, in this transaction. An update that changed nothing records nothing. */
  record(change: Change): void;
  /**
   * Writes the entries recorded so far now, in this transaction (a bulk import's thousands of entries go
   * in batches rather than in one message with COMMIT). Still rolled back with everything else.
   */
  flush(): Promise<void>;
}

/** Turns a database error into the API's answer for this entity (null: not one of its own). */
export type ErrorMapper = (error: unknown) => HttpError | null;

/** Never written to the log, whatever a snapshot carries. */
const SECRET_FIELDS = new Set([
  'password',
  'passwordHash',
  'code',
  'codeHash',
  'token',
  'tokenHash',
  'inviteCode',
]);

/** `value` with every secret field removed, at any depth (a snapshot's nested objects, a detail's lists). */
export function withoutSecrets(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutSecrets);
  if (value === null || typeof value !== 'object' || value instanceof Date) return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([key]) => !SECRET_FIELDS.has(key))
      .map(([key, inner]) => [key, withoutSecrets(inner)]),
  );
}

/** The fields whose values differ, each with its value before and after; secrets left out, at any depth. */
export function changedFields(
  before: Snapshot | null | undefined,
  after: Snapshot | null | undefined,
): Record<string, { before: unknown; after: unknown }> {
  const keys = new Set([...Object.keys(before ?? {}), ...Object.keys(after ?? {})]);
  const changes: Record<string, { before: unknown; after: unknown }> = {};
  for (const key of keys) {
    if (SECRET_FIELDS.has(key)) continue;
    const was = withoutSecrets(before?.[key] ?? null);
    const is = withoutSecrets(after?.[key] ?? null);
    if (JSON.stringify(was) !== JSON.stringify(is)) changes[key] = { before: was, after: is };
  }
  return changes;
}

/** What every write says when the database refuses it for a reason no entity claimed. */
function commonError(error: unknown): HttpError | null {
  const cause = pgError(error);
  if (cause?.code === UNIQUE_VIOLATION) return new HttpError(409, 'DUPLICATE', 'This already exists');
  if (cause?.code === FOREIGN_KEY_VIOLATION)
    return new HttpError(400, 'VALIDATION', 'A record this refers to does not exist');
  return null;
}

export interface WriteOptions {
  /** The clock (the app's `now`, which tests move). */
  now?: () => Date;
  /** The entity's own error mapping, tried before the common one. */
  errors?: ErrorMapper;
}

type Entry = {
  at: Date;
  actorId: string | null;
  actorEmail: string;
  entityType: string;
  entityId: string | null;
  entityName: string;
  shopId: string | null;
  action: string;
  changes: Record<string, { before: unknown; after: unknown }>;
  detail: Record<string, unknown> | null;
};

/**
 * The statement that writes the entries, with no parameters, so that it can travel in one message with
 * COMMIT: a plain multi-row VALUES (the cheapest insert to parse and plan), every text in a dollar-quoted
 * literal whose tag none of the texts contains (no escaping rules apply inside one).
 */
export function auditInsertSql(entries: readonly Entry[]): string {
  const texts = entries.flatMap((entry) => [
    entry.actorEmail,
    entry.entityName,
    JSON.stringify(entry.changes),
    entry.detail === null ? '' : JSON.stringify(entry.detail),
  ]);
  // No value may hold `$tag` anywhere, not only `$tag$`: one ending in "$a" met the closing tag's "$" and
  // ended its quote early ("x $a" → `$a$x $a$a$`, a 500 found by the property test, and SQL text after it).
  let tag = 'a';
  while (texts.some((text) => text.includes(`$${tag}`))) tag = `a${randomBytes(4).toString('hex')}`;
  const text = (value: string) => `$${tag}$${value}$${tag}$`;
  const uuid = (value: string | null) => (value === null ? 'null' : `${text(value)}::uuid`);
  const rows = entries.map(
    (entry) =>
      `(${text(entry.at.toISOString())}::timestamptz, ${uuid(entry.actorId)}, ${text(entry.actorEmail)}, ` +
      `${text(entry.entityType)}, ${uuid(entry.entityId)}, ${text(entry.entityName)}, ${text(entry.action)}, ` +
      `${text(JSON.stringify(entry.changes))}::jsonb, ` +
      `${entry.detail === null ? 'null' : `${text(JSON.stringify(entry.detail))}::jsonb`}, ${uuid(entry.shopId)})`,
  );
  return `insert into audit_log (at, actor_id, actor_email, entity_type, entity_id, entity_name, action, changes, detail, shop_id) values ${rows.join(', ')}`;
}

/**
 * Runs `work` in a transaction on a connection of its own and commits it with the audit entries it
 * recorded: the entries and COMMIT go in one message (the log costs no round trip of its own). Any
 * failure rolls the whole back; errors are mapped by the entity's mapper, then the common one.
 */
export async function performWrite<T>(
  db: Db,
  actor: Actor,
  work: (scope: WriteScope) => Promise<T>,
  options: WriteOptions = {},
): Promise<T> {
  const at = (options.now ?? (() => new Date()))();
  const client = await db.$client.connect();
  let open = false;
  let broken = false;
  try {
    try {
      await client.query('begin');
    } catch (error) {
      // Not even BEGIN went through: the connection is broken; the pool must not hand it out again.
      broken = true;
      throw error;
    }
    open = true;
    const entries: Entry[] = [];
    const scope: WriteScope = {
      // Only the query builder is used on it (no relational queries): no schema needed.
      tx: drizzle(client) as unknown as WriteTx,
      actor,
      at,
      record(change) {
        const changes = changedFields(change.before, change.after);
        if (change.action === 'update' && Object.keys(changes).length === 0 && !change.detail) return;
        const by = change.actor ?? actor;
        entries.push({
          at,
          actorId: by.id,
          actorEmail: by.email,
          entityType: change.entityType,
          entityId: change.entityId,
          entityName: change.entityName,
          shopId: change.shopId ?? null,
          action: change.action,
          changes,
          detail: change.detail ? (withoutSecrets(change.detail) as Record<string, unknown>) : null,
        });
      },
      async flush() {
        if (entries.length > 0) await client.query(auditInsertSql(entries.splice(0)));
      },
    };
    const result = await work(scope);
    // One message, run in order: a failing insert skips the COMMIT and leaves the transaction aborted.
    await client.query(entries.length > 0 ? `${auditInsertSql(entries)}; commit` : 'commit');
    open = false;
    return result;
  } catch (error) {
    if (open) {
      try {
        await client.query('rollback');
      } catch {
        // The connection is gone or unusable: the pool must not hand it out again.
        broken = true;
      }
    }
    if (error instanceof HttpError) throw error;
    throw options.errors?.(error) ?? commonError(error) ?? error;
  } finally {
    client.release(broken);
  }
}

/** The signed-in person of a request, as the log names them. Guards ran first: there is one. */
export function actorOf(request: FastifyRequest): Actor {
  if (!request.user) throw new Error('a write route ran without a signed-in person');
  return { id: request.user.id, email: request.user.email };
}

/** A route plugin's write function: the request's person, the app's clock, the entity's error mapping. */
export function routeWriter(db: Db, now: () => Date, errors?: ErrorMapper) {
  return <T>(request: FastifyRequest, work: (scope: WriteScope) => Promise<T>): Promise<T> =>
    performWrite(db, actorOf(request), work, { now, errors });
}
