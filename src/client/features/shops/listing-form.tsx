import { type ShopDetail, ShopListingInput } from '../../../shared/shop';
import { EntityForm, useEntityForm } from '../../components/entity-form';
import { TextAreaField } from '../../components/ui/form-field';
import { useUpdateShopListing } from './api';
import { ShopPlaceFields } from './shop-place-form';

/**
 * A shop's page as its manager edits it: description, location, contact, opening hours. The name,
 * category and floor are shown, not edited: the mall office changes those.
 */
export function ShopListingForm({ shop, listPath }: { shop: ShopDetail; listPath: string }) {
  const { form, field, formProps } = useEntityForm({
    schema: ShopListingInput,
    record: shop,
    defaultValues: {
      description: shop.description,
      location: shop.location,
      contact: shop.contact,
      openingHours: shop.openingHours,
      hours: shop.hours ?? null,
    },
    update: useUpdateShopListing(),
    noun: 'Shop',
    listPath,
    done: { created: 'Shop saved', updated: 'Shop details saved' },
  });

  return (
    <EntityForm {...formProps} submitLabel="Save shop details">
      <div className="rounded-lg border border-slate-200 bg-slate-50 p-4">
        <dl className="grid gap-3 text-sm sm:grid-cols-3">
          <div className="min-w-0">
            <dt className="font-medium text-slate-600">Name</dt>
            <dd className="wrap-anywhere text-slate-900">{shop.name}</dd>
          </div>
          <div className="min-w-0">
            <dt className="font-medium text-slate-600">Category</dt>
            <dd className="wrap-anywhere text-slate-900">{shop.category}</dd>
          </div>
          <div className="min-w-0">
            <dt className="font-medium text-slate-600">Floor</dt>
            <dd className="wrap-anywhere text-slate-900">{shop.floor}</dd>
          </div>
        </dl>
        <p className="mt-3 text-xs text-slate-600">
          The mall office changes a shop's name, category and floor: ask them if these are wrong.
        </p>
      </div>
      <TextAreaField label="Description" {...field('description')} />
      <ShopPlaceFields form={form} field={field} submitting={formProps.submitting} />
    </EntityForm>
  );
}
