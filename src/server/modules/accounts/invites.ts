import { timingSafeEqual } from 'node:crypto';
import { and, asc, eq, gt, isNotNull, isNull, ne } from 'drizzle-orm';
import type { AdminInvite, CreatedAdminInvite } from '../../../shared/auth';
import { INVITE_MESSAGES } from '../../../shared/errors';
import { newInviteCode, normalizeInviteCode, sha256 } from '../../auth/tokens';
import type { Db } from '../../db/client';
import { adminInvites, users } from '../../db/schema';
import { HttpError } from '../../errors';
import { type Actor, performWrite, type WriteTx } from '../../write-path';

/** The log names an invite by its hint: the code itself never reaches it. */
export const inviteName = (codeHint: string) => `Admin invite …${codeHint}`;

export const INVITE_LIFETIME_MS = 7 * 24 * 60 * 60 * 1000;

type InviteRow = typeof adminInvites.$inferSelect;

function toInvite(row: InviteRow): AdminInvite {
  return {
    id: row.id,
    codeHint: row.codeHint,
    createdAt: row.createdAt.toISOString(),
    expiresAt: row.expiresAt.toISOString(),
  };
}

/**
 * A one-time code. `createdBy` null marks the start-up setup code, which only works while the mall has
 * no admin (product-decisions.md §2).
 */
export async function createInvite(
  db: WriteTx,
  createdBy: string | null,
  now: Date,
): Promise<CreatedAdminInvite> {
  const code = newInviteCode();
  const normalized = normalizeInviteCode(code);
  const [row] = await db
    .insert(adminInvites)
    .values({
      codeHash: sha256(normalized),
      codeHint: normalized.slice(-4),
      createdBy,
      createdAt: now,
      expiresAt: new Date(now.getTime() + INVITE_LIFETIME_MS),
    })
    .returning();
  if (!row) throw new Error('invite insert returned no row');
  return { ...toInvite(row), code };
}

/** Open (unused, unexpired) invites made by admins, oldest first. */
export async function listOpenInvites(db: Db, now: Date): Promise<AdminInvite[]> {
  const rows = await db
    .select()
    .from(adminInvites)
    .where(
      and(isNull(adminInvites.usedAt), gt(adminInvites.expiresAt, now), isNotNull(adminInvites.createdBy)),
    )
    .orderBy(asc(adminInvites.createdAt));
  return rows.map(toInvite);
}

/** Revokes an open invite; returns it (for the log), or null when there is no such open invite. */
export async function revokeInvite(db: WriteTx, id: string): Promise<AdminInvite | null> {
  const [row] = await db
    .delete(adminInvites)
    .where(and(eq(adminInvites.id, id), isNull(adminInvites.usedAt)))
    .returning();
  return row ? toInvite(row) : null;
}

export async function adminExists(db: Pick<Db, 'select'>): Promise<boolean> {
  const rows = await db.select({ id: users.id }).from(users).where(eq(users.role, 'admin')).limit(1);
  return rows.length > 0;
}

function sameSecret(a: string, b: string): boolean {
  const x = Buffer.from(sha256(a));
  const y = Buffer.from(sha256(b));
  return timingSafeEqual(x, y);
}

/**
 * Spends an invite code for `userId`, inside the registration's transaction: a code can be spent once,
 * even by two registrations racing on two servers (the conditional update lets only one through).
 * The operator's MALL_ADMIN_INVITE_CODE is not spent.
 */
export async function redeemInvite(
  tx: WriteTx,
  code: string | undefined,
  userId: string,
  operatorCode: string | undefined,
  now: Date,
): Promise<RedeemedInvite> {
  if (!code)
    throw new HttpError(403, 'INVITE_REQUIRED', INVITE_MESSAGES.required, {
      inviteCode: INVITE_MESSAGES.required,
    });
  const invalid = new HttpError(403, 'INVITE_INVALID', INVITE_MESSAGES.invalid, {
    inviteCode: INVITE_MESSAGES.invalid,
  });
  if (operatorCode && sameSecret(code.trim(), operatorCode)) return { kind: 'operator' };

  const [spent] = await tx
    .update(adminInvites)
    .set({ usedAt: now, usedBy: userId })
    .where(
      and(
        eq(adminInvites.codeHash, sha256(normalizeInviteCode(code))),
        isNull(adminInvites.usedAt),
        gt(adminInvites.expiresAt, now),
      ),
    )
    .returning({ id: adminInvites.id, createdBy: adminInvites.createdBy, codeHint: adminInvites.codeHint });
  if (!spent) throw invalid;
  if (spent.createdBy === null) {
    // The setup code: valid only while this new account would be the first admin.
    const others = await tx
      .select({ id: users.id })
      .from(users)
      .where(and(eq(users.role, 'admin'), ne(users.id, userId)))
      .limit(1);
    if (others.length > 0) throw invalid;
  }
  // Once an admin exists, leftover setup codes are dead weight.
  await tx.delete(adminInvites).where(and(isNull(adminInvites.createdBy), isNull(adminInvites.usedAt)));
  return { kind: spent.createdBy === null ? 'setup' : 'invite', id: spent.id, codeHint: spent.codeHint };
}

/** Which code made an admin: the operator's, the start-up setup code, or a one-time invite. */
export type RedeemedInvite =
  | { kind: 'operator' }
  | { kind: 'setup' | 'invite'; id: string; codeHint: string };

/** How the log names a one-time code: an admin's invite, or the setup code printed at start-up. */
export function codeName(code: { kind: 'setup' | 'invite'; codeHint: string }): string {
  return code.kind === 'setup' ? `Setup code …${code.codeHint}` : inviteName(code.codeHint);
}

/**
 * At start-up, while the mall has no admin and the operator set no code: a fresh setup code replaces
 * any earlier one. Returns it for the start-up message, or null when none is needed.
 */
export async function prepareSetupCode(
  db: Db,
  operatorCode: string | undefined,
  now: Date,
): Promise<string | null> {
  if (operatorCode || (await adminExists(db))) return null;
  return performWrite(
    db,
    SETUP_ACTOR,
    async ({ tx, record }) => {
      await tx.delete(adminInvites).where(and(isNull(adminInvites.createdBy), isNull(adminInvites.usedAt)));
      const invite = await createInvite(tx, null, now);
      record({
        entityType: 'invite',
        entityId: invite.id,
        entityName: codeName({ kind: 'setup', codeHint: invite.codeHint }),
        action: 'create',
        after: { codeHint: invite.codeHint, expiresAt: invite.expiresAt },
      });
      return invite.code;
    },
    { now: () => now },
  );
}

/** The server itself, as the log names it: the setup code printed at start-up. */
export const SETUP_ACTOR: Actor = { id: null, email: 'server start-up' };
