import type { UseMutationResult } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { toast } from 'sonner';
import { useExplainError } from './explain-error';
import { focusPageHeading } from './page-title';

/**
 * A delete that waits for confirmation: `ask(record)` opens the dialog (`target`), `confirm()` deletes,
 * says so in a toast (or why not: 'Fashion is used by 3 shops…') and closes the dialog either way.
 *
 * Focus (docs/decisions/024): after a delete the button that asked is gone with its row, so focus goes
 * to the heading of the list it was in (its section's, else the page's h1); after Cancel or a refusal it
 * returns to that button.
 */
export function useConfirmedDelete<T extends { id: string }>(
  remove: UseMutationResult<unknown, Error, string>,
  deleted: string,
  onDeleted?: (target: T) => void,
) {
  const [target, setTarget] = useState<T | null>(null);
  // the button that asked, and the heading of the list it is in (found while both are on screen)
  const opener = useRef<{ button: HTMLElement; heading: HTMLElement | null } | null>(null);
  const explain = useExplainError();

  function ask(record: T) {
    const button = document.activeElement;
    opener.current =
      button instanceof HTMLElement
        ? { button, heading: button.closest('section')?.querySelector<HTMLElement>('h2, h1') ?? null }
        : null;
    setTarget(record);
  }

  // where focus goes once the dialog has closed: set on confirm and cancel, acted on in the effect below,
  // which runs after the dialog's own (a child's effects run first), so after the browser's focus return.
  const [focusAfter, setFocusAfter] = useState<{ deleted: boolean } | null>(null);
  useEffect(() => {
    if (!focusAfter || target !== null) return;
    setFocusAfter(null);
    const from = opener.current;
    opener.current = null;
    if (!focusAfter.deleted && from?.button.isConnected) {
      from.button.focus();
      return;
    }
    const heading = from?.heading;
    if (heading?.isConnected) {
      if (!heading.hasAttribute('tabindex')) heading.setAttribute('tabindex', '-1');
      heading.focus();
    } else {
      focusPageHeading();
    }
  }, [focusAfter, target]);

  async function confirm() {
    if (!target) return;
    let done = false;
    try {
      await remove.mutateAsync(target.id);
      done = true;
      toast.success(deleted);
      onDeleted?.(target);
    } catch (error) {
      toast.error(explain(error));
    } finally {
      setTarget(null);
      setFocusAfter({ deleted: done });
    }
  }

  function cancel() {
    setTarget(null);
    setFocusAfter({ deleted: false });
  }

  return { target, ask, cancel, confirm };
}
