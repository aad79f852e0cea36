import { eq, sql } from 'drizzle-orm';
import type { AmenityKind } from '../../shared/amenity';
import type { EventRepeat, EventStatus } from '../../shared/event';
import { everyDay, type OpeningHours } from '../../shared/hours';
import { parseHoursText } from '../../shared/hours-text';
import type { ImageStore } from '../modules/images/store';
import type { Db } from './client';
import { drawDemoFloorPlans, placeDemoFloorPlans } from './demo-floor-plans';
import { renderDemoPictures } from './demo-images';
import { placeNameKeys } from './place-name-keys';
import { amenities, categories, events, floors, mallHours, offers, products, shops } from './schema';

export type DemoSummary = Record<
  'categories' | 'floors' | 'shops' | 'products' | 'offers' | 'events',
  number
>;

/**
 * MALL_DEMO_DATA: 'on' or 'off'; unset (or empty, as in env.ts) means on for the embedded database and
 * off for PostgreSQL, so a real deployment never fills up with invented shops by accident.
 */
export function isDemoDataEnabled(value: string | undefined, embedded: boolean): boolean {
  if (value === undefined || value === '') return embedded;
  if (value === 'on') return true;
  if (value === 'off') return false;
  throw new Error(`MALL_DEMO_DATA must be on or off (got "${value}")`);
}

const DAY_MS = 86_400_000;

/** `date` ('YYYY-MM-DD') plus `days` calendar days, in UTC date math so no time zone can shift it. */
export function addDays(date: string, days: number): string {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date);
  const start = match ? Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3])) : Number.NaN;
  if (Number.isNaN(start) || new Date(start).toISOString().slice(0, 10) !== date) {
    throw new Error(`Expected a date as YYYY-MM-DD, got "${date}"`);
  }
  return new Date(start + days * DAY_MS).toISOString().slice(0, 10);
}

const CATEGORIES = [
  'Fashion',
  'Electronics',
  'Food & Dining',
  'Home & Living',
  'Beauty & Health',
  'Sports & Outdoors',
  'Books & Stationery',
  'Kids & Toys',
] as const;
type Category = (typeof CATEGORIES)[number];

/** Shops name a floor by its index here, which is also its level; the Lower Ground (−1) has no shops. */
const FLOORS = ['Ground Floor', 'First Floor', 'Second Floor', 'Third Floor'] as const;
type Floor = 0 | 1 | 2 | 3;
const LOWER_GROUND = 'Lower Ground';
type FloorName = (typeof FLOORS)[number] | typeof LOWER_GROUND;

/** What each floor offers besides shops, for the Floors page (docs/decisions/018). */
const AMENITIES: ReadonlyArray<readonly [floor: FloorName, kind: AmenityKind, location: string]> = [
  [LOWER_GROUND, 'parking-entrance', 'Car park ramp, south side'],
  [LOWER_GROUND, 'lift', 'Lift lobby by the car park doors'],
  [LOWER_GROUND, 'atm', 'Beside the lift lobby'],
  ['Ground Floor', 'information-desk', 'Main atrium, by the fountain'],
  ['Ground Floor', 'restrooms', 'Corridor behind Unit G-09'],
  ['Ground Floor', 'accessible-restroom', 'Beside the lifts, north corridor'],
  ['Ground Floor', 'lift', 'North corridor, by Mirror Mirror Beauty'],
  ['Ground Floor', 'escalator', 'Centre of the main atrium'],
  ['Ground Floor', 'atm', 'Near the north entrance'],
  ['Ground Floor', 'first-aid', 'At the information desk'],
  ['First Floor', 'restrooms', 'West corridor, near Unit 1-08'],
  ['First Floor', 'baby-care', 'West corridor, beside the restrooms'],
  ['First Floor', 'lift', 'North corridor'],
  ['First Floor', 'escalator', 'Above the main atrium'],
  ['First Floor', 'prayer-room', 'East corridor, past Unit 1-12'],
  ['Second Floor', 'restrooms', 'Beside the play area, near Unit 2-07'],
  ['Second Floor', 'accessible-restroom', 'Beside the play area'],
  ['Second Floor', 'drinking-water', 'Outside Unit 2-05'],
  ['Second Floor', 'lift', 'North corridor'],
  ['Third Floor', 'food-court', 'East wing, Units 3-01 to 3-06'],
  ['Third Floor', 'restrooms', 'Near the cinema exit'],
  ['Third Floor', 'drinking-water', 'Food court entrance'],
  ['Third Floor', 'lift', 'North corridor'],
  ['Third Floor', 'escalator', 'Above the main atrium'],
];

const DAILY = '10:00 – 22:00 daily';
const LATE = '09:00 – 23:00 daily';

/** Start and end are days relative to `today`. */
type OfferSeed = readonly [title: string, description: string, discount: number, start: number, end: number];
/** `offer` indexes the shop's own offers, so a product can only point at an offer of its shop. */
type ProductSeed = readonly [name: string, description: string, price: string, kind: string, offer?: number];

interface ShopDetails {
  about: string;
  offers?: readonly OfferSeed[];
  products: readonly ProductSeed[];
}
interface ShopSeed extends ShopDetails {
  shop: readonly [name: string, category: Category, floor: Floor, location: string, openingHours: string];
}

function shop(
  ...[name, category, floor, location, hours, details]: [...ShopSeed['shop'], ShopDetails]
): ShopSeed {
  return { shop: [name, category, floor, location, hours], ...details };
}

