CREATE TABLE "insight_counts" (
	"day" date NOT NULL,
	"hour" smallint NOT NULL,
	"metric" text NOT NULL,
	"subject" text NOT NULL,
	"n" bigint NOT NULL,
	CONSTRAINT "insight_counts_day_hour_metric_subject_pk" PRIMARY KEY("day","hour","metric","subject"),
	CONSTRAINT "insight_counts_hour_check" CHECK ("insight_counts"."hour" between 0 and 23)
);
--> statement-breakpoint
CREATE TABLE "search_synonyms" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"term" text NOT NULL,
	"replacement" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "search_synonyms_term_key" UNIQUE("term")
);
--> statement-breakpoint
CREATE INDEX "insight_counts_metric_day_idx" ON "insight_counts" USING btree ("metric","day");--> statement-breakpoint
-- A synonym changes what a search finds: like any directory write it raises the catalogue version, so
-- every server's read cache and search (which reads the synonyms once per version) use it at once.
CREATE CONSTRAINT TRIGGER "search_synonyms_bump_catalog_version" AFTER INSERT OR UPDATE OR DELETE ON "search_synonyms"
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION "bump_catalog_version"();
