import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  check,
  customType,
  date,
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  primaryKey,
  real,
  smallint,
  text,
  time,
  timestamp,
  unique,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { AMENITY_KINDS } from '../../shared/amenity';
import type { EventProposal, EventRepeat } from '../../shared/event';
import type { OpeningHours } from '../../shared/hours';
import type { OfferProposal } from '../../shared/offer';

const id = () => uuid('id').primaryKey().defaultRandom();
const createdAt = () => timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow();

export const users = pgTable(
  'users',
  {
    id: id(),
    email: text('email').notNull(),
    role: text('role', { enum: ['user', 'admin'] })
      .notNull()
      .default('user'),
    displayName: text('display_name'),
    passwordHash: text('password_hash').notNull(),
    createdAt: createdAt(),
    lastLogin: timestamp('last_login', { withTimezone: true, mode: 'date' }),
  },
  (t) => [
    uniqueIndex('users_email_lower_key').on(sql`lower(${t.email})`),
    check('users_role_check', sql`${t.role} in ('user', 'admin')`),
  ],
);

export const sessions = pgTable(
  'sessions',
  {
    id: id(),
    /** sha-256 of the cookie's token: a database leak does not hand out live sessions. */
    tokenHash: text('token_hash').notNull().unique(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
  },
  (t) => [index('sessions_user_id_idx').on(t.userId)],
);

/**
 * Sign-in attempts that did not succeed, counted per email and client address, and per email over every
 * address (address '*'): the lockout counts here, before a password is checked, so it holds across
 * servers and against parallel guesses (auth/lockout.ts, docs/decisions/009).
 */
export const signInAttempts = pgTable(
  'sign_in_attempts',
  {
    email: text('email').notNull(),
    /** The client's address (request.ip), or '*' for the email's count over every address. */
    address: text('address').notNull(),
    failures: integer('failures').notNull().default(0),
    windowStartedAt: timestamp('window_started_at', { withTimezone: true, mode: 'date' })
      .notNull()
      .defaultNow(),
    lockedUntil: timestamp('locked_until', { withTimezone: true, mode: 'date' }),
  },
  (t) => [
    primaryKey({ columns: [t.email, t.address] }),
    index('sign_in_attempts_window_idx').on(t.windowStartedAt),
  ],
);

export const adminInvites = pgTable(
  'admin_invites',
  {
    id: id(),
    codeHash: text('code_hash').notNull().unique(),
    /** The code's last characters, so an admin can tell open invites apart without the secret. */
    codeHint: text('code_hint').notNull(),
    createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true, mode: 'date' }),
    usedBy: uuid('used_by').references(() => users.id, { onDelete: 'set null' }),
  },
  (t) => [index('admin_invites_open_idx').on(t.expiresAt).where(sql`${t.usedAt} is null`)],
);

/**
 * Category and floor names are unique by look, not by spelling: the server stores two keys of every name
 * (db/place-name-keys.ts: case, compatibility forms, invisible characters and look-alike letters folded
 * away) and each key is unique. A row written without them (plain SQL, a loader) gets a unique pending
 * key, and the server keys it at its next start (docs/decisions/011).
 */
const nameKey = (column: string) => text(column).notNull().default(sql`('pending:' || gen_random_uuid())`);

export const categories = pgTable(
  'categories',
  {
    id: id(),
    name: text('name').notNull(),
    nameKey: nameKey('name_key'),
    nameGlyphKey: nameKey('name_glyph_key'),
    /**
     * The schema.org type of this category's shops in the public directory's structured data: `Store` or
     * one of its subtypes (shared/structured-data.ts STORE_TYPES), set by admins (docs/decisions/034).
     */
    schemaType: text('schema_type').notNull().default('Store'),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('categories_name_key_key').on(t.nameKey),
    uniqueIndex('categories_name_glyph_key_key').on(t.nameGlyphKey),
    check('categories_name_check', sql`length(btrim(${t.name})) > 0`),
  ],
);

