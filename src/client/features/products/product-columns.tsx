// The columns that the admin's and a shop manager's products tables share.
import { formatDollars } from '../../../shared/money';
import type { Product } from '../../../shared/product';
import { Badge } from '../../components/ui/badge';
import type { Column } from '../../components/ui/data-table';

/** A product's name, with its offer's discount beside it while it has one. */
export function ProductName({ product }: { product: Product }) {
  return (
    <p className="font-medium text-slate-900">
      {product.name}
      {product.offer ? (
        <Badge tone="green" className="ml-2 align-middle">
          {product.offer.discount}% off
        </Badge>
      ) : null}
    </p>
  );
}

export const productPriceColumn: Column<Product> = {
  header: 'Price',
  className: 'text-right whitespace-nowrap tabular-nums',
  width: 'w-28',
  cell: (product) => formatDollars(product.price),
};
