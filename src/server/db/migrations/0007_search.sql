-- hand-written below
-- The mall-wide search (modules/search, docs/decisions/016). unaccent is a trusted extension
-- (PostgreSQL 13+), like pg_trgm; PGlite loads it in the worker (db/pglite-worker.ts).
CREATE EXTENSION IF NOT EXISTS unaccent WITH SCHEMA public;
--> statement-breakpoint
-- What search compares: lower case, accents gone ("Café" and "cafe" are one word). unaccent() is only
-- STABLE (its dictionary could change), so an index cannot use it directly; naming the dictionary makes
-- the result depend on the arguments alone, which is what IMMUTABLE promises. Reindex the indexes below
-- after changing unaccent's rules file.
CREATE FUNCTION "mall_fold"(text) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE STRICT
  AS $$ SELECT lower(public.unaccent('public.unaccent'::regdictionary, $1)) $$;
--> statement-breakpoint
CREATE INDEX "shops_name_fold_trgm_idx" ON "shops" USING gin ("mall_fold"("name") gin_trgm_ops);
--> statement-breakpoint
CREATE INDEX "shops_description_fold_trgm_idx" ON "shops" USING gin ("mall_fold"("description") gin_trgm_ops);
--> statement-breakpoint
CREATE INDEX "products_name_fold_trgm_idx" ON "products" USING gin ("mall_fold"("name") gin_trgm_ops);
--> statement-breakpoint
CREATE INDEX "products_category_fold_trgm_idx" ON "products" USING gin ("mall_fold"("category") gin_trgm_ops);
--> statement-breakpoint
CREATE INDEX "offers_title_fold_trgm_idx" ON "offers" USING gin ("mall_fold"("title") gin_trgm_ops);
