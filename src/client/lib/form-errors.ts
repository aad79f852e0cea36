import type { FieldValues, Path, UseFormSetError } from 'react-hook-form';
import { ApiError } from './api';

/**
 * Puts the server's per-field messages (ApiError.fields) under the form's own fields. Fields the form
 * does not have are left to the red box above the form, which shows the error's message anyway.
 */
export function applyServerFieldErrors<T extends FieldValues>(
  error: unknown,
  setError: UseFormSetError<T>,
  formFields: ReadonlyArray<Path<T>>,
): void {
  if (!(error instanceof ApiError) || !error.fields) return;
  for (const [field, message] of Object.entries(error.fields)) {
    const known = formFields.find((name) => name === field);
    if (known) setError(known, { type: 'server', message });
  }
}
