import { useQuery } from '@tanstack/react-query';
import { Check, Copy, KeyRound, LoaderCircle, Plus } from 'lucide-react';
import { useEffect, useId, useRef, useState } from 'react';
import type { AdminInvite, CreatedAdminInvite } from '../../../shared/auth';
import { Button } from '../../components/ui/button';
import { ConfirmDialog } from '../../components/ui/confirm-dialog';
import { FormAlert } from '../../components/ui/form-alert';
import { QueryView, SkeletonList } from '../../components/ui/query-states';
import { errorMessage } from '../../lib/api';
import { cn } from '../../lib/cn';
import { useCan } from '../../lib/use-can';
import { useConfirmedDelete } from '../../lib/use-confirmed-delete';
import { formatDateTime, inviteHint, invitesQuery, useCreateInvite, useRevokeInvite } from './api';

/** The dashboard's admin invites: make a one-time code, see the open ones, revoke one. */
export function InvitesPanel() {
  const invites = useQuery(invitesQuery);
  const create = useCreateInvite();
  const revoke = useRevokeInvite();
  const [created, setCreated] = useState<CreatedAdminInvite | null>(null);
  const [createError, setCreateError] = useState<string | null>(null);
  const createButton = useRef<HTMLButtonElement>(null);
  const headingId = useId();
  const revoking = useConfirmedDelete<AdminInvite>(revoke, 'Invite revoked', (invite) => {
    if (created?.id === invite.id) setCreated(null);
  });
  const { target } = revoking;
  const can = useCan();
  const may = (action: 'create' | 'delete') => can(action, 'invite');

  async function handleCreate() {
    setCreateError(null);
    try {
      setCreated(await create.mutateAsync());
    } catch (error) {
      setCreateError(errorMessage(error));
    }
  }

  return (
    <section
      aria-labelledby={headingId}
      className="rounded-2xl border border-slate-200 bg-white p-6 shadow-sm"
    >
      <div className="flex flex-wrap items-start justify-between gap-4">
        <div className="max-w-xl">
          <h2 id={headingId} className="flex items-center gap-2 text-lg font-semibold text-slate-900">
            <KeyRound aria-hidden="true" className="size-5 text-indigo-600" />
            Admin invites
          </h2>
          <p className="mt-1 text-sm text-slate-600">
            A person becomes an admin by registering with Account Type Admin and a one-time invite code. Each
            code works once and expires after 7 days.
          </p>
        </div>
        {may('create') ? (
          <Button ref={createButton} onClick={handleCreate} disabled={create.isPending}>
            {create.isPending ? (
              <LoaderCircle aria-hidden="true" className="size-4 animate-spin" />
            ) : (
              <Plus aria-hidden="true" className="size-4" />
            )}
            Create invite code
          </Button>
        ) : null}
      </div>

      <div className="mt-4 space-y-4">
        <FormAlert message={createError} />
        {created ? (
          <NewInviteCode
            key={created.id}
            invite={created}
            onHide={() => {
              setCreated(null);
              // Hide removes the button that had focus: back to the one that made the code
              createButton.current?.focus();
            }}
          />
        ) : null}

        <div>
          <h3 className="text-sm font-semibold text-slate-900">Open invites</h3>
          <QueryView
            query={invites}
            errorClassName="mt-2"
            loading={
              <SkeletonList count={2} className="mt-2 space-y-2">
                <div className="h-14 animate-pulse rounded-lg bg-slate-100" />
              </SkeletonList>
            }
            isEmpty={(data) => data.length === 0}
            empty={<p className="mt-2 text-sm text-slate-500">No open invites.</p>}
          >
            {(data) => (
              <ul
                aria-label="Open invites"
                className="mt-2 divide-y divide-slate-100 rounded-lg border border-slate-200"
              >
                {data.map((invite) => (
                  <li
                    key={invite.id}
                    className="flex min-h-14 flex-wrap items-center justify-between gap-3 px-4 py-2"
                  >
                    <div className="min-w-0">
                      <p className="font-mono text-sm font-semibold text-slate-900">
                        {inviteHint(invite.codeHint)}
                      </p>
                      <p className="text-xs text-slate-500">Expires {formatDateTime(invite.expiresAt)}</p>
                    </div>
                    {may('delete') ? (
                      <Button
                        variant="secondary"
                        size="sm"
                        onClick={() => revoking.ask(invite)}
                        disabled={revoke.isPending && revoke.variables === invite.id}
                      >
                        Revoke<span className="sr-only"> invite {inviteHint(invite.codeHint)}</span>
                      </Button>
                    ) : null}
                  </li>
                ))}
              </ul>
            )}
          </QueryView>
        </div>
      </div>

      <ConfirmDialog
        open={target !== null}
        title={target ? `Revoke invite ${inviteHint(target.codeHint)}?` : ''}
        description="The code will stop working at once. This cannot be undone."
        confirmLabel="Revoke"
        pending={revoke.isPending}
        onConfirm={revoking.confirm}
        onCancel={revoking.cancel}
      />
    </section>
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
