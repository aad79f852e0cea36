import { Plus, Trash2 } from 'lucide-react';
import { useId } from 'react';
import {
  emptyWeek,
  formatIntervals,
  HOURS_LIMITS,
  type HoursInterval,
  type OpeningHours,
  type SpecialDay,
  WEEKDAY_NAMES,
  WEEKDAYS,
  type Weekday,
} from '../../../shared/hours';
import { parseHoursText } from '../../../shared/hours-text';
import { Button } from '../../components/ui/button';
import { WeekSummary } from './week-summary';

const inputClass =
  'block w-full rounded-lg border border-slate-300 bg-white px-2.5 py-2 text-sm text-slate-900 shadow-sm outline-none focus:border-indigo-500 focus:ring-2 focus:ring-indigo-500/30 aria-invalid:border-red-400';

/** Every validation message of the hours, by path ("weekly.mon.0.close"), from the shared schema. */
export function hoursErrors(hours: OpeningHours | null, schema: { safeParse(v: unknown): unknown }) {
  const errors: Record<string, string> = {};
  if (!hours) return errors;
  const result = schema.safeParse(hours) as {
    error?: { issues: { path: PropertyKey[]; message: string }[] };
  };
  for (const issue of result.error?.issues ?? []) errors[issue.path.join('.')] ??= issue.message;
  return errors;
}

/** The path of a special day's note in `hoursErrors` ("special.0.note"), where its field shows the message. */
export const specialNotePath = (index: number) => `special.${index}.note`;

/**
 * The first of `hoursErrors` as one line for the form's summary, naming the special day when the message
 * does not ("Special day 2, note must be one line").
 */
export function hoursErrorSummary(errors: Record<string, string>): string | null {
  const first = Object.entries(errors)[0];
  if (!first) return null;
  const [path, message] = first;
  const note = /^special\.(\d+)\.note$/.exec(path);
  return note
    ? `Special day ${Number(note[1]) + 1}, ${message.charAt(0).toLowerCase()}${message.slice(1)}`
    : message;
}

/** A time input shows "24:00" (midnight at the end of the day) as 00:00, which means the same as a close. */
const shown = (time: string) => (time === '24:00' ? '00:00' : time);
const closeValue = (time: string) => (time === '00:00' ? '24:00' : time);

interface IntervalsProps {
  /** "Monday", "Special day 25 Dec": names the controls for screen readers. */
  dayName: string;
  intervals: readonly HoursInterval[];
  onChange(next: HoursInterval[]): void;
  errors: Record<string, string>;
  /** The errors' path prefix: "weekly.mon" or "special.0.intervals". */
  path: string;
  disabled?: boolean;
}