const SHOPS: readonly ShopSeed[] = [
  shop('Threadline Studio', 'Fashion', 0, 'Unit G-04, beside the main atrium', DAILY, {
    about: 'Relaxed everyday clothing in linen and cotton, cut in small batches for warm Indian summers.',
    offers: [['Monsoon Sale', 'Flat discount on linen shirts, kurtas and trousers.', 25, -5, 10]],
    products: [
      ['Linen Shirt', 'Breathable linen shirt in a relaxed fit.', '1499.00', 'Shirts', 0],
      ['Cotton Kurta', 'Hand-block printed cotton kurta, knee length.', '1199.00', 'Kurtas', 0],
      ['Chino Trousers', 'Stretch cotton chinos with a tapered leg.', '1799.00', 'Trousers'],
      ['Denim Jacket', 'Washed denim jacket with brass buttons.', '2999.00', 'Jackets'],
      ['Crew Neck T-Shirt', 'Soft combed-cotton tee in twelve colours.', '499.00', 'T-Shirts'],
      ['Palazzo Pants', 'Flowing rayon palazzos with an elastic waist.', '899.00', 'Trousers'],
      ['Canvas Belt', 'Woven canvas belt with a leather tab.', '349.50', 'Accessories'],
    ],
  }),
  shop('Saffron & Silk', 'Fashion', 0, 'Unit G-11, near the north entrance', DAILY, {
    about: 'Occasion wear — handloom sarees, lehengas and sherwanis — with alterations done in house.',
    offers: [['Wedding Season Preview', 'Early prices on the new bridal collection.', 15, 10, 40]],
    products: [
      ['Banarasi Silk Saree', 'Pure silk saree with zari border and blouse piece.', '12499.00', 'Sarees', 0],
      ['Chanderi Cotton Saree', 'Lightweight Chanderi weave for day wear.', '3499.00', 'Sarees'],
      ['Embroidered Lehenga Set', 'Three-piece lehenga with dupatta and blouse.', '18999.00', 'Lehengas'],
      ['Silk Sherwani', 'Raw silk sherwani with hand embroidery.', '15999.00', 'Sherwanis'],
      ['Nehru Jacket', 'Textured jacquard Nehru jacket.', '2499.00', 'Jackets'],
      ['Silk Dupatta', 'Hand-dyed silk dupatta with tassels.', '1299.00', 'Accessories'],
    ],
  }),
  shop('Voltbay', 'Electronics', 0, 'Unit G-02, facing the main entrance', DAILY, {
    about: 'Phones, laptops and accessories, with a service desk for repairs and screen replacements.',
    offers: [['Back to College', 'Discounts on laptops and tablets with a student ID.', 10, -10, 20]],
    products: [
      ['Samsung Galaxy A55', '6.6-inch AMOLED phone with 128 GB storage.', '24999.00', 'Smartphones'],
      ['AirBook 14 Laptop', 'Thin 14-inch laptop, 16 GB RAM, 512 GB SSD.', '58990.00', 'Laptops', 0],
      ['Tabula 10 Tablet', '10-inch tablet with stylus support.', '18499.00', 'Tablets', 0],
      ['PulseBuds Wireless Earbuds', 'Noise-cancelling earbuds with a 30-hour case.', '3999.00', 'Audio'],
      ['20W Fast Charger', 'USB-C power adapter with cable.', '899.00', 'Accessories'],
      ['Power Bank 10000 mAh', 'Slim power bank with two USB ports.', '1299.00', 'Accessories'],
      ['Tempered Glass Screen Guard', 'Edge-to-edge guard, fitted free in store.', '299.00', 'Accessories'],
    ],
  }),
  shop('Bean There Café', 'Food & Dining', 0, 'Unit G-15, by the fountain', '08:00 – 23:00 daily', {
    about: 'Single-origin coffee from Coorg and Chikmagalur, fresh bakes and a quiet corner to work.',
    offers: [['Morning Brew Hours', 'Discount on hot coffee before noon on weekdays.', 20, -30, 30]],
    products: [
      ['Filter Coffee', 'South Indian filter coffee with chicory.', '120.00', 'Coffee', 0],
      ['Cappuccino', 'Double shot with steamed milk foam.', '180.00', 'Coffee', 0],
      ['Masala Chai', 'Ginger-cardamom tea brewed with milk.', '90.00', 'Tea'],
      ['Butter Croissant', 'Flaky all-butter croissant, baked every morning.', '140.00', 'Bakery'],
      ['Banana Walnut Bread', 'Moist loaf slice with toasted walnuts.', '110.00', 'Bakery'],
      ['Cold Brew Bottle', '250 ml cold brew, steeped for 18 hours.', '220.00', 'Coffee'],
    ],
  }),
  shop('Glow Apothecary', 'Beauty & Health', 0, 'Unit G-07, near the south entrance', DAILY, {
    about: 'Skincare and bath products made with Ayurvedic botanicals; free skin consultations on Sundays.',
    offers: [['Festive Glow', 'Gift sets at a special festive price.', 30, -90, -45]],
    products: [
      ['Kumkumadi Face Oil', 'Saffron night oil for radiant skin, 30 ml.', '1450.00', 'Skincare'],
      ['Neem & Tulsi Face Wash', 'Gentle foaming cleanser for oily skin.', '349.00', 'Skincare'],
      ['Rose Water Toner', 'Steam-distilled rose water, 100 ml.', '275.00', 'Skincare'],
      ['Sandalwood Soap Bar', 'Cold-processed soap with sandalwood oil.', '180.00', 'Bath'],
      ['Bhringraj Hair Oil', 'Nourishing herbal hair oil, 200 ml.', '495.00', 'Haircare'],
      ['Festive Gift Box', 'Soap, face oil and toner in a gift box.', '1999.00', 'Gift Sets'],
    ],
  }),
  shop('Mirror Mirror Beauty', 'Beauty & Health', 0, 'Unit G-09, by the lifts', 'Mon–Sat 10:00 – 21:00', {
    about: 'Makeup, fragrances and grooming tools, plus a walk-in nail bar.',
    products: [
      ['Matte Liquid Lipstick', 'Long-wear lipstick in 18 shades.', '599.00', 'Makeup'],
      ['Kajal Pencil', 'Smudge-proof kohl with a built-in sharpener.', '249.00', 'Makeup'],
      ['Hydrating Foundation', 'Light-coverage foundation with SPF 15.', '899.00', 'Makeup'],
      ['Eau de Parfum 50 ml', 'Jasmine and vetiver fragrance.', '2499.00', 'Fragrance'],
      ['Beard Trimmer', 'Cordless trimmer with 20 length settings.', '1799.00', 'Grooming'],
      ['Hair Dryer 1600 W', 'Compact dryer with a cool-shot button.', '1499.00', 'Grooming'],
    ],
  }),
  shop('Loom & Lane', 'Fashion', 1, 'Unit 1-03, above the main atrium', DAILY, {
    about: 'Smart casuals and footwear for men and women, with a made-to-measure shirt service.',
    offers: [
      ['Rainy Day Footwear Fest', 'Discount on waterproof sandals and sneakers.', 20, -7, 14],
      ['Anniversary Sale', 'Storewide discount to celebrate our fifth year.', 35, 20, 27],
    ],
    products: [
      ['Oxford Shirt', 'Button-down oxford shirt in crisp cotton.', '1699.00', 'Shirts'],
      ['Slim Fit Blazer', 'Unstructured blazer in a linen blend.', '5499.00', 'Blazers', 1],
      ['Leather Loafers', 'Hand-stitched leather loafers.', '3299.00', 'Footwear'],
      ['Waterproof Sneakers', 'Lightweight sneakers with a sealed upper.', '2799.00', 'Footwear', 0],
      ['Strappy Sandals', 'Cushioned sandals with a rubber sole.', '1299.00', 'Footwear'],
      ['Wrap Dress', 'Viscose wrap dress in a floral print.', '2199.00', 'Dresses'],
    ],
  }),
  shop('Circuit House', 'Electronics', 1, 'Unit 1-10, near the east lifts', DAILY, {
    about: 'Televisions, home audio and large appliances, with free delivery and installation in the city.',
    offers: [['Big Screen Days', 'Discount on 55-inch and larger televisions.', 12, -3, 11]],
    products: [
      ['55-inch 4K Smart TV', 'LED TV with Dolby Vision and built-in apps.', '42990.00', 'Televisions', 0],
      ['65-inch QLED TV', 'QLED panel with a 120 Hz refresh rate.', '74990.00', 'Televisions', 0],
      ['Soundbar 2.1', '300 W soundbar with a wireless subwoofer.', '12999.00', 'Audio'],
      [
        'Over-Ear Headphones',
        'Wireless noise-cancelling headphones with a 40-hour battery.',
        '8499.00',
        'Audio',
      ],
      ['Front Load Washer 8 kg', 'Inverter washing machine with steam wash.', '34990.00', 'Appliances'],
      ['Microwave Oven 25 L', 'Convection microwave with 200 auto-cook menus.', '11490.00', 'Appliances'],
    ],
  }),
  shop('Pixel Point', 'Electronics', 1, 'Unit 1-14, beside the food court stairs', '11:00 – 21:30 daily', {
    about: 'Cameras, gaming consoles and smart-home gear, with demo stations to try before you buy.',
    offers: [['Gamer Week', 'Discount on consoles, controllers and games.', 10, -40, -20]],
    products: [
      ['Mirrorless Camera Kit', '24 MP camera with an 18–55 mm lens.', '64990.00', 'Cameras'],
      ['Action Camera', '4K waterproof action camera.', '19990.00', 'Cameras'],
      ['Game Console', 'Home console with 1 TB storage.', '49990.00', 'Gaming'],
      ['Wireless Controller', 'Rechargeable controller with haptic feedback.', '5490.00', 'Gaming'],
      ['Smart Speaker', 'Voice assistant speaker with room-filling sound.', '4499.00', 'Smart Home'],
      ['Wi-Fi Smart Bulb', '9 W colour bulb, controlled from an app.', '649.00', 'Smart Home'],
    ],
  }),
  shop('Hearth & Home', 'Home & Living', 1, 'Unit 1-06, near the west escalator', DAILY, {
    about: 'Cookware, tableware and kitchen tools for Indian kitchens, from pressure cookers to brassware.',
    offers: [['Kitchen Upgrade Week', 'Discount on kadais and pressure cookers.', 18, 0, 7]],
    products: [
      ['Tri-Ply Kadai 24 cm', 'Stainless steel kadai with lid.', '2299.00', 'Cookware', 0],
      ['Pressure Cooker 5 L', 'Induction-ready aluminium pressure cooker.', '1899.00', 'Cookware', 0],
      ['Cast Iron Tawa', 'Pre-seasoned 28 cm tawa.', '1149.00', 'Cookware'],
      ['Stoneware Dinner Set', '18-piece dinner set, microwave safe.', '3999.00', 'Tableware'],
      ['Brass Serving Bowl', 'Hand-hammered brass bowl with tin lining.', '1599.00', 'Tableware'],
      ['Spice Box', 'Steel masala dabba with seven cups.', '699.00', 'Kitchen Tools'],
    ],
  }),
  shop('Peak Trail Outfitters', 'Sports & Outdoors', 1, 'Unit 1-18, at the end of the east wing', DAILY, {
    about: 'Trekking, camping and running gear, sold by staff who have walked the trails they recommend.',
    offers: [['Trek Season Kick-off', 'Discount on tents, backpacks and trekking shoes.', 20, 15, 45]],
    products: [
      ['Trekking Backpack 50 L', 'Ventilated backpack with a rain cover.', '4999.00', 'Backpacks', 0],
      ['Two-Person Dome Tent', 'Waterproof tent that goes up in five minutes.', '6499.00', 'Camping'],
      ['Trekking Shoes', 'Waterproof mid-ankle shoes with a grippy sole.', '5999.00', 'Footwear'],
      ['Running Shoes', 'Cushioned shoes for road running.', '4299.00', 'Footwear'],
      ['Trekking Poles (Pair)', 'Aluminium poles with cork grips.', '1999.00', 'Accessories'],
      ['Insulated Water Bottle', 'Steel bottle that keeps drinks cold all day.', '899.00', 'Accessories'],
    ],
  }),
  shop('Paperleaf Books', 'Books & Stationery', 1, 'Unit 1-08, opposite the cinema lobby', DAILY, {
    about: 'An independent bookshop with Indian fiction, regional-language titles and a reading nook.',
    offers: [["Readers' Month", 'Discount on all paperback fiction.', 15, -14, 16]],
    products: [
      ['The Monsoon House', 'Paperback family saga set in coastal Karnataka.', '399.00', 'Fiction', 0],
      ['Midnight on the Ganges', 'Paperback literary thriller set in Varanasi.', '450.00', 'Fiction', 0],
      ['Everyday Indian Cooking', '200 home recipes with step-by-step photos.', '799.00', 'Cookbooks'],
      ['A Short History of the Deccan', 'From the Satavahanas to today, briefly.', '650.00', 'Non-fiction'],
      ['Kannada–English Dictionary', 'Pocket dictionary with 40,000 entries.', '299.00', 'Reference'],
      ['Poems of the Rain', 'An anthology of monsoon poetry in translation.', '350.00', 'Poetry'],
      ['Bookmark Set', 'Set of five illustrated bookmarks.', '149.00', 'Gifts'],
    ],
  }),
  shop('Nest Living', 'Home & Living', 2, 'Unit 2-02, beside the west escalator', DAILY, {
    about: 'Furniture and furnishings in solid wood, cane and cotton, with made-to-order sofas.',
    offers: [
      ['Home Refresh', 'Discount on cushions, throws and curtains.', 25, -20, 0],
      ['Clearance Weekend', 'Final markdown on floor models.', 50, -30, -28],
    ],
    products: [
      ['Sheesham Coffee Table', 'Solid wood table with a natural finish.', '14999.00', 'Furniture', 1],
      ['Cane Accent Chair', 'Woven cane armchair with a cushion.', '9499.00', 'Furniture'],
      ['Three-Seater Sofa', 'Fabric sofa with removable covers.', '38999.00', 'Furniture'],
      ['Block Print Cushion Cover', 'Hand-block printed cotton, 40 × 40 cm.', '449.00', 'Furnishings', 0],
      ['Cotton Throw', 'Handwoven throw with a fringe.', '1299.00', 'Furnishings', 0],
      ['Blackout Curtain Pair', 'Thermal curtains, 7 ft long.', '2199.00', 'Furnishings'],
      ['Jute Area Rug', 'Braided jute rug, 5 × 7 ft.', '3499.00', 'Rugs'],
    ],
  }),
  shop('Lumen & Clay', 'Home & Living', 2, 'Unit 2-09, near the north lifts', 'Tue–Sun 11:00 – 21:00', {
    about: 'Lamps, ceramics and handmade décor from small studios across India.',
    products: [
      ['Terracotta Table Lamp', 'Handmade lamp with a linen shade.', '2899.00', 'Lighting'],
      ['Rattan Pendant Light', 'Woven pendant lamp, 40 cm across.', '3499.00', 'Lighting'],
      ['Ceramic Vase', 'Glazed stoneware vase, 25 cm tall.', '1199.00', 'Décor'],
      ['Scented Soy Candle', 'Vetiver candle in a glass jar, 200 g.', '549.00', 'Décor'],
      ['Round Wall Mirror', 'Mirror with a mango wood frame.', '2499.00', 'Décor'],
      ['Brass Diya Set', 'Set of four hand-cast brass diyas.', '899.00', 'Décor'],
    ],
  }),
  shop('Goalpost Sports', 'Sports & Outdoors', 2, 'Unit 2-12, near the east wing', DAILY, {
    about: 'Cricket, football and racquet sports equipment, with bat knocking and racquet stringing.',
    offers: [['Cricket Carnival', 'Discount on bats, pads and balls.', 15, -1, 1]],
    products: [
      ['English Willow Cricket Bat', 'Grade 2 willow with a short handle.', '8999.00', 'Cricket', 0],
      ['Kashmir Willow Cricket Bat', 'Sturdy bat for tennis and leather balls.', '1899.00', 'Cricket', 0],
      ['Leather Cricket Ball', 'Four-piece red leather ball.', '699.00', 'Cricket'],
      ['Football Size 5', 'Hand-stitched training football.', '1299.00', 'Football'],
      ['Badminton Racquet', 'Graphite racquet, strung at 24 lbs.', '2499.00', 'Racquet Sports'],
      ['Shuttlecocks (Tube of 6)', 'Feather shuttles for club play.', '899.00', 'Racquet Sports'],
      ['Table Tennis Paddle', 'All-round paddle with approved rubbers.', '1299.00', 'Racquet Sports'],
    ],
  }),
  shop('FitForm Studio', 'Sports & Outdoors', 2, 'Unit 2-05, next to the gym', '07:00 – 22:00 daily', {
    about: 'Home fitness equipment, yoga gear and activewear for every level.',
    offers: [['Fitness Fortnight', 'Discount on dumbbells and yoga mats.', 20, -180, -166]],
    products: [
      ['Yoga Mat 6 mm', 'Non-slip TPE mat with a carry strap.', '1199.00', 'Yoga'],
      ['Adjustable Dumbbells', 'Pair, 2.5 to 12 kg each.', '7999.00', 'Strength'],
      ['Resistance Band Set', 'Five bands with handles and a door anchor.', '999.00', 'Strength'],
      ['Skipping Rope', 'Speed rope with ball bearings.', '349.00', 'Cardio'],
      ['Foam Roller', 'High-density roller for recovery.', '799.00', 'Recovery'],
      ['Dry-Fit Training Tee', 'Quick-drying tee with mesh panels.', '699.00', 'Activewear'],
    ],
  }),
  shop('Ink & Quill', 'Books & Stationery', 2, 'Unit 2-14, near the south lifts', DAILY, {
    about: 'Stationery, art supplies and fine pens, with a calligraphy workshop every Saturday.',
    products: [
      ['Hardbound Notebook A5', '192 pages of 100 gsm dotted paper.', '349.00', 'Notebooks'],
      ['Fountain Pen', 'Steel-nib fountain pen with a converter.', '1250.00', 'Pens'],
      ['Gel Pen Pack', 'Set of ten smooth gel pens.', '180.00', 'Pens'],
      ['Watercolour Set', '24 artist-grade half pans with a brush.', '1499.00', 'Art Supplies'],
      ['Sketchbook A4', 'Acid-free paper, 120 sheets.', '399.00', 'Art Supplies'],
      ['Geometry Box', 'Compass, protractor and set squares.', '149.50', 'School Supplies'],
    ],
  }),
  shop('Little Sprouts', 'Kids & Toys', 2, 'Unit 2-07, beside the play area', DAILY, {
    about: 'Clothing and everyday essentials for babies and toddlers in soft organic cotton.',
    offers: [['Summer Cottons', 'Discount on rompers and sleepsuits.', 20, -25, -1]],
    products: [
      ['Organic Cotton Romper', 'Snap-button romper, 0–12 months.', '699.00', 'Babywear'],
      ['Sleepsuits (Pack of 3)', 'Full-length sleepsuits with mittens.', '1299.00', 'Babywear'],
      ['Muslin Swaddle', 'Breathable swaddle, 120 × 120 cm.', '549.00', 'Baby Care'],
      ['Toddler Sandals', 'Soft-sole sandals with velcro straps.', '799.00', 'Footwear'],
      ['Bath Time Set', 'Towel, washcloth and mild baby wash.', '999.00', 'Baby Care'],
      ['Stroller Fan', 'Clip-on fan with flexible legs.', '649.00', 'Accessories'],
    ],
  }),
  shop('Spice Route Kitchen', 'Food & Dining', 3, 'Unit 3-01, food court', '11:00 – 23:00 daily', {
    about: 'Regional thalis and biryanis from across India, cooked fresh in an open kitchen.',
    offers: [
      ['Family Feast', 'Discount on thalis for groups of four or more.', 15, -5, 25],
      ['Biryani Festival', 'New biryanis from Hyderabad, Lucknow and Kolkata.', 10, 1, 14],
    ],
    products: [
      ['Andhra Meals', 'Unlimited rice, dal, sambar and three curries.', '299.00', 'Thali', 0],
      ['Rajasthani Thali', 'Dal baati churma with gatte and kadhi.', '349.00', 'Thali', 0],
      ['Hyderabadi Chicken Biryani', 'Dum-cooked biryani with mirchi salan.', '329.00', 'Biryani', 1],
      ['Lucknowi Veg Biryani', 'Fragrant biryani with seasonal vegetables.', '279.00', 'Biryani'],
      ['Paneer Butter Masala', 'Cottage cheese in a tomato-butter gravy.', '259.00', 'Curries'],
      ['Butter Naan', 'Tandoor-baked naan brushed with butter.', '60.00', 'Breads'],
      ['Mango Lassi', 'Sweet yogurt drink with Alphonso mango.', '120.00', 'Beverages'],
    ],
  }),
  shop('Noodle Bar 88', 'Food & Dining', 3, 'Unit 3-04, food court', '11:30 – 23:30 daily', {
    about: 'Wok-tossed noodles, dumplings and rice bowls, with a build-your-own ramen counter.',
    products: [
      ['Hakka Noodles', 'Wok-tossed noodles with crunchy vegetables.', '220.00', 'Noodles'],
      ['Chicken Ramen', 'Slow-cooked broth with egg and spring onion.', '349.00', 'Noodles'],
      ['Veg Momos (8 pcs)', 'Steamed dumplings with chilli chutney.', '160.00', 'Dumplings'],
      ['Chilli Paneer', 'Crisp paneer tossed in chilli garlic sauce.', '240.00', 'Starters'],
      ['Teriyaki Rice Bowl', 'Grilled chicken on sticky rice.', '299.00', 'Rice Bowls'],
      ['Iced Lemon Tea', 'Brewed tea with lemon and mint.', '99.50', 'Beverages'],
    ],
  }),
  shop('Toybox Planet', 'Kids & Toys', 3, "Unit 3-08, beside the kids' play zone", DAILY, {
    about: 'Toys, board games and craft kits, with a demo table where children can try them out.',
    offers: [['Toy Fair', 'Discount on board games and building sets.', 30, 20, 35]],
    products: [
      ['Building Blocks 500 pcs', 'Compatible bricks in a storage tub.', '2499.00', 'Building Toys', 0],
      ['Remote Control Car', 'Rechargeable off-road car, 1:16 scale.', '1899.00', 'Vehicles'],
      ['Family Board Game', 'Strategy game for 2–6 players, ages 8+.', '999.00', 'Board Games'],
      ['Wooden Puzzle Set', 'Four puzzles with animal shapes.', '599.00', 'Puzzles'],
      ['Plush Elephant', 'Soft toy, 30 cm, machine washable.', '749.00', 'Soft Toys'],
      ['Craft Kit', 'Clay, beads and paints for 20 projects.', '899.00', 'Arts & Crafts'],
    ],
  }),
  shop('Tiny Explorers', 'Kids & Toys', 3, 'Unit 3-11, near the cinema exit', '10:30 – 21:30 daily', {
    about: 'Science kits, outdoor toys and books that make learning hands-on.',
    products: [
      ['Junior Science Kit', '30 safe experiments with a guidebook.', '1499.00', 'STEM'],
      ['Beginner Telescope', '70 mm refractor with a tripod.', '4999.00', 'STEM'],
      ['Coding Robot', 'Screen-free robot that teaches sequencing.', '3999.00', 'STEM'],
      ['Kick Scooter', 'Three-wheel scooter with light-up wheels.', '2299.00', 'Outdoor Toys'],
      ['Bubble Machine', 'Battery-powered bubble maker.', '799.00', 'Outdoor Toys'],
      ['Illustrated Atlas', "Children's world atlas with fold-out maps.", '699.00', 'Books'],
    ],
  }),
  shop('Chapter & Verse', 'Books & Stationery', 3, 'Unit 3-06, near the west lifts', DAILY, {
    about: 'Second-hand and rare books, comics and graphic novels, bought and sold.',
    products: [
      ['Vintage Poetry Collection', '1970s hardback edition in good condition.', '850.00', 'Rare Books'],
      ['Classic Comics Bundle', 'Ten classic Indian comics.', '500.00', 'Comics'],
      ['Graphic Novel Omnibus', '400-page collected edition.', '1499.00', 'Graphic Novels'],
      ['Mystery Paperback Lot', 'Five pre-owned mystery novels.', '300.00', 'Fiction'],
      ['First Edition Travelogue', 'Signed 1988 first edition.', '3500.00', 'Rare Books'],
      ['Book Tote Bag', 'Canvas tote printed with a library stamp.', '399.00', 'Gifts'],
    ],
  }),
  shop('Pure Balance Pharmacy', 'Beauty & Health', 3, 'Unit 3-14, near the south lifts', LATE, {
    about: 'Pharmacy and wellness store with vitamins, health monitors and a pharmacist always on duty.',
    products: [
      ['Digital BP Monitor', 'Upper-arm monitor with memory for two users.', '2199.00', 'Health Devices'],
      ['Infrared Thermometer', 'Contactless forehead thermometer.', '1299.00', 'Health Devices'],
      ['Multivitamin Tablets', '60 tablets, one a day.', '549.00', 'Supplements'],
      ['Whey Protein 1 kg', 'Chocolate flavour, 24 g protein per scoop.', '2799.00', 'Supplements'],
      ['Sunscreen SPF 50', 'Non-greasy gel sunscreen, 50 ml.', '499.00', 'Skincare'],
      ['First Aid Kit', '50-piece kit for home and travel.', '649.00', 'First Aid'],
    ],
  }),
];

