import type { LucideIcon } from 'lucide-react';
import { Check, Copy, LoaderCircle, Plus } from 'lucide-react';
import { type ReactNode, useEffect, useId, useRef, useState } from 'react';
import { Button } from '../../components/ui/button';
import { ConfirmDialog } from '../../components/ui/confirm-dialog';
import { FormAlert } from '../../components/ui/form-alert';
import { errorMessage } from '../../lib/api';
import { cn } from '../../lib/cn';
import { formatDateTime, inviteHint } from './api';

// What the admin invites (dashboard) and a shop's manager invites (its admin page) share: the panel with
// its Create button and the new code shown once, the open invites' rows and the Revoke dialog.

/** The look of a panel's lists and their rows. */
export const inviteListClass = 'mt-2 divide-y divide-slate-100 rounded-lg border border-slate-200';
export const inviteRowClass = 'flex min-h-14 flex-wrap items-center justify-between gap-3 px-4 py-2';

interface Invite {
  id: string;
  code: string;
  expiresAt: string;
}

/** Making an invite: the new one (shown once, until hidden) or why it failed. */
export function useInviteCreation<T extends Invite>(
  mutation: { isPending: boolean },
  make: () => Promise<T>,
) {
  const [created, setCreated] = useState<T | null>(null);
  const [error, setError] = useState<string | null>(null);
  async function create() {
    setError(null);
    try {
      setCreated(await make());
    } catch (caught) {
      setError(errorMessage(caught));
    }
  }
  return { created, setCreated, error, create, pending: mutation.isPending };
}
export type InviteCreation<T extends Invite> = ReturnType<typeof useInviteCreation<T>>;

interface InvitePanelProps<T extends Invite> {
  icon: LucideIcon;
  title: string;
  description: ReactNode;
  /** The Create button's text; no button when null (the person may not create). */
  createLabel: string | null;
  creation: InviteCreation<T>;
  /** The new invite as shown: its code, or what it becomes (a shop manager's is a whole link). */
  shownAs?: (invite: T) => { value: string; label: string };
  /** The lists. */
  children: ReactNode;
  /** The confirm dialogs. */
  dialogs: ReactNode;
}

export function InvitePanel<T extends Invite>({
  icon: Icon,
  title,
  description,
  createLabel,
  creation,
  shownAs,
  children,
  dialogs,
}: InvitePanelProps<T>) {
  const createButton = useRef<HTMLButtonElement>(null);
  const headingId = useId();
  const { created } = creation;
  return (
    <section
      aria-labelledby={headingId}
      className="rounded-2xl border border-slate-200 bg-white p-6 shadow-sm"
    >
      <div className="flex flex-wrap items-start justify-between gap-4">
        <div className="max-w-xl">
          <h2 id={headingId} className="flex items-center gap-2 text-lg font-semibold text-slate-900">
            <Icon aria-hidden="true" className="size-5 text-indigo-600" />
            {title}
          </h2>
          <p className="mt-1 text-sm text-slate-600">{description}</p>
        </div>
        {createLabel ? (
          <Button ref={createButton} onClick={creation.create} disabled={creation.pending}>
            {creation.pending ? (
              <LoaderCircle aria-hidden="true" className="size-4 animate-spin" />
            ) : (
              <Plus aria-hidden="true" className="size-4" />
            )}
            {createLabel}
          </Button>
        ) : null}
      </div>

      <div className="mt-4 space-y-4">
        <FormAlert message={creation.error} />
        {created ? (
          <NewInviteCode
            key={created.id}
            invite={created}
            {...shownAs?.(created)}
            onHide={() => {
              creation.setCreated(null);
              // Hide removes the button that had focus: back to the one that made the code
              createButton.current?.focus();
            }}
          />
        ) : null}
        {children}
      </div>
      {dialogs}
    </section>
  );
}

