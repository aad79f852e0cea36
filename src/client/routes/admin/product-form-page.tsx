import { zodResolver } from '@hookform/resolvers/zod';
import { useQuery } from '@tanstack/react-query';
import { useForm, useWatch } from 'react-hook-form';
import { useParams } from 'react-router';
import type { z } from 'zod';
import { type Product, ProductInput } from '../../../shared/product';
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
import { shopOffersQuery } from '../../features/offers';
import { productQuery, useCreateProduct, useUpdateProduct } from '../../features/products';
import { allShopsQuery } from '../../features/shops';
import { errorMessage, isNotFound } from '../../lib/api';
import { useSaveAndReturn } from '../../lib/use-save-and-return';

const FIELDS = ['name', 'description', 'price', 'category', 'shopId', 'offerId'] as const;

/** /admin/products/new and /admin/products/:id. */
export function ProductFormPage() {
  const { id } = useParams();
  const listPath = useListPath('/admin/products');
  const shops = useQuery(allShopsQuery);
  const product = useQuery({ ...productQuery(id ?? ''), enabled: id !== undefined });
  const productShopId = product.data?.shopId ?? '';
  // the form shows the shop's offers as a field of its own; loading them with the product keeps
  // that field from appearing under the form, pushing the buttons down, after the form has shown.
  const shopOffers = useQuery({ ...shopOffersQuery(productShopId), enabled: Boolean(productShopId) });

  if (id && product.isError && isNotFound(product.error)) {
    return <RecordNotFound message="Product not found" to="/admin/products" linkText="Back to products" />;
  }
  const failed = [shops, ...(id ? [product] : [])].find((query) => query.isError);

  return (
    <div className="mx-auto max-w-3xl space-y-6">
      <AdminPageHeader title={id ? 'Edit Product' : 'Add New Product'} />
      {failed ? (
        <ErrorState
          message={errorMessage(failed.error)}
          onRetry={() => failed.refetch()}
          retrying={failed.isFetching}
        />
      ) : !shops.data || (id && !product.data) || (productShopId && shopOffers.isPending) ? (
        <FormSkeleton fields={6} />
      ) : (
        <ProductForm
          key={id ?? 'new'}
          product={id ? product.data : undefined}
          shops={shops.data}
          listPath={listPath}
        />
      )}
    </div>
  );
}

interface ProductFormProps {
  product: Product | undefined;
  shops: Shop[];
  listPath: string;
}

function ProductForm({ product, shops, listPath }: ProductFormProps) {
  const create = useCreateProduct();
  const update = useUpdateProduct();
  const {
    register,
    handleSubmit,
    setError,
    setValue,
    control,
    formState: { errors, isSubmitting },
  } = useForm<ProductInput, unknown, z.output<typeof ProductInput>>({
    resolver: zodResolver(ProductInput),
    defaultValues: {
      name: product?.name ?? '',
      description: product?.description ?? '',
      // an empty number input reads as NaN, which the schema answers with 'Valid price is required'
      price: product ? Number(product.price) : undefined,
      category: product?.category ?? '',
      shopId: product?.shopId ?? '',
      offerId: product?.offerId ?? null,
    },
  });
  const shopId = useWatch({ control, name: 'shopId' });
  const offers = useQuery({ ...shopOffersQuery(shopId ?? ''), enabled: Boolean(shopId) });
  const shopOffers = shopId ? (offers.data ?? []) : [];

  const { serverError, save } = useSaveAndReturn(setError, FIELDS, listPath);
  const onSubmit = handleSubmit((values) => {
    const input = { ...values, offerId: values.offerId || null };
    return save(
      () => (product ? update.mutateAsync({ id: product.id, input }) : create.mutateAsync(input)),
      product ? 'Product updated' : 'Product added',
    );
  });

  return (
    <form noValidate onSubmit={onSubmit} className={formCardClass}>
      <FormAlert message={serverError} />
      <TextField label="Name" required error={errors.name?.message} {...register('name')} />
      <TextAreaField label="Description" error={errors.description?.message} {...register('description')} />
      <div className="grid gap-5 sm:grid-cols-2">
        <TextField
          label="Price"
          type="number"
          inputMode="decimal"
          step="0.01"
          min="0"
          required
          error={errors.price?.message}
          {...register('price', { valueAsNumber: true })}
        />
        <TextField
          label="Category"
          placeholder="e.g. Shirts"
          error={errors.category?.message}
          {...register('category')}
        />
      </div>
      <SelectField
        label="Shop"
        required
        error={errors.shopId?.message}
        {...register('shopId', {
          // an offer belongs to one shop; a new shop starts with none.
          onChange: () => setValue('offerId', null),
        })}
      >
        <option value="">Select shop</option>
        {shops.map((shop) => (
          <option key={shop.id} value={shop.id}>
            {shop.name}
          </option>
        ))}
      </SelectField>
      {shopOffers.length > 0 ? (
        <SelectField
          label="Apply Offer"
          error={errors.offerId?.message}
          hint="Optional: the product is shown on offer while the offer runs."
          {...register('offerId', { setValueAs: (value: unknown) => (value ? value : null) })}
        >
          <option value="">No Offer</option>
          {shopOffers.map((offer) => (
            <option key={offer.id} value={offer.id}>
              {`${offer.title} (${offer.discount}% off)`}
            </option>
          ))}
        </SelectField>
      ) : null}
      <FormButtons
        listPath={listPath}
        submitting={isSubmitting}
        label={product ? 'Update Product' : 'Add Product'}
      />
    </form>
  );
}
