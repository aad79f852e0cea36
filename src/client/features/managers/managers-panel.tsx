import { useQuery } from '@tanstack/react-query';
import { LoaderCircle, Plus, UserCog } from 'lucide-react';
import { useId, useState } from 'react';
import type { CreatedManagerInvite, ManagerInvite, ShopManager } from '../../../shared/managers';
import { Button } from '../../components/ui/button';
import { ConfirmDialog } from '../../components/ui/confirm-dialog';
import { FormAlert } from '../../components/ui/form-alert';
import { QueryView, SkeletonList } from '../../components/ui/query-states';
import { errorMessage } from '../../lib/api';
import { useCan } from '../../lib/use-can';
import { useConfirmedDelete } from '../../lib/use-confirmed-delete';
import { formatDateTime, inviteHint, NewInviteCode } from '../invites';
import {
  managerInviteLink,
  shopManagersQuery,
  useCreateManagerInvite,
  useRemoveManager,
  useRevokeManagerInvite,
} from './api';

const listClass = 'mt-2 divide-y divide-slate-100 rounded-lg border border-slate-200';
const rowClass = 'flex min-h-14 flex-wrap items-center justify-between gap-3 px-4 py-2';

/** A shop's admin page: its managers (Remove), open invites (Revoke) and "Invite a manager". */
export function ManagersPanel({ shopId, shopName }: { shopId: string; shopName: string }) {
  const managers = useQuery(shopManagersQuery(shopId));
  const create = useCreateManagerInvite(shopId);
  const revoke = useRevokeManagerInvite(shopId);
  const remove = useRemoveManager(shopId);
  const [created, setCreated] = useState<CreatedManagerInvite | null>(null);
  const [createError, setCreateError] = useState<string | null>(null);
  const headingId = useId();
  const revoking = useConfirmedDelete<ManagerInvite>(revoke, 'Invite revoked', (invite) => {
    if (created?.id === invite.id) setCreated(null);
  });
  const removing = useConfirmedDelete<ShopManager & { id: string }>(remove, 'Manager removed');
  const can = useCan();

  if (!can('read', 'manager')) return null;

  async function handleCreate() {
    setCreateError(null);
    try {
      setCreated(await create.mutateAsync());
    } catch (error) {
      setCreateError(errorMessage(error));
    }
  }

  return (
    <section
      aria-labelledby={headingId}
      className="rounded-2xl border border-slate-200 bg-white p-6 shadow-sm"
    >
      <div className="flex flex-wrap items-start justify-between gap-4">
        <div className="max-w-xl">
          <h2 id={headingId} className="flex items-center gap-2 text-lg font-semibold text-slate-900">
            <UserCog aria-hidden="true" className="size-5 text-indigo-600" />
            Shop managers
          </h2>
          <p className="mt-1 text-sm text-slate-600">
            A manager keeps this shop's description, location, contact, hours, products and offers current.
            Their offers go live after an admin approves them. An invite link works once and expires after 7
            days.
          </p>
        </div>
        {can('create', 'manager') ? (
          <Button onClick={handleCreate} disabled={create.isPending}>
            {create.isPending ? (
              <LoaderCircle aria-hidden="true" className="size-4 animate-spin" />
            ) : (
              <Plus aria-hidden="true" className="size-4" />
            )}
            Invite a manager
          </Button>
        ) : null}
      </div>

      <div className="mt-4 space-y-4">
        <FormAlert message={createError} />
        {created ? (
          <NewInviteCode
            key={created.id}
            invite={created}
            value={managerInviteLink(created.code)}
            label={`Invite link for a manager of ${shopName}`}
            onHide={() => setCreated(null)}
          />
        ) : null}

        <QueryView
          query={managers}
          errorClassName="mt-2"
          loading={
            <SkeletonList count={2} className="mt-2 space-y-2" label="Loading managers">
              <div className="h-14 animate-pulse rounded-lg bg-slate-100" />
            </SkeletonList>
          }
        >
          {(data) => (
            <>
              <div>
                <h3 className="text-sm font-semibold text-slate-900">Managers</h3>
                {data.managers.length === 0 ? (
                  <p className="mt-2 text-sm text-slate-600">No one manages this shop yet.</p>
                ) : (
                  <ul aria-label="Managers" className={listClass}>
                    {data.managers.map((manager) => (
                      <li key={manager.userId} className={rowClass}>
                        <div className="min-w-0">
                          <p className="text-sm font-semibold wrap-anywhere text-slate-900">
                            {manager.displayName || manager.email}
                          </p>
                          <p className="text-xs wrap-anywhere text-slate-600">
                            {manager.displayName ? `${manager.email} · ` : ''}since{' '}
                            {formatDateTime(manager.since)}
                          </p>
                        </div>
                        <Button
                          variant="secondary"
                          size="sm"
                          onClick={() => removing.ask({ ...manager, id: manager.userId })}
                          disabled={remove.isPending && remove.variables === manager.userId}
                        >
                          Remove<span className="sr-only"> {manager.email}</span>
                        </Button>
                      </li>
                    ))}
                  </ul>
                )}
              </div>
              <div>
                <h3 className="text-sm font-semibold text-slate-900">Open invites</h3>
                {data.invites.length === 0 ? (
                  <p className="mt-2 text-sm text-slate-600">No open invites.</p>
                ) : (
                  <ul aria-label="Open manager invites" className={listClass}>
                    {data.invites.map((invite) => (
                      <li key={invite.id} className={rowClass}>
                        <div className="min-w-0">
                          <p className="font-mono text-sm font-semibold text-slate-900">
                            {inviteHint(invite.codeHint)}
                          </p>
                          <p className="text-xs text-slate-600">Expires {formatDateTime(invite.expiresAt)}</p>
                        </div>
                        <Button
                          variant="secondary"
                          size="sm"
                          onClick={() => revoking.ask(invite)}
                          disabled={revoke.isPending && revoke.variables === invite.id}
                        >
                          Revoke<span className="sr-only"> invite {inviteHint(invite.codeHint)}</span>
                        </Button>
                      </li>
                    ))}
                  </ul>
                )}
              </div>
            </>
          )}
        </QueryView>
      </div>

      <ConfirmDialog
        open={revoking.target !== null}
        title={revoking.target ? `Revoke invite ${inviteHint(revoking.target.codeHint)}?` : ''}
        description="The link will stop working at once. This cannot be undone."
        confirmLabel="Revoke"
        pending={revoke.isPending}
        onConfirm={revoking.confirm}
        onCancel={revoking.cancel}
      />
      <ConfirmDialog
        open={removing.target !== null}
        title={removing.target ? `Remove ${removing.target.email} as a manager of ${shopName}?` : ''}
        description="They lose access to this shop at once, on their next request. Their past changes stay in the Activity log."
        confirmLabel="Remove"
        pending={remove.isPending}
        onConfirm={removing.confirm}
        onCancel={removing.cancel}
      />
    </section>
  );
}
