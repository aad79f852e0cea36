import { useQuery } from '@tanstack/react-query';
import { useParams } from 'react-router';
import type { ReviewedOffer } from '../../../shared/offer';
import { EntityFormPage } from '../../components/entity-form';
import { managedOfferQuery, OfferReviewStatus, sentForApproval } from '../../features/managers';
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
          {...sentForApproval({ noun: 'offer', audience: 'shoppers', what: 'terms' }, live)}
          offer={record ? termsToEdit(record) : undefined}
          today={settings.data?.today ?? ''}
          shops={[]}
          listPath={back}
          fixedShop={{ id: shopId, name: shop.data?.name ?? '' }}
        />
      )}
    </EntityFormPage>
  );
}
