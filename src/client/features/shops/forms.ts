// What loads the form schemas (zod), kept out of index.ts so that screens without a form do not load it.

export { ShopListingForm } from './listing-form';
export { ShopForm } from './shop-form';
