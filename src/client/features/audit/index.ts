export { type AuditFilters, auditActorsQuery, auditKeys, auditQuery, mallSettingsQuery } from './api';
export { AuditEntryCard } from './audit-entry-card';
export { ENTITY_LABELS } from './format';
export { LastChanged } from './last-changed';
