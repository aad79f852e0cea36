import { SearchResultsPage } from '../../features/search';

/** /admin/search?q=…: the same search as shoppers', each result opening its edit screen. */
export function SearchPage() {
  return <SearchResultsPage area="admin" />;
}
