// What loads the form schemas (zod), kept out of index.ts so that screens without a form do not load it.
export { EventForm, useEventFormChoices } from './event-form';
