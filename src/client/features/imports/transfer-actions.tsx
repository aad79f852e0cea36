import { Download, Upload } from 'lucide-react';
import { Link } from 'react-router';
import type { ImportKind } from '../../../shared/transfer';
import { buttonClass } from '../../components/ui/button';
import { exportHref } from './api';

/**
 * Import and Export beside a list's Add button (admins). Export is a plain download: the browser streams
 * the file as the server writes it. "Export filtered" appears when the list is filtered.
 */
export function TransferActions({
  kind,
  noun,
  filters,
}: {
  kind: ImportKind;
  noun: string;
  filters: Record<string, string | undefined>;
}) {
  const filtered = Object.values(filters).some(Boolean);
  return (
    <>
      <Link to={`/admin/imports/new?kind=${kind}`} className={buttonClass('secondary')}>
        <Upload aria-hidden="true" className="size-4" />
        Import
      </Link>
      <a
        href={exportHref(kind)}
        download
        className={buttonClass('secondary')}
        aria-label={`Export all ${noun}`}
      >
        <Download aria-hidden="true" className="size-4" />
        Export all
      </a>
      {filtered ? (
        <a
          href={exportHref(kind, filters)}
          download
          className={buttonClass('secondary')}
          aria-label={`Export the ${noun} shown`}
        >
          <Download aria-hidden="true" className="size-4" />
          Export filtered
        </a>
      ) : null}
    </>
  );
}
