// An admin's list of categories or of floors: add, rename inline, delete (refused while shops use one).
// Floors also have a level, which orders them (docs/decisions/018): set when adding (or one above the
// highest when left empty) and changed inline. Categories also have a store type for search engines
// (docs/decisions/034): chosen when adding ("Store" unless changed) and changed inline.
import { type UseQueryResult, useQuery } from '@tanstack/react-query';
import { Map as MapIcon, Plus } from 'lucide-react';
import { type FormEvent, type KeyboardEvent, useRef, useState } from 'react';
import { Link } from 'react-router';
import { toast } from 'sonner';
import type { StoreType } from '../../../shared/mall-profile';
import {
  FLOOR_LEVEL_MAX,
  FLOOR_LEVEL_MIN,
  FloorLevel,
  levelLabel,
  type Place,
  PlaceInput,
} from '../../../shared/place';
import { RowActions } from '../../components/admin-page';
import { Button, buttonClass, UpdateCancel } from '../../components/ui/button';
import { ConfirmDialog } from '../../components/ui/confirm-dialog';
import { SelectField, TextField } from '../../components/ui/form-field';
import { ListPanel } from '../../components/ui/panel';
import { QueryView, SkeletonList } from '../../components/ui/query-states';
import { ApiError, errorMessage } from '../../lib/api';
import { constraintAttributes, fieldConstraints } from '../../lib/schema-fields';
import { useCan } from '../../lib/use-can';
import { useConfirmedDelete } from '../../lib/use-confirmed-delete';
import {
  categoriesQuery,
  floorsQuery,
  type PlaceKind,
  useCreatePlace,
  useDeletePlace,
  useUpdatePlace,
} from './api';
import { STORE_TYPE_CHOICES, STORE_TYPE_LABEL } from './store-types';

interface PlaceListProps {
  kind: PlaceKind;
  /** 'Categories' */
  title: string;
  /** 'Category' */
  label: string;
}

/** The name's limit and messages, from the shared schema. */
const NAME = fieldConstraints(PlaceInput, 'name');
const nameAttributes = constraintAttributes({ ...NAME, required: false });

/** Validates a typed name with the shared schema: the trimmed name, or the message to show. */
function parseName(name: string): { name: string } | { error: string } {
  const parsed = PlaceInput.safeParse({ name });
  if (parsed.success) return { name: parsed.data.name };
  return { error: parsed.error.issues[0]?.message ?? NAME.messages.required ?? '' };
}

const shopCount = (n: number) => `${n} ${n === 1 ? 'shop' : 'shops'}`;

/** A typed level: undefined when left empty, the number, or the message to show. */
function parseLevel(text: string): { level: number | undefined } | { error: string } {
  if (!text.trim()) return { level: undefined };
  const parsed = FloorLevel.safeParse(Number(text));
  return parsed.success ? { level: parsed.data } : { error: parsed.error.issues[0]?.message ?? '' };
}

/**
 * The server's refusal, under the field it names (a level another floor holds, a store type) or else
 * under the name.
 */
function fieldOf(error: unknown): 'level' | 'schemaType' | 'name' {
  if (error instanceof ApiError && error.fields?.level) return 'level';
  if (error instanceof ApiError && error.fields?.schemaType) return 'schemaType';
  return 'name';
}

/** A category's store type: every schema.org type of the list, by what it reads. */
function StoreTypeSelect({
  label = STORE_TYPE_LABEL,
  value,
  onChange,
  error,
  onKeyDown,
}: {
  label?: string;
  value: StoreType;
  onChange(value: StoreType): void;
  error: string | null;
  onKeyDown?(event: KeyboardEvent<HTMLSelectElement>): void;
}) {
  return (
    <SelectField
      label={label}
      value={value}
      onChange={(event) => onChange(event.target.value as StoreType)}
      onKeyDown={onKeyDown}
      error={error ?? undefined}
    >
      {STORE_TYPE_CHOICES.map((choice) => (
        <option key={choice.value} value={choice.value}>
          {choice.label}
        </option>
      ))}
    </SelectField>
  );
}

