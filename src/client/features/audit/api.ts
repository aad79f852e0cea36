import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import type { AuditActors, AuditEntityType, AuditPage } from '../../../shared/audit';
import { api } from '../../lib/api';
import { queryKeys } from '../../lib/query-keys';

export interface AuditFilters {
  entityType?: AuditEntityType;
  entityId?: string;
  actorId?: string;
  from?: string;
  to?: string;
  page?: number;
  pageSize?: number;
}

/** `?a=1&b=x` without empty values, keys sorted so equal filters share a cache entry. */
function search(filters: AuditFilters): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(filters).sort(([a], [b]) => a.localeCompare(b)))
    if (value !== undefined && value !== '') params.set(key, String(value));
  const text = params.toString();
  return text ? `?${text}` : '';
}

export const auditKeys = {
  list: (filters: AuditFilters) => [...queryKeys.audit, 'list', filters] as const,
  actors: () => [...queryKeys.audit, 'actors'] as const,
};

/** A page of the audit log, newest first. Never kept fresh for long: every write adds to it. */
export function auditQuery(filters: AuditFilters) {
  return queryOptions({
    queryKey: auditKeys.list(filters),
    queryFn: ({ signal }) => api<AuditPage>(`/api/audit${search(filters)}`, { signal }),
    placeholderData: keepPreviousData,
    staleTime: 0,
  });
}

export const auditActorsQuery = queryOptions({
  queryKey: auditKeys.actors(),
  queryFn: ({ signal }) => api<AuditActors>('/api/audit/actors', { signal }).then((body) => body.items),
});
