import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type { AdminInvite, CreatedAdminInvite } from '../../../shared/auth';
import { api } from '../../lib/api';
import { queryKeys } from '../../lib/query-keys';
import { refreshQueries } from '../../lib/refresh-queries';

const invitesKey = queryKeys.invites;

/** Open (unused, unexpired) admin invites: their hints, never their codes. */
export const invitesQuery = queryOptions({
  queryKey: invitesKey,
  queryFn: ({ signal }) =>
    api<{ invites: AdminInvite[] }>('/api/admin/invites', { signal }).then((body) => body.invites),
  // another admin may make or spend a code at any time; the list is cheap.
  staleTime: 0,
});

/** Makes a one-time code; the answer is the only time the code itself is seen. */
export function useCreateInvite() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () =>
      api<{ invite: CreatedAdminInvite }>('/api/admin/invites', { method: 'POST' }).then(
        (body) => body.invite,
      ),
    onSuccess: () => refreshQueries(queryClient, [invitesKey]),
  });
}

export function useRevokeInvite() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) =>
      api<void>(`/api/admin/invites/${encodeURIComponent(id)}`, { method: 'DELETE' }),
    // A 404 (used or revoked meanwhile) also means the list is out of date.
    onSettled: () => refreshQueries(queryClient, [invitesKey]),
  });
}

/** '…ABCD': the last four characters of a code, as the list shows it. */
export function inviteHint(codeHint: string): string {
  return `…${codeHint}`;
}

/** A moment as the browser's locale writes it, e.g. '28 Nov 2026, 21:30'. */
export function formatDateTime(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return date.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
}
