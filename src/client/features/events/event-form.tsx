// An event's form (issue 35): the mall office's (any shop, or the mall's own) and a shop manager's (their
// shop fixed; sent for approval). The fields are plain text, dates, times and choices; the repeat rule
// and the tags are put together into the API's shape on submit, and the server's messages come back
// under the fields they name.

import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { useWatch } from 'react-hook-form';
import { z } from 'zod';
import { AMENITY_LABELS } from '../../../shared/amenity';
import {
  EVENT_LIMITS,
  EVENT_PLACE_KINDS,
  EVENT_STATUSES,
  type EventInput,
  type ReviewedEvent,
} from '../../../shared/event';
import { WEEKDAYS } from '../../../shared/hours-core';
import { EntityForm, useEntityForm } from '../../components/entity-form';
import { SelectField, ShopField, TextAreaField, TextField } from '../../components/ui/form-field';
import { amenitiesQuery } from '../amenities';
import { floorsQuery } from '../places';
import { settingsQuery } from '../settings';
import { useCreateEvent, useUpdateEvent } from './api';

const DAY_LABELS: Record<(typeof WEEKDAYS)[number], string> = {
  mon: 'Mon',
  tue: 'Tue',
  wed: 'Wed',
  thu: 'Thu',
  fri: 'Fri',
  sat: 'Sat',
  sun: 'Sun',
};
const PLACE_LABELS: Record<(typeof EVENT_PLACE_KINDS)[number], string> = {
  mall: 'The whole mall',
  floor: 'A floor',
  amenity: 'An amenity',
  shop: 'A shop',
};

/** What the form holds: text as typed; the API's shape is made on submit (toInput). */
const EventFormValues = z.object({
  title: z
    .string()
    .trim()
    .min(1, 'Title is required')
    .max(EVENT_LIMITS.title, `Title must be at most ${EVENT_LIMITS.title} characters`),
  description: z
    .string()
    .max(EVENT_LIMITS.description, `Description must be at most ${EVENT_LIMITS.description} characters`),
  shopId: z.string(),
  placeKind: z.enum(EVENT_PLACE_KINDS),
  placeId: z.string(),
  allDay: z.boolean(),
  startDate: z.string().min(1, 'Start date is required'),
  startTime: z.string(),
  endDate: z.string().min(1, 'End date is required'),
  endTime: z.string(),
  tags: z.string().max(300, 'Too many tags'),
  repeat: z.enum(['none', 'weekly', 'monthly']),
  days: z.array(z.enum(WEEKDAYS)),
  until: z.string(),
  count: z.string().regex(/^\d*$/, 'Number of times must be a whole number'),
  except: z.string(),
  status: z.enum(EVENT_STATUSES),
});
type Values = z.infer<typeof EventFormValues>;

function toInput(values: Values, fixedShopId: string | undefined): EventInput {
  const list = (text: string) =>
    text
      .split(/[,\s]+/)
      .map((part) => part.trim())
      .filter(Boolean);
  return {
    title: values.title,
    description: values.description,
    shopId: fixedShopId ?? (values.shopId || null),
    placeKind: values.placeKind,
    placeId: values.placeKind === 'mall' ? null : values.placeId || null,
    allDay: values.allDay,
    startDate: values.startDate,
    startTime: values.allDay ? null : values.startTime || null,
    endDate: values.endDate,
    endTime: values.allDay ? null : values.endTime || null,
    tags: list(values.tags.toLowerCase()),
    repeat:
      values.repeat === 'none'
        ? null
        : {
            freq: values.repeat,
            ...(values.repeat === 'weekly' && values.days.length > 0 ? { days: values.days } : {}),
            until: values.until || null,
            count: values.count ? Number(values.count) : null,
            except: list(values.except),
          },
    status: values.status,
  };
}

interface EventFormProps {
  event: ReviewedEvent | undefined;
  /** The mall's date: a new event's start date. */
  today: string;
  shops: ReadonlyArray<{ id: string; name: string }>;
  floors: ReadonlyArray<{ id: string; name: string }>;
  amenities: ReadonlyArray<{ id: string; label: string }>;
  listPath: string;
  /** A shop manager's form: the event's shop, not to change. */
  fixedShop?: { id: string; name: string };
  note?: ReactNode;
  done?: { created: string; updated: string };
  submitLabel?: string;
}

