// Insights and search synonyms (docs/decisions/035).
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type {
  InsightsReport,
  ShopInsights,
  Synonym,
  SynonymInput,
  SynonymList,
} from '../../../shared/insights';
import { api } from '../../lib/api';
import { toSearch } from '../../lib/list-query';
import { queryKeys } from '../../lib/query-keys';

export interface Range {
  from?: string;
  to?: string;
}

export const insightsQuery = (range: Range) =>
  queryOptions({
    queryKey: [...queryKeys.insights, 'mall', range] as const,
    queryFn: ({ signal }) => api<InsightsReport>(`/api/insights${toSearch({ ...range })}`, { signal }),
  });

export const shopInsightsQuery = (shopId: string, range: Range = {}) =>
  queryOptions({
    queryKey: [...queryKeys.insights, 'shop', shopId, range] as const,
    queryFn: ({ signal }) =>
      api<ShopInsights>(`/api/insights/shops/${encodeURIComponent(shopId)}${toSearch({ ...range })}`, {
        signal,
      }),
  });

export const synonymsQuery = queryOptions({
  queryKey: queryKeys.synonyms,
  queryFn: ({ signal }) => api<SynonymList>('/api/synonyms', { signal }),
});

/** A synonym changes what searches find: the lists, the report's "finds now" and every search. */
function useRefreshAfterSynonym() {
  const client = useQueryClient();
  return () => {
    for (const queryKey of [queryKeys.synonyms, queryKeys.insights, queryKeys.search, queryKeys.audit])
      void client.invalidateQueries({ queryKey });
  };
}

export function useAddSynonym() {
  const refresh = useRefreshAfterSynonym();
  return useMutation({
    mutationFn: (input: SynonymInput) => api<Synonym>('/api/synonyms', { method: 'POST', body: input }),
    onSuccess: refresh,
  });
}

export function useDeleteSynonym() {
  const refresh = useRefreshAfterSynonym();
  return useMutation({
    mutationFn: (id: string) => api<void>(`/api/synonyms/${encodeURIComponent(id)}`, { method: 'DELETE' }),
    onSuccess: refresh,
  });
}
