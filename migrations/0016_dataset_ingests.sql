CREATE TABLE "neurodata"."dataset_ingests" (
	"dataset_id" uuid PRIMARY KEY NOT NULL,
	"version" integer NOT NULL,
	"filename" text NOT NULL,
	"kind" text NOT NULL,
	"stage" text NOT NULL,
	"rows" bigint DEFAULT 0 NOT NULL,
	"bytes_read" bigint DEFAULT 0 NOT NULL,
	"bytes_total" bigint DEFAULT 0 NOT NULL,
	"started_by" uuid NOT NULL,
	"started_at" timestamp with time zone NOT NULL,
	"heartbeat_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "neurodata"."dataset_assets" DROP CONSTRAINT "dataset_assets_kind_check";--> statement-breakpoint
ALTER TABLE "neurodata"."dataset_ingests" ADD CONSTRAINT "dataset_ingests_dataset_id_datasets_id_fk" FOREIGN KEY ("dataset_id") REFERENCES "neurodata"."datasets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "neurodata"."dataset_assets" ADD CONSTRAINT "dataset_assets_kind_check" CHECK ("neurodata"."dataset_assets"."kind" in ('neurons', 'connections', 'morphology', 'synapses', 'roi_connections', 'annotations', 'rois', 'other'));