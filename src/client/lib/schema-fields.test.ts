import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { LoginInput, PASSWORD_MAX_LENGTH, RegisterInput } from '../../shared/auth';
import { OFFER_LIMITS, OfferInput } from '../../shared/offer';
import { PLACE_NAME_MAX, PlaceInput } from '../../shared/place';
import { PRODUCT_LIMITS, ProductInput } from '../../shared/product';
import { SHOP_LIMITS, ShopInput } from '../../shared/shop';
import { constraintAttributes, fieldConstraints } from './schema-fields';

describe('fieldConstraints', () => {
  it("reads a required name's limit and both messages through the text-cleaning pipes", () => {
    expect(fieldConstraints(ShopInput, 'name')).toEqual({
      kind: 'text',
      required: true,
      maxLength: SHOP_LIMITS.name,
      messages: {
        required: 'Name is required',
        tooLong: `Name must be at most ${SHOP_LIMITS.name} characters`,
      },
    });
  });

  it('knows optional text is not required, and still has its limit', () => {
    const description = fieldConstraints(ProductInput, 'description');
    expect(description.required).toBe(false);
    expect(description.maxLength).toBe(PRODUCT_LIMITS.description);
    expect(constraintAttributes(fieldConstraints(ShopInput, 'openingHours'))).toEqual({
      maxLength: SHOP_LIMITS.openingHours,
    });
  });

  it("gives an id its 'required' message (the selects)", () => {
    expect(fieldConstraints(ShopInput, 'categoryId')).toMatchObject({
      kind: 'text',
      required: true,
      messages: { required: 'Category is required' },
    });
    expect(fieldConstraints(OfferInput, 'shopId').messages.required).toBe('Shop is required');
    expect(fieldConstraints(ProductInput, 'offerId').required).toBe(false);
  });

  it("reads the product price's minimum, maximum, cent step and message", () => {
    const price = fieldConstraints(ProductInput, 'price');
    expect(price).toMatchObject({ kind: 'number', required: true, min: 0, step: 0.01 });
    expect(price.max).toBeGreaterThan(1_000_000);
    expect(price.messages.required).toBe('Valid price is required');
    expect(constraintAttributes(price)).toMatchObject({ required: true, min: 0, step: 0.01 });
  });

  it("reads a whole-number range (the offer's discount) from a refined object schema", () => {
    expect(fieldConstraints(OfferInput, 'discount')).toEqual({
      kind: 'number',
      required: true,
      min: 1,
      max: 100,
      step: 1,
      messages: {
        required: 'Discount must be between 1 and 100',
        range: 'Discount must be between 1 and 100',
      },
    });
    expect(fieldConstraints(OfferInput, 'title').maxLength).toBe(OFFER_LIMITS.title);
    expect(fieldConstraints(OfferInput, 'startDate').messages.required).toBe('Start date is required');
  });

  it('reads the sign-in and registration fields', () => {
    expect(fieldConstraints(LoginInput, 'password')).toMatchObject({
      required: true,
      maxLength: PASSWORD_MAX_LENGTH,
      messages: { required: 'Password is required' },
    });
    const password = fieldConstraints(RegisterInput, 'password');
    expect(password.minLength).toBe(6);
    expect(fieldConstraints(RegisterInput, 'email')).toMatchObject({
      required: true,
      maxLength: 254,
      messages: { required: 'Email is required' },
    });
    // a field with a default has a value without the person choosing one.
    expect(fieldConstraints(RegisterInput, 'role').required).toBe(false);
    expect(fieldConstraints(RegisterInput, 'inviteCode').required).toBe(false);
  });

  it('reads the category and floor name', () => {
    expect(fieldConstraints(PlaceInput, 'name')).toMatchObject({
      maxLength: PLACE_NAME_MAX,
      messages: { required: 'Name is required' },
    });
  });

  it('takes the tightest of several limits, and refuses a field the schema does not have', () => {
    const schema = z.object({ code: z.string().max(10).pipe(z.string().max(8, 'Too long')) });
    expect(fieldConstraints(schema, 'code').maxLength).toBe(8);
    expect(() => fieldConstraints(schema, 'nope')).toThrow('no field "nope"');
  });
});