const PRICE = /^\d+\.\d{2}$/;

/** '+91 80 4000 1101 · hello@bean-there-cafe.example': NFD splits 'é' into 'e' and an accent to drop. */
/**
 * A demo shop's structured hours: its own free text read by the same reader the admin form offers
 * (shared/hours-text.ts), so the two never disagree; one shop closes for a day of stocktaking.
 */
function demoHours(name: string, openingHours: string, today: string): OpeningHours {
  const parsed = parseHoursText(openingHours);
  if (!parsed) throw new Error(`demo hours of ${name} are not readable: "${openingHours}"`);
  if (name !== 'Paperleaf Books') return parsed.hours;
  return { ...parsed.hours, special: [{ date: addDays(today, 3), intervals: [], note: 'Stocktaking' }] };
}

/** 0 Sunday … 6 Saturday, of a 'YYYY-MM-DD' date. */
const weekdayOf = (date: string) => new Date(`${date}T00:00:00Z`).getUTCDay();

/** `date` plus `months` calendar months, on the same day of the month (which must be 28 or less). */
function addMonths(date: string, months: number): string {
  const [year, month, day] = date.split('-').map(Number) as [number, number, number];
  if (day > 28) throw new Error(`addMonths needs a day of the month up to 28, got ${date}`);
  return new Date(Date.UTC(year, month - 1 + months, day)).toISOString().slice(0, 10);
}

