import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { AccountResponse, DisplayNameInput, PasswordChangeInput } from '../../../shared/account';
import type { SessionUser } from '../../../shared/auth';
import { AUTH_MESSAGES } from '../../../shared/errors';
import { claimAttempt, recordFailure, recordSuccess } from '../../auth/lockout';
import { hashPassword, type ScryptCost, verifyPassword } from '../../auth/passwords';
import { setSessionCookie } from '../../auth/routes';
import { SESSION_COOKIE, toSessionUser } from '../../auth/sessions';
import type { Db } from '../../db/client';
import { HttpError, NoContent, unauthenticated } from '../../errors';
import { type BoundedQueue, turnIn } from '../../lib/bounded-queue';
import { routeWriter } from '../../write-path';
import { accountRepository } from './account';

export interface AccountRoutesOptions {
  db: Db;
  now: () => Date;
  /** The password-hashing queue sign-in uses (auth/hash-queue.ts). */
  hashQueue: BoundedQueue;
  /** The cost of a new password hash (auth/passwords.ts, MALL_PASSWORD_HASHING). */
  passwordCost: ScryptCost;
}

const PERMISSION = { action: 'update', resource: 'account' } as const;

/** The signed-in person (the route's permission has already refused a visitor). */
function self(user: SessionUser | null): SessionUser {
  if (!user) throw unauthenticated();
  return user;
}

/**
 * A person's own account (docs/decisions/026): display name, password, signing out everywhere. Every
 * signed-in role; each a write through the one write path, logged as an update of the account.
 */
export const accountRoutes: FastifyPluginAsyncZod<AccountRoutesOptions> = async (
  app,
  { db, now, hashQueue, passwordCost },
) => {
  const write = routeWriter(db, now);
  // Personal data: never cached by a browser or a proxy.
  app.addHook('onSend', async (_request, reply) => {
    reply.header('cache-control', 'no-store');
  });

  app.patch(
    '/',
    {
      config: { permission: PERMISSION },
      schema: { body: DisplayNameInput, response: { 200: AccountResponse } },
    },
    async (request) => {
      const me = self(request.user);
      const row = await write(request, async ({ tx, record }) => {
        const updated = await accountRepository.setDisplayName(tx, me.id, request.body.displayName);
        if (!updated) throw unauthenticated();
        record({
          entityType: 'account',
          entityId: me.id,
          entityName: me.email,
          action: 'update',
          before: { displayName: me.displayName },
          after: { displayName: updated.displayName },
        });
        return updated;
      });
      return { user: toSessionUser({ ...row, managedShopIds: me.managedShopIds }) };
    },
  );

  // Guessing the current password here is guessing a sign-in: the same per-address request limit and
  // the same lockout count (docs/decisions/009), keyed by the account's email.
  app.post(
    '/password',
    {
      config: { permission: PERMISSION, rateLimitGroup: 'sign-in' },
      schema: { body: PasswordChangeInput, response: { 200: AccountResponse } },
    },
    async (request, reply) => {
      const me = self(request.user);
      const { currentPassword, newPassword } = request.body;
      const at = now();
      const address = request.ip;
      const row = await accountRepository.byId(db, me.id);
      if (!row) throw unauthenticated();
      const ticket = turnIn(hashQueue, reply);
      let newHash: string | null;
      try {
        if (!(await claimAttempt(db, row.email, address, at)))
          throw new HttpError(429, 'LOCKED', AUTH_MESSAGES.locked);
        newHash = await ticket.run(async () =>
          (await verifyPassword(currentPassword, row.passwordHash))
            ? hashPassword(newPassword, passwordCost)
            : null,
        );
      } finally {
        ticket.release();
      }
      if (newHash === null) {
        await recordFailure(db, row.email, address, at);
        // 400, not 401: the person is signed in; only the password they typed is wrong.
        throw new HttpError(400, 'WRONG_PASSWORD', AUTH_MESSAGES.wrongPassword, {
          currentPassword: AUTH_MESSAGES.wrongPassword,
        });
      }
      const passwordHash = newHash;
      // Every session ends, this one too, and this browser gets a new one: a session token someone
      // copied before the change opens nothing afterwards.
      const token = await write(request, async ({ tx, record }) => {
        // Two changes at once: the one that comes second was checked against a password that is no
        // longer the account's, and is refused as a wrong one.
        if (!(await accountRepository.passwordStill(tx, me.id, row.passwordHash, currentPassword)))
          throw new HttpError(400, 'WRONG_PASSWORD', AUTH_MESSAGES.wrongPassword, {
            currentPassword: AUTH_MESSAGES.wrongPassword,
          });
        const ended = await accountRepository.setPasswordHash(tx, me.id, passwordHash);
        record({
          entityType: 'account',
          entityId: me.id,
          entityName: me.email,
          action: 'update',
          detail: { passwordChanged: true, sessionsEnded: ended },
        });
        return accountRepository.startSession(tx, me.id, at);
      });
      await recordSuccess(db, row.email, address);
      setSessionCookie(request, reply, token);
      return { user: me };
    },
  );

  app.post(
    '/sign-out-everywhere',
    { config: { permission: PERMISSION }, schema: { response: { 204: NoContent } } },
    async (request, reply) => {
      const me = self(request.user);
      await write(request, async ({ tx, record }) => {
        const ended = await accountRepository.endAllSessions(tx, me.id);
        record({
          entityType: 'account',
          entityId: me.id,
          entityName: me.email,
          action: 'update',
          detail: { signedOutEverywhere: true, sessionsEnded: ended },
        });
      });
      reply.clearCookie(SESSION_COOKIE, { path: '/' });
      return reply.status(204).send();
    },
  );
};