/**
 * An uploaded image, decoded and re-encoded by the server (docs/decisions/020). `key` is the image's
 * content address and dimensions ("<sha-256 base64url>-<width>x<height>"); its variants' bytes live in
 * files under MALL_DATA_DIR/images (embedded) or in image_variants (PostgreSQL). A row no shop, product
 * or floor refers to any more is deleted by a trigger (migration 0013), so nothing is left behind.
 */
export const images = pgTable('images', {
  key: text('key').primaryKey(),
  width: integer('width').notNull(),
  height: integer('height').notNull(),
  createdAt: createdAt(),
});

const bytea = customType<{ data: Buffer; driverData: Buffer }>({ dataType: () => 'bytea' });

/** The variants' bytes, when the images are stored in PostgreSQL (DATABASE_URL): shared by every server. */
export const imageVariants = pgTable(
  'image_variants',
  {
    imageKey: text('image_key')
      .notNull()
      .references(() => images.key, { onDelete: 'cascade' }),
    /** "480.webp": the nominal width and the format. */
    name: text('name').notNull(),
    bytes: bytea('bytes').notNull(),
  },
  (t) => [primaryKey({ columns: [t.imageKey, t.name] })],
);

/** A pin's place on a floor plan: fractions of the plan's width and height, 0 to 1. */
const pin = (name: string) => real(name);

export const floors = pgTable(
  'floors',
  {
    id: id(),
    name: text('name').notNull(),
    nameKey: nameKey('name_key'),
    nameGlyphKey: nameKey('name_glyph_key'),
    /**
     * Where the floor is in the building, and the order of every floor list: −1 Lower Ground, 0 Ground,
     * 1 First… Unique. A row inserted without one (plain SQL, a loader) is put one above the highest by
     * a trigger (migration 0008, docs/decisions/018).
     */
    level: integer('level').notNull(),
    /** The floor's plan, an uploaded image. */
    planImage: text('plan_image').references(() => images.key),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('floors_level_key').on(t.level),
    index('floors_plan_image_idx').on(t.planImage).where(sql`${t.planImage} is not null`),
    uniqueIndex('floors_name_key_key').on(t.nameKey),
    uniqueIndex('floors_name_glyph_key_key').on(t.nameGlyphKey),
    check('floors_name_check', sql`length(btrim(${t.name})) > 0`),
  ],
);

export const shops = pgTable(
  'shops',
  {
    id: id(),
    name: text('name').notNull(),
    /**
     * The shop's address in the public directory (`/shops/pixel-point`), made from its name by a trigger
     * on every insert and rename, unique among live slugs and old ones (migration 0016); an old slug goes
     * to shop_slug_redirects. Never written by the app.
     */
    slug: text('slug').notNull().default(''),
    description: text('description').notNull().default(''),
    categoryId: uuid('category_id')
      .notNull()
      .references(() => categories.id, { onDelete: 'restrict' }),
    floorId: uuid('floor_id')
      .notNull()
      .references(() => floors.id, { onDelete: 'restrict' }),
    location: text('location').notNull().default(''),
    contact: text('contact').notNull().default(''),
    openingHours: text('opening_hours').notNull().default(''),
    /** Structured hours (shared/hours.ts, docs/decisions/017); null: only the free text above. */
    hours: jsonb('hours').$type<OpeningHours>(),
    /** A code from outside (a tenant id): optional, unique in the mall; imports match by it (decision 022). */
    externalCode: text('external_code'),
    logoImage: text('logo_image').references(() => images.key),
    coverImage: text('cover_image').references(() => images.key),
    /** The shop's pin on its floor's plan (both or neither). */
    pinX: pin('pin_x'),
    pinY: pin('pin_y'),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('shops_external_code_key').on(t.externalCode),
    uniqueIndex('shops_slug_key').on(t.slug),
    index('shops_category_id_idx').on(t.categoryId),
    index('shops_logo_image_idx').on(t.logoImage).where(sql`${t.logoImage} is not null`),
    index('shops_cover_image_idx').on(t.coverImage).where(sql`${t.coverImage} is not null`),
    check(
      'shops_pin_check',
      sql`(${t.pinX} is null) = (${t.pinY} is null) and ${t.pinX} between 0 and 1 and ${t.pinY} between 0 and 1`,
    ),
    index('shops_floor_id_idx').on(t.floorId),
    // The list's order (name, any case) and its "name contains" search (pg_trgm, migration 0002).
    index('shops_name_order_idx').on(sql`lower(${t.name})`, t.name, t.id),
    index('shops_name_trgm_idx').using('gin', sql`${t.name} gin_trgm_ops`),
    check('shops_name_check', sql`length(btrim(${t.name})) > 0`),
  ],
);

