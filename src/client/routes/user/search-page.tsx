import { resultsQuery, SearchResultsPage } from '../../features/search';
import { useDirectoryArea } from '../../lib/directory-area';
import { queryClient } from '../../lib/query-client';

/** Reads the results for this screen's address before it renders (lib/lazy-route.tsx). */
export function prefetch(search: URLSearchParams, _params?: unknown, client = queryClient): Promise<void> {
  const query = resultsQuery(search);
  return query.queryKey[1].q ? client.prefetchQuery(query) : Promise.resolve();
}

/** /search?q=… and /user/search?q=…: the mall-wide search's full results; results open the shop's page. */
export function SearchPage() {
  return <SearchResultsPage area={useDirectoryArea().name} />;
}
