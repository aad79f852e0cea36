-- The sign-in lockout counts per email and client address, and per email over every address ('*'):
-- a stranger's 5 wrong passwords no longer lock the account for everyone (docs/decisions/009). Rows
-- already here were counted over every address, so they become the '*' rows.
ALTER TABLE "sign_in_attempts" DROP CONSTRAINT "sign_in_attempts_pkey";--> statement-breakpoint
ALTER TABLE "sign_in_attempts" ADD COLUMN "address" text NOT NULL DEFAULT '*';--> statement-breakpoint
ALTER TABLE "sign_in_attempts" ALTER COLUMN "address" DROP DEFAULT;--> statement-breakpoint
ALTER TABLE "sign_in_attempts" ADD CONSTRAINT "sign_in_attempts_email_address_pk" PRIMARY KEY("email","address");--> statement-breakpoint
CREATE INDEX "sign_in_attempts_window_idx" ON "sign_in_attempts" USING btree ("window_started_at");