/**
 * A shop's earlier slugs: each answers with a permanent redirect to the shop's page (docs/decisions/034).
 * Written by the slug trigger on a rename (migration 0016); they go with their shop.
 */
export const shopSlugRedirects = pgTable('shop_slug_redirects', {
  slug: text('slug').primaryKey(),
  shopId: uuid('shop_id')
    .notNull()
    .references(() => shops.id, { onDelete: 'cascade' }),
  createdAt: createdAt(),
});

/**
 * A floor's amenities (restrooms, lifts, ATMs…): a small list per floor, shown on the shoppers' Floors
 * page. They go with their floor when it is deleted (the floor's log entry names them).
 */
export const amenities = pgTable(
  'amenities',
  {
    id: id(),
    floorId: uuid('floor_id')
      .notNull()
      .references(() => floors.id, { onDelete: 'cascade' }),
    kind: text('kind').notNull(),
    location: text('location').notNull().default(''),
    pinX: pin('pin_x'),
    pinY: pin('pin_y'),
    createdAt: createdAt(),
  },
  (t) => [
    index('amenities_floor_id_idx').on(t.floorId),
    check(
      'amenities_pin_check',
      sql`(${t.pinX} is null) = (${t.pinY} is null) and ${t.pinX} between 0 and 1 and ${t.pinY} between 0 and 1`,
    ),
    // The kinds the app knows (shared/amenity.ts); a new kind is a new migration.
    check(
      'amenities_kind_check',
      sql`${t.kind} in (${sql.raw(AMENITY_KINDS.map((kind) => `'${kind}'`).join(', '))})`,
    ),
  ],
);

/** An offer runs from the start of start_date to the end of end_date in the mall's time zone. */
export const offers = pgTable(
  'offers',
  {
    id: id(),
    shopId: uuid('shop_id')
      .notNull()
      .references(() => shops.id, { onDelete: 'cascade' }),
    title: text('title').notNull(),
    description: text('description').notNull().default(''),
    discount: integer('discount').notNull(),
    startDate: date('start_date', { mode: 'string' }).notNull(),
    endDate: date('end_date', { mode: 'string' }).notNull(),
    createdAt: createdAt(),
    /**
     * Shoppers see an offer only once an admin approved it (docs/decisions/015). A shop manager's new
     * offer starts unapproved; a manager's change to an approved offer waits in `proposal` while the
     * approved terms stay live.
     */
    approved: boolean('approved').notNull().default(true),
    /** What awaits an admin: null (nothing), 'pending', or 'sent_back' (with `reviewComment`). */
    reviewState: text('review_state', { enum: ['pending', 'sent_back'] }),
    /** A manager's changes to an approved offer, not yet approved: a subset of the offer's terms. */
    proposal: jsonb('proposal').$type<OfferProposal>(),
    reviewComment: text('review_comment'),
    submittedBy: uuid('submitted_by').references(() => users.id, { onDelete: 'set null' }),
    submittedAt: timestamp('submitted_at', { withTimezone: true, mode: 'date' }),
  },
  (t) => [
    index('offers_shop_id_idx').on(t.shopId),
    index('offers_review_idx').on(t.submittedAt).where(sql`${t.reviewState} = 'pending'`),
    check('offers_review_state_check', sql`${t.reviewState} in ('pending', 'sent_back')`),
    index('offers_dates_idx').on(t.endDate, t.startDate),
    index('offers_title_trgm_idx').using('gin', sql`${t.title} gin_trgm_ops`),
    // Target of products' (offer_id, shop_id) foreign key: a product's offer belongs to its shop.
    unique('offers_id_shop_id_key').on(t.id, t.shopId),
    check('offers_discount_check', sql`${t.discount} between 1 and 100`),
    check('offers_dates_check', sql`${t.endDate} >= ${t.startDate}`),
    check('offers_title_check', sql`length(btrim(${t.title})) > 0`),
  ],
);

