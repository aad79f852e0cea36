import { useQuery } from '@tanstack/react-query';
import { useWatch } from 'react-hook-form';
import { type Product, ProductInput } from '../../../shared/product';
import type { Shop } from '../../../shared/shop';
import { EntityForm, useEntityForm } from '../../components/entity-form';
import { SelectField, ShopField, TextAreaField, TextField } from '../../components/ui/form-field';
import { shopOffersQuery } from '../offers';
import { useCreateProduct, useUpdateProduct } from './api';

interface ProductFormProps {
  product: Product | undefined;
  shops: Shop[];
  listPath: string;
  /** The shop the product belongs to, shown instead of the Shop select (a shop manager's page). */
  fixedShop?: { id: string; name: string };
}

/** A product's fields; limits, the price's range and step, required marks and messages from ProductInput. */
export function ProductForm({ product, shops, listPath, fixedShop }: ProductFormProps) {
  const { form, field, formProps } = useEntityForm({
    schema: ProductInput,
    record: product,
    defaultValues: {
      name: product?.name ?? '',
      description: product?.description ?? '',
      // an empty number input reads as NaN, which the schema answers with 'Valid price is required'
      price: product ? Number(product.price) : undefined,
      category: product?.category ?? '',
      shopId: product?.shopId ?? fixedShop?.id ?? '',
      offerId: product?.offerId ?? null,
      externalCode: product?.externalCode ?? '',
    },
    create: useCreateProduct(),
    update: useUpdateProduct(),
    noun: 'Product',
    listPath,
    toInput: (values) => ({ ...values, offerId: values.offerId || null }),
  });
  const shopId = useWatch({ control: form.control, name: 'shopId' });
  const offers = useQuery({ ...shopOffersQuery(shopId ?? ''), enabled: Boolean(shopId) });
  const shopOffers = shopId ? (offers.data ?? []) : [];

  return (
    <EntityForm {...formProps}>
      <TextField label="Name" {...field('name')} />
      <TextAreaField label="Description" {...field('description')} />
      <div className="grid gap-5 sm:grid-cols-2">
        <TextField label="Price" type="number" inputMode="decimal" {...field('price')} />
        <TextField label="Category" placeholder="e.g. Shirts" {...field('category')} />
      </div>
      <TextField
        label="Code"
        hint="Optional: the product's code (a SKU), unique within its shop. Imports match products by it."
        {...field('externalCode')}
      />
      <ShopField
        shops={shops}
        fixedShop={fixedShop}
        {...field('shopId', {
          // an offer belongs to one shop; a new shop starts with none.
          onChange: () => form.setValue('offerId', null),
        })}
      />
      {shopOffers.length > 0 ? (
        <SelectField
          label="Apply Offer"
          hint="Optional: the product is shown on offer while the offer runs."
          {...field('offerId', { setValueAs: (value: unknown) => (value ? value : null) })}
        >
          <option value="">No Offer</option>
          {shopOffers.map((offer) => (
            <option key={offer.id} value={offer.id}>
              {`${offer.title} (${offer.discount}% off)`}
            </option>
          ))}
        </SelectField>
      ) : null}
    </EntityForm>
  );
}
