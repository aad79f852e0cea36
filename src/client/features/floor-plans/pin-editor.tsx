// The admin's pin placement on a floor's plan (docs/decisions/021). Choose a shop or amenity from the
// list, then click or tap the plan where it is; by keyboard, "Place at the centre" puts the pin on the
// plan and focuses it, the arrow keys move it (Shift: ten times further), Enter saves. Nothing is sent
// until Save: all the moved pins go in one request, all or nothing.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { MapPin, Store } from 'lucide-react';
import { type KeyboardEvent, useEffect, useId, useMemo, useRef, useState } from 'react';
import { toast } from 'sonner';
import { AMENITY_LABELS, type FloorGuideEntry } from '../../../shared/amenity';
import { type Pin, type PinKind, type PinPlacement, pinText } from '../../../shared/floor-plan';
import { Button } from '../../components/ui/button';
import { api, errorMessage } from '../../lib/api';
import { cn } from '../../lib/cn';
import { queryKeys } from '../../lib/query-keys';
import { AmenityIcon } from '../amenities';
import { PlanViewer, pinStyle } from './plan-viewer';

interface Item {
  key: string;
  kind: PinKind;
  id: string;
  name: string;
  detail: string;
  pin: Pin | null;
}

/** A step of the arrow keys: half a percent of the plan; with Shift, five percent. */
const STEP = 0.005;
const round = (value: number) => Math.round(Math.min(1, Math.max(0, value)) * 1000) / 1000;

function itemsOf(floor: FloorGuideEntry): Item[] {
  return [
    ...floor.shops.map((shop) => ({
      key: `shop ${shop.id}`,
      kind: 'shop' as const,
      id: shop.id,
      name: shop.name,
      detail: shop.location || 'Location not listed',
      pin: shop.pin,
    })),
    ...floor.amenities.map((amenity) => ({
      key: `amenity ${amenity.id}`,
      kind: 'amenity' as const,
      id: amenity.id,
      name: AMENITY_LABELS[amenity.kind],
      detail: amenity.location || 'Location not listed',
      pin: amenity.pin,
    })),
  ];
}

export function useSavePins(floorId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (pins: PinPlacement[]) =>
      api<FloorGuideEntry>(`/api/floors/${floorId}/pins`, { method: 'PUT', body: { pins } }),
    onSuccess: (entry) => {
      // The saved pins at once (no flash of the old ones before the guide is read again).
      queryClient.setQueryData<FloorGuideEntry[]>(queryKeys.floorGuide, (floors) =>
        floors?.map((floor) => (floor.id === entry.id ? entry : floor)),
      );
      return Promise.all(
        [queryKeys.floorGuide, queryKeys.shops, queryKeys.audit].map((queryKey) =>
          queryClient.invalidateQueries({ queryKey }),
        ),
      );
    },
  });
}

