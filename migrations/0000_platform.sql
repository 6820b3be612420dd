CREATE SCHEMA "platform";
--> statement-breakpoint
CREATE TABLE "platform"."instances" (
	"id" text PRIMARY KEY NOT NULL,
	"singleton" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "instances_singleton_unique" UNIQUE("singleton")
);
