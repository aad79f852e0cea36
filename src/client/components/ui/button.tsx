import type { ComponentProps } from 'react';
import { cn } from '../../lib/cn';

type Variant = 'primary' | 'secondary' | 'ghost' | 'inverse' | 'danger';
type Size = 'sm' | 'md' | 'lg';

// wrap-normal: a button's words never break mid-word (the page's text may, docs/decisions/024)
const base =
  'inline-flex items-center justify-center gap-2 wrap-normal rounded-lg border border-transparent font-semibold transition-colors ' +
  'focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600 ' +
  'disabled:cursor-not-allowed disabled:opacity-60';

const variants: Record<Variant, string> = {
  primary: 'bg-indigo-600 text-white shadow-sm hover:bg-indigo-500 disabled:hover:bg-indigo-600',
  secondary: 'border-slate-300 bg-white text-slate-700 shadow-sm hover:bg-slate-50',
  ghost: 'text-slate-600 hover:bg-slate-100 hover:text-slate-900',
  inverse: 'bg-white text-indigo-700 shadow-sm hover:bg-indigo-50 focus-visible:outline-white',
  danger:
    'bg-red-600 text-white shadow-sm hover:bg-red-500 focus-visible:outline-red-600 disabled:hover:bg-red-600',
};

const sizes: Record<Size, string> = {
  sm: 'px-3 py-1.5 text-sm',
  md: 'px-4 py-2 text-sm',
  lg: 'px-6 py-3 text-base',
};

/** Button look, also for links that should look like buttons. */
export function buttonClass(variant: Variant = 'primary', size: Size = 'md', extra?: string): string {
  return cn(base, variants[variant], sizes[size], extra);
}

type ButtonProps = ComponentProps<'button'> & { variant?: Variant; size?: Size };

export function Button({ variant, size, className, type = 'button', ...props }: ButtonProps) {
  return <button type={type} className={buttonClass(variant, size, className)} {...props} />;
}

/** An inline edit form's Update and Cancel, both off while the change is saved. */
export function UpdateCancel({
  saving,
  onCancel,
  className,
}: {
  saving: boolean;
  onCancel(): void;
  className?: string;
}) {
  return (
    <div className={cn('flex gap-2', className)}>
      <Button type="submit" size="sm" disabled={saving}>
        Update
      </Button>
      <Button variant="secondary" size="sm" onClick={onCancel} disabled={saving}>
        Cancel
      </Button>
    </div>
  );
}
