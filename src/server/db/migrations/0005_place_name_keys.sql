-- Category and floor names become unique by two keys of the name that the server computes (case,
-- compatibility forms, invisible characters and Unicode look-alikes folded: db/place-name-keys.ts) instead
-- of lower(name). SQL cannot compute them: existing rows get unique pending keys here, and the server
-- keys every row right after the migrations, at each start (docs/decisions/011).
DROP INDEX "categories_name_lower_key";--> statement-breakpoint
DROP INDEX "floors_name_lower_key";--> statement-breakpoint
ALTER TABLE "categories" ADD COLUMN "name_key" text DEFAULT ('pending:' || gen_random_uuid()) NOT NULL;--> statement-breakpoint
ALTER TABLE "categories" ADD COLUMN "name_glyph_key" text DEFAULT ('pending:' || gen_random_uuid()) NOT NULL;--> statement-breakpoint
ALTER TABLE "floors" ADD COLUMN "name_key" text DEFAULT ('pending:' || gen_random_uuid()) NOT NULL;--> statement-breakpoint
ALTER TABLE "floors" ADD COLUMN "name_glyph_key" text DEFAULT ('pending:' || gen_random_uuid()) NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "categories_name_key_key" ON "categories" USING btree ("name_key");--> statement-breakpoint
CREATE UNIQUE INDEX "categories_name_glyph_key_key" ON "categories" USING btree ("name_glyph_key");--> statement-breakpoint
CREATE UNIQUE INDEX "floors_name_key_key" ON "floors" USING btree ("name_key");--> statement-breakpoint
CREATE UNIQUE INDEX "floors_name_glyph_key_key" ON "floors" USING btree ("name_glyph_key");