export function PinEditor({ floor, initial }: { floor: FloorGuideEntry; initial?: string }) {
  const items = useMemo(() => itemsOf(floor), [floor]);
  const [drafts, setDrafts] = useState(new Map<string, Pin | null>());
  const [selected, setSelected] = useState<string | null>(() => {
    const found = items.find((item) => item.id === initial);
    return found ? found.key : (items[0]?.key ?? null);
  });
  const [error, setError] = useState<string | null>(null);
  const save = useSavePins(floor.id);
  const pinButtons = useRef(new Map<string, HTMLButtonElement>());
  const focusAfter = useRef<string | null>(null);
  const listId = useId();

  useEffect(() => {
    if (!focusAfter.current) return;
    pinButtons.current.get(focusAfter.current)?.focus();
    focusAfter.current = null;
  });

  const pinOf = (item: Item) => (drafts.has(item.key) ? (drafts.get(item.key) ?? null) : item.pin);
  const current = items.find((item) => item.key === selected) ?? null;
  const changed = [...drafts.entries()].filter(([key, pin]) => {
    const item = items.find((candidate) => candidate.key === key);
    return item && pinText(item.pin) !== pinText(pin);
  });

  function place(key: string, pin: Pin | null) {
    setError(null);
    setDrafts((previous) => new Map(previous).set(key, pin && { x: round(pin.x), y: round(pin.y) }));
  }

  async function submit() {
    if (changed.length === 0 || save.isPending) return;
    setError(null);
    const pins = changed.map(([key, pin]) => {
      const [kind, id] = key.split(' ') as [PinKind, string];
      return { kind, id, pin };
    });
    try {
      await save.mutateAsync(pins);
      setDrafts(new Map());
      toast.success(pins.length === 1 ? 'Pin saved' : `${pins.length} pins saved`);
    } catch (failure) {
      setError(errorMessage(failure));
    }
  }

  function onPinKey(event: KeyboardEvent<HTMLButtonElement>, item: Item) {
    const pin = pinOf(item);
    if (!pin) return;
    const step = event.shiftKey ? STEP * 10 : STEP;
    const moves: Record<string, [number, number]> = {
      ArrowLeft: [-step, 0],
      ArrowRight: [step, 0],
      ArrowUp: [0, -step],
      ArrowDown: [0, step],
    };
    const move = moves[event.key];
    if (move) {
      event.preventDefault();
      place(item.key, { x: pin.x + move[0], y: pin.y + move[1] });
    } else if (event.key === 'Enter') {
      event.preventDefault();
      void submit();
    }
  }

  if (!floor.planImage) return null;
  return (
    <div className="grid gap-6 lg:grid-cols-[minmax(0,18rem)_minmax(0,1fr)]">
      <fieldset className="min-w-0">
        <legend className="text-sm font-medium text-slate-900">Choose what to place</legend>
        <p id={listId} className="mt-1 text-sm text-slate-600">
          Then click or tap the plan, or place it at the centre and move it with the arrow keys.
        </p>
        <ul className="mt-3 max-h-[28rem] space-y-1 overflow-y-auto pr-1">
          {items.map((item) => {
            const pin = pinOf(item);
            return (
              <li key={item.key}>
                <label
                  className={cn(
                    'flex min-h-11 cursor-pointer items-center gap-3 rounded-lg border px-3 py-2 text-sm',
                    selected === item.key ? 'border-indigo-500 bg-indigo-50' : 'border-slate-200 bg-white',
                  )}
                >
                  <input
                    type="radio"
                    name={`pin-target-${floor.id}`}
                    className="size-4 accent-indigo-600"
                    checked={selected === item.key}
                    onChange={() => setSelected(item.key)}
                    aria-describedby={listId}
                  />
                  {item.kind === 'shop' ? (
                    <Store aria-hidden="true" className="size-4 shrink-0 text-indigo-700" />
                  ) : (
                    <AmenityIcon kind={amenityKind(floor, item.id)} className="size-6" />
                  )}
                  <span className="min-w-0 flex-1">
                    <span className="block font-medium wrap-anywhere text-slate-900">{item.name}</span>
                    <span className="block text-xs text-slate-600">
                      {pin ? `Placed: ${pinText(pin)}` : 'Not placed'}
                      {drafts.has(item.key) && pinText(pin) !== pinText(item.pin) ? ' · not saved' : ''}
                    </span>
                  </span>
                </label>
              </li>
            );
          })}
        </ul>
      </fieldset>
      <div className="min-w-0 space-y-3">
        <PlanViewer
          image={floor.planImage}
          label={`Plan of ${floor.name}: click to place ${current?.name ?? 'a pin'}`}
          onPlace={(x, y) => {
            if (current) place(current.key, { x, y });
          }}
        >
          {items.map((item) => {
            const pin = pinOf(item);
            if (!pin) return null;
            const active = item.key === selected;
            return (
              <button
                key={item.key}
                type="button"
                ref={(button) => {
                  if (button) pinButtons.current.set(item.key, button);
                  else pinButtons.current.delete(item.key);
                }}
                aria-label={`${item.name} pin, ${pinText(pin)}.${active ? ' Arrow keys move it, Enter saves.' : ' Select to move it.'}`}
                onClick={() => setSelected(item.key)}
                onKeyDown={(event) => (active ? onPinKey(event, item) : undefined)}
                className={cn(
                  'absolute flex size-7 items-center justify-center rounded-full border-2 border-white shadow-md sm:size-8 focus-visible:outline-3 focus-visible:outline-offset-2 focus-visible:outline-indigo-600',
                  active ? 'z-20 bg-rose-600 text-white ring-4 ring-rose-300' : 'z-10',
                  !active &&
                    (item.kind === 'shop' ? 'bg-indigo-600 text-white' : 'bg-emerald-600 text-white'),
                )}
                style={pinStyle(pin.x, pin.y)}
              >
                <MapPin aria-hidden="true" className="size-4" />
              </button>
            );
          })}
        </PlanViewer>
        <div className="flex flex-wrap items-center gap-2">
          <Button onClick={() => void submit()} disabled={changed.length === 0 || save.isPending}>
            {save.isPending ? 'Saving…' : changed.length > 1 ? `Save ${changed.length} pins` : 'Save pins'}
          </Button>
          <Button
            variant="secondary"
            disabled={!current || save.isPending}
            onClick={() => {
              if (!current) return;
              place(current.key, pinOf(current) ?? { x: 0.5, y: 0.5 });
              focusAfter.current = current.key;
            }}
          >
            {current && pinOf(current) ? `Move ${current.name} by keyboard` : 'Place at the centre'}
          </Button>
          <Button
            variant="ghost"
            disabled={!current || !pinOf(current) || save.isPending}
            onClick={() => current && place(current.key, null)}
          >
            Remove pin
          </Button>
          <Button
            variant="ghost"
            disabled={drafts.size === 0 || save.isPending}
            onClick={() => {
              setDrafts(new Map());
              setError(null);
            }}
          >
            Undo changes
          </Button>
        </div>
        {error ? (
          <p role="alert" className="text-sm text-red-700">
            {error}
          </p>
        ) : null}
      </div>
    </div>
  );
}

function amenityKind(floor: FloorGuideEntry, id: string) {
  return floor.amenities.find((amenity) => amenity.id === id)?.kind ?? 'information-desk';
}