const levelAttributes = {
  type: 'number',
  inputMode: 'numeric',
  step: 1,
  min: FLOOR_LEVEL_MIN,
  max: FLOOR_LEVEL_MAX,
} as const;

export function PlaceList({ kind, title, label }: PlaceListProps) {
  // two typed queries, one enabled: a union of the two query options does not type-check.
  const categories = useQuery({ ...categoriesQuery, enabled: kind === 'categories' });
  const floors = useQuery({ ...floorsQuery, enabled: kind === 'floors' });
  const places: UseQueryResult<Place[]> = kind === 'categories' ? categories : floors;
  const create = useCreatePlace(kind);
  const remove = useDeletePlace(kind);
  // a refusal says why: 'Fashion is used by 3 shops. Move them to another category first.'
  const deleting = useConfirmedDelete<Place>(remove, `${label} deleted`);
  const { target } = deleting;
  const can = useCan();
  const may = (action: 'create' | 'update' | 'delete') =>
    can(action, kind === 'categories' ? 'category' : 'floor');
  const [name, setName] = useState('');
  const [addError, setAddError] = useState<string | null>(null);
  const [level, setLevel] = useState('');
  const [levelError, setLevelError] = useState<string | null>(null);
  const [schemaType, setSchemaType] = useState<StoreType>('Store');
  const [schemaTypeError, setSchemaTypeError] = useState<string | null>(null);
  const isFloor = kind === 'floors';
  const [editingId, setEditingId] = useState<string | null>(null);
  const editButtons = useRef(new Map<string, HTMLButtonElement>());
  const nameInput = useRef<HTMLInputElement>(null);

  function stopEditing(id: string) {
    setEditingId(null);
    // the editor's input is gone; keyboard users continue from the item's Edit button.
    requestAnimationFrame(() => editButtons.current.get(id)?.focus());
  }

  async function add(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    // The spec: adding is ignored when the trimmed name is empty.
    if (!name.trim() || create.isPending) return;
    const parsed = parseName(name);
    if ('error' in parsed) {
      setAddError(parsed.error);
      return;
    }
    setAddError(null);
    const parsedLevel = isFloor ? parseLevel(level) : { level: undefined };
    if ('error' in parsedLevel) {
      setLevelError(parsedLevel.error);
      return;
    }
    setLevelError(null);
    setSchemaTypeError(null);
    try {
      const input = isFloor
        ? parsedLevel.level === undefined
          ? { name: parsed.name }
          : { name: parsed.name, level: parsedLevel.level }
        : { name: parsed.name, schemaType };
      await create.mutateAsync(input);
      toast.success(`${label} added`);
      setName('');
      setLevel('');
      setSchemaType('Store');
    } catch (error) {
      const field = fieldOf(error);
      if (field === 'level') setLevelError(errorMessage(error));
      else if (field === 'schemaType') setSchemaTypeError(errorMessage(error));
      else setAddError(errorMessage(error));
    } finally {
      // the Add button was disabled while saving, which dropped focus to the page: back to the name
      // field, ready for the next one (or to correct this one, its error read with it).
      requestAnimationFrame(() => nameInput.current?.focus());
    }
  }

  return (
    <ListPanel
      title={title}
      header={
        may('create') ? (
          <form noValidate onSubmit={add} className="mt-3 flex flex-wrap items-start gap-2">
            <div className="min-w-0 flex-1 basis-40">
              <TextField
                ref={nameInput}
                label={`New ${label.toLowerCase()} name`}
                placeholder={`Add ${label}`}
                value={name}
                onChange={(event) => {
                  setName(event.target.value);
                  setAddError(null);
                }}
                error={addError ?? undefined}
                autoComplete="off"
                {...nameAttributes}
              />
            </div>
            {isFloor ? (
              <div className="w-24 shrink-0">
                <TextField
                  label="Level"
                  placeholder="Next"
                  value={level}
                  onChange={(event) => {
                    setLevel(event.target.value);
                    setLevelError(null);
                  }}
                  error={levelError ?? undefined}
                  {...levelAttributes}
                />
              </div>
            ) : (
              // why: beside the name where the section is wide, under it where it is not
              <div className="min-w-0 flex-1 basis-48">
                <StoreTypeSelect
                  value={schemaType}
                  onChange={(value) => {
                    setSchemaType(value);
                    setSchemaTypeError(null);
                  }}
                  error={schemaTypeError}
                />
              </div>
            )}
            {/* why: a floor's lines the button up with the inputs, under their labels; a category's two
                fields leave no room beside them, so its button starts the next line */}
            <div className={isFloor ? 'mt-6.5 shrink-0' : 'basis-full'}>
              <Button type="submit" className="py-2.5" disabled={create.isPending}>
                <Plus aria-hidden="true" className="size-4" />
                Add {label}
              </Button>
            </div>
          </form>
        ) : null
      }
    >
      <QueryView
        query={places}
        errorClassName="p-5"
        loading={
          // why: as many rows as fill the list's 400 px, the height of a list of 7 or more
          <SkeletonList count={7} className="max-h-[400px] divide-y divide-slate-100 overflow-hidden">
            <div className="flex h-16 items-center px-5">
              <span className="block h-4 w-40 animate-pulse rounded bg-slate-200" />
            </div>
          </SkeletonList>
        }
        isEmpty={(data) => data.length === 0}
        empty={<p className="p-5 text-sm text-slate-500">No {title.toLowerCase()} yet.</p>}
      >
        {(data) => (
          <ul aria-label={title} className="max-h-[400px] divide-y divide-slate-100 overflow-y-auto">
            {data.map((place) => (
              <li key={place.id} className="min-h-16 px-5 py-3">
                {editingId === place.id ? (
                  <PlaceEditor kind={kind} label={label} place={place} onDone={() => stopEditing(place.id)} />
                ) : (
                  <div className="flex items-center gap-3">
                    <div className="min-w-0 flex-1">
                      <p className="truncate font-medium text-slate-900">{place.name}</p>
                      <p className="text-xs text-slate-500">
                        {'level' in place && typeof place.level === 'number' ? (
                          <>
                            <span>{levelLabel(place.level)}</span> ·{' '}
                          </>
                        ) : null}
                        {/* why: its own element, so "3 shops" reads (and is found) as one piece */}
                        <span>{shopCount(place.shopCount)}</span>
                      </p>
                    </div>
                    <RowActions
                      name={place.name}
                      onEdit={may('update') ? () => setEditingId(place.id) : undefined}
                      editRef={(button) => {
                        if (button) editButtons.current.set(place.id, button);
                        else editButtons.current.delete(place.id);
                      }}
                      onDelete={may('delete') ? () => deleting.ask(place) : undefined}
                      deleting={remove.isPending && remove.variables === place.id}
                    >
                      {isFloor && may('update') ? (
                        // The floor's plan and its pins (docs/decisions/021).
                        <Link
                          to={`/admin/floors/${place.id}/plan`}
                          className={buttonClass('secondary', 'sm', 'max-sm:p-2.5')}
                        >
                          <MapIcon aria-hidden="true" className="size-4" />
                          <span className="max-sm:sr-only">Plan</span>
                          <span className="sr-only"> of {place.name}</span>
                        </Link>
                      ) : null}
                    </RowActions>
                  </div>
                )}
              </li>
            ))}
          </ul>
        )}
      </QueryView>

      <ConfirmDialog
        open={target !== null}
        title={target ? `Delete ${target.name}?` : ''}
        description={<p>This cannot be undone.</p>}
        pending={remove.isPending}
        onConfirm={deleting.confirm}
        onCancel={deleting.cancel}
      />
    </ListPanel>
  );
}

