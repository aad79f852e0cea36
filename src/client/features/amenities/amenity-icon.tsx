// Each kind of amenity with its icon; the icon is decoration, the kind's name is always written beside it.
import {
  Accessibility,
  Baby,
  Banknote,
  BriefcaseMedical,
  GlassWater,
  HandHeart,
  Info,
  type LucideIcon,
  MoveVertical,
  SquareParking,
  Toilet,
  TrendingUp,
  Utensils,
} from 'lucide-react';
import { AMENITY_LABELS, type AmenityKind } from '../../../shared/floors';
import { cn } from '../../lib/cn';

const ICONS: Record<AmenityKind, LucideIcon> = {
  'information-desk': Info,
  restrooms: Toilet,
  'accessible-restroom': Accessibility,
  'baby-care': Baby,
  lift: MoveVertical,
  escalator: TrendingUp,
  atm: Banknote,
  'food-court': Utensils,
  'prayer-room': HandHeart,
  'first-aid': BriefcaseMedical,
  'drinking-water': GlassWater,
  'parking-entrance': SquareParking,
};

export function AmenityIcon({ kind, className }: { kind: AmenityKind; className?: string }) {
  const Icon = ICONS[kind];
  return (
    <span
      className={cn(
        'flex size-8 shrink-0 items-center justify-center rounded-lg bg-indigo-50 text-indigo-700',
        className,
      )}
    >
      <Icon aria-hidden="true" className="size-4" />
    </span>
  );
}

/** One amenity as a shopper reads it: its icon, its kind's name and where it is. */
export function AmenityItem({ kind, location }: { kind: AmenityKind; location: string }) {
  return (
    <div className="flex min-w-0 items-center gap-3">
      <AmenityIcon kind={kind} />
      <div className="min-w-0">
        <p className="text-sm font-medium text-slate-900">{AMENITY_LABELS[kind]}</p>
        {location ? <p className="text-xs wrap-anywhere text-slate-500">{location}</p> : null}
      </div>
    </div>
  );
}
