import { SearchResultsPage } from '../../features/search';

/** /user/search?q=…: the mall-wide search's full results; results open the shop's page. */
export function SearchPage() {
  return <SearchResultsPage area="user" />;
}
