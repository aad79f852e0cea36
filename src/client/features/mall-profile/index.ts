// The mall's profile. The form, which loads the schemas (zod), is in ./forms.
export { mallProfileQuery, useSaveMallProfile } from './api';
