CREATE TABLE "mall_profile" (
	"id" smallint PRIMARY KEY DEFAULT 1 NOT NULL,
	"name" text DEFAULT 'Super Mall' NOT NULL,
	"street_address" text DEFAULT '' NOT NULL,
	"locality" text DEFAULT '' NOT NULL,
	"region" text DEFAULT '' NOT NULL,
	"postal_code" text DEFAULT '' NOT NULL,
	"country" text DEFAULT '' NOT NULL,
	"phone" text DEFAULT '' NOT NULL,
	"latitude" numeric(9, 6),
	"longitude" numeric(9, 6),
	"currency" text DEFAULT 'INR' NOT NULL,
	"logo_image" text,
	"public_url" text DEFAULT '' NOT NULL,
	"updated_at" timestamp with time zone,
	CONSTRAINT "mall_profile_single_row" CHECK ("mall_profile"."id" = 1),
	CONSTRAINT "mall_profile_position_check" CHECK (("mall_profile"."latitude" is null) = ("mall_profile"."longitude" is null))
);
--> statement-breakpoint
CREATE TABLE "shop_slug_redirects" (
	"slug" text PRIMARY KEY NOT NULL,
	"shop_id" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "categories" ADD COLUMN "schema_type" text DEFAULT 'Store' NOT NULL;--> statement-breakpoint
ALTER TABLE "shops" ADD COLUMN "slug" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "mall_profile" ADD CONSTRAINT "mall_profile_logo_image_images_key_fk" FOREIGN KEY ("logo_image") REFERENCES "public"."images"("key") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "shop_slug_redirects" ADD CONSTRAINT "shop_slug_redirects_shop_id_shops_id_fk" FOREIGN KEY ("shop_id") REFERENCES "public"."shops"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
-- hand-written below
-- Public directory (docs/decisions/034). A shop's slug: its name folded to lower-case ASCII words joined
-- by "-" (accents dropped by unaccent: "Café Noir" is cafe-noir), at most 60 characters, "shop" when
-- nothing is left (a name in another script), and "-2", "-3"… after it (the name cut shorter to keep 60)
-- while another shop has it live or as an old slug. Made by these triggers on every insert and rename,
-- whoever writes (API, import, CLI, psql), so no write path has to know.
CREATE FUNCTION shop_slug_base(name text) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE STRICT AS $$
  SELECT coalesce(
    nullif(btrim(left(btrim(regexp_replace(lower(public.unaccent('public.unaccent'::regdictionary, name)),
      '[^a-z0-9]+', '-', 'g'), '-'), 60), '-'), ''),
    'shop')
$$;
--> statement-breakpoint
-- The n-th choice for a base: the base itself, then the base cut to leave room for "-n" within 60.
CREATE FUNCTION shop_slug_numbered(base text, n integer) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE STRICT AS $$
  SELECT CASE WHEN n = 1 THEN base
    ELSE rtrim(left(base, 59 - length(n::text)), '-') || '-' || n::text END
$$;
--> statement-breakpoint
CREATE FUNCTION shop_slug_free(candidate text, shop uuid) RETURNS boolean LANGUAGE sql STABLE AS $$
  SELECT NOT EXISTS (SELECT 1 FROM shops WHERE slug = candidate AND id <> shop)
     AND NOT EXISTS (SELECT 1 FROM shop_slug_redirects WHERE slug = candidate AND shop_id <> shop)
$$;
--> statement-breakpoint
-- Slugs are chosen one transaction at a time: the one lock below, held to the transaction's end, so a
-- choice sees every committed one and no two transactions choose the same slug. One lock for all, not
-- one per name: "Pair" chosen twice and "Pair 2" want the same "pair-2", and a transaction that made
-- 80,000 shops with a lock per name ran out of the server's lock table ("out of shared memory"). Taken
-- before a statement touches any shop (the statement trigger below), and by a rename before it locks its
-- shop's row (shops/repository.ts), so that it is always taken before a shop's row lock: a rename and an
-- import changing the same shop wait for each other instead of deadlocking.
CREATE FUNCTION shop_slugs_lock() RETURNS void LANGUAGE sql VOLATILE AS $$
  SELECT pg_advisory_xact_lock(hashtext('shop_slugs'))
$$;
--> statement-breakpoint
CREATE FUNCTION shops_lock_slugs() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM shop_slugs_lock();
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION shops_set_slug() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  base text := shop_slug_base(NEW.name);
  candidate text := base;
  n integer := 1;
BEGIN
  IF TG_OP = 'UPDATE' AND NEW.name = OLD.name THEN
    NEW.slug := OLD.slug;
    RETURN NEW;
  END IF;
  -- Held already when the statement trigger ran; taken again (at no cost) should it not have.
  PERFORM shop_slugs_lock();
  -- The shop's own slug, or one of its own old ones, is free for it: a rename back takes its old slug.
  WHILE NOT shop_slug_free(candidate, NEW.id) LOOP
    n := n + 1;
    candidate := shop_slug_numbered(base, n);
  END LOOP;
  IF TG_OP = 'UPDATE' AND candidate <> OLD.slug THEN
    -- The old address keeps answering (a permanent redirect); the new one is live, not a redirect.
    INSERT INTO shop_slug_redirects (slug, shop_id) VALUES (OLD.slug, NEW.id) ON CONFLICT (slug) DO NOTHING;
    DELETE FROM shop_slug_redirects WHERE slug = candidate;
  END IF;
  NEW.slug := candidate;
  RETURN NEW;
END $$;
--> statement-breakpoint
-- Existing shops get their slugs in creation order (the oldest keeps the plain one).
DO $$
DECLARE
  shop record;
  base text;
  candidate text;
  n integer;
BEGIN
  FOR shop IN SELECT id, name FROM shops ORDER BY created_at, id LOOP
    base := shop_slug_base(shop.name);
    candidate := base;
    n := 1;
    WHILE EXISTS (SELECT 1 FROM shops WHERE slug = candidate) LOOP
      n := n + 1;
      candidate := shop_slug_numbered(base, n);
    END LOOP;
    UPDATE shops SET slug = candidate WHERE id = shop.id;
  END LOOP;
END $$;
--> statement-breakpoint
-- The backfill above left the shops' deferred catalogue-version triggers (constraint triggers, 0002)
-- pending, and no index can be built on a table with pending trigger events: they run now. Without this a
-- mall that had shops failed to migrate ("cannot CREATE INDEX "shops" because it has pending trigger events").
SET CONSTRAINTS ALL IMMEDIATE;
--> statement-breakpoint
CREATE UNIQUE INDEX "shops_slug_key" ON "shops" USING btree ("slug");
--> statement-breakpoint
CREATE TRIGGER shops_lock_slugs BEFORE INSERT OR UPDATE OF name ON shops
  FOR EACH STATEMENT EXECUTE FUNCTION shops_lock_slugs();
--> statement-breakpoint
CREATE TRIGGER shops_set_slug BEFORE INSERT OR UPDATE OF name, slug ON shops
  FOR EACH ROW EXECUTE FUNCTION shops_set_slug();
--> statement-breakpoint
CREATE INDEX "shop_slug_redirects_shop_id_idx" ON "shop_slug_redirects" ("shop_id");
--> statement-breakpoint
-- A slug change (a rename) is a directory change: cached pages and the sitemap name the new address.
CREATE CONSTRAINT TRIGGER "shop_slug_redirects_bump_catalog_version" AFTER INSERT OR UPDATE OR DELETE ON "shop_slug_redirects"
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION "bump_catalog_version"();
--> statement-breakpoint
-- The mall's one profile row exists from the start, so the write path only ever updates it.
INSERT INTO "mall_profile" ("id") VALUES (1);
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "mall_profile_bump_catalog_version" AFTER INSERT OR UPDATE OR DELETE ON "mall_profile"
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION "bump_catalog_version"();
--> statement-breakpoint
-- The mall's logo is an image like a shop's: kept while the profile refers to it (migration 0013).
CREATE OR REPLACE FUNCTION images_release(released text) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  IF released IS NULL THEN
    RETURN;
  END IF;
  PERFORM 1 FROM images WHERE key = released FOR UPDATE;
  DELETE FROM images
  WHERE key = released
    AND NOT EXISTS (SELECT 1 FROM shops WHERE logo_image = released)
    AND NOT EXISTS (SELECT 1 FROM shops WHERE cover_image = released)
    AND NOT EXISTS (SELECT 1 FROM products WHERE image = released)
    AND NOT EXISTS (SELECT 1 FROM floors WHERE plan_image = released)
    AND NOT EXISTS (SELECT 1 FROM mall_profile WHERE logo_image = released);
END $$;
--> statement-breakpoint
CREATE FUNCTION mall_profile_release_images() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF OLD.logo_image IS DISTINCT FROM NEW.logo_image THEN
    PERFORM images_release(OLD.logo_image);
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER mall_profile_release_images AFTER UPDATE OF logo_image ON mall_profile
  FOR EACH ROW EXECUTE FUNCTION mall_profile_release_images();