/** The mall's dates the demo's hours and events share, relative to `today`. */
function demoCalendar(today: string) {
  // The late-night evenings repeat monthly on one day of the month: one every month has (1–28).
  let lateNight = addDays(today, 10);
  while (Number(lateNight.slice(8)) > 28) lateNight = addDays(lateNight, 1);
  const closed = addDays(today, 30);
  return {
    lateNight,
    /** The first twelve late nights: the mall's doors stay open to midnight on each. */
    lateNights: Array.from({ length: 12 }, (_, i) => addMonths(lateNight, i)),
    /** The annual maintenance day: the mall is closed, and a weekly event skips it. */
    closed,
    /** The last `weekday` (0 Sunday … 6 Saturday) on or before `date`. */
    onOrBefore: (date: string, weekday: number) => addDays(date, -((weekdayOf(date) - weekday + 7) % 7)),
    /** The next `weekday` after `date`. */
    after: (date: string, weekday: number) => addDays(date, 1 + ((weekday - weekdayOf(date) - 1 + 7) % 7)),
  };
}

/** The demo mall's doors: 07:00–23:30 every day, late-shopping nights and a closed day ahead. */
function demoMallHours(today: string): OpeningHours {
  const { lateNights, closed } = demoCalendar(today);
  return {
    ...everyDay('07:00', '23:30'),
    special: [
      ...lateNights.map((date) => ({
        date,
        intervals: [{ open: '07:00', close: '24:00' }],
        note: 'Late-night shopping',
      })),
      { date: closed, intervals: [], note: 'Annual maintenance day' },
    ],
  };
}

