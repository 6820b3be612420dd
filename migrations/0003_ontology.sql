CREATE SCHEMA "ontology";
--> statement-breakpoint
CREATE TABLE "ontology"."term_names" (
	"term_id" uuid NOT NULL,
	"vocabulary" text NOT NULL,
	"kind" text NOT NULL,
	"name" text NOT NULL,
	"norm" text NOT NULL,
	"synonym_type" text,
	"source" text,
	CONSTRAINT "term_names_term_id_kind_name_pk" PRIMARY KEY("term_id","kind","name"),
	CONSTRAINT "term_names_kind_check" CHECK ("ontology"."term_names"."kind" in ('code', 'label', 'synonym'))
);
--> statement-breakpoint
CREATE TABLE "ontology"."terms" (
	"id" uuid PRIMARY KEY NOT NULL,
	"vocabulary" text NOT NULL,
	"code" text NOT NULL,
	"label" text NOT NULL,
	"uri" text,
	"parent_id" uuid,
	"description" text,
	"metadata" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"status" text DEFAULT 'active' NOT NULL,
	"replaced_by" uuid,
	"deprecated_at" timestamp with time zone,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "terms_vocabulary_code_unique" UNIQUE("vocabulary","code"),
	CONSTRAINT "terms_status_check" CHECK ("ontology"."terms"."status" in ('active', 'deprecated')),
	CONSTRAINT "terms_not_own_parent_check" CHECK ("ontology"."terms"."parent_id" <> "ontology"."terms"."id")
);
--> statement-breakpoint
CREATE TABLE "ontology"."vocabularies" (
	"name" text PRIMARY KEY NOT NULL,
	"description" text,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "ontology"."term_names" ADD CONSTRAINT "term_names_term_id_terms_id_fk" FOREIGN KEY ("term_id") REFERENCES "ontology"."terms"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ontology"."terms" ADD CONSTRAINT "terms_vocabulary_vocabularies_name_fk" FOREIGN KEY ("vocabulary") REFERENCES "ontology"."vocabularies"("name") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ontology"."terms" ADD CONSTRAINT "terms_parent_id_terms_id_fk" FOREIGN KEY ("parent_id") REFERENCES "ontology"."terms"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ontology"."terms" ADD CONSTRAINT "terms_replaced_by_terms_id_fk" FOREIGN KEY ("replaced_by") REFERENCES "ontology"."terms"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "term_names_norm_idx" ON "ontology"."term_names" USING btree ("norm");--> statement-breakpoint
CREATE INDEX "term_names_norm_trgm_idx" ON "ontology"."term_names" USING gist ("norm" gist_trgm_ops);--> statement-breakpoint
CREATE INDEX "terms_parent_id_idx" ON "ontology"."terms" USING btree ("parent_id");--> statement-breakpoint
CREATE INDEX "terms_vocabulary_label_idx" ON "ontology"."terms" USING btree ("vocabulary","label");