CREATE SCHEMA "query";
--> statement-breakpoint
CREATE TABLE "query"."jobs" (
	"id" uuid PRIMARY KEY NOT NULL,
	"owner_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"status" text NOT NULL,
	"input" jsonb NOT NULL,
	"saved_query_id" uuid,
	"attempts" integer DEFAULT 0 NOT NULL,
	"max_attempts" integer NOT NULL,
	"progress" double precision DEFAULT 0 NOT NULL,
	"progress_message" text,
	"error" text,
	"worker_id" text,
	"heartbeat_at" timestamp with time zone,
	"result_key" text,
	"result_bytes" bigint,
	"result_rows" bigint,
	"result_sha256" text,
	"result_meta" jsonb,
	"created_at" timestamp with time zone NOT NULL,
	"started_at" timestamp with time zone,
	"finished_at" timestamp with time zone,
	CONSTRAINT "jobs_kind_check" CHECK ("query"."jobs"."kind" in ('syql', 'graph')),
	CONSTRAINT "jobs_status_check" CHECK ("query"."jobs"."status" in ('queued', 'running', 'succeeded', 'failed', 'cancelled')),
	CONSTRAINT "jobs_progress_check" CHECK ("query"."jobs"."progress" >= 0 and "query"."jobs"."progress" <= 1),
	CONSTRAINT "jobs_attempts_check" CHECK ("query"."jobs"."attempts" >= 0 and "query"."jobs"."max_attempts" >= 1)
);
--> statement-breakpoint
CREATE TABLE "query"."saved_queries" (
	"id" uuid PRIMARY KEY NOT NULL,
	"owner_id" uuid NOT NULL,
	"name" text NOT NULL,
	"description" text,
	"syql" text NOT NULL,
	"parameters" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"last_job_id" uuid,
	"previous_job_id" uuid,
	"last_run_at" timestamp with time zone,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "saved_queries_owner_id_name_unique" UNIQUE("owner_id","name")
);
--> statement-breakpoint
CREATE INDEX "jobs_status_created_at_idx" ON "query"."jobs" USING btree ("status","created_at");--> statement-breakpoint
CREATE INDEX "jobs_owner_id_created_at_idx" ON "query"."jobs" USING btree ("owner_id","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "saved_queries_owner_id_idx" ON "query"."saved_queries" USING btree ("owner_id");