type EventPlaceSeed =
  | { kind: 'mall' }
  | { kind: 'floor'; floor: FloorName }
  | { kind: 'amenity'; floor: FloorName; amenity: AmenityKind }
  | { kind: 'shop'; shop: string };

interface EventSeed {
  title: string;
  description: string;
  /** The organizing shop; none: the mall's own event. */
  shop?: string;
  place: EventPlaceSeed;
  startDate: string;
  startTime: string;
  endDate?: string;
  endTime: string;
  tags: string[];
  repeat?: EventRepeat;
  status?: EventStatus;
}

/**
 * The demo mall's events (issue 35), dated from `today` so that a new install always has some coming up:
 * a weekly market, a shop's weekly workshop and its weekend consultations, a book signing, a monthly
 * late-night evening (the nights the mall's hours stay open to midnight), a school-holiday club and a
 * cancelled concert. All approved.
 */
export function demoEvents(today: string): EventSeed[] {
  const { lateNight, closed, onOrBefore, after } = demoCalendar(today);
  const SUNDAY = 0;
  const MONDAY = 1;
  const SATURDAY = 6;
  // A weekly event skips the maintenance day when it falls on one of its days.
  const skipClosed = (...weekdays: number[]) => (weekdays.includes(weekdayOf(closed)) ? [closed] : []);
  const holidayStart = after(today, MONDAY);
  return [
    {
      title: "Saturday Farmers' Market",
      description:
        'Growers and bakers from the farms around the city fill the main atrium: seasonal vegetables, ' +
        'millets, cold-pressed oils, honey and fresh bread. Bring your own bag.',
      place: { kind: 'floor', floor: 'Ground Floor' },
      startDate: onOrBefore(addDays(today, -14), SATURDAY),
      startTime: '08:00',
      endTime: '13:00',
      tags: ['market', 'food', 'family'],
      repeat: { freq: 'weekly', days: ['sat'], except: skipClosed(SATURDAY) },
    },
    {
      title: 'Saturday Calligraphy Workshop',
      description:
        'Learn italic and Devanagari lettering with a dip pen. Nibs, ink and paper are provided; ' +
        'ages 12 and up, 12 places, first come first served.',
      shop: 'Ink & Quill',
      place: { kind: 'shop', shop: 'Ink & Quill' },
      startDate: onOrBefore(addDays(today, -7), SATURDAY),
      startTime: '15:00',
      endTime: '17:00',
      tags: ['workshop', 'art'],
      repeat: { freq: 'weekly', days: ['sat'], except: skipClosed(SATURDAY) },
    },
    {
      title: 'Free Skin Consultations',
      description:
        'Every Sunday, fifteen minutes with our skin therapist: what suits your skin, from face oils to sunscreen. ' +
        'No booking and no obligation to buy.',
      shop: 'Glow Apothecary',
      place: { kind: 'shop', shop: 'Glow Apothecary' },
      startDate: onOrBefore(addDays(today, -7), SUNDAY),
      startTime: '11:00',
      endTime: '17:00',
      tags: ['beauty', 'free'],
      repeat: { freq: 'weekly', days: ['sun'], except: skipClosed(SUNDAY) },
    },
    {
      title: 'Book Signing: The Monsoon House',
      description:
        'The author of The Monsoon House reads from the novel, answers questions and signs copies. ' +
        'Copies are on sale in the shop.',
      shop: 'Paperleaf Books',
      place: { kind: 'shop', shop: 'Paperleaf Books' },
      // Not on the shop's stocktaking day (today + 3).
      startDate: addDays(today, 6),
      startTime: '17:00',
      endTime: '19:00',
      tags: ['books', 'signing'],
    },
    {
      title: 'Late-Night Shopping',
      description:
        'Once a month the shops stay open until 23:30, with live music in the atrium, and the food ' +
        'court serves until midnight.',
      place: { kind: 'mall' },
      startDate: lateNight,
      startTime: '18:00',
      endTime: '23:30',
      tags: ['late-night', 'shopping'],
      repeat: { freq: 'monthly' },
    },
    {
      title: 'School-Holiday Craft Club',
      description:
        'Clay, beads and paint for children aged 5 to 10, at the kids’ play zone beside Toybox Planet. ' +
        'A different project each session; parents stay nearby.',
      shop: 'Toybox Planet',
      place: { kind: 'floor', floor: 'Third Floor' },
      startDate: holidayStart,
      startTime: '11:00',
      endTime: '12:30',
      tags: ['kids', 'workshop', 'family'],
      repeat: { freq: 'weekly', days: ['mon', 'wed', 'fri'], count: 6 },
    },
    {
      title: 'Acoustic Evening at the Food Court',
      description: 'Cancelled: the band is unwell. We will announce a new date soon.',
      place: { kind: 'amenity', floor: 'Third Floor', amenity: 'food-court' },
      // Far enough ahead that the landing page's next three are mostly ones that take place.
      startDate: addDays(today, 9),
      startTime: '19:00',
      endTime: '21:00',
      tags: ['music'],
      status: 'cancelled',
    },
  ];
}

