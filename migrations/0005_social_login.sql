CREATE TABLE "identity"."login_codes" (
	"code_hash" text PRIMARY KEY NOT NULL,
	"account_id" uuid NOT NULL,
	"provider" text NOT NULL,
	"account_created" boolean NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"consumed_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "identity"."oidc_states" ALTER COLUMN "account_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "identity"."linked_identities" ADD COLUMN "username" text;--> statement-breakpoint
ALTER TABLE "identity"."linked_identities" ADD COLUMN "email" text;--> statement-breakpoint
ALTER TABLE "identity"."oidc_states" ADD COLUMN "mode" text;--> statement-breakpoint
ALTER TABLE "identity"."oidc_states" ADD COLUMN "binding_hash" text;--> statement-breakpoint
ALTER TABLE "identity"."login_codes" ADD CONSTRAINT "login_codes_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "identity"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "login_codes_expires_at_index" ON "identity"."login_codes" USING btree ("expires_at");