CREATE TABLE "import_runs" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"kind" text NOT NULL,
	"file_name" text NOT NULL,
	"content" text NOT NULL,
	"status" text NOT NULL,
	"valid_only" boolean DEFAULT false NOT NULL,
	"rows_total" integer DEFAULT 0 NOT NULL,
	"rows_checked" integer DEFAULT 0 NOT NULL,
	"preview" jsonb,
	"result" jsonb,
	"created_by" uuid,
	"created_by_email" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone,
	CONSTRAINT "import_runs_kind_check" CHECK ("import_runs"."kind" in ('shops', 'products', 'offers')),
	CONSTRAINT "import_runs_status_check" CHECK ("import_runs"."status" in ('checking', 'previewed', 'running', 'done', 'failed'))
);
--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "external_code" text;--> statement-breakpoint
ALTER TABLE "shops" ADD COLUMN "external_code" text;--> statement-breakpoint
ALTER TABLE "import_runs" ADD CONSTRAINT "import_runs_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "import_runs_created_idx" ON "import_runs" USING btree ("created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "products_shop_external_code_key" ON "products" USING btree ("shop_id","external_code");--> statement-breakpoint
CREATE UNIQUE INDEX "shops_external_code_key" ON "shops" USING btree ("external_code");