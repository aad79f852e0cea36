CREATE TABLE "amenities" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"floor_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"location" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "amenities_kind_check" CHECK ("amenities"."kind" in ('information-desk', 'restrooms', 'accessible-restroom', 'baby-care', 'lift', 'escalator', 'atm', 'food-court', 'prayer-room', 'first-aid', 'drinking-water', 'parking-entrance'))
);
--> statement-breakpoint
ALTER TABLE "floors" ADD COLUMN "level" integer;--> statement-breakpoint
ALTER TABLE "amenities" ADD CONSTRAINT "amenities_floor_id_floors_id_fk" FOREIGN KEY ("floor_id") REFERENCES "public"."floors"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "amenities_floor_id_idx" ON "amenities" USING btree ("floor_id");
--> statement-breakpoint
-- hand-written below
-- (drizzle-kit wrote `ADD COLUMN "level" integer NOT NULL` and the unique index "floors_level_key" above;
-- both are moved down here, after existing floors have their levels. On regenerating, do the same.)
--
-- Existing floors get a level from their name: "Lower Ground" / "Basement" / "LG" −1, "Basement 2" −2,
-- "Ground" / "G" 0, "First" / "1st" / "Level 1" / "Floor 1" 1, and so on to "Tenth". A level two names
-- claim goes to the first by name; names not recognised ("Rooftop", "Mezzanine") follow the highest
-- recognised level, by name (docs/decisions/018).
WITH named AS (
  SELECT "id", lower(regexp_replace("name", '[^[:alnum:]]+', ' ', 'g')) AS n, lower("name") AS sort_name
  FROM "floors"
),
guessed AS (
  SELECT "id", sort_name,
    CASE
      WHEN n ~ '\m(upper ground|mezzanine)\M' THEN NULL
      WHEN n ~ '\m(b2|basement 2|second basement|lower basement)\M' THEN -2
      WHEN n ~ '\m(lower ground|lg|b1|basement 1|basement|underground|lower level)\M' THEN -1
      WHEN n ~ '\m(ground|g|gf|ground level|street level)\M' THEN 0
      WHEN n ~ '\m(first|1st)\M' THEN 1
      WHEN n ~ '\m(second|2nd)\M' THEN 2
      WHEN n ~ '\m(third|3rd)\M' THEN 3
      WHEN n ~ '\m(fourth|4th)\M' THEN 4
      WHEN n ~ '\m(fifth|5th)\M' THEN 5
      WHEN n ~ '\m(sixth|6th)\M' THEN 6
      WHEN n ~ '\m(seventh|7th)\M' THEN 7
      WHEN n ~ '\m(eighth|8th)\M' THEN 8
      WHEN n ~ '\m(ninth|9th)\M' THEN 9
      WHEN n ~ '\m(tenth|10th)\M' THEN 10
      WHEN n ~ '\m(level|floor|l|f) ?[0-9]{1,3}\M' THEN substring(n from '\m(?:level|floor|l|f) ?([0-9]{1,3})\M')::integer
      WHEN n ~ '^[0-9]{1,3}$' THEN n::integer
      ELSE NULL
    END AS guess
  FROM named
),
kept AS (
  SELECT "id", sort_name,
    CASE WHEN guess IS NOT NULL AND row_number() OVER (PARTITION BY guess ORDER BY sort_name, "id") = 1
      THEN guess END AS guess
  FROM guessed
),
numbered AS (
  SELECT "id",
    coalesce(
      guess,
      (SELECT coalesce(max(guess), -1) FROM kept)
        + row_number() OVER (PARTITION BY guess IS NULL ORDER BY sort_name, "id")
    ) AS level
  FROM kept
)
UPDATE "floors" SET "level" = numbered.level FROM numbered WHERE "floors"."id" = numbered."id";
--> statement-breakpoint
-- The update queued the catalogue version's deferred trigger; ALTER TABLE refuses a table with pending
-- trigger events, so they run now, and the trigger is deferred again for the rest of the migrations.
SET CONSTRAINTS "floors_bump_catalog_version" IMMEDIATE;
--> statement-breakpoint
SET CONSTRAINTS "floors_bump_catalog_version" DEFERRED;
--> statement-breakpoint
ALTER TABLE "floors" ALTER COLUMN "level" SET NOT NULL;
--> statement-breakpoint
CREATE UNIQUE INDEX "floors_level_key" ON "floors" USING btree ("level");
--> statement-breakpoint
-- A floor inserted without a level (plain SQL, a loader; the API's add-a-floor without one) goes one
-- above the highest. The lock makes two such inserts at once take turns instead of both picking the same
-- level; the query after it sees the other's committed row (a new snapshot per statement).
CREATE FUNCTION "floors_default_level"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW."level" IS NULL THEN
    PERFORM pg_advisory_xact_lock(hashtext('floors.level'));
    SELECT coalesce(max("level"), -1) + 1 INTO NEW."level" FROM "floors";
  END IF;
  RETURN NEW;
END
$$;
--> statement-breakpoint
CREATE TRIGGER "floors_default_level" BEFORE INSERT ON "floors"
  FOR EACH ROW EXECUTE FUNCTION "floors_default_level"();
--> statement-breakpoint
-- Amenities are on the shoppers' Floors page, a cached read: every change raises the catalogue version
-- (migration 0002).
CREATE CONSTRAINT TRIGGER "amenities_bump_catalog_version" AFTER INSERT OR UPDATE OR DELETE ON "amenities"
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION "bump_catalog_version"();