function Intervals({ dayName, intervals, onChange, errors, path, disabled }: IntervalsProps) {
  const closed = intervals.length === 0;
  const dayError = errors[path];
  return (
    <div className="space-y-2">
      <label className="inline-flex items-center gap-2 text-sm text-slate-700">
        <input
          type="checkbox"
          className="size-4 accent-indigo-600"
          checked={closed}
          disabled={disabled}
          aria-label={`Closed on ${dayName}`}
          onChange={(event) => onChange(event.target.checked ? [] : [{ open: '10:00', close: '21:00' }])}
        />
        Closed
      </label>
      {intervals.map((interval, index) => {
        const openError = errors[`${path}.${index}.open`];
        const closeError = errors[`${path}.${index}.close`];
        const set = (patch: Partial<HoursInterval>) =>
          onChange(intervals.map((item, i) => (i === index ? { ...item, ...patch } : item)));
        return (
          // biome-ignore lint/suspicious/noArrayIndexKey: intervals have no identity beyond their place
          <div key={index} className="flex flex-wrap items-end gap-2">
            <label className="grid gap-1 text-xs font-medium text-slate-600">
              Opens
              <input
                type="time"
                required
                className={inputClass}
                value={interval.open}
                disabled={disabled}
                aria-label={`${dayName} opens${intervals.length > 1 ? ` (interval ${index + 1})` : ''}`}
                aria-invalid={Boolean(openError) || undefined}
                onChange={(event) => set({ open: event.target.value })}
              />
            </label>
            <label className="grid gap-1 text-xs font-medium text-slate-600">
              Closes
              <input
                type="time"
                required
                className={inputClass}
                value={shown(interval.close)}
                disabled={disabled}
                aria-label={`${dayName} closes${intervals.length > 1 ? ` (interval ${index + 1})` : ''}`}
                aria-invalid={Boolean(closeError) || undefined}
                onChange={(event) => set({ close: closeValue(event.target.value) })}
              />
            </label>
            <Button
              variant="secondary"
              size="sm"
              className="min-h-10"
              disabled={disabled}
              aria-label={`Remove interval ${index + 1} on ${dayName}`}
              onClick={() => onChange(intervals.filter((_, i) => i !== index))}
            >
              <Trash2 aria-hidden="true" className="size-4" />
            </Button>
            {openError || closeError ? (
              <p role="alert" className="basis-full text-sm text-red-600">
                {openError ?? closeError}
              </p>
            ) : null}
          </div>
        );
      })}
      {dayError ? (
        <p role="alert" className="text-sm text-red-600">
          {dayError}
        </p>
      ) : null}
      {intervals.length < HOURS_LIMITS.intervalsPerDay ? (
        <Button
          variant="secondary"
          size="sm"
          disabled={disabled}
          aria-label={`Add interval on ${dayName}`}
          onClick={() => {
            const last = intervals.at(-1);
            onChange([
              ...intervals,
              last
                ? { open: last.close === '24:00' ? '00:00' : last.close, close: '23:00' }
                : { open: '10:00', close: '21:00' },
            ]);
          }}
        >
          <Plus aria-hidden="true" className="size-4" />
          {closed ? 'Open this day' : 'Add interval'}
        </Button>
      ) : null}
    </div>
  );
}

interface HoursEditorProps {
  value: OpeningHours;
  onChange(next: OpeningHours): void;
  errors: Record<string, string>;
  disabled?: boolean;
}

/** Weekly hours (per day: intervals, closed) and a list of special days. Labelled for every control. */
export function HoursEditor({ value, onChange, errors, disabled }: HoursEditorProps) {
  const setDay = (day: Weekday, intervals: HoursInterval[]) =>
    onChange({ ...value, weekly: { ...value.weekly, [day]: intervals } });
  const setSpecial = (special: SpecialDay[]) => onChange({ ...value, special });
  const specialError = errors.special;
  return (
    <div className="space-y-5">
      <div className="grid gap-3 sm:grid-cols-2">
        {WEEKDAYS.map((day) => (
          <fieldset key={day} className="rounded-xl border border-slate-200 p-3" disabled={disabled}>
            <legend className="px-1 text-sm font-semibold text-slate-800">{WEEKDAY_NAMES[day]}</legend>
            <Intervals
              dayName={WEEKDAY_NAMES[day]}
              intervals={value.weekly[day]}
              onChange={(next) => setDay(day, next)}
              errors={errors}
              path={`weekly.${day}`}
              disabled={disabled}
            />
          </fieldset>
        ))}
      </div>
      <div className="flex flex-wrap gap-2">
        <Button
          variant="secondary"
          size="sm"
          disabled={disabled}
          onClick={() =>
            onChange({
              ...value,
              weekly: Object.fromEntries(
                WEEKDAYS.map((day) => [day, value.weekly.mon]),
              ) as OpeningHours['weekly'],
            })
          }
        >
          Copy Monday to every day
        </Button>
      </div>

      <fieldset className="space-y-3" disabled={disabled}>
        <legend className="text-sm font-semibold text-slate-800">Special days</legend>
        <p className="text-xs text-slate-500">
          Holidays, closures and extended hours: a special day replaces that date's weekly hours.
        </p>
        {value.special.length === 0 ? <p className="text-sm text-slate-600">No special days.</p> : null}
        {value.special.map((special, index) => (
          <SpecialDayRow
            // biome-ignore lint/suspicious/noArrayIndexKey: a special day is edited in place, its date may change
            key={index}
            index={index}
            special={special}
            errors={errors}
            disabled={disabled}
            onChange={(next) => setSpecial(value.special.map((item, i) => (i === index ? next : item)))}
            onRemove={() => setSpecial(value.special.filter((_, i) => i !== index))}
          />
        ))}
        {specialError ? (
          <p role="alert" className="text-sm text-red-600">
            {specialError}
          </p>
        ) : null}
        {value.special.length < HOURS_LIMITS.specialDays ? (
          <Button
            variant="secondary"
            size="sm"
            disabled={disabled}
            onClick={() => setSpecial([...value.special, { date: '', intervals: [], note: '' }])}
          >
            <Plus aria-hidden="true" className="size-4" />
            Add special day
          </Button>
        ) : null}
      </fieldset>
    </div>
  );
}

