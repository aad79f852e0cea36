-- Name search ("contains", any case) uses trigram indexes. pg_trgm is a trusted extension (PostgreSQL
-- 13+): the database owner may create it. PGlite loads it in the worker (db/pglite-worker.ts).
CREATE EXTENSION IF NOT EXISTS pg_trgm;
--> statement-breakpoint
CREATE TABLE "catalog_version" (
	"id" smallint PRIMARY KEY DEFAULT 1 NOT NULL,
	"version" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "catalog_version_single_row" CHECK ("catalog_version"."id" = 1)
);
--> statement-breakpoint
CREATE INDEX "offers_title_trgm_idx" ON "offers" USING gin ("title" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "products_name_order_idx" ON "products" USING btree (lower("name"),"name","id");--> statement-breakpoint
CREATE INDEX "products_name_trgm_idx" ON "products" USING gin ("name" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "shops_name_order_idx" ON "shops" USING btree (lower("name"),"name","id");--> statement-breakpoint
CREATE INDEX "shops_name_trgm_idx" ON "shops" USING gin ("name" gin_trgm_ops);
--> statement-breakpoint
INSERT INTO "catalog_version" ("id", "version") VALUES (1, 0);
--> statement-breakpoint
-- Raises catalog_version once per transaction that changed the directory. The triggers are deferred
-- constraint triggers, so the row is locked only at commit, after every other lock the transaction
-- takes: a directory write can never deadlock on it. The setting makes the 2nd..nth row a no-op.
CREATE FUNCTION "bump_catalog_version"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF current_setting('mall.catalog_version_bumped', true) IS DISTINCT FROM 'yes' THEN
    PERFORM set_config('mall.catalog_version_bumped', 'yes', true);
    UPDATE "catalog_version" SET "version" = "version" + 1 WHERE "id" = 1;
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "categories_bump_catalog_version" AFTER INSERT OR UPDATE OR DELETE ON "categories"
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION "bump_catalog_version"();
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "floors_bump_catalog_version" AFTER INSERT OR UPDATE OR DELETE ON "floors"
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION "bump_catalog_version"();
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "shops_bump_catalog_version" AFTER INSERT OR UPDATE OR DELETE ON "shops"
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION "bump_catalog_version"();
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "products_bump_catalog_version" AFTER INSERT OR UPDATE OR DELETE ON "products"
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION "bump_catalog_version"();
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "offers_bump_catalog_version" AFTER INSERT OR UPDATE OR DELETE ON "offers"
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION "bump_catalog_version"();
