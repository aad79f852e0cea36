import { useQuery } from '@tanstack/react-query';
import { UserCog } from 'lucide-react';
import type { ManagerInvite, ShopManager } from '../../../shared/managers';
import { Button } from '../../components/ui/button';
import { ConfirmDialog } from '../../components/ui/confirm-dialog';
import { QueryView, SkeletonList } from '../../components/ui/query-states';
import { useCan } from '../../lib/use-can';
import { useConfirmedDelete } from '../../lib/use-confirmed-delete';
import {
  formatDateTime,
  InvitePanel,
  inviteListClass,
  inviteRowClass,
  OpenInviteRow,
  RevokeInviteDialog,
  useInviteCreation,
} from '../invites';
import {
  managerInviteLink,
  shopManagersQuery,
  useCreateManagerInvite,
  useRemoveManager,
  useRevokeManagerInvite,
} from './api';

/** A shop's admin page: its managers (Remove), open invites (Revoke) and "Invite a manager". */
export function ManagersPanel({ shopId, shopName }: { shopId: string; shopName: string }) {
  const managers = useQuery(shopManagersQuery(shopId));
  const create = useCreateManagerInvite(shopId);
  const revoke = useRevokeManagerInvite(shopId);
  const remove = useRemoveManager(shopId);
  const creation = useInviteCreation(create, () => create.mutateAsync());
  const revoking = useConfirmedDelete<ManagerInvite>(revoke, 'Invite revoked', (invite) => {
    if (creation.created?.id === invite.id) creation.setCreated(null);
  });
  const removing = useConfirmedDelete<ShopManager & { id: string }>(remove, 'Manager removed');
  const can = useCan();

  if (!can('read', 'manager')) return null;

  return (
    <InvitePanel
      icon={UserCog}
      title="Shop managers"
      description="A manager keeps this shop's description, location, contact, hours, products and offers current. Their offers go live after an admin approves them. An invite link works once and expires after 7 days."
      createLabel={can('create', 'manager') ? 'Invite a manager' : null}
      creation={creation}
      shownAs={(invite) => ({
        value: managerInviteLink(invite.code),
        label: `Invite link for a manager of ${shopName}`,
      })}
      dialogs={
        <>
          <RevokeInviteDialog revoking={revoking} pending={revoke.isPending} what="link" />
          <ConfirmDialog
            open={removing.target !== null}
            title={removing.target ? `Remove ${removing.target.email} as a manager of ${shopName}?` : ''}
            description="They lose access to this shop at once, on their next request. Their past changes stay in the Activity log."
            confirmLabel="Remove"
            pending={remove.isPending}
            onConfirm={removing.confirm}
            onCancel={removing.cancel}
          />
        </>
      }
    >
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
                <ul aria-label="Managers" className={inviteListClass}>
                  {data.managers.map((manager) => (
                    <li key={manager.userId} className={inviteRowClass}>
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
                <ul aria-label="Open manager invites" className={inviteListClass}>
                  {data.invites.map((invite) => (
                    <OpenInviteRow
                      key={invite.id}
                      invite={invite}
                      onRevoke={() => revoking.ask(invite)}
                      revoking={revoke.isPending && revoke.variables === invite.id}
                    />
                  ))}
                </ul>
              )}
            </div>
          </>
        )}
      </QueryView>
    </InvitePanel>
  );
}
