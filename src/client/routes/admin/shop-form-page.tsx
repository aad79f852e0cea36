import { zodResolver } from '@hookform/resolvers/zod';
import { useQuery } from '@tanstack/react-query';
import { useForm } from 'react-hook-form';
import { useParams } from 'react-router';
import type { z } from 'zod';
import type { Place } from '../../../shared/place';
import { type ShopDetail, ShopInput } from '../../../shared/shop';
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
import { categoriesQuery, floorsQuery } from '../../features/places';
import { shopQuery, useCreateShop, useUpdateShop } from '../../features/shops';
import { errorMessage, isNotFound } from '../../lib/api';
import { useSaveAndReturn } from '../../lib/use-save-and-return';

const FIELDS = [
  'name',
  'description',
  'categoryId',
  'floorId',
  'location',
  'contact',
  'openingHours',
] as const;

/** /admin/shops/new and /admin/shops/:id. */
export function ShopFormPage() {
  const { id } = useParams();
  const listPath = useListPath('/admin/shops');
  const categories = useQuery(categoriesQuery);
  const floors = useQuery(floorsQuery);
  const shop = useQuery({ ...shopQuery(id ?? ''), enabled: id !== undefined });
  const title = id ? 'Edit Shop' : 'Add New Shop';

  if (id && shop.isError && isNotFound(shop.error)) {
    return <RecordNotFound message="Shop not found" to="/admin/shops" linkText="Back to shops" />;
  }
  const failed = [categories, floors, ...(id ? [shop] : [])].find((query) => query.isError);

  return (
    <div className="mx-auto max-w-3xl space-y-6">
      <AdminPageHeader title={title} />
      {failed ? (
        <ErrorState
          message={errorMessage(failed.error)}
          onRetry={() => failed.refetch()}
          retrying={failed.isFetching}
        />
      ) : !categories.data || !floors.data || (id && !shop.data) ? (
        <FormSkeleton fields={7} />
      ) : (
        <ShopForm
          key={id ?? 'new'}
          shop={id ? shop.data : undefined}
          categories={categories.data}
          floors={floors.data}
          listPath={listPath}
        />
      )}
    </div>
  );
}

interface ShopFormProps {
  shop: ShopDetail | undefined;
  categories: Place[];
  floors: Place[];
  listPath: string;
}

function ShopForm({ shop, categories, floors, listPath }: ShopFormProps) {
  const create = useCreateShop();
  const update = useUpdateShop();
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<ShopInput, unknown, z.output<typeof ShopInput>>({
    resolver: zodResolver(ShopInput),
    defaultValues: {
      name: shop?.name ?? '',
      description: shop?.description ?? '',
      categoryId: shop?.categoryId ?? '',
      floorId: shop?.floorId ?? '',
      location: shop?.location ?? '',
      contact: shop?.contact ?? '',
      openingHours: shop?.openingHours ?? '',
    },
  });

  const { serverError, save } = useSaveAndReturn(setError, FIELDS, listPath);
  const onSubmit = handleSubmit((values) =>
    save(
      () => (shop ? update.mutateAsync({ id: shop.id, input: values }) : create.mutateAsync(values)),
      shop ? 'Shop updated' : 'Shop added',
    ),
  );

  return (
    <form noValidate onSubmit={onSubmit} className={formCardClass}>
      <FormAlert message={serverError} />
      <TextField label="Name" required error={errors.name?.message} {...register('name')} />
      <TextAreaField label="Description" error={errors.description?.message} {...register('description')} />
      <div className="grid gap-5 sm:grid-cols-2">
        <SelectField label="Category" required error={errors.categoryId?.message} {...register('categoryId')}>
          <option value="">Select category</option>
          {categories.map((category) => (
            <option key={category.id} value={category.id}>
              {category.name}
            </option>
          ))}
        </SelectField>
        <SelectField label="Floor" required error={errors.floorId?.message} {...register('floorId')}>
          <option value="">Select floor</option>
          {floors.map((floor) => (
            <option key={floor.id} value={floor.id}>
              {floor.name}
            </option>
          ))}
        </SelectField>
      </div>
      <TextField
        label="Location"
        placeholder="e.g. Unit G-04, beside the main atrium"
        error={errors.location?.message}
        {...register('location')}
      />
      <div className="grid gap-5 sm:grid-cols-2">
        <TextField
          label="Contact"
          placeholder="Phone or email"
          error={errors.contact?.message}
          {...register('contact')}
        />
        <TextField
          label="Opening Hours"
          placeholder="e.g. 10:00 – 22:00 daily"
          error={errors.openingHours?.message}
          {...register('openingHours')}
        />
      </div>
      <FormButtons listPath={listPath} submitting={isSubmitting} label={shop ? 'Update Shop' : 'Add Shop'} />
    </form>
  );
}
