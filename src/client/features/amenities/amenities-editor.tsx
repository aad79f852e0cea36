// The admin's list of amenities per floor (Categories & Floors screen): add, change inline, delete after
// a confirmation. Shoppers see them on the Floors page.
import { useQuery } from '@tanstack/react-query';
import { Plus } from 'lucide-react';
import { type ChangeEvent, type FormEvent, type KeyboardEvent, useState } from 'react';
import { toast } from 'sonner';
import { AMENITY_KINDS, AMENITY_LABELS, type Amenity, AmenityInput } from '../../../shared/amenity';
import { type Floor, levelLabel } from '../../../shared/place';
import { RowActions } from '../../components/admin-page';
import { Button, UpdateCancel } from '../../components/ui/button';
import { ConfirmDialog } from '../../components/ui/confirm-dialog';
import { ChoiceOptions, SelectField, TextField } from '../../components/ui/form-field';
import { ListPanel } from '../../components/ui/panel';
import { QueryView, SkeletonList } from '../../components/ui/query-states';
import { ApiError, errorMessage } from '../../lib/api';
import { constraintAttributes, fieldConstraints } from '../../lib/schema-fields';
import { useCan } from '../../lib/use-can';
import { useConfirmedDelete } from '../../lib/use-confirmed-delete';
import { floorsQuery } from '../places';
import { AmenityIcon } from './amenity-icon';
import { amenitiesQuery, useCreateAmenity, useDeleteAmenity, useUpdateAmenity } from './api';

const locationAttributes = constraintAttributes({
  ...fieldConstraints(AmenityInput, 'location'),
  required: false,
});

type Fields = { floorId: string; kind: string; location: string };
type Errors = Partial<Record<keyof Fields, string>>;

/** The shared schema's verdict: the input to send, or a message per field. */
function validate(fields: Fields): { input: AmenityInput } | { errors: Errors } {
  const parsed = AmenityInput.safeParse(fields);
  if (parsed.success) return { input: parsed.data };
  const errors: Errors = {};
  for (const issue of parsed.error.issues) {
    const field = issue.path[0] as keyof Fields;
    errors[field] ??= issue.message;
  }
  return { errors };
}

/** The server's refusal under the field it names, or under the kind. */
function serverErrors(error: unknown): Errors {
  const fields = error instanceof ApiError ? error.fields : undefined;
  if (fields?.floorId) return { floorId: fields.floorId };
  if (fields?.location) return { location: fields.location };
  return { kind: errorMessage(error) };
}

const KIND_CHOICES = AMENITY_KINDS.map((kind) => ({ id: kind, name: AMENITY_LABELS[kind] }));

const amenityName = (amenity: Amenity) => `${AMENITY_LABELS[amenity.kind]} (${amenity.floor})`;

export function AmenitiesPanel() {
  const floors = useQuery(floorsQuery);
  const amenities = useQuery(amenitiesQuery);
  const remove = useDeleteAmenity();
  const deleting = useConfirmedDelete<Amenity>(remove, 'Amenity deleted');
  const [editingId, setEditingId] = useState<string | null>(null);
  const can = useCan();

  return (
    <ListPanel
      title="Amenities"
      description="Restrooms, lifts, ATMs and more on each floor. Shoppers see them on the Floors page."
      header={
        can('create', 'amenity') && floors.data && floors.data.length > 0 ? (
          <AddAmenity floors={floors.data} />
        ) : null
      }
    >
      <QueryView
        query={amenities}
        needs={[floors]}
        errorClassName="p-5"
        loading={
          <SkeletonList count={4} className="divide-y divide-slate-100" label="Loading amenities">
            <div className="flex h-16 items-center px-5">
              <span className="block h-4 w-48 animate-pulse rounded bg-slate-200" />
            </div>
          </SkeletonList>
        }
        isEmpty={(data) => data.length === 0}
        empty={
          <p className="p-5 text-sm text-slate-500">
            {floors.data?.length === 0 ? 'Add a floor first, then its amenities.' : 'No amenities yet.'}
          </p>
        }
      >
        {(data) => (
          <div className="divide-y divide-slate-100">
            {(floors.data ?? []).map((floor) => {
              const onFloor = data.filter((amenity) => amenity.floorId === floor.id);
              if (onFloor.length === 0) return null;
              return (
                <div key={floor.id} className="px-5 py-4">
                  <h3 className="text-sm font-semibold text-slate-700">
                    {floor.name}{' '}
                    <span className="font-normal text-slate-500">· {levelLabel(floor.level)}</span>
                  </h3>
                  <ul aria-label={`Amenities on ${floor.name}`} className="mt-2 space-y-2">
                    {onFloor.map((amenity) => (
                      <li key={amenity.id}>
                        {editingId === amenity.id ? (
                          <EditAmenity
                            amenity={amenity}
                            floors={floors.data ?? []}
                            onDone={() => setEditingId(null)}
                          />
                        ) : (
                          <div className="flex items-center gap-3">
                            <AmenityIcon kind={amenity.kind} />
                            <div className="min-w-0 flex-1">
                              <p className="text-sm font-medium text-slate-900">
                                {AMENITY_LABELS[amenity.kind]}
                              </p>
                              <p className="truncate text-xs text-slate-500">
                                {amenity.location || 'No location given'}
                              </p>
                            </div>
                            <RowActions
                              name={amenityName(amenity)}
                              onEdit={can('update', 'amenity') ? () => setEditingId(amenity.id) : undefined}
                              onDelete={can('delete', 'amenity') ? () => deleting.ask(amenity) : undefined}
                              deleting={remove.isPending && remove.variables === amenity.id}
                            />
                          </div>
                        )}
                      </li>
                    ))}
                  </ul>
                </div>
              );
            })}
          </div>
        )}
      </QueryView>
      <ConfirmDialog
        open={deleting.target !== null}
        title={deleting.target ? `Delete ${amenityName(deleting.target)}?` : ''}
        description={<p>Shoppers will no longer see it on the Floors page. This cannot be undone.</p>}
        pending={remove.isPending}
        onConfirm={deleting.confirm}
        onCancel={deleting.cancel}
      />
    </ListPanel>
  );
}

