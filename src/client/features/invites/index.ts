export { InvitesPanel } from './invites-panel';
