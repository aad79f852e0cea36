CREATE TABLE "events" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"shop_id" uuid,
	"title" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"place_kind" text NOT NULL,
	"place_floor_id" uuid,
	"place_amenity_id" uuid,
	"place_shop_id" uuid,
	"all_day" boolean DEFAULT false NOT NULL,
	"start_date" date NOT NULL,
	"start_time" time,
	"end_date" date NOT NULL,
	"end_time" time,
	"tags" text[] DEFAULT '{}'::text[] NOT NULL,
	"repeat" jsonb,
	"status" text DEFAULT 'scheduled' NOT NULL,
	"image" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"approved" boolean DEFAULT true NOT NULL,
	"review_state" text,
	"proposal" jsonb,
	"review_comment" text,
	"submitted_by" uuid,
	"submitted_at" timestamp with time zone,
	CONSTRAINT "events_review_state_check" CHECK ("events"."review_state" in ('pending', 'sent_back')),
	CONSTRAINT "events_status_check" CHECK ("events"."status" in ('scheduled', 'cancelled')),
	CONSTRAINT "events_title_check" CHECK (length(btrim("events"."title")) > 0),
	CONSTRAINT "events_place_check" CHECK (case "events"."place_kind"
        when 'mall' then "events"."place_floor_id" is null and "events"."place_amenity_id" is null and "events"."place_shop_id" is null
        when 'floor' then "events"."place_floor_id" is not null and "events"."place_amenity_id" is null and "events"."place_shop_id" is null
        when 'amenity' then "events"."place_amenity_id" is not null and "events"."place_floor_id" is null and "events"."place_shop_id" is null
        when 'shop' then "events"."place_shop_id" is not null and "events"."place_floor_id" is null and "events"."place_amenity_id" is null
        else false end),
	CONSTRAINT "events_times_check" CHECK (case when "events"."all_day" then "events"."start_time" is null and "events"."end_time" is null and "events"."end_date" >= "events"."start_date"
        else "events"."start_time" is not null and "events"."end_time" is not null and ("events"."end_date" + "events"."end_time") > ("events"."start_date" + "events"."start_time") end)
);
--> statement-breakpoint
ALTER TABLE "events" ADD CONSTRAINT "events_shop_id_shops_id_fk" FOREIGN KEY ("shop_id") REFERENCES "public"."shops"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "events" ADD CONSTRAINT "events_place_floor_id_floors_id_fk" FOREIGN KEY ("place_floor_id") REFERENCES "public"."floors"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "events" ADD CONSTRAINT "events_place_amenity_id_amenities_id_fk" FOREIGN KEY ("place_amenity_id") REFERENCES "public"."amenities"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "events" ADD CONSTRAINT "events_place_shop_id_shops_id_fk" FOREIGN KEY ("place_shop_id") REFERENCES "public"."shops"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "events" ADD CONSTRAINT "events_image_images_key_fk" FOREIGN KEY ("image") REFERENCES "public"."images"("key") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "events" ADD CONSTRAINT "events_submitted_by_users_id_fk" FOREIGN KEY ("submitted_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "events_shop_id_idx" ON "events" USING btree ("shop_id");--> statement-breakpoint
CREATE INDEX "events_place_floor_idx" ON "events" USING btree ("place_floor_id");--> statement-breakpoint
CREATE INDEX "events_place_amenity_idx" ON "events" USING btree ("place_amenity_id");--> statement-breakpoint
CREATE INDEX "events_place_shop_idx" ON "events" USING btree ("place_shop_id");--> statement-breakpoint
CREATE INDEX "events_image_idx" ON "events" USING btree ("image") WHERE "events"."image" is not null;--> statement-breakpoint
CREATE INDEX "events_review_idx" ON "events" USING btree ("submitted_at") WHERE "events"."review_state" = 'pending';--> statement-breakpoint
CREATE INDEX "events_tags_idx" ON "events" USING gin ("tags");--> statement-breakpoint
-- Shoppers read events through the read cache: every write to them raises the catalogue version (0002).
CREATE CONSTRAINT TRIGGER "events_bump_catalog_version" AFTER INSERT OR UPDATE OR DELETE ON "events"
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION "bump_catalog_version"();
--> statement-breakpoint
-- An event's image is one more reference an image row keeps (0013, 0016).
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
    AND NOT EXISTS (SELECT 1 FROM mall_profile WHERE logo_image = released)
    AND NOT EXISTS (SELECT 1 FROM events WHERE image = released);
END $$;
--> statement-breakpoint
CREATE FUNCTION events_release_images() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' OR OLD.image IS DISTINCT FROM NEW.image THEN
    PERFORM images_release(OLD.image);
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER events_release_images AFTER UPDATE OF image OR DELETE ON events
  FOR EACH ROW EXECUTE FUNCTION events_release_images();