import { zodResolver } from '@hookform/resolvers/zod';
import { useQuery } from '@tanstack/react-query';
import { useForm, useWatch } from 'react-hook-form';
import { useParams } from 'react-router';
import type { z } from 'zod';
import { type Offer, OfferInput } from '../../../shared/offer';
import type { Shop } from '../../../shared/shop';
import {
  AdminPageHeader,
  FormButtons,
  FormSkeleton,
  formCardClass,
  RecordNotFound,
  useListPath,
} from '../../components/admin-page';
import { FormAlert } from '../../components/ui/form-alert';
import { SelectField, TextAreaField, TextField } from '../../components/ui/form-field';
import { ErrorState } from '../../components/ui/query-states';
import { offerQuery, useCreateOffer, useUpdateOffer } from '../../features/offers';
import { settingsQuery } from '../../features/settings';
import { allShopsQuery } from '../../features/shops';
import { errorMessage, isNotFound } from '../../lib/api';
import { useSaveAndReturn } from '../../lib/use-save-and-return';

const FIELDS = ['title', 'description', 'discount', 'startDate', 'endDate', 'shopId'] as const;

/** /admin/offers/new and /admin/offers/:id. */
export function OfferFormPage() {
  const { id } = useParams();
  const listPath = useListPath('/admin/offers');
  const shops = useQuery(allShopsQuery);
  const offer = useQuery({ ...offerQuery(id ?? ''), enabled: id !== undefined });
  // a new offer starts on the mall's today, which the server knows (not the browser's calendar).
  const settings = useQuery({ ...settingsQuery, enabled: id === undefined });

  if (id && offer.isError && isNotFound(offer.error)) {
    return <RecordNotFound message="Offer not found" to="/admin/offers" linkText="Back to offers" />;
  }
  const failed = [shops, ...(id ? [offer] : [settings])].find((query) => query.isError);

  return (
    <div className="mx-auto max-w-3xl space-y-6">
      <AdminPageHeader title={id ? 'Edit Offer' : 'Add New Offer'} />
      {failed ? (
        <ErrorState
          message={errorMessage(failed.error)}
          onRetry={() => failed.refetch()}
          retrying={failed.isFetching}
        />
      ) : !shops.data || (id ? !offer.data : !settings.data) ? (
        <FormSkeleton fields={6} />
      ) : (
        <OfferForm
          key={id ?? 'new'}
          offer={id ? offer.data : undefined}
          today={settings.data?.today ?? ''}
          shops={shops.data}
          listPath={listPath}
        />
      )}
    </div>
  );
}

interface OfferFormProps {
  offer: Offer | undefined;
  /** The mall's date: a new offer's start date. */
  today: string;
  shops: Shop[];
  listPath: string;
}

function OfferForm({ offer, today, shops, listPath }: OfferFormProps) {
  const create = useCreateOffer();
  const update = useUpdateOffer();
  const {
    register,
    handleSubmit,
    setError,
    control,
    formState: { errors, isSubmitting },
  } = useForm<OfferInput, unknown, z.output<typeof OfferInput>>({
    resolver: zodResolver(OfferInput),
    defaultValues: {
      title: offer?.title ?? '',
      description: offer?.description ?? '',
      discount: offer?.discount,
      startDate: offer?.startDate ?? today,
      endDate: offer?.endDate ?? '',
      shopId: offer?.shopId ?? '',
    },
  });
  const startDate = useWatch({ control, name: 'startDate' });

  const { serverError, save } = useSaveAndReturn(setError, FIELDS, listPath);
  const onSubmit = handleSubmit((values) =>
    save(
      () => (offer ? update.mutateAsync({ id: offer.id, input: values }) : create.mutateAsync(values)),
      offer ? 'Offer updated' : 'Offer added',
    ),
  );

  return (
    <form noValidate onSubmit={onSubmit} className={formCardClass}>
      <FormAlert message={serverError} />
      <TextField label="Title" required error={errors.title?.message} {...register('title')} />
      <TextAreaField label="Description" error={errors.description?.message} {...register('description')} />
      <div className="grid gap-5 sm:grid-cols-2">
        <TextField
          label="Discount (%)"
          type="number"
          inputMode="numeric"
          step="1"
          min="1"
          max="100"
          required
          error={errors.discount?.message}
          {...register('discount', { valueAsNumber: true })}
        />
      </div>
      <div className="grid gap-5 sm:grid-cols-2">
        <TextField
          label="Start Date"
          type="date"
          required
          error={errors.startDate?.message}
          {...register('startDate')}
        />
        <TextField
          label="End Date"
          type="date"
          required
          min={startDate || undefined}
          error={errors.endDate?.message}
          {...register('endDate')}
        />
      </div>
      <SelectField label="Shop" required error={errors.shopId?.message} {...register('shopId')}>
        <option value="">Select shop</option>
        {shops.map((shop) => (
          <option key={shop.id} value={shop.id}>
            {shop.name}
          </option>
        ))}
      </SelectField>
      <FormButtons
        listPath={listPath}
        submitting={isSubmitting}
        label={offer ? 'Update Offer' : 'Add Offer'}
      />
    </form>
  );
}
