// The create / update / delete hooks of one kind of record, the same for every entity: each write
// refreshes every cached read it can change (the entity's own lists and details, the shop details whose
// counts move, the dashboard's figures).
import { type QueryKey, useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from './api';
import { recordPath } from './list-query';
import { refreshQueries } from './refresh-queries';

interface RecordWritesOptions {
  /** The collection's path, e.g. '/api/shops'. */
  path: string;
  /** The record kind's root query key: a deleted record's detail is forgotten under it. */
  root: QueryKey;
  /** What each write makes stale. */
  refresh: { create: readonly QueryKey[]; update: readonly QueryKey[]; delete: readonly QueryKey[] };
}

export function recordWrites<Saved, Input>({ path, root, refresh }: RecordWritesOptions) {
  return {
    useCreate() {
      const queryClient = useQueryClient();
      return useMutation({
        mutationFn: (input: Input) => api<Saved>(path, { method: 'POST', body: input }),
        onSuccess: () => refreshQueries(queryClient, refresh.create),
      });
    },
    useUpdate() {
      const queryClient = useQueryClient();
      return useMutation({
        mutationFn: ({ id, input }: { id: string; input: Input }) =>
          api<Saved>(recordPath(path, id), { method: 'PATCH', body: input }),
        onSuccess: (saved, { id }) => {
          // The answer is the record as saved: its form, opened again, starts from it (not the old copy).
          queryClient.setQueryData([...root, 'detail', id], saved);
          refreshQueries(queryClient, refresh.update);
        },
      });
    },
    useDelete() {
      const queryClient = useQueryClient();
      return useMutation({
        mutationFn: (id: string) => api<void>(recordPath(path, id), { method: 'DELETE' }),
        onSuccess: (_data, id) => {
          // a screen still showing the deleted record must not fetch it again (it would 404).
          queryClient.removeQueries({ queryKey: [...root, 'detail', id], exact: true });
          refreshQueries(queryClient, refresh.delete);
        },
      });
    },
  };
}
