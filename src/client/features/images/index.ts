export { ImageUpload, ProductPhotoPanel, ShopImagesPanel } from './image-upload';
export { Monogram, Picture } from './picture';
