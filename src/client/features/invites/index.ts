export { formatDateTime, inviteHint } from './api';
export {
  InvitePanel,
  inviteListClass,
  inviteRowClass,
  NewInviteCode,
  OpenInviteRow,
  RevokeInviteDialog,
  useInviteCreation,
} from './invite-panel';
export { InvitesPanel } from './invites-panel';
