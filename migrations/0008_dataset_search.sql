-- Dataset search documents are parsed with English stemming after unaccent, so "Müller" finds "Muller" and
-- ts_headline marks accented words too; both engines (PGlite, PostgreSQL) ship the english config and unaccent.
CREATE TEXT SEARCH CONFIGURATION "neurodata"."english_unaccent" (COPY = pg_catalog.english);
--> statement-breakpoint
ALTER TEXT SEARCH CONFIGURATION "neurodata"."english_unaccent" ALTER MAPPING FOR hword, hword_part, word WITH unaccent, english_stem;
--> statement-breakpoint
CREATE TABLE "neurodata"."dataset_search" (
	"dataset_id" uuid PRIMARY KEY NOT NULL,
	"slug" text NOT NULL,
	"title" text NOT NULL,
	"visibility" text NOT NULL,
	"version" integer NOT NULL,
	"metadata" jsonb NOT NULL,
	"row_counts" jsonb NOT NULL,
	"license" text,
	"year" integer NOT NULL,
	"term_ids" uuid[] NOT NULL,
	"facet_terms" jsonb NOT NULL,
	"published_at" timestamp with time zone NOT NULL,
	"version_published_at" timestamp with time zone NOT NULL,
	"document" "tsvector" NOT NULL
);
--> statement-breakpoint
CREATE TABLE "neurodata"."dataset_search_words" (
	"word" text PRIMARY KEY NOT NULL
);
--> statement-breakpoint
ALTER TABLE "neurodata"."dataset_search" ADD CONSTRAINT "dataset_search_dataset_id_datasets_id_fk" FOREIGN KEY ("dataset_id") REFERENCES "neurodata"."datasets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "dataset_search_document_idx" ON "neurodata"."dataset_search" USING gin ("document") WITH (fastupdate=false);--> statement-breakpoint
CREATE INDEX "dataset_search_term_ids_idx" ON "neurodata"."dataset_search" USING gin ("term_ids") WITH (fastupdate=false);--> statement-breakpoint
CREATE INDEX "dataset_search_year_idx" ON "neurodata"."dataset_search" USING btree ("year");--> statement-breakpoint
CREATE INDEX "dataset_search_license_idx" ON "neurodata"."dataset_search" USING btree ("license");--> statement-breakpoint
CREATE INDEX "dataset_search_words_trgm_idx" ON "neurodata"."dataset_search_words" USING gin ("word" gin_trgm_ops) WITH (fastupdate=false);--> statement-breakpoint
CREATE INDEX "terms_replaced_by_idx" ON "ontology"."terms" USING btree ("replaced_by") WHERE "ontology"."terms"."replaced_by" IS NOT NULL;