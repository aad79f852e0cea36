import { useWatch } from 'react-hook-form';
import { type Offer, OfferInput } from '../../../shared/offer';
import type { Shop } from '../../../shared/shop';
import { EntityForm, useEntityForm } from '../../components/entity-form';
import { ChoiceOptions, SelectField, TextAreaField, TextField } from '../../components/ui/form-field';
import { useCreateOffer, useUpdateOffer } from './api';

interface OfferFormProps {
  offer: Offer | undefined;
  /** The mall's date (GET /api/settings): a new offer's start date. */
  today: string;
  shops: Shop[];
  listPath: string;
}

/** An offer's fields; limits, the discount's range, required marks and messages from OfferInput. */
export function OfferForm({ offer, today, shops, listPath }: OfferFormProps) {
  const { form, field, formProps } = useEntityForm({
    schema: OfferInput,
    record: offer,
    defaultValues: {
      title: offer?.title ?? '',
      description: offer?.description ?? '',
      discount: offer?.discount,
      startDate: offer?.startDate ?? today,
      endDate: offer?.endDate ?? '',
      shopId: offer?.shopId ?? '',
    },
    create: useCreateOffer(),
    update: useUpdateOffer(),
    noun: 'Offer',
    listPath,
  });
  const startDate = useWatch({ control: form.control, name: 'startDate' });

  return (
    <EntityForm {...formProps}>
      <TextField label="Title" {...field('title')} />
      <TextAreaField label="Description" {...field('description')} />
      <div className="grid gap-5 sm:grid-cols-2">
        <TextField label="Discount (%)" type="number" inputMode="numeric" {...field('discount')} />
      </div>
      <div className="grid gap-5 sm:grid-cols-2">
        <TextField label="Start Date" type="date" {...field('startDate')} />
        <TextField label="End Date" type="date" min={startDate || undefined} {...field('endDate')} />
      </div>
      <SelectField label="Shop" {...field('shopId')}>
        <ChoiceOptions placeholder="Select shop" choices={shops} />
      </SelectField>
    </EntityForm>
  );
}
