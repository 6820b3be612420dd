CREATE SCHEMA "neurodata";
--> statement-breakpoint
CREATE TABLE "neurodata"."access_requests" (
	"id" uuid PRIMARY KEY NOT NULL,
	"dataset_id" uuid NOT NULL,
	"requester_id" uuid NOT NULL,
	"status" text NOT NULL,
	"message" text,
	"response_message" text,
	"decided_by" uuid,
	"decided_at" timestamp with time zone,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "access_requests_dataset_requester_unique" UNIQUE("dataset_id","requester_id"),
	CONSTRAINT "access_requests_status_check" CHECK ("neurodata"."access_requests"."status" in ('pending', 'approved', 'denied'))
);
--> statement-breakpoint
CREATE TABLE "neurodata"."collection_items" (
	"collection_id" uuid NOT NULL,
	"dataset_id" uuid NOT NULL,
	"added_by" uuid NOT NULL,
	"added_at" timestamp with time zone NOT NULL,
	CONSTRAINT "collection_items_collection_id_dataset_id_pk" PRIMARY KEY("collection_id","dataset_id")
);
--> statement-breakpoint
CREATE TABLE "neurodata"."collections" (
	"id" uuid PRIMARY KEY NOT NULL,
	"owner_id" uuid NOT NULL,
	"title" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"visibility" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "collections_visibility_check" CHECK ("neurodata"."collections"."visibility" in ('public', 'private'))
);
--> statement-breakpoint
CREATE TABLE "neurodata"."dataset_assets" (
	"id" uuid PRIMARY KEY NOT NULL,
	"dataset_id" uuid NOT NULL,
	"version" integer NOT NULL,
	"filename" text NOT NULL,
	"kind" text NOT NULL,
	"media_type" text NOT NULL,
	"size" bigint NOT NULL,
	"sha256" text NOT NULL,
	"object_key" text NOT NULL,
	"rows" integer DEFAULT 0 NOT NULL,
	"summary" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created_by" uuid NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "dataset_assets_version_filename_unique" UNIQUE("dataset_id","version","filename"),
	CONSTRAINT "dataset_assets_kind_check" CHECK ("neurodata"."dataset_assets"."kind" in ('neurons', 'connections', 'morphology', 'other'))
);
--> statement-breakpoint
CREATE TABLE "neurodata"."dataset_versions" (
	"dataset_id" uuid NOT NULL,
	"version" integer NOT NULL,
	"metadata" jsonb NOT NULL,
	"assets" jsonb NOT NULL,
	"row_counts" jsonb NOT NULL,
	"note" text,
	"published_at" timestamp with time zone NOT NULL,
	"published_by" uuid NOT NULL,
	CONSTRAINT "dataset_versions_dataset_id_version_pk" PRIMARY KEY("dataset_id","version")
);
--> statement-breakpoint
CREATE TABLE "neurodata"."datasets" (
	"id" uuid PRIMARY KEY NOT NULL,
	"slug" text NOT NULL,
	"title" text NOT NULL,
	"metadata" jsonb NOT NULL,
	"owner_id" uuid NOT NULL,
	"maintainer_ids" uuid[] DEFAULT '{}'::uuid[] NOT NULL,
	"visibility" text NOT NULL,
	"status" text NOT NULL,
	"latest_version" integer,
	"draft_version" integer,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	"published_at" timestamp with time zone,
	CONSTRAINT "datasets_slug_unique" UNIQUE("slug"),
	CONSTRAINT "datasets_visibility_check" CHECK ("neurodata"."datasets"."visibility" in ('public', 'restricted')),
	CONSTRAINT "datasets_status_check" CHECK ("neurodata"."datasets"."status" in ('draft', 'published'))
);
--> statement-breakpoint
CREATE TABLE "neurodata"."lineage_links" (
	"id" uuid PRIMARY KEY NOT NULL,
	"dataset_id" uuid NOT NULL,
	"source_dataset_id" uuid NOT NULL,
	"source_version" integer NOT NULL,
	"source_title" text NOT NULL,
	"relation" text NOT NULL,
	"description" text,
	"created_by" uuid NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "lineage_links_unique" UNIQUE("dataset_id","source_dataset_id","source_version","relation")
);
--> statement-breakpoint
CREATE TABLE "neurodata"."provenance_events" (
	"id" uuid PRIMARY KEY NOT NULL,
	"dataset_id" uuid NOT NULL,
	"activity" text NOT NULL,
	"agent_id" uuid NOT NULL,
	"version" integer,
	"details" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "neurodata"."access_requests" ADD CONSTRAINT "access_requests_dataset_id_datasets_id_fk" FOREIGN KEY ("dataset_id") REFERENCES "neurodata"."datasets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "neurodata"."collection_items" ADD CONSTRAINT "collection_items_collection_id_collections_id_fk" FOREIGN KEY ("collection_id") REFERENCES "neurodata"."collections"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "neurodata"."collection_items" ADD CONSTRAINT "collection_items_dataset_id_datasets_id_fk" FOREIGN KEY ("dataset_id") REFERENCES "neurodata"."datasets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "neurodata"."dataset_assets" ADD CONSTRAINT "dataset_assets_dataset_id_datasets_id_fk" FOREIGN KEY ("dataset_id") REFERENCES "neurodata"."datasets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "neurodata"."dataset_versions" ADD CONSTRAINT "dataset_versions_dataset_id_datasets_id_fk" FOREIGN KEY ("dataset_id") REFERENCES "neurodata"."datasets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "neurodata"."lineage_links" ADD CONSTRAINT "lineage_links_dataset_id_datasets_id_fk" FOREIGN KEY ("dataset_id") REFERENCES "neurodata"."datasets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "neurodata"."provenance_events" ADD CONSTRAINT "provenance_events_dataset_id_datasets_id_fk" FOREIGN KEY ("dataset_id") REFERENCES "neurodata"."datasets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "collection_items_dataset_idx" ON "neurodata"."collection_items" USING btree ("dataset_id");--> statement-breakpoint
CREATE INDEX "collections_owner_id_idx" ON "neurodata"."collections" USING btree ("owner_id");--> statement-breakpoint
CREATE INDEX "dataset_assets_object_key_idx" ON "neurodata"."dataset_assets" USING btree ("object_key");--> statement-breakpoint
CREATE INDEX "datasets_owner_id_idx" ON "neurodata"."datasets" USING btree ("owner_id");--> statement-breakpoint
CREATE INDEX "datasets_maintainer_ids_idx" ON "neurodata"."datasets" USING gin ("maintainer_ids");--> statement-breakpoint
CREATE INDEX "lineage_links_source_idx" ON "neurodata"."lineage_links" USING btree ("source_dataset_id");--> statement-breakpoint
CREATE INDEX "provenance_events_dataset_idx" ON "neurodata"."provenance_events" USING btree ("dataset_id","at");