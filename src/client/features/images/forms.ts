// The upload control and the panels that use it, kept out of index.ts so shopper screens do not load them.
export { ImageUpload, ProductPhotoPanel, ShopImagesPanel } from './image-editor';
