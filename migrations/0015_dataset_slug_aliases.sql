CREATE TABLE "neurodata"."dataset_slug_aliases" (
	"slug" text PRIMARY KEY NOT NULL,
	"dataset_id" uuid NOT NULL,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "neurodata"."dataset_slug_aliases" ADD CONSTRAINT "dataset_slug_aliases_dataset_id_datasets_id_fk" FOREIGN KEY ("dataset_id") REFERENCES "neurodata"."datasets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "dataset_slug_aliases_dataset_id_idx" ON "neurodata"."dataset_slug_aliases" USING btree ("dataset_id");