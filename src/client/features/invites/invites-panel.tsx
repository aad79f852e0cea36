import { useQuery } from '@tanstack/react-query';
import { KeyRound } from 'lucide-react';
import type { AdminInvite } from '../../../shared/auth';
import { QueryView, SkeletonList } from '../../components/ui/query-states';
import { useCan } from '../../lib/use-can';
import { useConfirmedDelete } from '../../lib/use-confirmed-delete';
import { invitesQuery, useCreateInvite, useRevokeInvite } from './api';
import {
  InvitePanel,
  inviteListClass,
  OpenInviteRow,
  RevokeInviteDialog,
  useInviteCreation,
} from './invite-panel';

/** The dashboard's admin invites: make a one-time code, see the open ones, revoke one. */
export function InvitesPanel() {
  const invites = useQuery(invitesQuery);
  const create = useCreateInvite();
  const revoke = useRevokeInvite();
  const creation = useInviteCreation(create, () => create.mutateAsync());
  const revoking = useConfirmedDelete<AdminInvite>(revoke, 'Invite revoked', (invite) => {
    if (creation.created?.id === invite.id) creation.setCreated(null);
  });
  const can = useCan();
  const may = (action: 'create' | 'delete') => can(action, 'invite');

  return (
    <InvitePanel
      icon={KeyRound}
      title="Admin invites"
      description="A person becomes an admin by registering with Account Type Admin and a one-time invite code. Each code works once and expires after 7 days."
      createLabel={may('create') ? 'Create invite code' : null}
      creation={creation}
      dialogs={<RevokeInviteDialog revoking={revoking} pending={revoke.isPending} what="code" />}
    >
      <div>
        <h3 className="text-sm font-semibold text-slate-900">Open invites</h3>
        <QueryView
          query={invites}
          errorClassName="mt-2"
          loading={
            <SkeletonList count={2} className="mt-2 space-y-2">
              <div className="h-14 animate-pulse rounded-lg bg-slate-100" />
            </SkeletonList>
          }
          isEmpty={(data) => data.length === 0}
          empty={<p className="mt-2 text-sm text-slate-600">No open invites.</p>}
        >
          {(data) => (
            <ul aria-label="Open invites" className={inviteListClass}>
              {data.map((invite) => (
                <OpenInviteRow
                  key={invite.id}
                  invite={invite}
                  onRevoke={may('delete') ? () => revoking.ask(invite) : null}
                  revoking={revoke.isPending && revoke.variables === invite.id}
                />
              ))}
            </ul>
          )}
        </QueryView>
      </div>
    </InvitePanel>
  );
}
