// A floor's plan with its pins (docs/decisions/021): zoom by buttons (+, −, reset) or by pinching, pan by
// dragging once zoomed. The plan and the pins move together by one CSS transform; pins keep their size
// (they are counter-scaled) and stay links and buttons, reachable by Tab.
import { Minus, Plus, RotateCcw } from 'lucide-react';
import { type CSSProperties, type PointerEvent, type ReactNode, useRef, useState } from 'react';
import { imageSrcSet, parseImageKey } from '../../../shared/images';
import { Button } from '../../components/ui/button';
import { cn } from '../../lib/cn';

export const MIN_ZOOM = 1;
export const MAX_ZOOM = 4;
const STEP = 1.5;

interface View {
  scale: number;
  x: number;
  y: number;
}
const HOME: View = { scale: 1, x: 0, y: 0 };

const clamp = (value: number, low: number, high: number) => Math.min(high, Math.max(low, value));

/** Keeps the zoomed plan covering its frame: no empty band at any edge. */
function contain(view: View, width: number, height: number): View {
  const scale = clamp(view.scale, MIN_ZOOM, MAX_ZOOM);
  return {
    scale,
    x: clamp(view.x, width - width * scale, 0),
    y: clamp(view.y, height - height * scale, 0),
  };
}

/** Zooms to `scale` keeping the frame's point (px, py) where it is. */
function zoomAround(view: View, scale: number, px: number, py: number, width: number, height: number): View {
  const next = clamp(scale, MIN_ZOOM, MAX_ZOOM);
  const ratio = next / view.scale;
  return contain(
    { scale: next, x: px - (px - view.x) * ratio, y: py - (py - view.y) * ratio },
    width,
    height,
  );
}

export interface PlanViewerProps {
  /** The plan's image key. */
  image: string;
  /** "Plan of First Floor": names the figure. */
  label: string;
  /** The pins, placed by the caller with <PlanPin>. */
  children?: ReactNode;
  /** Called with the fractions (0–1) of a click or tap on the plan that was not a drag. */
  onPlace?(x: number, y: number): void;
  className?: string;
}

