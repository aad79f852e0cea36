import type { LucideIcon } from 'lucide-react';
import { cn } from '../../lib/cn';

const tones = {
  indigo: 'bg-indigo-50 text-indigo-600',
  slate: 'bg-slate-100 text-slate-500',
  red: 'bg-red-50 text-red-600',
} as const;

// the tile's size, and its icon's
const sizes = {
  md: ['size-10', 'size-5'],
  lg: ['size-12', 'size-6'],
  xl: ['size-14', 'size-7'],
} as const;

/** An icon on a tinted round (or rounded-square) tile: a status page's, a dialog's, a figure's mark. */
export function IconTile({
  icon: Icon,
  tone = 'indigo',
  size = 'lg',
  square = false,
  className,
}: {
  icon: LucideIcon;
  tone?: keyof typeof tones;
  size?: keyof typeof sizes;
  square?: boolean;
  className?: string;
}) {
  const [tile, icon] = sizes[size];
  return (
    <span
      className={cn(
        'flex shrink-0 items-center justify-center',
        square ? 'rounded-xl' : 'rounded-full',
        tones[tone],
        tile,
        className,
      )}
    >
      <Icon aria-hidden="true" className={icon} />
    </span>
  );
}
