CREATE TABLE "identity"."superuser_verifications" (
	"account_id" uuid PRIMARY KEY NOT NULL,
	"verified_by" uuid,
	"reason" text NOT NULL,
	"verified_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "identity"."superuser_verifications" ADD CONSTRAINT "superuser_verifications_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "identity"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "identity"."superuser_verifications" ADD CONSTRAINT "superuser_verifications_verified_by_accounts_id_fk" FOREIGN KEY ("verified_by") REFERENCES "identity"."accounts"("id") ON DELETE set null ON UPDATE no action;