import { eq, sql } from 'drizzle-orm';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { LoginInput, MeResponse, RegisterInput, UserResponse } from '../../shared/auth';
import { AUTH_MESSAGES } from '../../shared/errors';
import type { Db } from '../db/client';
import { users } from '../db/schema';
import { errorAnswers, HttpError, NoContent } from '../errors';
import { type BoundedQueue, turnIn } from '../lib/bounded-queue';
import { pgError, UNIQUE_VIOLATION } from '../lib/db-errors';
import { accountRepository } from '../modules/accounts/account';
import { codeName, redeemInvite } from '../modules/accounts/invites';
import { managedShopsOf } from '../modules/managers/repository';
import { performWrite } from '../write-path';
import { claimAttempt, recordFailure, recordSuccess } from './lockout';
import { hashPassword, type ScryptCost, verifyPassword, weakerThan } from './passwords';
import { createSession, deleteSession, SESSION_COOKIE, SESSION_LIFETIME_MS, toSessionUser } from './sessions';

export interface AuthRoutesOptions {
  db: Db;
  now: () => Date;
  operatorInviteCode: string | undefined;
  /** Where sign-in and registration wait for a password hash (hash-queue.ts). */
  hashQueue: BoundedQueue;
  /** The cost of a new password hash (passwords.ts, MALL_PASSWORD_HASHING). */
  passwordCost: ScryptCost;
}

const emailInUse = () =>
  new HttpError(409, 'EMAIL_IN_USE', AUTH_MESSAGES.emailInUse, { email: AUTH_MESSAGES.emailInUse });

const emailTaken = (error: unknown) => (pgError(error)?.code === UNIQUE_VIOLATION ? emailInUse() : null);

export function setSessionCookie(request: FastifyRequest, reply: FastifyReply, token: string) {
  reply.setCookie(SESSION_COOKIE, token, {
    path: '/',
    httpOnly: true,
    sameSite: 'lax',
    secure: request.protocol === 'https',
    maxAge: Math.floor(SESSION_LIFETIME_MS / 1000),
  });
}

/** Sign-in replaces whatever session the browser had: a fixed token can never be carried into it. */
async function endCurrentSession(db: Db, request: FastifyRequest) {
  const previous = request.cookies[SESSION_COOKIE];
  if (previous) await deleteSession(db, previous);
}

