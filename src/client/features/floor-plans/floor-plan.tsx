// The shoppers' view of a floor's plan (docs/decisions/021): every pinned shop a link to its page, every
// pinned amenity named; on a shop's page that shop's pin highlighted and the others dimmed.
import { Store } from 'lucide-react';
import { useCallback, useRef } from 'react';
import { Link } from 'react-router';
import type { FloorGuideEntry } from '../../../shared/amenity';
import { AMENITY_LABELS } from '../../../shared/floors';
import { cn } from '../../lib/cn';
import { useDirectoryArea } from '../../lib/directory-area';
import { countHit } from '../../lib/insights';
import { AmenityIcon } from '../amenities';
import { PlanViewer, pinStyle } from './plan-viewer';

/**
 * Calls `onSeen` once, when half of the element has been on screen (a floor plan opened: insights).
 * Returns the ref callback for the element.
 */
function useSeenOnce(onSeen: () => void): (element: HTMLElement | null) => void {
  const done = useRef(false);
  const latest = useRef(onSeen);
  latest.current = onSeen;
  return useCallback((element: HTMLElement | null) => {
    if (!element || done.current || typeof IntersectionObserver === 'undefined') return;
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((entry) => entry.isIntersecting) && !done.current) {
          done.current = true;
          latest.current();
          observer.disconnect();
        }
      },
      { threshold: 0.5 },
    );
    observer.observe(element);
    return () => observer.disconnect();
  }, []);
}

const PIN =
  'group absolute z-10 flex size-7 items-center sm:size-8 justify-center rounded-full border-2 border-white shadow-md focus-visible:outline-3 focus-visible:outline-offset-2 focus-visible:outline-indigo-600';
const TIP =
  'pointer-events-none absolute bottom-full left-1/2 mb-1 -translate-x-1/2 rounded-md bg-slate-900 px-2 py-1 text-xs font-medium whitespace-nowrap text-white';

export interface FloorPlanProps {
  floor: FloorGuideEntry;
  /** The shop to point out ("Find it on …"): its pin stands out, the others are dimmed. */
  highlight?: string;
}

export function FloorPlan({ floor, highlight }: FloorPlanProps) {
  const area = useDirectoryArea();
  const seen = useSeenOnce(() => countHit({ kind: 'floor_plan', id: floor.id }));
  if (!floor.planImage) return null;
  const dim = highlight !== undefined;
  return (
    <div ref={seen}>
      <PlanViewer image={floor.planImage} label={`Plan of ${floor.name}`}>
        {floor.amenities.map((amenity) =>
          amenity.pin ? (
            <span
              key={amenity.id}
              role="img"
              aria-label={`${AMENITY_LABELS[amenity.kind]}, amenity`}
              title={AMENITY_LABELS[amenity.kind]}
              className={cn('absolute z-0', dim && 'opacity-40')}
              style={pinStyle(amenity.pin.x, amenity.pin.y)}
            >
              <AmenityIcon
                kind={amenity.kind}
                className="size-5! border border-indigo-200 shadow-sm sm:size-7! [&_svg]:size-3 sm:[&_svg]:size-4"
              />
            </span>
          ) : null,
        )}
        {floor.shops.map((shop) => {
          if (!shop.pin) return null;
          const here = shop.id === highlight;
          return (
            <Link
              key={shop.id}
              to={area.shop(shop)}
              aria-label={`${shop.name}, shop`}
              aria-current={here ? 'location' : undefined}
              data-pin={shop.id}
              className={cn(
                PIN,
                here
                  ? 'z-20 size-9 bg-rose-600 sm:size-10 text-white ring-4 ring-rose-300'
                  : 'bg-indigo-600 text-white',
                dim && !here && 'opacity-40 hover:opacity-100 focus-visible:opacity-100',
              )}
              style={pinStyle(shop.pin.x, shop.pin.y)}
            >
              <Store aria-hidden="true" className={here ? 'size-5' : 'size-4'} />
              <span
                aria-hidden="true"
                className={cn(TIP, here ? 'block' : 'hidden group-hover:block group-focus-visible:block')}
              >
                {shop.name}
              </span>
            </Link>
          );
        })}
      </PlanViewer>
    </div>
  );
}