export const products = pgTable(
  'products',
  {
    id: id(),
    shopId: uuid('shop_id')
      .notNull()
      .references(() => shops.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    description: text('description').notNull().default(''),
    /** Exact money: numeric(12,2), read as a string, never a binary float. */
    price: numeric('price', { precision: 12, scale: 2 }).notNull(),
    category: text('category').notNull().default(''),
    /** (offer_id, shop_id) → offers(id, shop_id) ON DELETE SET NULL (offer_id): see migration 0001. */
    offerId: uuid('offer_id'),
    /** A code from outside (a SKU): optional, unique within its shop; imports match by it (decision 022). */
    externalCode: text('external_code'),
    image: text('image').references(() => images.key),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('products_shop_external_code_key').on(t.shopId, t.externalCode),
    index('products_shop_id_idx').on(t.shopId),
    index('products_image_idx').on(t.image).where(sql`${t.image} is not null`),
    index('products_offer_id_idx').on(t.offerId),
    index('products_name_order_idx').on(sql`lower(${t.name})`, t.name, t.id),
    // "name contains", any case: lower(name) LIKE lower(pattern) (migration 0003). On lower(name), so the
    // name-ordered index above can test a row from its own lower(name) key in an index-only scan.
    index('products_name_lower_trgm_idx').using('gin', sql`lower(${t.name}) gin_trgm_ops`),
    check('products_price_check', sql`${t.price} >= 0`),
    check('products_name_check', sql`length(btrim(${t.name})) > 0`),
  ],
);

/**
 * The mall's own opening hours (shared/hours.ts): one row, set by admins; they bound every shop's. A
 * change raises the catalogue version (migration 0009's trigger): cached shop lists filtered by "open at"
 * depend on them.
 */
export const mallHours = pgTable(
  'mall_hours',
  {
    id: smallint('id').primaryKey().default(1),
    hours: jsonb('hours').$type<OpeningHours>(),
    updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }),
  },
  (t) => [check('mall_hours_single_row', sql`${t.id} = 1`)],
);

/**
 * The mall's own profile (shared/mall-profile.ts): one row, set by admins, used by the public directory's
 * pages, its structured data and the sitemap. A change raises the catalogue version (migration 0016).
 */
export const mallProfile = pgTable(
  'mall_profile',
  {
    id: smallint('id').primaryKey().default(1),
    name: text('name').notNull().default('Super Mall'),
    streetAddress: text('street_address').notNull().default(''),
    locality: text('locality').notNull().default(''),
    region: text('region').notNull().default(''),
    postalCode: text('postal_code').notNull().default(''),
    /** ISO 3166-1 alpha-2, or empty. */
    country: text('country').notNull().default(''),
    phone: text('phone').notNull().default(''),
    latitude: numeric('latitude', { precision: 9, scale: 6, mode: 'number' }),
    longitude: numeric('longitude', { precision: 9, scale: 6, mode: 'number' }),
    /** ISO 4217: the prices' currency in the structured data. */
    currency: text('currency').notNull().default('INR'),
    logoImage: text('logo_image').references(() => images.key),
    /** Where the mall's site is on the web (https://…), the base of canonical URLs and the sitemap; empty: the request's own. */
    publicUrl: text('public_url').notNull().default(''),
    updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }),
  },
  (t) => [
    check('mall_profile_single_row', sql`${t.id} = 1`),
    check('mall_profile_position_check', sql`(${t.latitude} is null) = (${t.longitude} is null)`),
  ],
);

