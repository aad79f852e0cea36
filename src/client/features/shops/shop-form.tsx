import type { Place } from '../../../shared/place';
import { type ShopDetail, ShopInput } from '../../../shared/shop';
import { EntityForm, useEntityForm } from '../../components/entity-form';
import { ChoiceOptions, SelectField, TextAreaField, TextField } from '../../components/ui/form-field';
import { useCreateShop, useUpdateShop } from './api';
import { ShopPlaceFields } from './shop-place-form';

interface ShopFormProps {
  shop: ShopDetail | undefined;
  categories: Place[];
  floors: Place[];
  listPath: string;
}

/** A shop's fields; limits, required marks and messages from ShopInput. */
export function ShopForm({ shop, categories, floors, listPath }: ShopFormProps) {
  const { form, field, formProps } = useEntityForm({
    schema: ShopInput,
    record: shop,
    defaultValues: {
      name: shop?.name ?? '',
      description: shop?.description ?? '',
      categoryId: shop?.categoryId ?? '',
      floorId: shop?.floorId ?? '',
      location: shop?.location ?? '',
      contact: shop?.contact ?? '',
      openingHours: shop?.openingHours ?? '',
      hours: shop?.hours ?? null,
      externalCode: shop?.externalCode ?? '',
    },
    create: useCreateShop(),
    update: useUpdateShop(),
    noun: 'Shop',
    listPath,
  });

  return (
    <EntityForm {...formProps}>
      <TextField label="Name" {...field('name')} />
      <TextAreaField label="Description" {...field('description')} />
      <div className="grid gap-5 sm:grid-cols-2">
        <SelectField label="Category" {...field('categoryId')}>
          <ChoiceOptions placeholder="Select category" choices={categories} />
        </SelectField>
        <SelectField label="Floor" {...field('floorId')}>
          <ChoiceOptions placeholder="Select floor" choices={floors} />
        </SelectField>
      </div>
      <TextField
        label="Code"
        hint="Optional: the shop's code in your own records (a tenant id). Imports match shops by it."
        {...field('externalCode')}
      />
      <ShopPlaceFields form={form} field={field} submitting={formProps.submitting} />
    </EntityForm>
  );
}
