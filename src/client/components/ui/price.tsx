import { cn } from '../../lib/cn';

interface PriceProps {
  /** Exact price strings, e.g. "1299.00". */
  price: string;
  /** The price after a discount; when set, shown beside the struck-through original. */
  discountedPrice?: string | null;
  format: (price: string) => string;
  className?: string;
}

/**
 * A price, or a discounted price beside the struck-through original. Screen readers hear
 * "now ₹1,104.15, was ₹1,299.00".
 */
export function Price({ price, discountedPrice, format, className }: PriceProps) {
  if (!discountedPrice) {
    return <span className={cn('font-semibold text-slate-900', className)}>{format(price)}</span>;
  }
  return (
    <span className={cn('inline-flex flex-wrap items-baseline gap-x-2', className)}>
      <span className="font-semibold text-emerald-700">
        <span className="sr-only">now </span>
        {format(discountedPrice)}
      </span>
      <s className="text-sm text-slate-500">
        <span className="sr-only">, was </span>
        {format(price)}
      </s>
    </span>
  );
}