interface PlaceEditorProps {
  kind: PlaceKind;
  label: string;
  place: Place;
  onDone(): void;
}

/**
 * Inline rename: Enter (or Update) saves, Escape (or Cancel) leaves the name as it was. A floor's level
 * and a category's store type are changed here too.
 */
function PlaceEditor({ kind, label, place, onDone }: PlaceEditorProps) {
  const update = useUpdatePlace(kind);
  const [name, setName] = useState(place.name);
  const [error, setError] = useState<string | null>(null);
  const currentLevel = 'level' in place && typeof place.level === 'number' ? place.level : undefined;
  const [level, setLevel] = useState(currentLevel === undefined ? '' : String(currentLevel));
  const [levelError, setLevelError] = useState<string | null>(null);
  const currentType =
    kind === 'categories' && 'schemaType' in place ? (place.schemaType as StoreType) : undefined;
  const [schemaType, setSchemaType] = useState<StoreType>(currentType ?? 'Store');
  const [schemaTypeError, setSchemaTypeError] = useState<string | null>(null);

  async function save(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (update.isPending) return;
    const parsed = parseName(name);
    if ('error' in parsed) {
      setError(parsed.error);
      return;
    }
    const parsedLevel = currentLevel === undefined ? { level: undefined } : parseLevel(level);
    if ('error' in parsedLevel) {
      setLevelError(parsedLevel.error);
      return;
    }
    // A floor keeps its level when the field is emptied.
    const newLevel = parsedLevel.level === currentLevel ? undefined : parsedLevel.level;
    const newType = currentType === undefined || schemaType === currentType ? undefined : schemaType;
    if (parsed.name === place.name && newLevel === undefined && newType === undefined) {
      onDone();
      return;
    }
    try {
      const input = {
        name: parsed.name,
        ...(newLevel === undefined ? {} : { level: newLevel }),
        ...(newType === undefined ? {} : { schemaType: newType }),
      };
      await update.mutateAsync({ id: place.id, input });
      toast.success(`${label} updated`);
      onDone();
    } catch (caught) {
      const field = fieldOf(caught);
      if (field === 'level') setLevelError(errorMessage(caught));
      else if (field === 'schemaType') setSchemaTypeError(errorMessage(caught));
      else setError(errorMessage(caught));
    }
  }

  function onKeyDown(event: KeyboardEvent<HTMLInputElement | HTMLSelectElement>) {
    if (event.key === 'Escape') {
      // Escape belongs to this editor; the admin drawer listens for it on the document too.
      event.stopPropagation();
      event.preventDefault();
      onDone();
    }
  }

  return (
    <form noValidate onSubmit={save} className="space-y-2">
      <TextField
        label={`Rename ${place.name}`}
        value={name}
        onChange={(event) => {
          setName(event.target.value);
          setError(null);
        }}
        onKeyDown={onKeyDown}
        error={error ?? undefined}
        autoComplete="off"
        autoFocus
        {...nameAttributes}
      />
      {currentLevel === undefined ? null : (
        <div className="w-32">
          <TextField
            label={`Level of ${place.name}`}
            value={level}
            onChange={(event) => {
              setLevel(event.target.value);
              setLevelError(null);
            }}
            onKeyDown={onKeyDown}
            error={levelError ?? undefined}
            {...levelAttributes}
          />
        </div>
      )}
      {currentType === undefined ? null : (
        <StoreTypeSelect
          label={`Store type of ${place.name} (for search engines)`}
          value={schemaType}
          onChange={(value) => {
            setSchemaType(value);
            setSchemaTypeError(null);
          }}
          onKeyDown={onKeyDown}
          error={schemaTypeError}
        />
      )}
      <UpdateCancel saving={update.isPending} onCancel={onDone} />
    </form>
  );
}
