import { useQuery } from '@tanstack/react-query';
import { Info } from 'lucide-react';
import { useParams } from 'react-router';
import type { ReviewedOffer } from '../../../shared/offer';
import { EntityFormPage } from '../../components/entity-form';
import { managedOfferQuery, OfferReviewStatus } from '../../features/managers';
import { OfferForm } from '../../features/offers/forms';
import { settingsQuery } from '../../features/settings';
import { shopQuery } from '../../features/shops';

/** What the manager edits: the terms waiting for approval, when there are some, else the live ones. */
function termsToEdit(offer: ReviewedOffer): ReviewedOffer {
  return { ...offer, ...(offer.review?.proposal ?? {}) };
}

/** /manage/shops/:id/offers/new and /:offerId: the admin's offer form, shop fixed, sent for approval. */
export function ManagedOfferFormPage() {
  const { id: shopId = '', offerId } = useParams();
  const shop = useQuery(shopQuery(shopId));
  const offer = useQuery({ ...managedOfferQuery(shopId, offerId ?? ''), enabled: offerId !== undefined });
  const settings = useQuery({ ...settingsQuery, enabled: offerId === undefined });
  const back = `/manage/shops/${shopId}`;
  const live = offer.data?.approved === true;
  return (
    <EntityFormPage
      id={offerId}
      noun="Offer"
      listPath={back}
      backText="Back to the shop"
      record={offer}
      needs={offerId ? [shop] : [shop, settings]}
      fields={6}
      aside={offer.data ? <OfferReviewStatus offer={offer.data} /> : null}
    >
      {(record) => (
        <OfferForm
          offer={record ? termsToEdit(record) : undefined}
          today={settings.data?.today ?? ''}
          shops={[]}
          listPath={back}
          fixedShop={{ id: shopId, name: shop.data?.name ?? '' }}
          submitLabel="Send for approval"
          done={{ created: 'Offer sent for approval', updated: 'Change sent for approval' }}
          note={
            <p className="flex items-start gap-2 rounded-lg border border-indigo-200 bg-indigo-50 px-3 py-2.5 text-sm text-indigo-900">
              <Info aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
              {live
                ? 'This offer is live. Your change goes live after the mall office approves it; shoppers see the current terms until then.'
                : 'The offer goes live after the mall office approves it. Shoppers do not see it until then.'}
            </p>
          }
        />
      )}
    </EntityFormPage>
  );
}
