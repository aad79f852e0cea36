export { formatDateTime, inviteHint } from './api';
export { InvitesPanel, NewInviteCode } from './invites-panel';
