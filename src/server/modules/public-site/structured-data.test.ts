// The structured data validated (issue 33): a checker built from Google's documented required and
// recommended properties (local business, product snippets) and from schema.org's types and properties
// (a table kept here), run over what the builders make for a full mall and a bare one; then the hours,
// the offers' dates in the mall's time zone (across daylight-saving changes), and the escaping.
import { describe, expect, it } from 'vitest';
import { everyDay } from '../../../shared/hours-core';
import type { MallProfile } from '../../../shared/mall-profile';
import {
  endOfDay,
  type HoursData,
  type JsonLd,
  type JsonLdValue,
  jsonLdScript,
  jsonLdScriptElement,
  mallJsonLd,
  type OfferData,
  offersJsonLd,
  openingHoursSpecification,
  type ProductData,
  type ShopData,
  type Site,
  startOfDay,
  storeJsonLd,
} from './structured-data';

// ---- schema.org, as much of it as the builders may use ----

/**
 * Each type with its parents and the properties it adds (https://schema.org, v28). A property is allowed
 * on a type when the type or one of its ancestors declares it.
 */
const SCHEMA_TYPES: Record<string, { parents: string[]; properties: string[] }> = {
  Thing: {
    parents: [],
    properties: ['name', 'description', 'url', 'image', 'sameAs', 'alternateName', 'identifier'],
  },
  Place: {
    parents: ['Thing'],
    properties: [
      'address',
      'geo',
      'telephone',
      'openingHoursSpecification',
      'containedInPlace',
      'containsPlace',
      'hasMap',
      'logo',
      'photo',
      'keywords',
    ],
  },
  Organization: {
    parents: ['Thing'],
    properties: ['address', 'email', 'telephone', 'logo', 'makesOffer', 'location', 'keywords'],
  },
  LocalBusiness: {
    parents: ['Organization', 'Place'],
    properties: ['openingHours', 'priceRange', 'currenciesAccepted', 'paymentAccepted', 'branchOf'],
  },
  ShoppingCenter: { parents: ['LocalBusiness'], properties: [] },
  Store: { parents: ['LocalBusiness'], properties: [] },
  Intangible: { parents: ['Thing'], properties: [] },
  StructuredValue: { parents: ['Intangible'], properties: [] },
  ContactPoint: { parents: ['StructuredValue'], properties: ['telephone', 'email', 'contactType'] },
  PostalAddress: {
    parents: ['ContactPoint'],
    properties: ['streetAddress', 'addressLocality', 'addressRegion', 'postalCode', 'addressCountry'],
  },
  GeoCoordinates: {
    parents: ['StructuredValue'],
    properties: ['latitude', 'longitude', 'elevation', 'address', 'addressCountry', 'postalCode'],
  },
  OpeningHoursSpecification: {
    parents: ['StructuredValue'],
    properties: ['dayOfWeek', 'opens', 'closes', 'validFrom', 'validThrough'],
  },
  Offer: {
    parents: ['Intangible'],
    properties: [
      'price',
      'priceCurrency',
      'priceSpecification',
      'availability',
      'validFrom',
      'validThrough',
      'itemOffered',
      'seller',
      'offeredBy',
      'category',
    ],
  },
  Product: { parents: ['Thing'], properties: ['offers', 'brand', 'sku', 'category', 'logo'] },
  ItemList: { parents: ['Intangible'], properties: ['itemListElement', 'numberOfItems', 'itemListOrder'] },
  ListItem: { parents: ['Intangible'], properties: ['item', 'position', 'nextItem', 'previousItem'] },
  // Every Store subtype the admin can choose (shared/mall-profile.ts STORE_TYPES), each a schema.org type.
  ...Object.fromEntries(
    [
      'AutoPartsStore',
      'BikeStore',
      'BookStore',
      'ClothingStore',
      'ComputerStore',
      'ConvenienceStore',
      'DepartmentStore',
      'ElectronicsStore',
      'Florist',
      'FurnitureStore',
      'GardenStore',
      'GroceryStore',
      'HardwareStore',
      'HobbyShop',
      'HomeGoodsStore',
      'JewelryStore',
      'LiquorStore',
      'MensClothingStore',
      'MobilePhoneStore',
      'MovieRentalStore',
      'MusicStore',
      'OfficeEquipmentStore',
      'OutletStore',
      'PawnShop',
      'PetStore',
      'ShoeStore',
      'SportingGoodsStore',
      'TireShop',
      'ToyStore',
      'WholesaleStore',
    ].map((type) => [type, { parents: ['Store'], properties: [] }]),
  ),
};

