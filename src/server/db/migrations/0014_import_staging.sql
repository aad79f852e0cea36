CREATE TABLE "import_staged_rows" (
	"run_id" uuid NOT NULL,
	"seq" integer NOT NULL,
	"action" text NOT NULL,
	"entity_id" uuid NOT NULL,
	"shop_id" uuid,
	"entity_name" text NOT NULL,
	"values" jsonb NOT NULL,
	"changes" jsonb NOT NULL,
	CONSTRAINT "import_staged_rows_run_id_seq_pk" PRIMARY KEY("run_id","seq")
);
--> statement-breakpoint
ALTER TABLE "import_runs" ADD COLUMN "heartbeat_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "import_staged_rows" ADD CONSTRAINT "import_staged_rows_run_id_import_runs_id_fk" FOREIGN KEY ("run_id") REFERENCES "public"."import_runs"("id") ON DELETE cascade ON UPDATE no action;