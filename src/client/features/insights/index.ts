export {
  insightsQuery,
  type Range,
  shopInsightsQuery,
  synonymsQuery,
  useAddSynonym,
  useDeleteSynonym,
} from './api';
export { downloadCsv, toCsv } from './csv';
export { LazyDayChart } from './lazy-chart';
export { ShopNumbers } from './shop-numbers';