const DAYS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'];
const ITEM_AVAILABILITY = ['InStock', 'InStoreOnly', 'OutOfStock', 'LimitedAvailability', 'OnlineOnly'].map(
  (value) => `https://schema.org/${value}`,
);

type Literal = (value: string | number | boolean) => boolean;
const isText: Literal = (value) => typeof value === 'string' && value.trim() === value && value !== '';
const isUrl: Literal = (value) => {
  if (typeof value !== 'string') return false;
  try {
    const url = new URL(value);
    return (url.protocol === 'https:' || url.protocol === 'http:') && url.href === value;
  } catch {
    return false;
  }
};
const DATE = /^\d{4}-\d{2}-\d{2}$/;
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:Z|[+-]\d{2}:\d{2})$/;

/**
 * What each property takes: schema.org types (a node of that type or a subtype, or a reference by @id)
 * or a literal check. The literal checks are Google's where it is stricter than schema.org (a time as
 * HH:MM, a currency as ISO 4217, an ISO 8601 date).
 */
const RANGES: Record<string, string[] | Literal> = {
  name: isText,
  description: isText,
  url: isUrl,
  image: isUrl,
  logo: isUrl,
  sameAs: isUrl,
  hasMap: isUrl,
  telephone: (value) => isText(value) && /\d/.test(String(value)),
  email: (value) => typeof value === 'string' && /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(value),
  address: ['PostalAddress'],
  geo: ['GeoCoordinates'],
  streetAddress: isText,
  addressLocality: isText,
  addressRegion: isText,
  postalCode: isText,
  addressCountry: (value) => typeof value === 'string' && /^[A-Z]{2}$/.test(value),
  latitude: (value) => typeof value === 'number' && value >= -90 && value <= 90,
  longitude: (value) => typeof value === 'number' && value >= -180 && value <= 180,
  openingHoursSpecification: ['OpeningHoursSpecification'],
  dayOfWeek: (value) => typeof value === 'string' && DAYS.includes(value),
  opens: (value) => typeof value === 'string' && /^(?:[01]\d|2[0-3]):[0-5]\d$/.test(value),
  closes: (value) => typeof value === 'string' && /^(?:[01]\d|2[0-3]):[0-5]\d$/.test(value),
  validFrom: (value) => typeof value === 'string' && (DATE.test(value) || DATE_TIME.test(value)),
  validThrough: (value) => typeof value === 'string' && (DATE.test(value) || DATE_TIME.test(value)),
  containedInPlace: ['Place'],
  containsPlace: ['Place'],
  makesOffer: ['Offer'],
  offers: ['Offer'],
  seller: ['Organization'],
  offeredBy: ['Organization'],
  itemOffered: ['Product'],
  price: (value) => typeof value === 'string' && /^\d+(?:\.\d{1,2})?$/.test(value),
  priceCurrency: (value) => typeof value === 'string' && /^[A-Z]{3}$/.test(value),
  availability: (value) => typeof value === 'string' && ITEM_AVAILABILITY.includes(value),
  itemListElement: ['ListItem'],
  item: ['Thing'],
  position: (value) => Number.isInteger(value) && Number(value) >= 1,
  numberOfItems: (value) => Number.isInteger(value) && Number(value) >= 0,
};

function isA(type: string, ancestor: string): boolean {
  if (type === ancestor) return true;
  return (SCHEMA_TYPES[type]?.parents ?? []).some((parent) => isA(parent, ancestor));
}

function allowedOn(type: string, property: string): boolean {
  const entry = SCHEMA_TYPES[type];
  if (!entry) return false;
  return entry.properties.includes(property) || entry.parents.some((parent) => allowedOn(parent, property));
}

// ---- Google's rules ----

interface GoogleRule {
  /** Applies to nodes of this type and its subtypes. */
  type: string;
  required: string[][];
  recommended: string[];
}

/**
 * From Google Search Central's structured-data guides: local business (required name and address;
 * recommended geo, openingHoursSpecification, telephone, url, image) and product snippets (required name
 * and one of offers, review, aggregateRating; an offer's price and priceCurrency). Each inner list of
 * `required` is satisfied by any one of its properties.
 */