/** An open invite in a list: its hint, when it expires, and Revoke. */
export function OpenInviteRow({
  invite,
  onRevoke,
  revoking,
}: {
  invite: { id: string; codeHint: string; expiresAt: string };
  /** Revoke's action; no button when the person may not revoke. */
  onRevoke: (() => void) | null;
  revoking: boolean;
}) {
  return (
    <li className={inviteRowClass}>
      <div className="min-w-0">
        <p className="font-mono text-sm font-semibold text-slate-900">{inviteHint(invite.codeHint)}</p>
        <p className="text-xs text-slate-600">Expires {formatDateTime(invite.expiresAt)}</p>
      </div>
      {onRevoke ? (
        <Button variant="secondary" size="sm" onClick={onRevoke} disabled={revoking}>
          Revoke<span className="sr-only"> invite {inviteHint(invite.codeHint)}</span>
        </Button>
      ) : null}
    </li>
  );
}

/** "Revoke invite …?", for the invite a useConfirmedDelete is asking about. */
export function RevokeInviteDialog({
  revoking,
  pending,
  what,
}: {
  revoking: { target: { codeHint: string } | null; confirm(): void; cancel(): void };
  pending: boolean;
  /** What stops working: the code, or the link. */
  what: 'code' | 'link';
}) {
  const { target } = revoking;
  return (
    <ConfirmDialog
      open={target !== null}
      title={target ? `Revoke invite ${inviteHint(target.codeHint)}?` : ''}
      description={`The ${what} will stop working at once. This cannot be undone.`}
      confirmLabel="Revoke"
      pending={pending}
      onConfirm={revoking.confirm}
      onCancel={revoking.cancel}
    />
  );
}

type CopyState = 'idle' | 'copied' | 'manual';

interface NewInviteCodeProps {
  invite: { code: string; expiresAt: string };
  onHide(): void;
  /** What is shown and copied: the code itself unless told (a shop manager's invite is a whole link). */
  value?: string;
  label?: string;
}

/**
 * A new one-time code (or link), shown once, with Copy (and the text selected for a manual copy when
 * that fails).
 */
export function NewInviteCode({
  invite,
  onHide,
  value = invite.code,
  label = 'New invite code',
}: NewInviteCodeProps) {
  const inputRef = useRef<HTMLInputElement>(null);
  const [copyState, setCopyState] = useState<CopyState>('idle');
  // shown after Create, whose button was disabled while creating: focus comes here, to the new code
  // (selected, ready to copy; its label is read with it).
  useEffect(() => {
    inputRef.current?.focus();
  }, []);
  const inputId = useId();
  const noteId = useId();

  function selectCode() {
    inputRef.current?.focus();
    inputRef.current?.select();
  }

  async function copy() {
    try {
      if (!navigator.clipboard) throw new Error('No clipboard');
      await navigator.clipboard.writeText(value);
      setCopyState('copied');
    } catch {
      selectCode();
      setCopyState('manual');
    }
  }

  return (
    <div className="rounded-xl border border-indigo-200 bg-indigo-50 p-4">
      <label htmlFor={inputId} className="block text-sm font-medium text-slate-900">
        {label}
      </label>
      <div className="mt-2 flex flex-wrap items-center gap-2">
        <input
          ref={inputRef}
          id={inputId}
          readOnly
          value={value}
          aria-describedby={noteId}
          onFocus={(event) => event.currentTarget.select()}
          className={cn(
            'min-w-0 rounded-lg border border-slate-300 bg-white px-3 py-2 font-mono font-semibold text-slate-900 outline-none focus:border-indigo-500 focus:ring-2 focus:ring-indigo-500/30',
            value === invite.code ? 'w-56 text-base tracking-wider' : 'w-full text-sm',
          )}
        />
        <Button variant="secondary" onClick={copy}>
          {copyState === 'copied' ? (
            <Check aria-hidden="true" className="size-4 text-green-600" />
          ) : (
            <Copy aria-hidden="true" className="size-4" />
          )}
          Copy
        </Button>
        <Button variant="ghost" onClick={onHide}>
          Hide
        </Button>
        <p
          role="status"
          className={copyState === 'copied' ? 'text-sm font-medium text-green-700' : 'text-sm text-slate-700'}
        >
          {copyState === 'copied' ? 'Copied' : copyState === 'manual' ? 'Press Ctrl+C (⌘C) to copy' : ''}
        </p>
      </div>
      <p id={noteId} className="mt-2 text-sm text-slate-600">
        Expires {formatDateTime(invite.expiresAt)}. This {value === invite.code ? 'code' : 'link'} is shown
        only once: copy it now.
      </p>
    </div>
  );
}
