import { type ComponentProps, type ReactNode, useId } from 'react';
import { cn } from '../../lib/cn';

const controlClass =
  'block w-full rounded-lg border bg-white px-3 py-2.5 text-sm text-slate-900 shadow-sm ' +
  'placeholder:text-slate-400 outline-none transition focus:ring-2';

function controlState(invalid: boolean): string {
  return invalid
    ? 'border-red-400 focus:border-red-500 focus:ring-red-500/30'
    : 'border-slate-300 focus:border-indigo-500 focus:ring-indigo-500/30';
}

interface FieldShellProps {
  label: string;
  error?: string;
  hint?: ReactNode;
  children: (control: { id: string; describedBy: string | undefined; invalid: boolean }) => ReactNode;
}

/** Label, hint and inline error around one control, wired with htmlFor and aria-describedby. */
export function FieldShell({ label, error, hint, children }: FieldShellProps) {
  const id = useId();
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  const describedBy = [hint ? hintId : null, error ? errorId : null].filter(Boolean).join(' ') || undefined;
  return (
    <div className="space-y-1.5">
      <label htmlFor={id} className="block text-sm font-medium text-slate-700">
        {label}
      </label>
      {children({ id, describedBy, invalid: Boolean(error) })}
      {hint ? (
        <p id={hintId} className="text-xs text-slate-500">
          {hint}
        </p>
      ) : null}
      {error ? (
        <p id={errorId} className="text-sm text-red-600">
          {error}
        </p>
      ) : null}
    </div>
  );
}

type TextFieldProps = ComponentProps<'input'> & { label: string; error?: string; hint?: ReactNode };

export function TextField({ label, error, hint, className, ...inputProps }: TextFieldProps) {
  return (
    <FieldShell label={label} error={error} hint={hint}>
      {({ id, describedBy, invalid }) => (
        <input
          id={id}
          aria-invalid={invalid || undefined}
          aria-describedby={describedBy}
          className={cn(controlClass, controlState(invalid), className)}
          {...inputProps}
        />
      )}
    </FieldShell>
  );
}

type SelectFieldProps = ComponentProps<'select'> & { label: string; error?: string; hint?: ReactNode };

export function SelectField({ label, error, hint, className, children, ...selectProps }: SelectFieldProps) {
  return (
    <FieldShell label={label} error={error} hint={hint}>
      {({ id, describedBy, invalid }) => (
        <select
          id={id}
          aria-invalid={invalid || undefined}
          aria-describedby={describedBy}
          className={cn(controlClass, controlState(invalid), className)}
          {...selectProps}
        >
          {children}
        </select>
      )}
    </FieldShell>
  );
}

type TextAreaFieldProps = ComponentProps<'textarea'> & { label: string; error?: string; hint?: ReactNode };

export function TextAreaField({
  label,
  error,
  hint,
  className,
  rows = 3,
  ...textAreaProps
}: TextAreaFieldProps) {
  return (
    <FieldShell label={label} error={error} hint={hint}>
      {({ id, describedBy, invalid }) => (
        <textarea
          id={id}
          rows={rows}
          aria-invalid={invalid || undefined}
          aria-describedby={describedBy}
          className={cn(controlClass, controlState(invalid), 'resize-y', className)}
          {...textAreaProps}
        />
      )}
    </FieldShell>
  );
}

/** A select's options: the empty choice ('Select shop') and one per item, by name. */
export function ChoiceOptions({
  placeholder,
  choices,
}: {
  placeholder: string;
  choices: ReadonlyArray<{ id: string; name: string }>;
}) {
  return (
    <>
      <option value="">{placeholder}</option>
      {choices.map((choice) => (
        <option key={choice.id} value={choice.id}>
          {choice.name}
        </option>
      ))}
    </>
  );
}

/** A record's shop where it cannot be changed (a shop manager's forms): shown as text, not a control. */
function FixedShop({ name }: { name: string }) {
  return (
    <div className="space-y-1.5">
      <p className="text-sm font-medium text-slate-700">Shop</p>
      <p className="text-sm wrap-anywhere text-slate-900">{name}</p>
    </div>
  );
}

type ShopFieldProps = Omit<SelectFieldProps, 'label' | 'children'> & {
  /** The mall's shops to choose from. */
  shops: ReadonlyArray<{ id: string; name: string }>;
  /** The record's shop when it cannot be changed (a shop manager's forms): shown instead of the select. */
  fixedShop?: { name: string };
};

/** A record's shop: the Shop select, or the shop as text where it is fixed. */
export function ShopField({ shops, fixedShop, ...selectProps }: ShopFieldProps) {
  if (fixedShop) return <FixedShop name={fixedShop.name} />;
  return (
    <SelectField label="Shop" {...selectProps}>
      <ChoiceOptions placeholder="Select shop" choices={shops} />
    </SelectField>
  );
}
