CREATE SCHEMA "identity";
--> statement-breakpoint
CREATE TYPE "identity"."account_type" AS ENUM('REGULAR', 'ACADEMIC', 'SERVICE', 'SUPERUSER');--> statement-breakpoint
CREATE TABLE "identity"."accounts" (
	"id" uuid PRIMARY KEY NOT NULL,
	"email" text NOT NULL,
	"email_key" text NOT NULL,
	"password_hash" text,
	"display_name" text NOT NULL,
	"account_type" "identity"."account_type" DEFAULT 'REGULAR' NOT NULL,
	"verified" boolean DEFAULT false NOT NULL,
	"affiliation" text,
	"orcid" text,
	"bio" text,
	"links" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"scientist_tag" text,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "accounts_emailKey_unique" UNIQUE("email_key"),
	CONSTRAINT "accounts_scientistTag_unique" UNIQUE("scientist_tag")
);
--> statement-breakpoint
CREATE TABLE "identity"."login_failures" (
	"email_key" text PRIMARY KEY NOT NULL,
	"failures" integer NOT NULL,
	"window_started_at" timestamp with time zone NOT NULL,
	"locked_until" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "identity"."refresh_families" (
	"id" uuid PRIMARY KEY NOT NULL,
	"account_id" uuid NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"revoked_at" timestamp with time zone,
	"revoked_reason" text
);
--> statement-breakpoint
CREATE TABLE "identity"."refresh_tokens" (
	"id" uuid PRIMARY KEY NOT NULL,
	"family_id" uuid NOT NULL,
	"account_id" uuid NOT NULL,
	"token_hash" text NOT NULL,
	"issued_at" timestamp with time zone NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone,
	"revoked_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "identity"."refresh_families" ADD CONSTRAINT "refresh_families_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "identity"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "identity"."refresh_tokens" ADD CONSTRAINT "refresh_tokens_family_id_refresh_families_id_fk" FOREIGN KEY ("family_id") REFERENCES "identity"."refresh_families"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "identity"."refresh_tokens" ADD CONSTRAINT "refresh_tokens_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "identity"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "refresh_families_account_id_index" ON "identity"."refresh_families" USING btree ("account_id");--> statement-breakpoint
CREATE INDEX "refresh_tokens_family_id_index" ON "identity"."refresh_tokens" USING btree ("family_id");