function AmenityFields({
  fields,
  errors,
  floors,
  onChange,
  onKeyDown,
  labelSuffix = '',
}: {
  fields: Fields;
  errors: Errors;
  floors: Floor[];
  onChange(fields: Fields): void;
  onKeyDown?(event: KeyboardEvent<HTMLElement>): void;
  labelSuffix?: string;
}) {
  /** What a field's control needs: its label, value, change, Escape and message. */
  const bind = (name: keyof Fields, label: string) => ({
    label: `${label}${labelSuffix}`,
    value: fields[name],
    onChange: (event: ChangeEvent<HTMLInputElement | HTMLSelectElement>) =>
      onChange({ ...fields, [name]: event.target.value }),
    onKeyDown,
    error: errors[name],
  });
  return (
    <>
      <div className="min-w-0 basis-full sm:basis-40 sm:flex-1">
        <SelectField {...bind('floorId', 'Floor')}>
          <ChoiceOptions placeholder="Select floor" choices={floors} />
        </SelectField>
      </div>
      <div className="min-w-0 basis-full sm:basis-40 sm:flex-1">
        <SelectField {...bind('kind', 'Kind')}>
          <ChoiceOptions placeholder="Select kind" choices={KIND_CHOICES} />
        </SelectField>
      </div>
      <div className="min-w-0 basis-full sm:flex-[2]">
        <TextField
          {...bind('location', 'Location')}
          placeholder="e.g. Beside the lifts"
          autoComplete="off"
          {...locationAttributes}
        />
      </div>
    </>
  );
}

/**
 * An amenity form's fields and messages, and its submit: checked with the shared schema, then `send`;
 * the server's refusal goes under the field it names. A change clears the messages.
 */
function useAmenityForm(initial: Fields, pending: boolean, send: (input: AmenityInput) => Promise<void>) {
  const [fields, setFields] = useState<Fields>(initial);
  const [errors, setErrors] = useState<Errors>({});

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (pending) return;
    const checked = validate(fields);
    if ('errors' in checked) {
      setErrors(checked.errors);
      return;
    }
    setErrors({});
    try {
      await send(checked.input);
    } catch (error) {
      setErrors(serverErrors(error));
    }
  }

  function change(next: Fields) {
    setFields(next);
    setErrors({});
  }

  return { fields, setFields, errors, change, submit };
}

const NO_FIELDS: Fields = { floorId: '', kind: '', location: '' };

function AddAmenity({ floors }: { floors: Floor[] }) {
  const create = useCreateAmenity();
  const form = useAmenityForm(NO_FIELDS, create.isPending, async (input) => {
    await create.mutateAsync(input);
    toast.success('Amenity added');
    // The next one is often on the same floor.
    form.setFields({ ...NO_FIELDS, floorId: form.fields.floorId });
  });

  return (
    <form
      noValidate
      onSubmit={form.submit}
      aria-label="Add an amenity"
      className="mt-4 flex flex-wrap items-start gap-3"
    >
      <AmenityFields fields={form.fields} errors={form.errors} floors={floors} onChange={form.change} />
      <Button type="submit" className="shrink-0 py-2.5 sm:mt-6.5" disabled={create.isPending}>
        <Plus aria-hidden="true" className="size-4" />
        Add Amenity
      </Button>
    </form>
  );
}

function EditAmenity({ amenity, floors, onDone }: { amenity: Amenity; floors: Floor[]; onDone(): void }) {
  const update = useUpdateAmenity();
  const { floorId, kind, location } = amenity;
  const form = useAmenityForm({ floorId, kind, location }, update.isPending, async (input) => {
    await update.mutateAsync({ id: amenity.id, input });
    toast.success('Amenity updated');
    onDone();
  });

  function onKeyDown(event: KeyboardEvent<HTMLElement>) {
    if (event.key === 'Escape') {
      // Escape belongs to this editor; the admin drawer listens for it on the document too.
      event.stopPropagation();
      event.preventDefault();
      onDone();
    }
  }

  return (
    <form
      noValidate
      onSubmit={form.submit}
      aria-label={`Edit ${amenityName(amenity)}`}
      className="flex flex-wrap items-start gap-3 rounded-xl bg-slate-50 p-3"
    >
      <AmenityFields
        fields={form.fields}
        errors={form.errors}
        floors={floors}
        onChange={form.change}
        onKeyDown={onKeyDown}
        labelSuffix={` of ${AMENITY_LABELS[amenity.kind].toLowerCase()}`}
      />
      <UpdateCancel saving={update.isPending} onCancel={onDone} className="basis-full" />
    </form>
  );
}