function contactFor(name: string, index: number): string {
  const domain = (
    name
      .normalize('NFD')
      .toLowerCase()
      .match(/[a-z0-9]+/g) ?? []
  ).join('-');
  return `+91 80 4000 ${1101 + index * 37} · hello@${domain}.example`;
}

function need<V>(map: Map<string, V>, key: string): V {
  const value = map.get(key);
  if (value === undefined) throw new Error(`Demo data refers to an unknown entry: ${key}`);
  return value;
}

/** Shops, categories and floors already there: the demo mall goes only into an empty one. */
export async function countDirectory(db: Pick<Db, 'execute'>): Promise<number> {
  const { rows } = await db.execute<{ n: string }>(
    sql`select (select count(*) from shops) + (select count(*) from categories) + (select count(*) from floors) as n`,
  );
  return Number(rows[0]?.n ?? 0);
}

interface DemoOptions {
  images?: ImageStore;
  /**
   * false: no events, as the releases before them had the demo mall (the backup tests load it into a
   * database migrated only that far, without the events table).
   */
  events?: boolean;
}

/** Any fixed number, other than the migrations' lock. */
const DEMO_DATA_LOCK_KEY = 7_415_020_002;

/**
 * Fills an empty mall with invented categories, floors, shops, offers, products and events, all in one
 * transaction: on any failure (e.g. the data is already there) nothing is inserted. `today` is
 * 'YYYY-MM-DD' in the mall's time zone; offers are dated relative to it (10 active, 5 expired, 5 future),
 * and so are the events (demoEvents: each has a date ahead, so /events is never empty on a new install).
 */
