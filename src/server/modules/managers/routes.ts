import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AuditPage } from '../../../shared/audit';
import {
  CreatedManagerInvite,
  InvitePreview,
  MANAGER_INVITE_MESSAGES,
  ManagedShops,
  ManagerInviteCode,
  ShopManagers,
} from '../../../shared/managers';
import { ReviewedOffer } from '../../../shared/offer';
import { PageQuery } from '../../../shared/text';
import { authorizeRecord } from '../../auth/record-guard';
import type { Db } from '../../db/client';
import { errorAnswers, HttpError, NoContent } from '../../errors';
import { mallToday } from '../../lib/mall-time';
import { routeWriter } from '../../write-path';
import { auditRepository } from '../audit/repository';
import { offerRepository } from '../offers/repository';
import { shopNotFound } from '../shops/repository';
import { managerInviteName, managerRepository, membershipName } from './repository';

const ShopParams = z.strictObject({ id: z.uuid('Shop not found') });
const InviteParams = ShopParams.extend({
  inviteId: z.uuid('This invite does not exist or was already used'),
});
const ManagerParams = ShopParams.extend({ userId: z.uuid('This person does not manage the shop') });

const invalidInvite = () =>
  new HttpError(403, 'INVITE_INVALID', MANAGER_INVITE_MESSAGES.invalid, {
    code: MANAGER_INVITE_MESSAGES.invalid,
  });

/**
 * Shop managers (docs/decisions/015): the mall office invites and removes them (`/api/shops/:id/…`),
 * a person accepts an invite (`/api/manager-invites/…`), a manager reads their shops, their offers under
 * review and their shop's history (`/api/manage/…`). Every answer is someone's own: never cached.
 */
