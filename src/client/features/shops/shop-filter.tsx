import { useQuery } from '@tanstack/react-query';
import { SelectField } from '../../components/ui/form-field';
import { allShopsQuery } from './api';

/** The lists' shop filter: 'All Shops' or one shop (every shop of the mall, however many). */
export function ShopFilter({ value, onChange }: { value: string; onChange(shopId: string): void }) {
  const shops = useQuery(allShopsQuery);
  return (
    <SelectField
      label="Shop"
      value={shops.data ? value : ''}
      onChange={(event) => onChange(event.target.value)}
      disabled={!shops.data}
      hint={shops.isError ? 'The shops could not be loaded.' : undefined}
    >
      <option value="">All Shops</option>
      {shops.data?.map((shop) => (
        <option key={shop.id} value={shop.id}>
          {shop.name}
        </option>
      ))}
    </SelectField>
  );
}

/** The admin lists' filter by shop (`?shopId=`): its select, and the value for the list's query. */
export const shopFilter = {
  shopId: (request: { filter(name: string): string }) => request.filter('shopId') || undefined,
  render: (list: { filter(name: string): string; setFilter(name: string, value: string): void }) => (
    <ShopFilter value={list.filter('shopId')} onChange={(value) => list.setFilter('shopId', value)} />
  ),
};
