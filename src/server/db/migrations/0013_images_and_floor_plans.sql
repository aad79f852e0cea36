CREATE TABLE "image_variants" (
	"image_key" text NOT NULL,
	"name" text NOT NULL,
	"bytes" "bytea" NOT NULL,
	CONSTRAINT "image_variants_image_key_name_pk" PRIMARY KEY("image_key","name")
);
--> statement-breakpoint
CREATE TABLE "images" (
	"key" text PRIMARY KEY NOT NULL,
	"width" integer NOT NULL,
	"height" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "amenities" ADD COLUMN "pin_x" real;--> statement-breakpoint
ALTER TABLE "amenities" ADD COLUMN "pin_y" real;--> statement-breakpoint
ALTER TABLE "floors" ADD COLUMN "plan_image" text;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "image" text;--> statement-breakpoint
ALTER TABLE "shops" ADD COLUMN "logo_image" text;--> statement-breakpoint
ALTER TABLE "shops" ADD COLUMN "cover_image" text;--> statement-breakpoint
ALTER TABLE "shops" ADD COLUMN "pin_x" real;--> statement-breakpoint
ALTER TABLE "shops" ADD COLUMN "pin_y" real;--> statement-breakpoint
ALTER TABLE "image_variants" ADD CONSTRAINT "image_variants_image_key_images_key_fk" FOREIGN KEY ("image_key") REFERENCES "public"."images"("key") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "floors" ADD CONSTRAINT "floors_plan_image_images_key_fk" FOREIGN KEY ("plan_image") REFERENCES "public"."images"("key") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "products" ADD CONSTRAINT "products_image_images_key_fk" FOREIGN KEY ("image") REFERENCES "public"."images"("key") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "shops" ADD CONSTRAINT "shops_logo_image_images_key_fk" FOREIGN KEY ("logo_image") REFERENCES "public"."images"("key") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "shops" ADD CONSTRAINT "shops_cover_image_images_key_fk" FOREIGN KEY ("cover_image") REFERENCES "public"."images"("key") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "floors_plan_image_idx" ON "floors" USING btree ("plan_image") WHERE "floors"."plan_image" is not null;--> statement-breakpoint
CREATE INDEX "products_image_idx" ON "products" USING btree ("image") WHERE "products"."image" is not null;--> statement-breakpoint
CREATE INDEX "shops_logo_image_idx" ON "shops" USING btree ("logo_image") WHERE "shops"."logo_image" is not null;--> statement-breakpoint
CREATE INDEX "shops_cover_image_idx" ON "shops" USING btree ("cover_image") WHERE "shops"."cover_image" is not null;--> statement-breakpoint
ALTER TABLE "amenities" ADD CONSTRAINT "amenities_pin_check" CHECK (("amenities"."pin_x" is null) = ("amenities"."pin_y" is null) and "amenities"."pin_x" between 0 and 1 and "amenities"."pin_y" between 0 and 1);--> statement-breakpoint
ALTER TABLE "shops" ADD CONSTRAINT "shops_pin_check" CHECK (("shops"."pin_x" is null) = ("shops"."pin_y" is null) and "shops"."pin_x" between 0 and 1 and "shops"."pin_y" between 0 and 1);--> statement-breakpoint
-- hand-written below
-- An image no shop, product or floor refers to any more is deleted, with its variants (image_variants
-- cascades; files under MALL_DATA_DIR are removed by the server after the commit): docs/decisions/020.
-- The image's row is locked first, so two transactions each dropping the last-but-one reference cannot
-- both see the other's and keep it; an upload locks it too (INSERT … ON CONFLICT DO UPDATE).
CREATE FUNCTION images_release(released text) RETURNS void LANGUAGE plpgsql AS $$
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
    AND NOT EXISTS (SELECT 1 FROM floors WHERE plan_image = released);
END $$;
--> statement-breakpoint
CREATE FUNCTION shops_release_images() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' OR OLD.logo_image IS DISTINCT FROM NEW.logo_image THEN
    PERFORM images_release(OLD.logo_image);
  END IF;
  IF TG_OP = 'DELETE' OR OLD.cover_image IS DISTINCT FROM NEW.cover_image THEN
    PERFORM images_release(OLD.cover_image);
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER shops_release_images AFTER UPDATE OF logo_image, cover_image OR DELETE ON shops
  FOR EACH ROW EXECUTE FUNCTION shops_release_images();
--> statement-breakpoint
CREATE FUNCTION products_release_images() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' OR OLD.image IS DISTINCT FROM NEW.image THEN
    PERFORM images_release(OLD.image);
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER products_release_images AFTER UPDATE OF image OR DELETE ON products
  FOR EACH ROW EXECUTE FUNCTION products_release_images();
--> statement-breakpoint
CREATE FUNCTION floors_release_images() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' OR OLD.plan_image IS DISTINCT FROM NEW.plan_image THEN
    PERFORM images_release(OLD.plan_image);
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER floors_release_images AFTER UPDATE OF plan_image OR DELETE ON floors
  FOR EACH ROW EXECUTE FUNCTION floors_release_images();
