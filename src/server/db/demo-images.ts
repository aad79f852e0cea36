// The demo mall's pictures (issue 16): drawn here as SVG — colours from the shop's name, its initials,
// a pictogram per category — and put through the same pipeline as an upload (sharp: decode, variants,
// content-addressed key), so a new user sees logos, covers and product photos at once. No file is
// downloaded or shipped: every picture is made from this code. Each distinct picture is made once
// (a logo per shop, a cover per category, a photo per category and tint) and shared by key; the sizes
// are what the screens need (a 240 px logo, a 960 px cover, a 320 px photo), which keeps the seed fast.
import sharp from 'sharp';
import { monogram } from '../../shared/images';
import type { ProcessedImage } from '../modules/images/pipeline';
import { processImage } from '../modules/images/pipeline';
import type { ImageStore } from '../modules/images/store';
import type { Db } from './client';
import type { LargeMallPictures } from './large-mall';

type Transaction = Parameters<Parameters<Db['transaction']>[0]>[0];

/** A number from a text that stays the same from run to run (the demo is the same on every machine). */
export function textHash(text: string): number {
  let hash = 2_166_136_261;
  for (const char of text) hash = Math.imul(hash ^ (char.codePointAt(0) ?? 0), 16_777_619) >>> 0;
  return hash;
}