export function EventForm({
  event,
  today,
  shops,
  floors,
  amenities,
  listPath,
  fixedShop,
  note,
  done,
  submitLabel,
}: EventFormProps) {
  const { form, field, formProps } = useEntityForm({
    schema: EventFormValues,
    record: event,
    defaultValues: {
      title: event?.title ?? '',
      description: event?.description ?? '',
      shopId: event?.shopId ?? fixedShop?.id ?? '',
      placeKind: event?.place.kind ?? (fixedShop ? 'shop' : 'mall'),
      placeId: event?.place.id ?? fixedShop?.id ?? '',
      allDay: event?.allDay ?? false,
      startDate: event?.startDate ?? today,
      startTime: event?.startTime ?? '10:00',
      endDate: event?.endDate ?? today,
      endTime: event?.endTime ?? '12:00',
      tags: event?.tags.join(', ') ?? '',
      repeat: event?.repeat?.freq ?? 'none',
      days: event?.repeat?.days ?? [],
      until: event?.repeat?.until ?? '',
      count: event?.repeat?.count ? String(event.repeat.count) : '',
      except: event?.repeat?.except?.join(', ') ?? '',
      status: event?.status ?? 'scheduled',
    },
    // The API takes EventInput, made from the form's values by toInput below.
    create: useCreateEvent() as never,
    update: useUpdateEvent() as never,
    noun: 'Event',
    listPath,
    toInput: (values: Values) => toInput(values, fixedShop?.id) as never,
    done,
  });
  const [placeKind, allDay, repeat, startDate] = useWatch({
    control: form.control,
    name: ['placeKind', 'allDay', 'repeat', 'startDate'],
  });
  const places =
    placeKind === 'floor'
      ? floors
      : placeKind === 'amenity'
        ? amenities.map((a) => ({ id: a.id, name: a.label }))
        : shops;

  return (
    <EntityForm {...formProps} submitLabel={submitLabel ?? formProps.submitLabel}>
      {note}
      <TextField label="Title" {...field('title')} />
      <TextAreaField label="Description" {...field('description')} />
      {fixedShop ? (
        <ShopField shops={[]} fixedShop={fixedShop} />
      ) : (
        <SelectField label="Organized by" {...field('shopId')}>
          <option value="">The mall</option>
          {shops.map((shop) => (
            <option key={shop.id} value={shop.id}>
              {shop.name}
            </option>
          ))}
        </SelectField>
      )}
      <div className="grid gap-5 sm:grid-cols-2">
        <SelectField label="Where" {...field('placeKind')}>
          {EVENT_PLACE_KINDS.map((kind) => (
            <option key={kind} value={kind}>
              {PLACE_LABELS[kind]}
            </option>
          ))}
        </SelectField>
        {placeKind !== 'mall' ? (
          <SelectField label="Place" {...field('placeId')}>
            <option value="">Choose…</option>
            {places.map((place) => (
              <option key={place.id} value={place.id}>
                {place.name}
              </option>
            ))}
          </SelectField>
        ) : null}
      </div>
      <label className="flex min-h-10 items-center gap-2 text-sm font-medium text-slate-800">
        <input type="checkbox" className="size-4" {...form.register('allDay')} />
        All day
      </label>
      <div className="grid gap-5 sm:grid-cols-2">
        <TextField label="Start date" type="date" {...field('startDate')} />
        {!allDay ? <TextField label="Start time" type="time" {...field('startTime')} /> : null}
        <TextField label="End date" type="date" min={startDate || undefined} {...field('endDate')} />
        {!allDay ? <TextField label="End time" type="time" {...field('endTime')} /> : null}
      </div>
      <TextField
        label="Tags"
        hint="Lowercase words, separated by commas: kids, late-night"
        {...field('tags')}
      />
      <SelectField label="Repeats" {...field('repeat')}>
        <option value="none">Does not repeat</option>
        <option value="weekly">Weekly</option>
        <option value="monthly">Monthly, on the same day</option>
      </SelectField>
      {repeat === 'weekly' ? (
        <fieldset className="space-y-2">
          <legend className="text-sm font-medium text-slate-800">
            On these days (none: the start's weekday)
          </legend>
          <div className="flex flex-wrap gap-3">
            {WEEKDAYS.map((day) => (
              <label key={day} className="flex min-h-10 items-center gap-1.5 text-sm text-slate-800">
                <input type="checkbox" value={day} className="size-4" {...form.register('days')} />
                {DAY_LABELS[day]}
              </label>
            ))}
          </div>
        </fieldset>
      ) : null}
      {repeat !== 'none' ? (
        <div className="grid gap-5 sm:grid-cols-2">
          <TextField label="Until (date, optional)" type="date" {...field('until')} />
          <TextField label="Or a number of times (optional)" inputMode="numeric" {...field('count')} />
          <TextField
            label="Except on (dates, optional)"
            hint="YYYY-MM-DD, separated by commas"
            {...field('except')}
          />
        </div>
      ) : null}
      <SelectField label="Status" {...field('status')}>
        <option value="scheduled">Scheduled</option>
        <option value="cancelled">Cancelled</option>
      </SelectField>
    </EntityForm>
  );
}

/**
 * What an event's form offers besides shops, read for the office's form and a manager's alike: the
 * floors, the amenities by name ("Toilets, near Gate 2 (Ground)"), and the mall's today for a new event.
 */
export function useEventFormChoices() {
  const floors = useQuery(floorsQuery);
  const amenities = useQuery(amenitiesQuery);
  const settings = useQuery(settingsQuery);
  return {
    reads: [floors, amenities, settings],
    props: {
      today: settings.data?.today ?? '',
      floors: floors.data ?? [],
      amenities: (amenities.data ?? []).map((amenity) => ({
        id: amenity.id,
        label: `${AMENITY_LABELS[amenity.kind]}${amenity.location ? `, ${amenity.location}` : ''} (${amenity.floor})`,
      })),
    },
  };
}
