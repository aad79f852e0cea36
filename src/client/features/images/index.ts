// Images as shoppers see them. The upload control (admin and manager forms) is in ./forms.
export { Monogram, Picture, preloadPicture } from './picture';