/**
 * One row: a number that every committed change to the directory (categories, floors, shops, products,
 * offers) raises, by deferred triggers (migration 0002). Cached reads are valid while it is unchanged —
 * on every server sharing the database. See docs/decisions/005.
 */
export const catalogVersion = pgTable(
  'catalog_version',
  {
    id: smallint('id').primaryKey().default(1),
    version: bigint('version', { mode: 'number' }).notNull().default(0),
  },
  (t) => [check('catalog_version_single_row', sql`${t.id} = 1`)],
);

/**
 * The audit log (shared/audit.ts): one row per change to the mall, written by the one write path
 * (write-path.ts) in the change's own transaction. Append-only: triggers refuse UPDATE, TRUNCATE and any
 * DELETE but the one `npm run audit:prune` makes (migration 0006).
 */
export const auditLog = pgTable(
  'audit_log',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    at: timestamp('at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    /** No foreign key: the log outlives the account. */
    actorId: uuid('actor_id'),
    actorEmail: text('actor_email').notNull(),
    entityType: text('entity_type').notNull(),
    entityId: uuid('entity_id'),
    entityName: text('entity_name').notNull(),
    action: text('action').notNull(),
    changes: jsonb('changes').$type<Record<string, { before: unknown; after: unknown }>>().notNull(),
    detail: jsonb('detail').$type<Record<string, unknown>>(),
    /** The shop the record is or belongs to: a shop manager reads their own shop's history by it. */
    shopId: uuid('shop_id'),
  },
  // Few indexes, cheap to keep up: every admin write inserts here. Newest first is the primary key
  // backwards (ids follow insertion); dates by a BRIN index (the table is appended in time order).
  (t) => [
    index('audit_log_at_brin').using('brin', t.at),
    index('audit_log_entity_idx').on(t.entityId),
    index('audit_log_actor_idx').on(t.actorId),
    index('audit_log_shop_idx').on(t.shopId),
  ],
);

/**
 * Shop managers (issue 14): a user account with a membership in a shop may keep that shop's page,
 * products and offers current. Read with every session lookup, so removing one takes effect on the
 * next request on every server.
 */
export const shopManagers = pgTable(
  'shop_managers',
  {
    id: id(),
    shopId: uuid('shop_id')
      .notNull()
      .references(() => shops.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('shop_managers_user_shop_key').on(t.userId, t.shopId),
    index('shop_managers_shop_idx').on(t.shopId),
  ],
);

/** One-time links an admin gives a shop's contact to become its manager (like admin invites: hash only). */
export const managerInvites = pgTable(
  'manager_invites',
  {
    id: id(),
    shopId: uuid('shop_id')
      .notNull()
      .references(() => shops.id, { onDelete: 'cascade' }),
    codeHash: text('code_hash').notNull().unique(),
    codeHint: text('code_hint').notNull(),
    createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true, mode: 'date' }),
    usedBy: uuid('used_by').references(() => users.id, { onDelete: 'set null' }),
  },
  (t) => [index('manager_invites_shop_idx').on(t.shopId)],
);

/**
 * A bulk import (docs/decisions/022): the uploaded file and its preview stay here until the admin
 * confirms, so a person can leave and come back; a confirmed run records its progress and result.
 * Deleted with nothing: the audit log names the run by its id.
 */
