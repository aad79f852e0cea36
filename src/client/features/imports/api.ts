import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type { ImportKind, ImportRun } from '../../../shared/transfer';
import { api } from '../../lib/api';
import { queryKeys } from '../../lib/query-keys';

/** Whether a run is still being checked or written: its page asks again until it is not. */
export const isBusy = (run: ImportRun | undefined) => run?.status === 'checking' || run?.status === 'running';

export const importRunQuery = (id: string) =>
  queryOptions({
    queryKey: [...queryKeys.imports, id],
    queryFn: ({ signal }) => api<ImportRun>(`/api/imports/${id}`, { signal }),
    // Progress: asked again every second while the server works on it.
    refetchInterval: (query) => (isBusy(query.state.data) ? 1000 : false),
  });

/** Sends the file as it is (text/csv); the server answers the run, being checked. */
export function useStartImport() {
  return useMutation({
    mutationFn: ({ kind, file }: { kind: ImportKind; file: File }) =>
      api<ImportRun>(`/api/imports?kind=${kind}&fileName=${encodeURIComponent(file.name)}`, {
        method: 'POST',
        raw: { type: 'text/csv', data: file },
      }),
  });
}

export function useConfirmImport(id: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (validOnly: boolean) =>
      api<ImportRun>(`/api/imports/${id}/confirm`, { method: 'POST', body: { validOnly } }),
    onSuccess: (run) => {
      client.setQueryData([...queryKeys.imports, id], run);
    },
  });
}

/** What a finished run changed: every directory list, the events, the synonyms and search, the log. */
export function useRefreshAfterImport() {
  const client = useQueryClient();
  return () => {
    for (const key of [
      queryKeys.shops,
      queryKeys.products,
      queryKeys.offers,
      queryKeys.categories,
      queryKeys.floors,
      queryKeys.events,
      queryKeys.eventReviews,
      queryKeys.synonyms,
      queryKeys.search,
      queryKeys.insights,
      queryKeys.audit,
      queryKeys.stats,
    ])
      void client.invalidateQueries({ queryKey: key });
  };
}

/** The export's address: everything, or the list's current filter (the list's own query names). */
export function exportHref(kind: string, filters: Record<string, string | undefined> = {}): string {
  const query = new URLSearchParams(
    Object.entries(filters).filter((entry): entry is [string, string] => Boolean(entry[1])),
  ).toString();
  return `/api/export/${kind}${query ? `?${query}` : ''}`;
}
