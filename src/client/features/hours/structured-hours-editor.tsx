import { everyDay, OpeningHours } from '../../../shared/hours';
import { HoursEditor, HoursTextOffer, hoursErrorSummary, hoursErrors } from './hours-editor';

interface StructuredHoursFieldProps {
  value: OpeningHours | null;
  onChange(next: OpeningHours | null): void;
  /** The free-text Opening Hours, offered as structured hours when recognisable. */
  freeText: string;
  disabled?: boolean;
  /** Show validation messages (after a submit was tried). */
  showErrors: boolean;
}

/**
 * A shop's structured hours in its form (the same shop write saves them). Off: only the free text.
 * The editor's messages come from the shared schema, the one the server checks.
 */
export function StructuredHoursField({
  value,
  onChange,
  freeText,
  disabled,
  showErrors,
}: StructuredHoursFieldProps) {
  const errors = showErrors ? hoursErrors(value, OpeningHours) : {};
  const summary = hoursErrorSummary(errors);
  return (
    <fieldset className="space-y-3 rounded-2xl border border-slate-200 p-4" disabled={disabled}>
      <legend className="px-1 text-sm font-semibold text-slate-800">Structured hours</legend>
      <p className="text-xs text-slate-500">
        Used for “Open now” and the Open-now filter, in the mall's time zone; the Opening Hours text above is
        shown as written. The mall's own hours always win.
      </p>
      <label className="inline-flex items-center gap-2 text-sm text-slate-700">
        <input
          type="checkbox"
          className="size-4 accent-indigo-600"
          checked={value !== null}
          onChange={(event) => onChange(event.target.checked ? everyDay('10:00', '21:00') : null)}
        />
        Give structured hours (for “Open now”)
      </label>
      {value === null ? (
        <HoursTextOffer text={freeText} onAccept={(hours) => onChange(hours)} />
      ) : (
        <HoursEditor value={value} onChange={onChange} errors={errors} disabled={disabled} />
      )}
      {value !== null && summary ? (
        <p role="alert" className="text-sm text-red-600">
          Some hours need fixing: {summary}
        </p>
      ) : null}
    </fieldset>
  );
}
