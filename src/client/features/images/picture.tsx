// An uploaded image as shoppers see it, or the name's monogram when there is none (docs/decisions/020).
import { imageSrcSet, monogram, parseImageKey } from '../../../shared/images';
import { cn } from '../../lib/cn';

interface PictureProps {
  /** The image's key; null or undefined: the monogram. */
  image: string | null | undefined;
  /** The shop's or product's name: the alt text, and the monogram's letters. */
  name: string;
  /** How wide the image is shown, for the browser's choice of variant ("4rem", "(min-width: 640px) 50vw, 100vw"). */
  sizes: string;
  /** Above the fold: load at once; otherwise lazily. */
  eager?: boolean;
  /** The box (size, rounding); the image covers it, keeping its proportions. */
  className?: string;
  /** `contain` for logos and plans (never cropped), `cover` for photos. */
  fit?: 'cover' | 'contain';
  /** Beside the name in the same link or option: hidden from assistive technology (no name said twice). */
  decorative?: boolean;
}

export function Picture({
  image,
  name,
  sizes,
  eager = false,
  className,
  fit = 'cover',
  decorative = false,
}: PictureProps) {
  const ref = parseImageKey(image);
  if (!ref) return <Monogram name={name} className={className} decorative={decorative} />;
  // why: width and height from the key, so the box is reserved before the bytes arrive (no layout shift)
  return (
    <picture className={cn('block overflow-hidden bg-slate-100', className)}>
      <source type="image/avif" srcSet={imageSrcSet(ref, 'avif')} sizes={sizes} />
      <img
        src={`/api/images/${ref.key}/480.webp`}
        srcSet={imageSrcSet(ref, 'webp')}
        sizes={sizes}
        width={ref.width}
        height={ref.height}
        alt={decorative ? '' : name}
        loading={eager ? 'eager' : 'lazy'}
        // why: an image above the fold is often the page's largest paint (a shop's cover): ask for it first
        fetchPriority={eager ? 'high' : undefined}
        decoding="async"
        className={cn('size-full', fit === 'contain' ? 'object-contain' : 'object-cover')}
      />
    </picture>
  );
}

const preloaded = new Set<string>();

/**
 * Asks for an image above the fold as soon as its key is known (a screen's reads have answered), not
 * once the screen has rendered: `<link rel="preload">` with the same AVIF candidates and `sizes` as the
 * <Picture> that will show it, so the browser picks the same file and the picture finds it loaded.
 * Browsers without AVIF skip the hint (its `type`) and load the picture's WebP as before.
 */
export function preloadPicture(image: string | null | undefined, sizes: string): void {
  const ref = parseImageKey(image);
  if (!ref || preloaded.has(`${ref.key} ${sizes}`) || typeof document === 'undefined') return;
  preloaded.add(`${ref.key} ${sizes}`);
  const link = document.createElement('link');
  link.rel = 'preload';
  link.as = 'image';
  link.type = 'image/avif';
  link.imageSrcset = imageSrcSet(ref, 'avif');
  link.imageSizes = sizes;
  link.fetchPriority = 'high';
  document.head.append(link);
}

/** The name's initials in a tinted box: a tidy stand-in for a missing logo or photo. */
export function Monogram({
  name,
  className,
  decorative = false,
}: {
  name: string;
  className?: string;
  decorative?: boolean;
}) {
  const hue = [...name].reduce((sum, char) => (sum * 31 + (char.codePointAt(0) ?? 0)) % 360, 7);
  return (
    <span
      {...(decorative ? { 'aria-hidden': true } : { role: 'img', 'aria-label': name })}
      className={cn(
        'flex items-center justify-center overflow-hidden font-semibold tracking-wide select-none',
        MONOGRAM_TINTS[hue % MONOGRAM_TINTS.length],
        className,
      )}
    >
      <span aria-hidden="true">{monogram(name)}</span>
    </span>
  );
}

// why: fixed classes (Tailwind sees them in the source), each with a contrast ratio above 4.5:1
const MONOGRAM_TINTS = [
  'bg-indigo-100 text-indigo-800',
  'bg-emerald-100 text-emerald-800',
  'bg-amber-100 text-amber-900',
  'bg-rose-100 text-rose-800',
  'bg-sky-100 text-sky-800',
  'bg-violet-100 text-violet-800',
];
