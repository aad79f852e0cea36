export { countsText, resultLinks, type SearchArea, searchQuery } from './api';
export { SearchBox } from './search-box';
export { resultsQuery, SearchResultsPage } from './search-results-page';