export function PlanViewer({ image, label, children, onPlace, className }: PlanViewerProps) {
  const ref = parseImageKey(image);
  const frame = useRef<HTMLDivElement>(null);
  const layer = useRef<HTMLDivElement>(null);
  const [view, setView] = useState<View>(HOME);
  const pointers = useRef(new Map<number, { x: number; y: number }>());
  const gesture = useRef<{
    start: View;
    distance: number;
    midX: number;
    midY: number;
    moved: boolean;
  } | null>(null);
  const dragged = useRef(false);

  if (!ref) return null;
  const size = () => {
    const box = frame.current?.getBoundingClientRect();
    return { width: box?.width ?? 1, height: box?.height ?? 1, left: box?.left ?? 0, top: box?.top ?? 0 };
  };
  const zoomBy = (factor: number) => {
    const { width, height } = size();
    setView((current) => zoomAround(current, current.scale * factor, width / 2, height / 2, width, height));
  };

  function beginGesture() {
    const points = [...pointers.current.values()];
    const { left, top } = size();
    const [a, b] = points;
    if (!a) return;
    const distance = b ? Math.hypot(a.x - b.x, a.y - b.y) : 0;
    const midX = (b ? (a.x + b.x) / 2 : a.x) - left;
    const midY = (b ? (a.y + b.y) / 2 : a.y) - top;
    gesture.current = { start: view, distance, midX, midY, moved: gesture.current?.moved ?? false };
  }

  function onPointerDown(event: PointerEvent<HTMLDivElement>) {
    if (event.pointerType === 'mouse' && event.button !== 0) return;
    pointers.current.set(event.pointerId, { x: event.clientX, y: event.clientY });
    if (pointers.current.size === 1) dragged.current = false;
    beginGesture();
  }

  function onPointerMove(event: PointerEvent<HTMLDivElement>) {
    if (!pointers.current.has(event.pointerId)) return;
    pointers.current.set(event.pointerId, { x: event.clientX, y: event.clientY });
    const current = gesture.current;
    if (!current) return;
    const points = [...pointers.current.values()];
    const { width, height, left, top } = size();
    const [a, b] = points;
    if (!a) return;
    const midX = (b ? (a.x + b.x) / 2 : a.x) - left;
    const midY = (b ? (a.y + b.y) / 2 : a.y) - top;
    const dx = midX - current.midX;
    const dy = midY - current.midY;
    if (!current.moved && Math.hypot(dx, dy) < 6 && !b) return;
    if (!current.moved) {
      current.moved = true;
      dragged.current = true;
      // why: keep receiving moves when the finger or mouse leaves the frame mid-gesture
      frame.current?.setPointerCapture(event.pointerId);
    }
    const start = current.start;
    if (b && current.distance > 0) {
      const scale = start.scale * (Math.hypot(a.x - b.x, a.y - b.y) / current.distance);
      const zoomed = zoomAround(start, scale, current.midX, current.midY, width, height);
      setView(contain({ ...zoomed, x: zoomed.x + dx, y: zoomed.y + dy }, width, height));
    } else if (start.scale > 1) {
      setView(contain({ ...start, x: start.x + dx, y: start.y + dy }, width, height));
    }
  }

  function onPointerUp(event: PointerEvent<HTMLDivElement>) {
    const wasTap = pointers.current.size === 1 && !gesture.current?.moved;
    pointers.current.delete(event.pointerId);
    if (pointers.current.size === 0) gesture.current = null;
    else beginGesture();
    if (wasTap && onPlace && event.target === layer.current?.querySelector('img')) {
      const box = layer.current?.getBoundingClientRect();
      if (!box) return;
      onPlace(
        clamp((event.clientX - box.left) / box.width, 0, 1),
        clamp((event.clientY - box.top) / box.height, 0, 1),
      );
    }
  }

  const zoomed = view.scale > 1;
  return (
    <figure className={cn('max-w-3xl space-y-2', className)}>
      <figcaption className="sr-only">{label}</figcaption>
      <div className="flex items-center justify-end gap-1">
        <span className="mr-auto text-xs text-slate-500" aria-live="polite">
          {zoomed ? `Zoom ${Math.round(view.scale * 100)}%` : 'Pinch or use the buttons to zoom'}
        </span>
        {(
          [
            ['Zoom in', Plus, () => zoomBy(STEP), view.scale >= MAX_ZOOM],
            ['Zoom out', Minus, () => zoomBy(1 / STEP), !zoomed],
            ['Reset zoom', RotateCcw, () => setView(HOME), !zoomed],
          ] as const
        ).map(([name, Icon, onClick, disabled]) => (
          <Button
            key={name}
            variant="secondary"
            size="sm"
            className="size-10 p-0"
            onClick={onClick}
            disabled={disabled}
            aria-label={name}
          >
            <Icon aria-hidden="true" className="size-4" />
          </Button>
        ))}
      </div>
      {/* why: pinch, drag and click-to-place are pointer shortcuts; the zoom buttons, the pins' links and the admin's arrow keys do the same by keyboard */}
      <div
        ref={frame}
        data-testid="plan-frame"
        className={cn(
          'relative overflow-hidden rounded-xl border border-slate-200 bg-slate-100 select-none',
          onPlace ? 'cursor-crosshair' : zoomed && 'cursor-grab',
        )}
        style={{ aspectRatio: `${ref.width} / ${ref.height}`, touchAction: zoomed ? 'none' : 'pan-y' }}
        onPointerDown={onPointerDown}
        onPointerMove={onPointerMove}
        onPointerUp={onPointerUp}
        onPointerCancel={onPointerUp}
        onClickCapture={(event) => {
          // A drag that ends on a pin is not a click on it.
          if (dragged.current) {
            event.preventDefault();
            event.stopPropagation();
            dragged.current = false;
          }
        }}
      >
        <div
          ref={layer}
          className="absolute inset-0 origin-top-left"
          style={
            {
              transform: `translate(${view.x}px, ${view.y}px) scale(${view.scale})`,
              '--pin-scale': 1 / view.scale,
            } as CSSProperties
          }
        >
          <picture>
            <source
              type="image/avif"
              srcSet={imageSrcSet(ref, 'avif')}
              sizes="(min-width: 1024px) 60rem, 100vw"
            />
            <img
              src={`/api/images/${ref.key}/1200.webp`}
              srcSet={imageSrcSet(ref, 'webp')}
              sizes="(min-width: 1024px) 60rem, 100vw"
              width={ref.width}
              height={ref.height}
              alt=""
              draggable={false}
              loading="lazy"
              decoding="async"
              className="size-full object-contain"
            />
          </picture>
          {children}
        </div>
      </div>
    </figure>
  );
}

/** Where a pin goes on the plan: its point at (x, y), the same size whatever the zoom. */
export function pinStyle(x: number, y: number): CSSProperties {
  return {
    left: `${x * 100}%`,
    top: `${y * 100}%`,
    transform: 'translate(-50%, -50%) scale(var(--pin-scale, 1))',
  };
}