export const authRoutes: FastifyPluginAsyncZod<AuthRoutesOptions> = async (
  app,
  { db, now, operatorInviteCode, hashQueue, passwordCost },
) => {
  // Auth responses carry personal data: never cached by a browser or a proxy.
  app.addHook('onSend', async (_request, reply) => {
    reply.header('cache-control', 'no-store');
  });

  app.get('/me', { schema: { response: { 200: MeResponse } } }, async (request) => ({ user: request.user }));

  app.post(
    '/register',
    {
      schema: { body: RegisterInput, response: { 201: UserResponse, ...errorAnswers(403, 409) } },
      config: { rateLimitGroup: 'register' },
    },
    async (request, reply) => {
      const { email, password, role, inviteCode } = request.body;
      const existing = await db
        .select({ id: users.id })
        .from(users)
        .where(eq(sql`lower(${users.email})`, email));
      if (existing.length > 0) throw emailInUse();
      const passwordHash = await turnIn(hashQueue, reply).run(() => hashPassword(password, passwordCost));
      // A sign-up is a write like any other; only an admin account is a change to the mall, so only
      // that is logged (with the code that allowed it), shoppers' sign-ups are not.
      const { user, token } = await performWrite(
        db,
        { id: null, email },
        async ({ tx, at, record }) => {
          const [row] = await tx
            .insert(users)
            .values({ email, role, passwordHash, createdAt: at })
            .returning();
          if (!row) throw new Error('user insert returned no row');
          if (role === 'admin') {
            const code = await redeemInvite(tx, inviteCode, row.id, operatorInviteCode, at);
            const self = { id: row.id, email: row.email };
            record({
              entityType: 'account',
              entityId: row.id,
              entityName: row.email,
              action: 'create',
              after: { email: row.email, role: row.role },
              detail: { allowedBy: code.kind === 'operator' ? 'operator code' : codeName(code) },
              actor: self,
            });
            if (code.kind !== 'operator')
              record({
                entityType: 'invite',
                entityId: code.id,
                entityName: codeName(code),
                action: 'use',
                detail: { account: row.email },
                actor: self,
              });
          }
          return { user: toSessionUser(row), token: await createSession(tx, row.id, at) };
        },
        { now, errors: emailTaken },
      );
      await endCurrentSession(db, request);
      setSessionCookie(request, reply, token);
      return reply.status(201).send({ user });
    },
  );

  app.post(
    '/login',
    {
      schema: { body: LoginInput, response: { 200: UserResponse, ...errorAnswers(401) } },
      config: { rateLimitGroup: 'sign-in' },
    },
    async (request, reply) => {
      const { email, password } = request.body;
      const at = now();
      const address = request.ip;
      const [row] = await db
        .select()
        .from(users)
        .where(eq(sql`lower(${users.email})`, email));
      // The hashing queue's place first: a sign-in turned away as busy has not used up an attempt.
      const ticket = row ? turnIn(hashQueue, reply) : null;
      // A password stored at less than today's cost is hashed again at today's, in the same turn.
      let rehashed: string | null = null;
      try {
        // Counted before the password is checked: parallel guesses past the limit are never checked.
        if (!(await claimAttempt(db, email, address, at)))
          throw new HttpError(429, 'LOCKED', AUTH_MESSAGES.locked);
        if (!row || !ticket) {
          await recordFailure(db, email, address, at);
          throw new HttpError(401, 'EMAIL_NOT_FOUND', AUTH_MESSAGES.userNotFound, {
            email: AUTH_MESSAGES.userNotFound,
          });
        }
        const verified = await ticket.run(async () => {
          if (!(await verifyPassword(password, row.passwordHash))) return false;
          if (weakerThan(row.passwordHash, passwordCost))
            rehashed = await hashPassword(password, passwordCost);
          return true;
        });
        if (!verified) {
          await recordFailure(db, email, address, at);
          throw new HttpError(401, 'WRONG_PASSWORD', AUTH_MESSAGES.wrongPassword, {
            password: AUTH_MESSAGES.wrongPassword,
          });
        }
      } finally {
        ticket?.release();
      }

      // Session bookkeeping, not a change to the mall: through the write path, with nothing to log.
      const token = await performWrite(
        db,
        { id: row.id, email: row.email },
        async ({ tx }) => {
          // A password change landing after the check is neither undone by the rehash nor followed by a
          // session for the old password.
          const still = await accountRepository.passwordStill(tx, row.id, row.passwordHash, password);
          if (!still)
            throw new HttpError(401, 'WRONG_PASSWORD', AUTH_MESSAGES.wrongPassword, {
              password: AUTH_MESSAGES.wrongPassword,
            });
          await tx
            .update(users)
            .set({ lastLogin: at, ...(rehashed && still === 'unchanged' ? { passwordHash: rehashed } : {}) })
            .where(eq(users.id, row.id));
          return createSession(tx, row.id, at);
        },
        { now: () => at },
      );
      await recordSuccess(db, email, address);
      await endCurrentSession(db, request);
      setSessionCookie(request, reply, token);
      return {
        user: toSessionUser({ ...row, lastLogin: at, managedShopIds: await managedShopsOf(db, row.id) }),
      };
    },
  );

  app.post('/logout', { schema: { response: { 204: NoContent } } }, async (request, reply) => {
    await endCurrentSession(db, request);
    reply.clearCookie(SESSION_COOKIE, { path: '/' });
    return reply.status(204).send();
  });
};
