import { useQuery } from '@tanstack/react-query';
import { useParams } from 'react-router';
import { useListPath } from '../../components/admin-page';
import { offerQuery } from '../../features/offers';
import { OfferForm } from '../../features/offers/forms';
import { settingsQuery } from '../../features/settings';
import { allShopsQuery } from '../../features/shops';
import { AdminFormPage } from './admin-form-page';

/** /admin/offers/new and /admin/offers/:id. */
export function OfferFormPage() {
  const { id } = useParams();
  const listPath = useListPath('/admin/offers');
  const shops = useQuery(allShopsQuery);
  const offer = useQuery({ ...offerQuery(id ?? ''), enabled: id !== undefined });
  // a new offer starts on the mall's today, which the server knows (not the browser's calendar).
  const settings = useQuery({ ...settingsQuery, enabled: id === undefined });
  return (
    <AdminFormPage kind="offer" id={id} record={offer} needs={id ? [shops] : [shops, settings]} fields={6}>
      {(record) => (
        <OfferForm
          offer={record}
          today={settings.data?.today ?? ''}
          shops={shops.data ?? []}
          listPath={listPath}
        />
      )}
    </AdminFormPage>
  );
}
