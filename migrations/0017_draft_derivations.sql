CREATE TABLE "neurodata"."draft_derivations" (
	"dataset_id" uuid PRIMARY KEY NOT NULL,
	"version" integer NOT NULL,
	"stale_since" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "neurodata"."draft_derivations" ADD CONSTRAINT "draft_derivations_dataset_id_datasets_id_fk" FOREIGN KEY ("dataset_id") REFERENCES "neurodata"."datasets"("id") ON DELETE cascade ON UPDATE no action;