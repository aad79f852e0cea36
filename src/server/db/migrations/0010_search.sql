-- hand-written below
-- The mall-wide search (modules/search, docs/decisions/016). unaccent is a trusted extension
-- (PostgreSQL 13+), like pg_trgm; PGlite loads it in the worker (db/pglite-worker.ts).
CREATE EXTENSION IF NOT EXISTS unaccent WITH SCHEMA public;
--> statement-breakpoint
-- What search compares: lower case, accents gone ("Café" and "cafe" are one word). unaccent() is only
-- STABLE (its dictionary could change), so an index cannot use it directly; naming the dictionary makes
-- the result depend on the arguments alone, which is what IMMUTABLE promises. Reindex the indexes below
-- after changing unaccent's rules file
-- (and UPDATE the search_* columns below to refold).
CREATE FUNCTION "mall_fold"(text) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE STRICT
  AS $$ SELECT lower(public.unaccent('public.unaccent'::regdictionary, $1)) $$;
--> statement-breakpoint
-- The folded text the search compares, stored beside each searched column (generated, so no write path
-- has to know): the trigram index rechecks and the ranking read it instead of folding every row again
-- (unaccent costs microseconds per call, thousands of calls per search). Not in schema.ts on purpose:
-- nothing but the search reads them, and drizzle-kit would add them before mall_fold exists.
ALTER TABLE "shops" ADD COLUMN "search_name" text GENERATED ALWAYS AS ("mall_fold"("name")) STORED;
--> statement-breakpoint
ALTER TABLE "shops" ADD COLUMN "search_description" text GENERATED ALWAYS AS ("mall_fold"("description")) STORED;
--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "search_name" text GENERATED ALWAYS AS ("mall_fold"("name")) STORED;
--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "search_category" text GENERATED ALWAYS AS ("mall_fold"("category")) STORED;
--> statement-breakpoint
ALTER TABLE "offers" ADD COLUMN "search_title" text GENERATED ALWAYS AS ("mall_fold"("title")) STORED;
--> statement-breakpoint
CREATE INDEX "shops_search_name_trgm_idx" ON "shops" USING gin ("search_name" gin_trgm_ops);
--> statement-breakpoint
CREATE INDEX "shops_search_description_trgm_idx" ON "shops" USING gin ("search_description" gin_trgm_ops);
--> statement-breakpoint
CREATE INDEX "products_search_name_trgm_idx" ON "products" USING gin ("search_name" gin_trgm_ops);
--> statement-breakpoint
CREATE INDEX "products_search_category_trgm_idx" ON "products" USING gin ("search_category" gin_trgm_ops);
--> statement-breakpoint
CREATE INDEX "offers_search_title_trgm_idx" ON "offers" USING gin ("search_title" gin_trgm_ops);
--> statement-breakpoint
-- The mall's words (shop, category and product names, product categories), folded: what a mistyped word
-- is corrected to. Filled by statement triggers as rows are written, so reading the list costs nothing
-- like splitting 200,000 names. Words are never removed (a word gone from the mall corrects to nothing
-- found); the server reads the list once per directory version.
CREATE TABLE "search_words" ("word" text PRIMARY KEY);
--> statement-breakpoint
CREATE FUNCTION "search_words_of_shops"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "search_words" ("word")
    SELECT DISTINCT w FROM "new_rows", regexp_split_to_table("new_rows"."search_name", '[^[:alnum:]]+') AS w
     WHERE length(w) >= 2
  ON CONFLICT DO NOTHING;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE FUNCTION "search_words_of_categories"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "search_words" ("word")
    SELECT DISTINCT w FROM "new_rows", regexp_split_to_table("mall_fold"("new_rows"."name"), '[^[:alnum:]]+') AS w
     WHERE length(w) >= 2
  ON CONFLICT DO NOTHING;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE FUNCTION "search_words_of_products"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "search_words" ("word")
    SELECT DISTINCT w
      FROM (SELECT DISTINCT "search_name" || ' ' || "search_category" AS v FROM "new_rows") AS names,
           regexp_split_to_table(names.v, '[^[:alnum:]]+') AS w
     WHERE length(w) >= 2
  ON CONFLICT DO NOTHING;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER "shops_search_words_insert" AFTER INSERT ON "shops"
  REFERENCING NEW TABLE AS "new_rows" FOR EACH STATEMENT EXECUTE FUNCTION "search_words_of_shops"();
--> statement-breakpoint
CREATE TRIGGER "shops_search_words_update" AFTER UPDATE ON "shops"
  REFERENCING NEW TABLE AS "new_rows" FOR EACH STATEMENT EXECUTE FUNCTION "search_words_of_shops"();
--> statement-breakpoint
CREATE TRIGGER "categories_search_words_insert" AFTER INSERT ON "categories"
  REFERENCING NEW TABLE AS "new_rows" FOR EACH STATEMENT EXECUTE FUNCTION "search_words_of_categories"();
--> statement-breakpoint
CREATE TRIGGER "categories_search_words_update" AFTER UPDATE ON "categories"
  REFERENCING NEW TABLE AS "new_rows" FOR EACH STATEMENT EXECUTE FUNCTION "search_words_of_categories"();
--> statement-breakpoint
CREATE TRIGGER "products_search_words_insert" AFTER INSERT ON "products"
  REFERENCING NEW TABLE AS "new_rows" FOR EACH STATEMENT EXECUTE FUNCTION "search_words_of_products"();
--> statement-breakpoint
CREATE TRIGGER "products_search_words_update" AFTER UPDATE ON "products"
  REFERENCING NEW TABLE AS "new_rows" FOR EACH STATEMENT EXECUTE FUNCTION "search_words_of_products"();
--> statement-breakpoint
INSERT INTO "search_words" ("word")
  SELECT DISTINCT w FROM (
    SELECT "search_name" AS v FROM "shops"
    UNION SELECT "mall_fold"("name") FROM "categories"
    UNION SELECT "search_name" || ' ' || "search_category" FROM "products") AS names,
    regexp_split_to_table(names.v, '[^[:alnum:]]+') AS w
   WHERE length(w) >= 2
  ON CONFLICT DO NOTHING;
