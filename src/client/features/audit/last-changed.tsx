import { useQuery } from '@tanstack/react-query';
import type { AuditEntityType } from '../../../shared/audit';
import { settingsQuery } from '../settings';
import { auditQuery } from './api';
import { formatWhen } from './format';

/** "Last changed by ana@mall.com on 24 Nov 2026, 14:05" under an edit form; nothing until it is known. */
export function LastChanged({ entityType, entityId }: { entityType: AuditEntityType; entityId: string }) {
  // Never the previous record's line while this one's loads (the list keeps its previous page; not here).
  const latest = useQuery({
    ...auditQuery({ entityType, entityId, pageSize: 1 }),
    placeholderData: undefined,
  });
  const settings = useQuery(settingsQuery);
  const entry = latest.data?.items[0];
  if (!entry) return null;
  return (
    <p className="text-sm text-slate-600">
      Last changed by <span className="wrap-anywhere font-medium text-slate-800">{entry.actorEmail}</span> on{' '}
      <time dateTime={entry.at}>{formatWhen(entry.at, settings.data?.timeZone)}</time>
    </p>
  );
}