export const importRuns = pgTable(
  'import_runs',
  {
    id: id(),
    /** The kinds of shared/transfer.ts IMPORT_KINDS (events and synonyms since migration 0019). */
    kind: text('kind', { enum: ['shops', 'products', 'offers', 'events', 'synonyms'] }).notNull(),
    fileName: text('file_name').notNull(),
    /** The file as UTF-8 text (BOM removed): the confirm step reads it again inside its transaction. */
    content: text('content').notNull(),
    /** checking → previewed → running → done | failed (a failed run wrote nothing). */
    status: text('status', { enum: ['checking', 'previewed', 'running', 'done', 'failed'] }).notNull(),
    validOnly: boolean('valid_only').notNull().default(false),
    rowsTotal: integer('rows_total').notNull().default(0),
    rowsChecked: integer('rows_checked').notNull().default(0),
    /** The preview: counts, refused rows with their messages, rows matched by name, places to create. */
    preview: jsonb('preview').$type<Record<string, unknown>>(),
    /** What the confirmed run did (counts), or why it failed. */
    result: jsonb('result').$type<Record<string, unknown>>(),
    createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdByEmail: text('created_by_email').notNull(),
    createdAt: createdAt(),
    finishedAt: timestamp('finished_at', { withTimezone: true, mode: 'date' }),
    /**
     * The lease of a run being checked or written (decision 022): the server working on it renews it every
     * few seconds; a run whose heartbeat is older than the lease was interrupted (its server stopped).
     */
    heartbeatAt: timestamp('heartbeat_at', { withTimezone: true, mode: 'date' }),
  },
  (t) => [
    index('import_runs_created_idx').on(t.createdAt),
    check('import_runs_kind_check', sql`${t.kind} in ('shops', 'products', 'offers', 'events', 'synonyms')`),
    check(
      'import_runs_status_check',
      sql`${t.status} in ('checking', 'previewed', 'running', 'done', 'failed')`,
    ),
  ],
);

/**
 * A confirmed import's rows, staged in short transactions while its file is checked, then published
 * into the mall's tables by one set-based transaction (decision 022). Bookkeeping: a run's staged rows
 * are deleted once it is done or failed; nobody reads them but the publishing step.
 */
export const importStagedRows = pgTable(
  'import_staged_rows',
  {
    runId: uuid('run_id')
      .notNull()
      .references(() => importRuns.id, { onDelete: 'cascade' }),
    seq: integer('seq').notNull(),
    /** create | update */
    action: text('action', { enum: ['create', 'update'] }).notNull(),
    /** The record's id: a new one for a create. */
    entityId: uuid('entity_id').notNull(),
    shopId: uuid('shop_id'),
    entityName: text('entity_name').notNull(),
    /** The target table's columns (snake_case keys, read by jsonb_populate_record). */
    values: jsonb('values').$type<Record<string, unknown>>().notNull(),
    /** The audit entry's changes (write-path.ts changedFields). */
    changes: jsonb('changes').$type<Record<string, unknown>>().notNull(),
  },
  (t) => [primaryKey({ columns: [t.runId, t.seq] })],
);

/**
 * Insights (docs/decisions/035): how often shoppers did something, per mall day and hour, per item —
 * nothing about who. Each server counts in memory and adds its counts in one statement every few
 * seconds (modules/insights/counter.ts). `subject` is the item's id, a search's text once enough
 * sessions typed it, or '' (no item; a search too rare to keep).
 */
export const insightCounts = pgTable(
  'insight_counts',
  {
    day: date('day', { mode: 'string' }).notNull(),
    hour: smallint('hour').notNull(),
    metric: text('metric').notNull(),
    subject: text('subject').notNull(),
    n: bigint('n', { mode: 'number' }).notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.day, t.hour, t.metric, t.subject] }),
    index('insight_counts_metric_day_idx').on(t.metric, t.day),
    // No CHECK on n: a text kept once enough sessions typed it moves its counts from '' with a negative
    // increment, and PostgreSQL checks a CHECK on the row proposed before ON CONFLICT turns it into an update.
    check('insight_counts_hour_check', sql`${t.hour} between 0 and 23`),
  ],
);

/**
 * Search synonyms (docs/decisions/035): a search for `term` (folded, unique) searches `replacement`
 * instead. A change raises the catalogue version (migration 0017), so every server's search uses it at once.
 */
export const searchSynonyms = pgTable('search_synonyms', {
  id: id(),
  term: text('term').notNull().unique('search_synonyms_term_key'),
  replacement: text('replacement').notNull(),
  createdAt: createdAt(),
});

