// The hours editors (zod and the text reader load with them), kept out of index.ts for screens without a form.
export { HoursEditor, hoursErrorSummary, hoursErrors, specialNotePath } from './hours-editor';
export { StructuredHoursField } from './structured-hours-editor';
export { WeekSummary } from './week-summary';
