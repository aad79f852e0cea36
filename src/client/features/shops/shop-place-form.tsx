import type { FieldValues, Path, PathValue, UseFormReturn } from 'react-hook-form';
import type { OpeningHours } from '../../../shared/hours';
import { TextField } from '../../components/ui/form-field';
import type { schemaFields } from '../../lib/schema-fields';
import { StructuredHoursField } from '../hours/forms';

/** The names of the fields below, in both shop forms' values. */
type ShopPlaceName = 'location' | 'contact' | 'openingHours' | 'hours';

/**
 * Where a shop is and when it is open — location, contact, the free-text opening hours and the
 * structured hours beside them — as both the mall office's shop form and a manager's listing form edit
 * them (docs/decisions/017). (Named -form so that the build puts it in the forms' chunk, beside the
 * hours editor it uses: vite.config.ts.)
 */
export function ShopPlaceFields<T extends FieldValues & Partial<Record<ShopPlaceName, unknown>>, Out>({
  form,
  field,
  submitting,
}: {
  form: UseFormReturn<T, unknown, Out>;
  field: ReturnType<typeof schemaFields<NoInfer<T>, NoInfer<Out>>>;
  submitting: boolean;
}) {
  // Every T has these names; react-hook-form cannot tell for a generic T.
  const name = (key: ShopPlaceName) => key as Path<T>;
  return (
    <>
      <TextField
        label="Location"
        placeholder="e.g. Unit G-04, beside the main atrium"
        {...field(name('location'))}
      />
      <div className="grid gap-5 sm:grid-cols-2">
        <TextField label="Contact" placeholder="Phone or email" {...field(name('contact'))} />
        <TextField
          label="Opening Hours"
          placeholder="e.g. 10:00 – 22:00 daily"
          {...field(name('openingHours'))}
        />
      </div>
      <StructuredHoursField
        value={(form.watch(name('hours')) as OpeningHours | null | undefined) ?? null}
        onChange={(hours) =>
          form.setValue(name('hours'), hours as PathValue<T, Path<T>>, { shouldDirty: true })
        }
        freeText={(form.watch(name('openingHours')) as string | null | undefined) ?? ''}
        disabled={submitting}
        showErrors={form.formState.submitCount > 0}
      />
    </>
  );
}