export const managerRoutes: FastifyPluginAsyncZod<{ db: Db; now: () => Date; timeZone: string }> = async (
  app,
  { db, now, timeZone },
) => {
  const managers = managerRepository(db);
  const offers = offerRepository(db);
  const audit = auditRepository(db);
  const write = routeWriter(db, now);
  const today = () => mallToday(timeZone, now());
  app.addHook('onSend', async (_request, reply) => {
    reply.header('cache-control', 'no-store');
  });

  async function shopNamed(id: string, tx: Parameters<typeof managers.shopName>[1] = db): Promise<string> {
    const name = await managers.shopName(id, tx);
    if (name === null) throw shopNotFound();
    return name;
  }

  // --- The mall office: a shop's managers and invites --------------------------------------------

  app.get(
    '/shops/:id/managers',
    {
      config: { permission: { action: 'read', resource: 'manager' } },
      schema: { params: ShopParams, response: { 200: ShopManagers, ...errorAnswers(404) } },
    },
    async (request) => {
      await shopNamed(request.params.id);
      return managers.ofShop(request.params.id, now());
    },
  );

  app.post(
    '/shops/:id/manager-invites',
    {
      config: { permission: { action: 'create', resource: 'manager' } },
      schema: {
        params: ShopParams,
        response: { 201: z.object({ invite: CreatedManagerInvite }), ...errorAnswers(404) },
      },
    },
    async (request, reply) => {
      const shopId = request.params.id;
      const invite = await write(request, async ({ tx, actor, at, record }) => {
        const shopName = await shopNamed(shopId, tx);
        const created = await managers.createInvite(tx, shopId, actor.id, at);
        record({
          entityType: 'invite',
          entityId: created.id,
          entityName: managerInviteName(created.codeHint, shopName),
          shopId,
          action: 'create',
          after: { codeHint: created.codeHint, expiresAt: created.expiresAt, shop: shopName },
        });
        return created;
      });
      return reply.status(201).send({ invite });
    },
  );

  app.delete(
    '/shops/:id/manager-invites/:inviteId',
    {
      config: { permission: { action: 'delete', resource: 'manager' } },
      schema: { params: InviteParams, response: { 204: NoContent, ...errorAnswers(404) } },
    },
    async (request, reply) => {
      const { id: shopId, inviteId } = request.params;
      await write(request, async ({ tx, record }) => {
        const revoked = await managers.revokeInvite(tx, shopId, inviteId);
        if (!revoked) throw new HttpError(404, 'NOT_FOUND', 'This invite does not exist or was already used');
        const shopName = await shopNamed(shopId, tx);
        record({
          entityType: 'invite',
          entityId: revoked.id,
          entityName: managerInviteName(revoked.codeHint, shopName),
          shopId,
          action: 'delete',
          before: { codeHint: revoked.codeHint, expiresAt: revoked.expiresAt, shop: shopName },
        });
      });
      return reply.status(204).send();
    },
  );

  app.delete(
    '/shops/:id/managers/:userId',
    {
      config: { permission: { action: 'delete', resource: 'manager' } },
      schema: { params: ManagerParams, response: { 204: NoContent, ...errorAnswers(404) } },
    },
    async (request, reply) => {
      const { id: shopId, userId } = request.params;
      await write(request, async ({ tx, record }) => {
        const removed = await managers.removeManager(tx, shopId, userId);
        if (!removed) throw new HttpError(404, 'NOT_FOUND', 'This person does not manage the shop');
        const shopName = await shopNamed(shopId, tx);
        record({
          entityType: 'membership',
          entityId: removed.id,
          entityName: membershipName(removed.email, shopName),
          shopId,
          action: 'delete',
          before: { manager: removed.email, shop: shopName },
        });
      });
      return reply.status(204).send();
    },
  );

  // --- A person with an invitation link -----------------------------------------------------------

  app.post(
    '/manager-invites/preview',
    {
      config: { permission: { action: 'read', resource: 'membership' } },
      schema: { body: ManagerInviteCode, response: { 200: InvitePreview, ...errorAnswers(403) } },
    },
    async (request) => {
      const invite = await managers.findOpenInvite(request.body.code, now());
      if (!invite) throw invalidInvite();
      return { shopId: invite.shopId, shopName: invite.shopName };
    },
  );

  app.post(
    '/manager-invites/accept',
    {
      config: { permission: { action: 'create', resource: 'membership' } },
      schema: { body: ManagerInviteCode, response: { 200: InvitePreview, ...errorAnswers(403, 409) } },
    },
    async (request) => {
      const user = request.user;
      if (user?.role === 'admin') throw new HttpError(409, 'ADMIN', MANAGER_INVITE_MESSAGES.admin);
      return write(request, async ({ tx, actor, at, record }) => {
        // Spent by one request only, however many race with the same code (a conditional update).
        const spent = await managers.spendInvite(tx, request.body.code, actor.id ?? '', at);
        if (!spent) throw invalidInvite();
        const shopName = await shopNamed(spent.shopId, tx);
        const membership = await managers.addManager(tx, spent.shopId, actor.id ?? '', at);
        // Rolled back with the spend: the invite stays open for the person it was meant for.
        if (!membership) throw new HttpError(409, 'ALREADY', MANAGER_INVITE_MESSAGES.already);
        record({
          entityType: 'membership',
          entityId: membership,
          entityName: membershipName(actor.email, shopName),
          shopId: spent.shopId,
          action: 'create',
          after: { manager: actor.email, shop: shopName },
        });
        record({
          entityType: 'invite',
          entityId: spent.id,
          entityName: managerInviteName(spent.codeHint, shopName),
          shopId: spent.shopId,
          action: 'use',
          detail: { account: actor.email },
        });
        return { shopId: spent.shopId, shopName };
      });
    },
  );

  // --- A shop manager's own area ------------------------------------------------------------------

  app.get(
    '/manage/shops',
    {
      config: { permission: { action: 'read', resource: 'managed-shop' } },
      schema: { response: { 200: ManagedShops } },
    },
    async (request) => ({ shops: await managers.managedShops(request.user?.managedShopIds ?? []) }),
  );

  app.get(
    '/manage/shops/:id/offers',
    {
      config: { permission: { action: 'read', resource: 'managed-shop' } },
      schema: {
        params: ShopParams,
        response: { 200: z.object({ items: z.array(ReviewedOffer) }), ...errorAnswers(403, 404) },
      },
    },
    async (request) => {
      const shopId = request.params.id;
      await authorizeRecord(request, 'read', 'managed-shop', async () => ({ shopId }));
      await shopNamed(shopId);
      return { items: await offers.listForShop(shopId, today()) };
    },
  );

  app.get(
    '/manage/shops/:id/activity',
    {
      config: { permission: { action: 'read', resource: 'managed-shop' } },
      schema: {
        params: ShopParams,
        querystring: z.strictObject(PageQuery.shape),
        response: { 200: AuditPage, ...errorAnswers(403, 404) },
      },
    },
    async (request) => {
      const shopId = request.params.id;
      await authorizeRecord(request, 'read', 'managed-shop', async () => ({ shopId }));
      await shopNamed(shopId);
      // Never an admin's email nor an invite's code hint: the log as a manager may read it.
      return audit.shopHistory(shopId, request.query);
    },
  );
};
