export { type AuditFilters, auditActorsQuery, auditKeys, auditQuery } from './api';
export { AuditTrail } from './audit-entry-card';
export { ENTITY_LABELS, formatWhen } from './format';
export { LastChanged } from './last-changed';
