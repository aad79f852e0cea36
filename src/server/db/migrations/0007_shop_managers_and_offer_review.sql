CREATE TABLE "manager_invites" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"shop_id" uuid NOT NULL,
	"code_hash" text NOT NULL,
	"code_hint" text NOT NULL,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone,
	"used_by" uuid,
	CONSTRAINT "manager_invites_code_hash_unique" UNIQUE("code_hash")
);
--> statement-breakpoint
CREATE TABLE "shop_managers" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"shop_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "audit_log" ADD COLUMN "shop_id" uuid;--> statement-breakpoint
ALTER TABLE "offers" ADD COLUMN "approved" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "offers" ADD COLUMN "review_state" text;--> statement-breakpoint
ALTER TABLE "offers" ADD COLUMN "proposal" jsonb;--> statement-breakpoint
ALTER TABLE "offers" ADD COLUMN "review_comment" text;--> statement-breakpoint
ALTER TABLE "offers" ADD COLUMN "submitted_by" uuid;--> statement-breakpoint
ALTER TABLE "offers" ADD COLUMN "submitted_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "manager_invites" ADD CONSTRAINT "manager_invites_shop_id_shops_id_fk" FOREIGN KEY ("shop_id") REFERENCES "public"."shops"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "manager_invites" ADD CONSTRAINT "manager_invites_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "manager_invites" ADD CONSTRAINT "manager_invites_used_by_users_id_fk" FOREIGN KEY ("used_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "shop_managers" ADD CONSTRAINT "shop_managers_shop_id_shops_id_fk" FOREIGN KEY ("shop_id") REFERENCES "public"."shops"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "shop_managers" ADD CONSTRAINT "shop_managers_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "manager_invites_shop_idx" ON "manager_invites" USING btree ("shop_id");--> statement-breakpoint
CREATE UNIQUE INDEX "shop_managers_user_shop_key" ON "shop_managers" USING btree ("user_id","shop_id");--> statement-breakpoint
CREATE INDEX "shop_managers_shop_idx" ON "shop_managers" USING btree ("shop_id");--> statement-breakpoint
ALTER TABLE "offers" ADD CONSTRAINT "offers_submitted_by_users_id_fk" FOREIGN KEY ("submitted_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "audit_log_shop_idx" ON "audit_log" USING btree ("shop_id");--> statement-breakpoint
CREATE INDEX "offers_review_idx" ON "offers" USING btree ("submitted_at") WHERE "offers"."review_state" = 'pending';--> statement-breakpoint
ALTER TABLE "offers" ADD CONSTRAINT "offers_review_state_check" CHECK ("offers"."review_state" in ('pending', 'sent_back'));