const GOOGLE_RULES: GoogleRule[] = [
  {
    type: 'LocalBusiness',
    required: [['name'], ['address']],
    recommended: ['geo', 'openingHoursSpecification', 'telephone', 'url', 'image'],
  },
  { type: 'Product', required: [['name'], ['offers', 'review', 'aggregateRating']], recommended: ['image'] },
];
/** Within a product snippet, its offers. */
const PRODUCT_OFFER_REQUIRED = ['price', 'priceCurrency'];

interface Report {
  /** Not schema.org as the table has it, or written empty: must never happen. */
  errors: string[];
  /** Google's required properties missing. */
  missingRequired: string[];
  /** Google's recommended properties missing. */
  missingRecommended: string[];
}

function isNode(value: JsonLdValue): value is JsonLd {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function checkJsonLd(data: JsonLd): Report {
  const report: Report = { errors: [], missingRequired: [], missingRecommended: [] };
  const { errors } = report;
  if (data['@context'] !== 'https://schema.org') errors.push('@context: not https://schema.org');
  const graph = data['@graph'];
  const topLevel = Array.isArray(graph) ? graph : [data];
  if (Array.isArray(graph) && Object.keys(data).some((key) => key !== '@context' && key !== '@graph'))
    errors.push('@graph beside other properties');

  const checkNode = (node: JsonLd, path: string, expected: string[] | null, top: boolean) => {
    const type = node['@type'];
    const id = node['@id'];
    if (id !== undefined && !isUrl(id as string)) errors.push(`${path}.@id: not an absolute URL: ${id}`);
    if ('@context' in node && !(top && node === data)) errors.push(`${path}: @context inside`);
    if (type === undefined) {
      // A reference by identifier: nothing but @id, to a node of the expected kind.
      if (id === undefined || Object.keys(node).length !== 1)
        errors.push(`${path}: a node without @type must be a reference ({ "@id" } only)`);
      return;
    }
    if (typeof type !== 'string' || !SCHEMA_TYPES[type]) {
      errors.push(`${path}: @type ${JSON.stringify(type)} is not a schema.org type we know`);
      return;
    }
    if (expected && !expected.some((range) => isA(type, range)))
      errors.push(`${path}: a ${type} where ${expected.join(' or ')} is expected`);
    for (const [property, value] of Object.entries(node)) {
      if (property.startsWith('@')) {
        if (!['@type', '@id', '@context'].includes(property))
          errors.push(`${path}.${property}: unknown keyword`);
        continue;
      }
      if (!allowedOn(type, property)) errors.push(`${path}.${property}: not a property of ${type}`);
      const range = RANGES[property];
      if (!range) {
        errors.push(`${path}.${property}: no range in the test's table`);
        continue;
      }
      const values = Array.isArray(value) ? value : [value];
      if (values.length === 0) errors.push(`${path}.${property}: an empty list`);
      values.forEach((item, index) => {
        const at = Array.isArray(value) ? `${path}.${property}[${index}]` : `${path}.${property}`;
        if (item === null || item === undefined || item === '') errors.push(`${at}: empty`);
        else if (isNode(item)) {
          if (typeof range === 'function') errors.push(`${at}: a node where a literal is expected`);
          else checkNode(item, at, range, false);
        } else if (Array.isArray(item)) errors.push(`${at}: a list in a list`);
        else if (typeof range !== 'function')
          errors.push(`${at}: a literal where a ${range.join('/')} is expected`);
        else if (!range(item)) errors.push(`${at}: ${JSON.stringify(item)} is not a valid ${property}`);
      });
    }
    applyGoogle(node, type, path, top);
  };

  const applyGoogle = (node: JsonLd, type: string, path: string, top: boolean) => {
    for (const rule of GOOGLE_RULES) {
      // Google reads a local business where it is an item of the page; a product wherever it is.
      if (!isA(type, rule.type) || (rule.type === 'LocalBusiness' && !top)) continue;
      for (const anyOf of rule.required)
        if (!anyOf.some((property) => property in node))
          report.missingRequired.push(`${path} (${type}): ${anyOf.join(' or ')}`);
      for (const property of rule.recommended)
        if (!(property in node)) report.missingRecommended.push(`${path} (${type}): ${property}`);
      if (rule.type === 'Product') {
        const offers = node.offers;
        for (const offer of Array.isArray(offers) ? offers : offers ? [offers] : [])
          if (isNode(offer))
            for (const property of PRODUCT_OFFER_REQUIRED)
              if (!(property in offer)) report.missingRequired.push(`${path}.offers: ${property}`);
      }
    }
  };

  topLevel.forEach((node, index) => {
    if (!isNode(node)) errors.push(`@graph[${index}]: not a node`);
    else checkNode(node, Array.isArray(graph) ? `@graph[${index}]` : '$', null, true);
  });
  return report;
}

/** Every value anywhere in the data: none is null, undefined or an empty string (what checkJsonLd also says). */
function emptyValues(value: unknown, path = '$'): string[] {
  if (value === null || value === undefined || value === '') return [path];
  if (Array.isArray(value))
    return value.length === 0
      ? [path]
      : value.flatMap((item, index) => emptyValues(item, `${path}[${index}]`));
  if (typeof value === 'object')
    return Object.entries(value).flatMap(([key, item]) => emptyValues(item, `${path}.${key}`));
  return [];
}

// ---- the malls ----

const KEY_LOGO = `${'L'.repeat(43)}-512x512`;
const KEY_COVER = `${'C'.repeat(43)}-1600x900`;
const KEY_SHOP_LOGO = `${'S'.repeat(43)}-400x400`;
const KEY_PLAN = `${'P'.repeat(43)}-2000x1400`;
const KEY_PRODUCT = `${'R'.repeat(43)}-800x800`;
const BASE = 'https://mall.example.com';

const fullProfile: MallProfile = {
  name: 'Orion Mall',
  streetAddress: '26/1 Dr Rajkumar Road',
  locality: 'Bengaluru',
  region: 'Karnataka',
  postalCode: '560055',
  country: 'IN',
  phone: '+91 80 2268 2222',
  latitude: 13.011,
  longitude: 77.555,
  currency: 'INR',
  logo: KEY_LOGO,
  publicUrl: BASE,
  updatedAt: '2026-11-27T10:00:00.000Z',
};

const bareProfile: MallProfile = {
  name: 'Super Mall',
  streetAddress: '',
  locality: '',
  region: '',
  postalCode: '',
  country: '',
  phone: '',
  latitude: null,
  longitude: null,
  currency: 'INR',
  logo: null,
  publicUrl: '',
  updatedAt: null,
};

const mallHours: HoursData = {
  ...everyDay('10:00', '22:00'),
  special: [
    { date: '2026-12-25', intervals: [] },
    { date: '2026-12-31', intervals: [{ open: '10:00', close: '02:00' }] },
  ],
};

const fullSite: Site = { baseUrl: BASE, profile: fullProfile, mallHours, timeZone: 'Asia/Kolkata' };
const bareSite: Site = {
  baseUrl: 'http://localhost:3000',
  profile: bareProfile,
  mallHours: null,
  timeZone: 'UTC',
};

const pixelPoint: ShopData = {
  slug: 'pixel-point',
  name: 'Pixel Point',
  storeType: 'ElectronicsStore',
  description: 'Phones, laptops and repairs.',
  category: 'Electronics',
  floor: 'First',
  location: 'Unit 112',
  contact: 'Tel: +91 80 4000 1101 · hello@pixelpoint.example · www.pixelpoint.example',
  openingHours: 'Daily 10–22',
  hours: {
    weekly: {
      mon: [{ open: '10:00', close: '21:00' }],
      tue: [{ open: '10:00', close: '21:00' }],
      wed: [{ open: '10:00', close: '21:00' }],
      thu: [{ open: '10:00', close: '21:00' }],
      fri: [{ open: '10:00', close: '21:00' }],
      sat: [{ open: '18:00', close: '03:00' }],
      sun: [],
    },
    special: [{ date: '2026-12-24', intervals: [{ open: '00:00', close: '24:00' }] }],
  },
  logo: KEY_SHOP_LOGO,
  cover: KEY_COVER,
  floorPlan: KEY_PLAN,
};

const bareShop: ShopData = {
  slug: 'shop',
  name: 'Kiosk',
  storeType: 'NotAType',
  description: '',
  contact: '',
  hours: null,
  logo: null,
  cover: null,
};

const offer: OfferData = {
  id: '0b7f3a52-5a59-4e0b-9a57-8d9e6f0c1a11',
  title: 'Winter sale',
  description: 'On every laptop.',
  discount: 15,
  startDate: '2026-12-01',
  endDate: '2026-12-31',
};

const products: ProductData[] = [
  {
    name: 'Laptop 14"',
    description: 'A light one.',
    price: '42990.00',
    offerPrice: '36541.50',
    image: KEY_PRODUCT,
  },
  { name: 'USB cable', price: '199.00', image: null },
];

describe('the checker itself', () => {
  it('catches what it is for: an unknown type, a property the type has not, an empty value, a missing address', () => {
    const report = checkJsonLd({
      '@context': 'https://schema.org',
      '@type': 'Store',
      name: 'X',
      description: '',
      price: '10.00',
      geo: { '@type': 'GeoCoordinates', latitude: 200, longitude: 0 },
      containedInPlace: { '@type': 'Shopping', name: 'Y' },
      image: 'relative/path.webp',
    });
    expect(report.errors).toEqual([
      '$.description: empty',
      '$.price: not a property of Store',
      '$.geo.latitude: 200 is not a valid latitude',
      '$.containedInPlace: @type "Shopping" is not a schema.org type we know',
      '$.image: "relative/path.webp" is not a valid image',
    ]);
    expect(report.missingRequired).toEqual(['$ (Store): address']);
    const product = checkJsonLd({
      '@context': 'https://schema.org',
      '@type': 'Product',
      name: 'P',
      offers: { '@type': 'Offer', price: '1.00' },
    });
    expect(product.missingRequired).toEqual(['$.offers: priceCurrency']);
  });
});

describe('mallJsonLd', () => {
  const shops = [
    { slug: 'pixel-point', name: 'Pixel Point', storeType: 'ElectronicsStore' },
    { slug: 'bean-there', name: 'Bean There', storeType: 'Store' },
  ];

  it('a full mall: a ShoppingCenter with everything Google requires and recommends', () => {
    const data = mallJsonLd(fullSite, shops);
    expect(checkJsonLd(data)).toEqual({ errors: [], missingRequired: [], missingRecommended: [] });
    expect(data).toMatchObject({
      '@type': 'ShoppingCenter',
      '@id': 'https://mall.example.com/#mall',
      name: 'Orion Mall',
      url: 'https://mall.example.com/',
      logo: `https://mall.example.com/api/images/${KEY_LOGO}/1200.webp`,
      telephone: '+91 80 2268 2222',
      address: {
        '@type': 'PostalAddress',
        streetAddress: '26/1 Dr Rajkumar Road',
        addressLocality: 'Bengaluru',
        addressRegion: 'Karnataka',
        postalCode: '560055',
        addressCountry: 'IN',
      },
      geo: { '@type': 'GeoCoordinates', latitude: 13.011, longitude: 77.555 },
      containsPlace: [
        {
          '@type': 'ElectronicsStore',
          '@id': 'https://mall.example.com/shops/pixel-point#store',
          name: 'Pixel Point',
          url: 'https://mall.example.com/shops/pixel-point',
        },
        { '@type': 'Store', '@id': 'https://mall.example.com/shops/bean-there#store' },
      ],
    });
    expect(data.openingHoursSpecification).toEqual([
      { '@type': 'OpeningHoursSpecification', dayOfWeek: DAYS, opens: '10:00', closes: '22:00' },
      {
        '@type': 'OpeningHoursSpecification',
        opens: '00:00',
        closes: '00:00',
        validFrom: '2026-12-25',
        validThrough: '2026-12-25',
      },
      {
        '@type': 'OpeningHoursSpecification',
        opens: '10:00',
        closes: '02:00',
        validFrom: '2026-12-31',
        validThrough: '2026-12-31',
      },
    ]);
  });

  it('a bare mall (no address, position, phone, logo or hours; no shops): valid, nothing written empty', () => {
    const data = mallJsonLd(bareSite, []);
    const report = checkJsonLd(data);
    expect(report.errors).toEqual([]);
    // The one thing Google requires that the mall has not given: it cannot be made up.
    expect(report.missingRequired).toEqual(['$ (ShoppingCenter): address']);
    expect(report.missingRecommended).toEqual([
      '$ (ShoppingCenter): geo',
      '$ (ShoppingCenter): openingHoursSpecification',
      '$ (ShoppingCenter): telephone',
      '$ (ShoppingCenter): image',
    ]);
    expect(emptyValues(data)).toEqual([]);
    expect(data).toEqual({
      '@context': 'https://schema.org',
      '@type': 'ShoppingCenter',
      '@id': 'http://localhost:3000/#mall',
      name: 'Super Mall',
      url: 'http://localhost:3000/',
    });
  });

  it('a partial address keeps the fields given; blank ones are left out', () => {
    const data = mallJsonLd(
      { ...bareSite, profile: { ...bareProfile, locality: 'Pune', country: 'IN', phone: '  ' } },
      [],
    );
    expect(data.address).toEqual({ '@type': 'PostalAddress', addressLocality: 'Pune', addressCountry: 'IN' });
    expect(data).not.toHaveProperty('telephone');
    expect(checkJsonLd(data).errors).toEqual([]);
  });
});

describe('storeJsonLd', () => {
  it('a full shop: its Store subtype in the mall, hours, contact, pictures, plan, offers and products', () => {
    const data = storeJsonLd(fullSite, pixelPoint, [offer], products);
    // The cable has no photo: nothing to give.
    expect(checkJsonLd(data)).toEqual({
      errors: [],
      missingRequired: [],
      missingRecommended: ['@graph[2] (Product): image'],
    });
    const [store, laptop, cable] = data['@graph'] as JsonLd[];
    expect(store).toMatchObject({
      '@type': 'ElectronicsStore',
      '@id': 'https://mall.example.com/shops/pixel-point#store',
      name: 'Pixel Point',
      url: 'https://mall.example.com/shops/pixel-point',
      description: 'Phones, laptops and repairs.',
      image: [
        `https://mall.example.com/api/images/${KEY_COVER}/1200.webp`,
        `https://mall.example.com/api/images/${KEY_SHOP_LOGO}/1200.webp`,
      ],
      logo: `https://mall.example.com/api/images/${KEY_SHOP_LOGO}/1200.webp`,
      telephone: '+91 80 4000 1101',
      email: 'hello@pixelpoint.example',
      sameAs: 'https://www.pixelpoint.example/',
      address: { '@type': 'PostalAddress', addressLocality: 'Bengaluru' },
      containedInPlace: { '@id': 'https://mall.example.com/#mall' },
      hasMap: `https://mall.example.com/api/images/${KEY_PLAN}/1200.webp`,
      makesOffer: [
        {
          '@type': 'Offer',
          '@id': `https://mall.example.com/shops/pixel-point#offer-${offer.id}`,
          name: 'Winter sale',
          description: '15% off. On every laptop.',
          url: 'https://mall.example.com/shops/pixel-point',
          validFrom: '2026-12-01T00:00:00+05:30',
          validThrough: '2026-12-31T23:59:59+05:30',
        },
      ],
    });
    // Saturday past midnight is one spec on Saturday; Sunday is closed all day; 24 hours is 00:00–23:59.
    expect(store?.openingHoursSpecification).toEqual([
      {
        '@type': 'OpeningHoursSpecification',
        dayOfWeek: ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday'],
        opens: '10:00',
        closes: '21:00',
      },
      { '@type': 'OpeningHoursSpecification', dayOfWeek: 'Saturday', opens: '18:00', closes: '03:00' },
      { '@type': 'OpeningHoursSpecification', dayOfWeek: 'Sunday', opens: '00:00', closes: '00:00' },
      {
        '@type': 'OpeningHoursSpecification',
        opens: '00:00',
        closes: '23:59',
        validFrom: '2026-12-24',
        validThrough: '2026-12-24',
      },
    ]);
    expect(laptop).toEqual({
      '@type': 'Product',
      name: 'Laptop 14"',
      description: 'A light one.',
      image: [`https://mall.example.com/api/images/${KEY_PRODUCT}/1200.webp`],
      offers: {
        '@type': 'Offer',
        price: '36541.50',
        priceCurrency: 'INR',
        availability: 'https://schema.org/InStoreOnly',
        url: 'https://mall.example.com/shops/pixel-point',
        seller: { '@id': 'https://mall.example.com/shops/pixel-point#store' },
      },
    });
    expect(cable).toMatchObject({ name: 'USB cable', offers: { price: '199.00', priceCurrency: 'INR' } });
    expect(cable).not.toHaveProperty('image');
  });

  it('a bare shop in a bare mall: valid, the unknown store type is Store, nothing written empty', () => {
    const data = storeJsonLd(bareSite, bareShop, [], []);
    const report = checkJsonLd(data);
    expect(report.errors).toEqual([]);
    expect(report.missingRequired).toEqual(['@graph[0] (Store): address']);
    expect(emptyValues(data)).toEqual([]);
    expect(data).toEqual({
      '@context': 'https://schema.org',
      '@graph': [
        {
          '@type': 'Store',
          '@id': 'http://localhost:3000/shops/shop#store',
          name: 'Kiosk',
          url: 'http://localhost:3000/shops/shop',
          containedInPlace: { '@id': 'http://localhost:3000/#mall' },
        },
      ],
    });
  });

  it('contact text without a phone, email or web address gives none; a logo alone is the image', () => {
    const data = storeJsonLd(
      fullSite,
      { ...pixelPoint, contact: 'Ask at the desk', cover: null, floorPlan: null },
      [],
      [],
    );
    const [store] = data['@graph'] as JsonLd[];
    expect(store).not.toHaveProperty('telephone');
    expect(store).not.toHaveProperty('email');
    expect(store).not.toHaveProperty('hasMap');
    expect(store).not.toHaveProperty('makesOffer');
    expect(store?.image).toEqual([`https://mall.example.com/api/images/${KEY_SHOP_LOGO}/1200.webp`]);
    // Not the mall's number in its place: that would send a shop's callers to the mall office.
    expect(checkJsonLd(data)).toEqual({
      errors: [],
      missingRequired: [],
      missingRecommended: ['@graph[0] (ElectronicsStore): telephone'],
    });
  });
});

describe('offersJsonLd', () => {
  const shop = { slug: 'pixel-point', name: 'Pixel Point', storeType: 'ElectronicsStore' };

  it('an ItemList of Offers, each offered by its shop, numbered from 1', () => {
    const data = offersJsonLd(fullSite, [
      { ...offer, shop },
      {
        ...offer,
        id: 'second',
        title: 'One day only',
        description: '',
        startDate: '2026-12-05',
        endDate: '2026-12-05',
        shop,
      },
    ]);
    expect(checkJsonLd(data)).toEqual({ errors: [], missingRequired: [], missingRecommended: [] });
    expect(data).toMatchObject({
      '@type': 'ItemList',
      name: 'Offers at Orion Mall',
      url: 'https://mall.example.com/offers',
      numberOfItems: 2,
      itemListElement: [
        {
          '@type': 'ListItem',
          position: 1,
          item: {
            '@type': 'Offer',
            offeredBy: {
              '@type': 'ElectronicsStore',
              '@id': 'https://mall.example.com/shops/pixel-point#store',
              name: 'Pixel Point',
            },
          },
        },
        {
          '@type': 'ListItem',
          position: 2,
          item: {
            description: '15% off',
            validFrom: '2026-12-05T00:00:00+05:30',
            validThrough: '2026-12-05T23:59:59+05:30',
          },
        },
      ],
    });
  });

  it('no running offers: an empty list, without an empty itemListElement', () => {
    const data = offersJsonLd(bareSite, []);
    expect(checkJsonLd(data).errors).toEqual([]);
    expect(emptyValues(data)).toEqual([]);
    expect(data).toEqual({
      '@context': 'https://schema.org',
      '@type': 'ItemList',
      name: 'Offers at Super Mall',
      url: 'http://localhost:3000/offers',
      numberOfItems: 0,
    });
  });
});

describe('offer dates in the mall time zone: from the start of the start date to the end of the end date', () => {
  it('Asia/Kolkata: +05:30 all year', () => {
    expect(startOfDay('2026-06-01', 'Asia/Kolkata')).toBe('2026-06-01T00:00:00+05:30');
    expect(endOfDay('2026-06-30', 'Asia/Kolkata')).toBe('2026-06-30T23:59:59+05:30');
  });

  it('America/New_York across daylight saving: each end in the offset it has then', () => {
    // Summer time began on Sunday 8 March 2026 and ends on Sunday 1 November 2026.
    expect(startOfDay('2026-03-01', 'America/New_York')).toBe('2026-03-01T00:00:00-05:00');
    expect(endOfDay('2026-03-31', 'America/New_York')).toBe('2026-03-31T23:59:59-04:00');
    expect(startOfDay('2026-03-08', 'America/New_York')).toBe('2026-03-08T00:00:00-05:00');
    expect(endOfDay('2026-03-08', 'America/New_York')).toBe('2026-03-08T23:59:59-04:00');
    expect(startOfDay('2026-11-01', 'America/New_York')).toBe('2026-11-01T00:00:00-04:00');
    expect(endOfDay('2026-11-01', 'America/New_York')).toBe('2026-11-01T23:59:59-05:00');
  });

  it('a zone whose clocks skip midnight (America/Santiago): the day starts at 01:00, the one before ends at 23:59:59', () => {
    expect(startOfDay('2026-09-06', 'America/Santiago')).toBe('2026-09-06T01:00:00-03:00');
    expect(endOfDay('2026-09-05', 'America/Santiago')).toBe('2026-09-05T23:59:59-04:00');
  });

  it('the same offer in two malls: the dates are the mall’s, not UTC’s', () => {
    const site = (timeZone: string): Site => ({ ...fullSite, timeZone });
    const kolkata = storeJsonLd(site('Asia/Kolkata'), pixelPoint, [offer], []);
    const newYork = storeJsonLd(site('America/New_York'), pixelPoint, [offer], []);
    const offerOf = (data: JsonLd) => {
      const [store] = data['@graph'] as JsonLd[];
      return (store?.makesOffer as JsonLd[] | undefined)?.[0];
    };
    expect(offerOf(kolkata)).toMatchObject({
      validFrom: '2026-12-01T00:00:00+05:30',
      validThrough: '2026-12-31T23:59:59+05:30',
    });
    expect(offerOf(newYork)).toMatchObject({
      validFrom: '2026-12-01T00:00:00-05:00',
      validThrough: '2026-12-31T23:59:59-05:00',
    });
    // The same instants either way round.
    expect(Date.parse(offerOf(kolkata)?.validFrom as string)).toBe(Date.parse('2026-11-30T18:30:00Z'));
    expect(Date.parse(offerOf(newYork)?.validThrough as string)).toBe(Date.parse('2027-01-01T04:59:59Z'));
  });
});

describe('openingHoursSpecification', () => {
  it('no hours: none', () => {
    expect(openingHoursSpecification(null)).toEqual([]);
  });

  it('two intervals on a day, and a day open around the clock', () => {
    const hours: HoursData = {
      ...everyDay('00:00', '24:00'),
      special: [],
    };
    hours.weekly = {
      ...hours.weekly,
      mon: [
        { open: '09:00', close: '13:00' },
        { open: '14:00', close: '18:00' },
      ],
    };
    expect(openingHoursSpecification(hours)).toEqual([
      { '@type': 'OpeningHoursSpecification', dayOfWeek: 'Monday', opens: '09:00', closes: '13:00' },
      { '@type': 'OpeningHoursSpecification', dayOfWeek: 'Monday', opens: '14:00', closes: '18:00' },
      {
        '@type': 'OpeningHoursSpecification',
        dayOfWeek: ['Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'],
        opens: '00:00',
        closes: '23:59',
      },
    ]);
  });
});

describe('jsonLdScript', () => {
  const hostile = '</script><script>alert(1)</script><!-- & \u2028\u2029 "quoted"';

  it('writes no <, > or & and no U+2028/2029, so nothing in a name can end the script element', () => {
    const data = storeJsonLd(fullSite, { ...pixelPoint, name: hostile, description: hostile }, [], []);
    const text = jsonLdScript(data);
    expect(text).not.toMatch(/[<>&\u2028\u2029]/);
    expect(text).toContain('\\u003c/script\\u003e\\u003cscript\\u003e');
    expect(text).toContain('\\u0026 \\u2028\\u2029');
    // It is still the same data.
    expect(JSON.parse(text)).toEqual(data);
  });

  it('the element form: one script element, closed once', () => {
    const element = jsonLdScriptElement(
      mallJsonLd({ ...bareSite, profile: { ...bareProfile, name: hostile } }, []),
    );
    expect(element.startsWith('<script type="application/ld+json">{')).toBe(true);
    expect(element.match(/<\/script/gi)).toHaveLength(1);
    expect(element.match(/<script/gi)).toHaveLength(1);
    expect(element.endsWith('}</script>')).toBe(true);
  });
});
