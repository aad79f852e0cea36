import type { FastifyRequest } from 'fastify';
import { DIRECTORY_FIELDS_REFUSED, NOT_YOUR_SHOP } from '../../shared/managers';
import { type Action, can, type PermissionRecord, type Resource } from '../../shared/permissions';
import { forbidden } from '../errors';

/**
 * The second half of the one policy (the route guard asked the first, for the kind of record): may the
 * request's person do `action` to this record? `load` tells which shop the record belongs to, and runs
 * only for people whose permission depends on it (a shop manager), so an admin's write costs no extra
 * query. A record that does not exist is refused to them too (403, not 404: not theirs either way).
 */
export async function authorizeRecord(
  request: FastifyRequest,
  action: Action,
  resource: Resource,
  load: () => Promise<PermissionRecord | null>,
): Promise<void> {
  const user = request.user;
  if (!user) throw forbidden();
  if (recordIndependent(request, action, resource)) return;
  const record = await load();
  if (!record || !can(user, action, resource, { shopId: record.shopId })) {
    throw forbidden(action === 'read' ? undefined : NOT_YOUR_SHOP);
  }
  // Their shop, a field that is not theirs to change.
  if (!can(user, action, resource, record)) throw forbidden(DIRECTORY_FIELDS_REFUSED);
}

/** Allowed whatever the record (an admin): no need to look the record up. */
export function recordIndependent(request: FastifyRequest, action: Action, resource: Resource): boolean {
  return request.user !== null && can(request.user, action, resource, { shopId: '\0any shop' });
}
