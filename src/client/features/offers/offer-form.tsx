import type { ReactNode } from 'react';
import { useWatch } from 'react-hook-form';
import { type Offer, OfferInput } from '../../../shared/offer';
import type { Shop } from '../../../shared/shop';
import { EntityForm, useEntityForm } from '../../components/entity-form';
import { ShopField, TextAreaField, TextField } from '../../components/ui/form-field';
import { useCreateOffer, useUpdateOffer } from './api';

interface OfferFormProps {
  offer: Offer | undefined;
  /** The mall's date (GET /api/settings): a new offer's start date. */
  today: string;
  shops: Shop[];
  listPath: string;
  /** The offer's shop, shown instead of the Shop select (a shop manager's page). */
  fixedShop?: { id: string; name: string };
  /** Above the fields: e.g. that the offer goes live after the mall office approves it. */
  note?: ReactNode;
  /** The toasts, when not 'Offer added' / 'Offer updated'. */
  done?: { created: string; updated: string };
  /** The submit button's text, when not 'Add Offer' / 'Update Offer'. */
  submitLabel?: string;
}

/** An offer's fields; limits, the discount's range, required marks and messages from OfferInput. */
export function OfferForm({
  offer,
  today,
  shops,
  listPath,
  fixedShop,
  note,
  done,
  submitLabel,
}: OfferFormProps) {
  const { form, field, formProps } = useEntityForm({
    schema: OfferInput,
    record: offer,
    defaultValues: {
      title: offer?.title ?? '',
      description: offer?.description ?? '',
      discount: offer?.discount,
      startDate: offer?.startDate ?? today,
      endDate: offer?.endDate ?? '',
      shopId: offer?.shopId ?? fixedShop?.id ?? '',
    },
    create: useCreateOffer(),
    update: useUpdateOffer(),
    noun: 'Offer',
    listPath,
    done,
  });
  const startDate = useWatch({ control: form.control, name: 'startDate' });

  return (
    <EntityForm {...formProps} submitLabel={submitLabel ?? formProps.submitLabel}>
      {note}
      <TextField label="Title" {...field('title')} />
      <TextAreaField label="Description" {...field('description')} />
      <div className="grid gap-5 sm:grid-cols-2">
        <TextField label="Discount (%)" type="number" inputMode="numeric" {...field('discount')} />
      </div>
      <div className="grid gap-5 sm:grid-cols-2">
        <TextField label="Start Date" type="date" {...field('startDate')} />
        <TextField label="End Date" type="date" min={startDate || undefined} {...field('endDate')} />
      </div>
      <ShopField shops={shops} fixedShop={fixedShop} {...field('shopId')} />
    </EntityForm>
  );
}