export async function loadDemoData(db: Db, today: string, options?: DemoOptions): Promise<DemoSummary>;
/** With `onlyIfEmpty`: loads nothing (null) when the mall has any shop, category or floor. */
export async function loadDemoData(
  db: Db,
  today: string,
  options: DemoOptions & { onlyIfEmpty: true },
): Promise<DemoSummary | null>;
/**
 * With `images`: shops get a logo and a cover, products a photo (demo-images.ts), and every floor a plan
 * with its shops and amenities pinned (demo-floor-plans.ts), kept in that store — all in the one
 * transaction, so a mall is never left half-loaded.
 */
export async function loadDemoData(
  db: Db,
  today: string,
  { onlyIfEmpty = false, images, events: withEvents = true }: DemoOptions & { onlyIfEmpty?: boolean } = {},
): Promise<DemoSummary | null> {
  addDays(today, 0); // Refuses a malformed date before touching the database.
  if (onlyIfEmpty && (await countDirectory(db)) > 0) return null; // before drawing pictures for nothing
  const [pictures, plans] = images
    ? await Promise.all([
        renderDemoPictures(
          SHOPS.map((s) => ({ name: s.shop[0], category: s.shop[1], products: s.products.map((p) => p[0]) })),
        ),
        drawDemoFloorPlans(
          new Map(
            [LOWER_GROUND, ...FLOORS].map((floor) => [
              floor,
              SHOPS.filter((s) => FLOORS[s.shop[2]] === floor).map((s) => ({
                name: s.shop[0],
                location: s.shop[3],
              })),
            ]),
          ),
        ),
      ])
    : [null, null];
  return db.transaction(async (tx) => {
    if (onlyIfEmpty) {
      // Servers starting at once on one empty PostgreSQL: one loads, the others then find it full.
      await tx.execute(sql`select pg_advisory_xact_lock(${DEMO_DATA_LOCK_KEY})`);
      if ((await countDirectory(tx)) > 0) return null;
    }
    if (pictures && images) await pictures.save(tx, images);
    const categoryRows = await tx
      .insert(categories)
      .values(CATEGORIES.map((name) => ({ name, ...placeNameKeys(name) })))
      .returning({ id: categories.id, name: categories.name });
    const categoryIds = new Map(categoryRows.map((row) => [row.name, row.id]));

    const floorRows = await tx
      .insert(floors)
      .values(
        [LOWER_GROUND, ...FLOORS].map((name, index) => ({ name, level: index - 1, ...placeNameKeys(name) })),
      )
      .returning({ id: floors.id, name: floors.name });
    const floorIds = new Map(floorRows.map((row) => [row.name, row.id]));

    const amenityRows = await tx
      .insert(amenities)
      .values(
        AMENITIES.map(([floor, kind, location]) => ({
          floorId: need(floorIds, floor),
          kind,
          location,
        })),
      )
      .returning({ id: amenities.id, floorId: amenities.floorId, kind: amenities.kind });
    const amenityIds = new Map(amenityRows.map((row) => [`${row.floorId} ${row.kind}`, row.id]));

    const shopRows = await tx
      .insert(shops)
      .values(
        SHOPS.map(({ shop: [name, category, floor, location, openingHours], about }, index) => ({
          name,
          description: about,
          categoryId: need(categoryIds, category),
          floorId: need(floorIds, FLOORS[floor]),
          location,
          contact: contactFor(name, index),
          openingHours,
          hours: demoHours(name, openingHours, today),
          ...(pictures && { logoImage: pictures.logo(name), coverImage: pictures.cover(category) }),
        })),
      )
      .returning({ id: shops.id, name: shops.name });
    const shopIds = new Map(shopRows.map((row) => [row.name, row.id]));
    await tx
      .update(mallHours)
      .set({ hours: demoMallHours(today) })
      .where(eq(mallHours.id, 1));

    const offerRows = await tx
      .insert(offers)
      .values(
        SHOPS.flatMap(({ shop: [shopName], offers: list = [] }) =>
          list.map(([title, description, discount, start, end]) => ({
            shopId: need(shopIds, shopName),
            title,
            description,
            discount,
            startDate: addDays(today, start),
            endDate: addDays(today, end),
          })),
        ),
      )
      .returning({ id: offers.id, shopId: offers.shopId, title: offers.title });
    const offerIds = new Map(offerRows.map((row) => [`${row.shopId} ${row.title}`, row.id]));

    const productRows = await tx
      .insert(products)
      .values(
        SHOPS.flatMap(({ shop: [shopName, shopCategory], offers: list = [], products: items }) => {
          const shopId = need(shopIds, shopName);
          return items.map(([name, description, price, category, offer]) => {
            if (!PRICE.test(price)) throw new Error(`Demo price of ${name} needs two decimals: ${price}`);
            // A bad index yields the key '<shopId> undefined', which need() refuses.
            const offerId = offer === undefined ? null : need(offerIds, `${shopId} ${list[offer]?.[0]}`);
            const image = pictures?.photo(shopCategory, name) ?? null;
            return { shopId, name, description, price, category, offerId, image };
          });
        }),
      )
      .returning({ id: products.id });
    if (plans && images) await placeDemoFloorPlans(tx, images, plans);

    const eventRows = withEvents
      ? await tx
          .insert(events)
          .values(
            demoEvents(today).map(({ shop, place, endDate, repeat, ...event }) => ({
              ...event,
              shopId: shop === undefined ? null : need(shopIds, shop),
              placeKind: place.kind,
              placeFloorId: place.kind === 'floor' ? need(floorIds, place.floor) : null,
              placeAmenityId:
                place.kind === 'amenity'
                  ? need(amenityIds, `${need(floorIds, place.floor)} ${place.amenity}`)
                  : null,
              placeShopId: place.kind === 'shop' ? need(shopIds, place.shop) : null,
              endDate: endDate ?? event.startDate,
              repeat: repeat ?? null,
            })),
          )
          .returning({ id: events.id })
      : [];

    return {
      categories: categoryRows.length,
      floors: floorRows.length,
      shops: shopRows.length,
      products: productRows.length,
      offers: offerRows.length,
      events: eventRows.length,
    };
  });
}
