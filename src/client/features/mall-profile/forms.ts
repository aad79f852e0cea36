// What loads the form schemas (zod), kept out of index.ts so that screens without the form do not load it.
export { MallLogoPanel, MallProfileForm } from './mall-profile-form';