/**
 * The mall's and the shops' events (issue 35, docs/decisions/036). Dates and times are wall-clock in the
 * mall's time zone; a repeat is a rule (shared/event.ts EventRepeat) the server expands. Approval works
 * as the offers' (docs/decisions/015): a shop manager's new event starts unapproved, a change to an
 * approved one waits in `proposal` while the approved terms stay live.
 */
export const events = pgTable(
  'events',
  {
    id: id(),
    /** The organizing shop; null: the mall's own event. */
    shopId: uuid('shop_id').references(() => shops.id, { onDelete: 'cascade' }),
    title: text('title').notNull(),
    description: text('description').notNull().default(''),
    placeKind: text('place_kind', { enum: ['mall', 'floor', 'amenity', 'shop'] }).notNull(),
    placeFloorId: uuid('place_floor_id').references(() => floors.id, { onDelete: 'cascade' }),
    placeAmenityId: uuid('place_amenity_id').references(() => amenities.id, { onDelete: 'cascade' }),
    placeShopId: uuid('place_shop_id').references(() => shops.id, { onDelete: 'cascade' }),
    allDay: boolean('all_day').notNull().default(false),
    startDate: date('start_date', { mode: 'string' }).notNull(),
    startTime: time('start_time'),
    endDate: date('end_date', { mode: 'string' }).notNull(),
    endTime: time('end_time'),
    tags: text('tags').array().notNull().default(sql`'{}'::text[]`),
    repeat: jsonb('repeat').$type<EventRepeat>(),
    status: text('status', { enum: ['scheduled', 'cancelled'] })
      .notNull()
      .default('scheduled'),
    image: text('image').references(() => images.key),
    createdAt: createdAt(),
    approved: boolean('approved').notNull().default(true),
    reviewState: text('review_state', { enum: ['pending', 'sent_back'] }),
    proposal: jsonb('proposal').$type<EventProposal>(),
    reviewComment: text('review_comment'),
    submittedBy: uuid('submitted_by').references(() => users.id, { onDelete: 'set null' }),
    submittedAt: timestamp('submitted_at', { withTimezone: true, mode: 'date' }),
  },
  (t) => [
    index('events_shop_id_idx').on(t.shopId),
    index('events_place_floor_idx').on(t.placeFloorId),
    index('events_place_amenity_idx').on(t.placeAmenityId),
    index('events_place_shop_idx').on(t.placeShopId),
    index('events_image_idx').on(t.image).where(sql`${t.image} is not null`),
    index('events_review_idx').on(t.submittedAt).where(sql`${t.reviewState} = 'pending'`),
    index('events_tags_idx').using('gin', t.tags),
    check('events_review_state_check', sql`${t.reviewState} in ('pending', 'sent_back')`),
    check('events_status_check', sql`${t.status} in ('scheduled', 'cancelled')`),
    check('events_title_check', sql`length(btrim(${t.title})) > 0`),
    check(
      'events_place_check',
      sql`case ${t.placeKind}
        when 'mall' then ${t.placeFloorId} is null and ${t.placeAmenityId} is null and ${t.placeShopId} is null
        when 'floor' then ${t.placeFloorId} is not null and ${t.placeAmenityId} is null and ${t.placeShopId} is null
        when 'amenity' then ${t.placeAmenityId} is not null and ${t.placeFloorId} is null and ${t.placeShopId} is null
        when 'shop' then ${t.placeShopId} is not null and ${t.placeFloorId} is null and ${t.placeAmenityId} is null
        else false end`,
    ),
    check(
      'events_times_check',
      sql`case when ${t.allDay} then ${t.startTime} is null and ${t.endTime} is null and ${t.endDate} >= ${t.startDate}
        else ${t.startTime} is not null and ${t.endTime} is not null and (${t.endDate} + ${t.endTime}) > (${t.startDate} + ${t.startTime}) end`,
    ),
  ],
);
