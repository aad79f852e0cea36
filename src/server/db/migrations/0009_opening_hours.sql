CREATE TABLE "mall_hours" (
	"id" smallint PRIMARY KEY DEFAULT 1 NOT NULL,
	"hours" jsonb,
	"updated_at" timestamp with time zone,
	CONSTRAINT "mall_hours_single_row" CHECK ("mall_hours"."id" = 1)
);
--> statement-breakpoint
ALTER TABLE "shops" ADD COLUMN "hours" jsonb;--> statement-breakpoint
-- hand-written below
-- The mall's one row exists from the start (no hours yet), so the write path only ever updates it.
INSERT INTO "mall_hours" ("id") VALUES (1);
--> statement-breakpoint
-- A change to the mall's hours raises the catalogue version (function from migration 0002): shop lists
-- asked "open at" an instant are cached per version and depend on them (docs/decisions/017).
CREATE CONSTRAINT TRIGGER "mall_hours_bump_catalog_version" AFTER INSERT OR UPDATE OR DELETE ON "mall_hours"
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION "bump_catalog_version"();
