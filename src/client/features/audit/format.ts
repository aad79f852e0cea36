import type { AuditAction, AuditEntityType, AuditEntry } from '../../../shared/audit';

export const ENTITY_LABELS: Record<AuditEntityType, string> = {
  shop: 'Shop',
  product: 'Product',
  offer: 'Offer',
  event: 'Event',
  category: 'Category',
  floor: 'Floor',
  amenity: 'Amenity',
  account: 'Admin account',
  invite: 'Invite',
  audit: 'Activity log',
  membership: 'Shop manager',
  mall: 'Mall',
  import: 'Import',
  synonym: 'Search synonym',
};

const VERBS: Record<AuditAction, string> = {
  create: 'Created',
  update: 'Changed',
  delete: 'Deleted',
  use: 'Used',
  prune: 'Pruned',
  submit: 'Submitted',
  approve: 'Approved',
  send_back: 'Sent back',
};

/** "Changed shop", "Deleted product", "Used invite". */
export function describeAction(entry: Pick<AuditEntry, 'action' | 'entityType'>): string {
  return `${VERBS[entry.action]} ${ENTITY_LABELS[entry.entityType].toLowerCase()}`;
}

/** Where the record is edited, while it exists. */
export function entityPath(
  entry: Pick<AuditEntry, 'entityType' | 'entityId' | 'entityExists'> & {
    shopId?: string | null;
    entityReview?: AuditEntry['entityReview'];
  },
): string | null {
  if (!entry.entityExists || !entry.entityId) return null;
  // Not approved yet: waiting on the approvals screen, or back with its shop's managers (no admin page).
  if (entry.entityReview) return entry.entityReview === 'pending' ? '/admin/approvals' : null;
  switch (entry.entityType) {
    case 'shop':
      return `/admin/shops/${entry.entityId}`;
    case 'product':
      return `/admin/products/${entry.entityId}`;
    case 'offer':
      return `/admin/offers/${entry.entityId}`;
    case 'category':
    case 'floor':
    case 'amenity':
      return '/admin/categories';
    // A shop manager: their shop's page, where its managers are listed.
    case 'membership':
      return entry.shopId ? `/admin/shops/${entry.shopId}` : null;
    // An import run: its preview and result.
    case 'import':
      return `/admin/imports/${entry.entityId}`;
    case 'synonym':
      return '/admin/synonyms';
    default:
      return null;
  }
}

/** "24 Nov 2026, 14:05" in the mall's time zone. */
export function formatWhen(iso: string, timeZone: string | undefined): string {
  return new Intl.DateTimeFormat(undefined, {
    dateStyle: 'medium',
    timeStyle: 'short',
    ...(timeZone ? { timeZone } : {}),
  }).format(new Date(iso));
}

/** A logged value as text: empty as "(empty)", none as "—", lists and objects as JSON. */
export function formatValue(value: unknown): string {
  if (value === null || value === undefined) return '—';
  if (value === '') return '(empty)';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return JSON.stringify(value);
}

/** "Open hours" from "openingHours": the field names of the log, as words. */
export function fieldLabel(field: string): string {
  const words = field.replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}