function SpecialDayRow({
  index,
  special,
  errors,
  disabled,
  onChange,
  onRemove,
}: {
  index: number;
  special: SpecialDay;
  errors: Record<string, string>;
  disabled?: boolean;
  onChange(next: SpecialDay): void;
  onRemove(): void;
}) {
  const id = useId();
  const name = `special day ${index + 1}`;
  const dateError = errors[`special.${index}.date`];
  const noteError = errors[specialNotePath(index)];
  return (
    <fieldset className="space-y-3 rounded-xl border border-slate-200 p-3" disabled={disabled}>
      <legend className="px-1 text-sm font-medium text-slate-700">Special day {index + 1}</legend>
      {/* Tops aligned (the button one label lower), so that the note's message below it moves nothing. */}
      <div className="flex flex-wrap items-start gap-3">
        <div className="grid gap-1">
          <label htmlFor={`${id}-date`} className="text-xs font-medium text-slate-600">
            Date
          </label>
          <input
            id={`${id}-date`}
            type="date"
            required
            className={inputClass}
            value={special.date}
            aria-invalid={Boolean(dateError) || undefined}
            aria-describedby={dateError ? `${id}-date-error` : undefined}
            onChange={(event) => onChange({ ...special, date: event.target.value })}
          />
        </div>
        <div className="grid min-w-40 flex-1 gap-1">
          <label htmlFor={`${id}-note`} className="text-xs font-medium text-slate-600">
            Note (shown to shoppers)
          </label>
          <input
            id={`${id}-note`}
            className={inputClass}
            maxLength={HOURS_LIMITS.note}
            placeholder="e.g. Diwali, Late-night shopping"
            value={special.note ?? ''}
            aria-invalid={Boolean(noteError) || undefined}
            aria-describedby={noteError ? `${id}-note-error` : undefined}
            onChange={(event) => onChange({ ...special, note: event.target.value })}
          />
          {noteError ? (
            <p id={`${id}-note-error`} className="text-sm text-red-600">
              {noteError}
            </p>
          ) : null}
        </div>
        <Button
          variant="secondary"
          size="sm"
          className="min-h-10 sm:mt-5"
          disabled={disabled}
          onClick={onRemove}
        >
          <Trash2 aria-hidden="true" className="size-4" />
          Remove special day
        </Button>
      </div>
      {dateError ? (
        <p id={`${id}-date-error`} role="alert" className="text-sm text-red-600">
          {dateError}
        </p>
      ) : null}
      <Intervals
        dayName={name}
        intervals={special.intervals}
        onChange={(intervals) => onChange({ ...special, intervals })}
        errors={errors}
        path={`special.${index}.intervals`}
        disabled={disabled}
      />
    </fieldset>
  );
}

/**
 * Where a shop has only free text: an offer to read it as structured hours, shown for the admin to
 * confirm (nothing changes until they press the button, and the form still has to be saved).
 */
export function HoursTextOffer({ text, onAccept }: { text: string; onAccept(hours: OpeningHours): void }) {
  const parsed = text.trim() ? parseHoursText(text) : null;
  if (!parsed) return null;
  return (
    <section
      aria-label="Suggested hours"
      className="space-y-2 rounded-xl border border-indigo-200 bg-indigo-50 p-3 text-sm"
    >
      <p className="text-slate-800">The Opening Hours text “{text}” reads as:</p>
      <WeekSummary hours={parsed.hours} />
      {parsed.unmentioned.length > 0 ? (
        <p className="text-slate-700">
          Not mentioned, so taken as closed: {parsed.unmentioned.map((day) => WEEKDAY_NAMES[day]).join(', ')}.
        </p>
      ) : null}
      <Button size="sm" onClick={() => onAccept(parsed.hours)}>
        Use these hours
      </Button>
    </section>
  );
}

export { emptyWeek, formatIntervals };
