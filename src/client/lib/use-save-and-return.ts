import { useState } from 'react';
import type { FieldValues, Path, UseFormSetError } from 'react-hook-form';
import { useNavigate } from 'react-router';
import { toast } from 'sonner';
import { useExplainError } from './explain-error';
import { applyServerFieldErrors } from './form-errors';

/**
 * An admin form's save: write, confirm with a toast and go back to the list; on failure keep the form,
 * show the server's message above it and its per-field messages under the fields.
 */
export function useSaveAndReturn<T extends FieldValues>(
  setError: UseFormSetError<T>,
  fields: ReadonlyArray<Path<T>>,
  listPath: string,
) {
  const navigate = useNavigate();
  const explain = useExplainError();
  const [serverError, setServerError] = useState<string | null>(null);
  async function save(write: () => Promise<unknown>, done: string): Promise<void> {
    setServerError(null);
    try {
      await write();
      toast.success(done);
      await navigate(listPath);
    } catch (error) {
      setServerError(explain(error));
      applyServerFieldErrors(error, setError, fields);
    }
  }
  return { serverError, save };
}
