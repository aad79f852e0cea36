import type { UseMutationResult } from '@tanstack/react-query';
import { useState } from 'react';
import { toast } from 'sonner';
import { useExplainError } from './explain-error';

/**
 * A delete that waits for confirmation: `ask(record)` opens the dialog (`target`), `confirm()` deletes,
 * says so in a toast (or why not: 'Fashion is used by 3 shops…') and closes the dialog either way.
 */
export function useConfirmedDelete<T extends { id: string }>(
  remove: UseMutationResult<unknown, Error, string>,
  deleted: string,
  onDeleted?: (target: T) => void,
) {
  const [target, setTarget] = useState<T | null>(null);
  const explain = useExplainError();
  async function confirm() {
    if (!target) return;
    try {
      await remove.mutateAsync(target.id);
      toast.success(deleted);
      onDeleted?.(target);
    } catch (error) {
      toast.error(explain(error));
    } finally {
      setTarget(null);
    }
  }
  return { target, ask: setTarget, cancel: () => setTarget(null), confirm };
}