const escapeXml = (text: string) => text.replace(/[&<>"']/g, (char) => `&#${char.codePointAt(0)};`);

/** Pictograms on a 100 × 100 grid, one per demo category; anything else gets a shopping bag. */
const PICTOGRAMS: Record<string, string> = {
  Fashion:
    '<path d="M31 18 L42 13 Q50 22 58 13 L69 18 L85 33 L75 45 L68 39 L68 87 L32 87 L32 39 L25 45 L15 33 Z"/>',
  Electronics:
    '<rect x="32" y="10" width="36" height="80" rx="7"/><rect x="37" y="18" width="26" height="56" rx="2" fill-opacity=".35" fill="#fff"/><circle cx="50" cy="82" r="3.5" fill="#fff" fill-opacity=".5"/>',
  'Food & Dining':
    '<path d="M22 40 H70 V62 Q70 84 46 84 Q22 84 22 62 Z"/><path d="M70 46 Q86 46 84 58 Q82 68 68 68" fill="none" stroke-width="6"/><path d="M36 30 Q32 22 38 16 M48 30 Q44 22 50 16 M60 30 Q56 22 62 16" fill="none" stroke-width="4" stroke-linecap="round"/>',
  'Home & Living':
    '<path d="M30 14 H70 L80 46 H20 Z"/><rect x="47" y="46" width="6" height="32"/><rect x="32" y="78" width="36" height="8" rx="4"/>',
  'Beauty & Health':
    '<rect x="42" y="10" width="16" height="14" rx="3"/><rect x="45" y="24" width="10" height="10"/><rect x="30" y="34" width="40" height="54" rx="10"/><rect x="38" y="50" width="24" height="20" rx="3" fill="#fff" fill-opacity=".4"/>',
  'Sports & Outdoors':
    '<circle cx="50" cy="50" r="36"/><path d="M14 50 Q50 34 86 50 M50 14 Q34 50 50 86 M50 14 Q66 50 50 86" fill="none" stroke="#fff" stroke-opacity=".55" stroke-width="4"/>',
  'Books & Stationery':
    '<path d="M16 22 Q33 16 49 24 V84 Q33 76 16 82 Z"/><path d="M84 22 Q67 16 51 24 V84 Q67 76 84 82 Z" fill-opacity=".75"/>',
  'Kids & Toys':
    '<rect x="14" y="52" width="34" height="34" rx="4"/><rect x="52" y="52" width="34" height="34" rx="4" fill-opacity=".75"/><rect x="33" y="16" width="34" height="34" rx="4" fill-opacity=".55"/>',
};
const BAG =
  '<path d="M24 34 H76 L72 88 H28 Z"/><path d="M38 34 V26 Q50 10 62 26 V34" fill="none" stroke-width="6"/>';

const hsl = (hue: number, saturation: number, lightness: number) =>
  `hsl(${hue % 360},${saturation}%,${lightness}%)`;

/** A shop's logo: its initials in white on a colour of its own, with a ring from its category. */
export function logoSvg(name: string): string {
  const hash = textHash(name);
  const hue = hash % 360;
  const letters = escapeXml(monogram(name));
  const shape = hash % 3;
  const motif =
    shape === 0
      ? '<circle cx="160" cy="160" r="118" fill="none" stroke="#fff" stroke-opacity=".35" stroke-width="10"/>'
      : shape === 1
        ? '<rect x="44" y="44" width="232" height="232" rx="36" fill="none" stroke="#fff" stroke-opacity=".35" stroke-width="10"/>'
        : '<path d="M160 34 L286 160 L160 286 L34 160 Z" fill="none" stroke="#fff" stroke-opacity=".35" stroke-width="10"/>';
  return (
    '<svg xmlns="http://www.w3.org/2000/svg" width="240" height="240" viewBox="0 0 320 320">' +
    `<defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="${hsl(hue, 62, 42)}"/>` +
    `<stop offset="1" stop-color="${hsl(hue + 28, 58, 30)}"/></linearGradient></defs>` +
    `<rect width="320" height="320" fill="url(#g)"/>${motif}` +
    `<text x="160" y="160" dy="0.35em" text-anchor="middle" font-family="DejaVu Sans, Liberation Sans, Arial, sans-serif" font-weight="700" font-size="${letters.length > 1 ? 112 : 140}" fill="#fff">${letters}</text>` +
    '</svg>'
  );
}

/** A category's cover: a wide gradient with soft circles and its pictogram, large and faint. */
export function coverSvg(category: string): string {
  const hue = textHash(category) % 360;
  const pictogram = PICTOGRAMS[category] ?? BAG;
  const circles = [0, 1, 2, 3, 4]
    .map((i) => {
      const seed = textHash(`${category} ${i}`);
      return `<circle cx="${seed % 1200}" cy="${(seed >> 10) % 450}" r="${80 + ((seed >> 20) % 160)}" fill="#fff" fill-opacity=".${(seed % 6) + 6}"/>`;
    })
    .join('');
  return (
    '<svg xmlns="http://www.w3.org/2000/svg" width="960" height="360" viewBox="0 0 1200 450">' +
    `<defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="${hsl(hue, 55, 62)}"/>` +
    `<stop offset="1" stop-color="${hsl(hue + 40, 50, 36)}"/></linearGradient></defs>` +
    `<rect width="1200" height="450" fill="url(#g)"/><g opacity=".5">${circles}</g>` +
    `<g transform="translate(820 60) scale(3.3)" fill="#fff" stroke="#fff" fill-opacity=".28" stroke-opacity=".28">${pictogram}</g>` +
    '</svg>'
  );
}

/** Tints a product photo comes in; the product's name picks one, so neighbours differ. */
export const PHOTO_TINTS = 1;

/** A product photo: its category's pictogram on a light backdrop with a shadow, in one of the tints. */
export function photoSvg(category: string, tint: number): string {
  const hue = (textHash(category) % 360) + tint * 47;
  const pictogram = PICTOGRAMS[category] ?? BAG;
  return (
    '<svg xmlns="http://www.w3.org/2000/svg" width="320" height="320" viewBox="0 0 400 400">' +
    `<defs><radialGradient id="g" cx=".5" cy=".4" r=".75"><stop offset="0" stop-color="${hsl(hue, 40, 97)}"/>` +
    `<stop offset="1" stop-color="${hsl(hue, 35, 84)}"/></radialGradient></defs>` +
    '<rect width="400" height="400" fill="url(#g)"/>' +
    `<ellipse cx="200" cy="338" rx="120" ry="16" fill="${hsl(hue, 30, 40)}" fill-opacity=".25"/>` +
    `<g transform="translate(70 60) scale(2.6)" fill="${hsl(hue, 55, 42)}" stroke="${hsl(hue, 55, 42)}">${pictogram}</g>` +
    '</svg>'
  );
}

/** An SVG as an upload would arrive: a PNG (the pipeline refuses SVG), then the pipeline itself. */
async function render(svg: string): Promise<ProcessedImage> {
  const png = await sharp(Buffer.from(svg)).png({ compressionLevel: 1 }).toBuffer();
  return processImage(png);
}

export interface DemoShopPictures {
  name: string;
  category: string;
  products: readonly string[];
}

export interface DemoPictures {
  /** Every distinct picture, once. */
  all: ProcessedImage[];
  logo(shop: string): string;
  cover(category: string): string;
  photo(category: string, product: string): string;
  /** Within the demo's transaction, before the rows that refer to them: the pictures' rows and variants. */
  save(tx: Transaction, store: ImageStore): Promise<void>;
}

/**
 * Draws and processes the pictures of these shops: a logo each, a cover per category, a photo per
 * category and tint. Runs before the demo's transaction (processing never holds the database).
 */
export async function renderDemoPictures(shops: readonly DemoShopPictures[]): Promise<DemoPictures> {
  const jobs = new Map<string, Promise<ProcessedImage>>();
  const once = (id: string, svg: () => string) => {
    let job = jobs.get(id);
    if (!job) {
      job = render(svg());
      jobs.set(id, job);
    }
    return id;
  };
  const tintOf = (product: string) => textHash(product) % PHOTO_TINTS;
  for (const shop of shops) {
    once(`logo ${shop.name}`, () => logoSvg(shop.name));
    once(`cover ${shop.category}`, () => coverSvg(shop.category));
    for (const product of shop.products) {
      const tint = tintOf(product);
      once(`photo ${shop.category} ${tint}`, () => photoSvg(shop.category, tint));
    }
  }
  const done = new Map<string, ProcessedImage>();
  await Promise.all([...jobs].map(async ([id, job]) => done.set(id, await job)));
  const key = (id: string) => {
    const image = done.get(id);
    if (!image) throw new Error(`No demo picture for ${id}`);
    return image.key;
  };
  const all = [...new Map([...done.values()].map((image) => [image.key, image])).values()];
  return {
    all,
    logo: (shop) => key(`logo ${shop}`),
    cover: (category) => key(`cover ${category}`),
    photo: (category, product) => key(`photo ${category} ${tintOf(product)}`),
    async save(tx, store) {
      // why: the demo mall is not an audited change (as its rows are not), so it writes outside performWrite
      for (const image of all) await store.save(tx as Parameters<ImageStore['save']>[0], image);
    },
  };
}

/** A logo with no letters (the large mall's shops share a few): a category's pictogram on a colour. */
export function markSvg(category: string): string {
  const hue = textHash(`mark ${category}`) % 360;
  return (
    '<svg xmlns="http://www.w3.org/2000/svg" width="240" height="240" viewBox="0 0 100 100">' +
    `<rect width="100" height="100" fill="${hsl(hue, 55, 38)}"/>` +
    `<g transform="translate(22 22) scale(.56)" fill="#fff" stroke="#fff">${PICTOGRAMS[category] ?? BAG}</g>` +
    '</svg>'
  );
}

/**
 * The large mall's pictures (npm run seed:large): eight logos, eight covers and eight photos, one per
 * demo category, shared by its 2,000 shops and 200,000 products, so pages and benches carry images.
 */
export async function renderLargeMallPictures(store: ImageStore): Promise<LargeMallPictures> {
  const categories = Object.keys(PICTOGRAMS);
  const [logos, covers, photos] = await Promise.all([
    Promise.all(categories.map((category) => render(markSvg(category)))),
    Promise.all(categories.map((category) => render(coverSvg(category)))),
    Promise.all(categories.map((category) => render(photoSvg(category, 0)))),
  ]);
  const all = [...new Map([...logos, ...covers, ...photos].map((image) => [image.key, image])).values()];
  return {
    logos: logos.map((image) => image.key),
    covers: covers.map((image) => image.key),
    photos: photos.map((image) => image.key),
    async save(tx) {
      for (const image of all) await store.save(tx as Parameters<ImageStore['save']>[0], image);
    },
  };
}
