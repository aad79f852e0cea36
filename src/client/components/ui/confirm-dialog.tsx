import { TriangleAlert } from 'lucide-react';
import { type ReactNode, useEffect, useId, useRef } from 'react';
import { Button } from './button';
import { IconTile } from './icon-tile';

interface ConfirmDialogProps {
  open: boolean;
  /** The question, e.g. 'Delete Zara?'. */
  title: string;
  /** What goes with it, e.g. 'Its 12 products and 2 offers will be deleted too.' */
  description?: ReactNode;
  /** The confirming button's text. */
  confirmLabel?: string;
  /** The confirmed request is running: both buttons are disabled and Escape does nothing. */
  pending?: boolean;
  /** The confirming button is disabled, e.g. while what goes with it is still being counted. */
  confirmDisabled?: boolean;
  onConfirm(): void;
  onCancel(): void;
}

/**
 * A modal confirmation on the native <dialog> (showModal gives the focus trap, the inert page behind and
 * Escape). Focus starts on Cancel, the safe choice, and returns to the opener on close.
 */
export function ConfirmDialog({
  open,
  title,
  description,
  confirmLabel = 'Delete',
  pending = false,
  confirmDisabled = false,
  onConfirm,
  onCancel,
}: ConfirmDialogProps) {
  const ref = useRef<HTMLDialogElement>(null);
  const cancelRef = useRef<HTMLButtonElement>(null);
  const titleId = useId();
  const descriptionId = useId();

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) {
      dialog.showModal();
      cancelRef.current?.focus();
    } else if (!open && dialog.open) {
      dialog.close();
    }
  }, [open]);

  return (
    <dialog
      ref={ref}
      role="alertdialog"
      aria-modal="true"
      aria-labelledby={titleId}
      aria-describedby={description ? descriptionId : undefined}
      className="m-auto w-[calc(100%-2rem)] max-w-md rounded-2xl border border-slate-200 bg-white p-0 text-slate-900 shadow-xl backdrop:bg-slate-900/50"
      onCancel={(event) => {
        // Escape while the request runs would hide its outcome; the buttons are disabled too.
        if (pending) event.preventDefault();
      }}
      onClose={() => {
        // The browser closed it (Escape): tell the owner, whose `open` is still true.
        if (open) onCancel();
      }}
    >
      {open ? (
        <div className="p-6">
          <div className="flex items-start gap-4">
            <IconTile icon={TriangleAlert} tone="red" size="md" />
            <div className="min-w-0 space-y-2">
              <h2 id={titleId} className="text-lg font-semibold wrap-anywhere text-slate-900">
                {title}
              </h2>
              {description ? (
                <div id={descriptionId} className="text-sm text-slate-600">
                  {description}
                </div>
              ) : null}
            </div>
          </div>
          <div className="mt-6 flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
            <Button ref={cancelRef} variant="secondary" onClick={onCancel} disabled={pending}>
              Cancel
            </Button>
            <Button variant="danger" onClick={onConfirm} disabled={pending || confirmDisabled}>
              {confirmLabel}
            </Button>
          </div>
        </div>
      ) : null}
    </dialog>
  );
}
