CREATE TABLE "identity"."institutional_verifications" (
	"account_id" uuid PRIMARY KEY NOT NULL,
	"issuer" text NOT NULL,
	"subject" text NOT NULL,
	"institution" text,
	"email" text,
	"email_domain" text,
	"affiliations" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"verified_at" timestamp with time zone NOT NULL,
	CONSTRAINT "institutional_verifications_issuer_subject_unique" UNIQUE("issuer","subject")
);
--> statement-breakpoint
CREATE TABLE "identity"."linked_identities" (
	"id" uuid PRIMARY KEY NOT NULL,
	"account_id" uuid NOT NULL,
	"provider" text NOT NULL,
	"issuer" text NOT NULL,
	"subject" text NOT NULL,
	"name" text,
	"linked_at" timestamp with time zone NOT NULL,
	CONSTRAINT "linked_identities_provider_issuer_subject_unique" UNIQUE("provider","issuer","subject"),
	CONSTRAINT "linked_identities_accountId_provider_unique" UNIQUE("account_id","provider")
);
--> statement-breakpoint
CREATE TABLE "identity"."oidc_states" (
	"state_hash" text PRIMARY KEY NOT NULL,
	"provider" text NOT NULL,
	"purpose" text NOT NULL,
	"account_id" uuid NOT NULL,
	"code_verifier" text NOT NULL,
	"nonce" text NOT NULL,
	"redirect_uri" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"consumed_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "identity"."institutional_verifications" ADD CONSTRAINT "institutional_verifications_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "identity"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "identity"."linked_identities" ADD CONSTRAINT "linked_identities_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "identity"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "identity"."oidc_states" ADD CONSTRAINT "oidc_states_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "identity"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "oidc_states_expires_at_index" ON "identity"."oidc_states" USING btree ("expires_at");