import type { FastifyRequest } from 'fastify';
import type { AuditAction, AuditEntityType } from '../shared/audit';
import type { Db } from './db/client';
import { auditLog } from './db/schema';
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

/** A snapshot of a record's fields as people read them (names rather than ids), for the log. */
export type Snapshot = Record<string, unknown>;

export interface Change {
  entityType: AuditEntityType;
  entityId: string | null;
  entityName: string;
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

export async function performWrite<T>(
  db: Db,
  actor: Actor,
  work: (scope: WriteScope) => Promise<T>,
  options: WriteOptions = {},
): Promise<T> {
  const at = (options.now ?? (() => new Date()))();
  try {
    return await db.transaction(async (tx) => {
      const entries: (typeof auditLog.$inferInsert)[] = [];
      const scope: WriteScope = {
        tx: tx as WriteTx,
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
            action: change.action,
            changes,
            detail: change.detail ? (withoutSecrets(change.detail) as Record<string, unknown>) : null,
          });
        },
      };
      const result = await work(scope);
      if (entries.length > 0) await tx.insert(auditLog).values(entries);
      return result;
    });
  } catch (error) {
    if (error instanceof HttpError) throw error;
    throw options.errors?.(error) ?? commonError(error) ?? error;
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
