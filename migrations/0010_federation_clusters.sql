CREATE SCHEMA "federation";
--> statement-breakpoint
CREATE TABLE "federation"."benchmarks" (
	"id" uuid PRIMARY KEY NOT NULL,
	"run_id" uuid NOT NULL,
	"cluster_id" uuid NOT NULL,
	"operation" text NOT NULL,
	"requests" integer NOT NULL,
	"concurrency" integer NOT NULL,
	"errors" integer NOT NULL,
	"min_ms" double precision,
	"p50_ms" double precision,
	"p99_ms" double precision,
	"max_ms" double precision,
	"mean_ms" double precision,
	"requests_per_sec" double precision NOT NULL,
	"started_at" timestamp with time zone NOT NULL,
	"duration_ms" double precision NOT NULL,
	"our_version" text NOT NULL,
	"their_version" text,
	"actor_id" uuid
);
--> statement-breakpoint
CREATE TABLE "federation"."cluster_events" (
	"id" uuid PRIMARY KEY NOT NULL,
	"cluster_id" uuid NOT NULL,
	"at" timestamp with time zone NOT NULL,
	"kind" text NOT NULL,
	"message" text NOT NULL,
	"actor_id" uuid
);
--> statement-breakpoint
CREATE TABLE "federation"."cluster_keys" (
	"kid" text PRIMARY KEY NOT NULL,
	"cluster_id" uuid NOT NULL,
	"paserk" text NOT NULL,
	"added_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "federation"."clusters" (
	"id" uuid PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"base_url" text NOT NULL,
	"contact" text NOT NULL,
	"state" text NOT NULL,
	"origin" text NOT NULL,
	"health" text DEFAULT 'unknown' NOT NULL,
	"last_contact_at" timestamp with time zone,
	"last_latency_ms" double precision,
	"last_error" text,
	"version" text,
	"schema_hash" text,
	"compatible" boolean,
	"check_claimed_at" timestamp with time zone,
	"created_at" timestamp with time zone NOT NULL,
	"verified_at" timestamp with time zone,
	"deactivated_at" timestamp with time zone,
	CONSTRAINT "clusters_state_check" CHECK ("federation"."clusters"."state" in ('pending', 'active', 'inactive')),
	CONSTRAINT "clusters_origin_check" CHECK ("federation"."clusters"."origin" in ('register', 'admin')),
	CONSTRAINT "clusters_health_check" CHECK ("federation"."clusters"."health" in ('up', 'down', 'unknown'))
);
--> statement-breakpoint
CREATE TABLE "federation"."schema_checks" (
	"id" uuid PRIMARY KEY NOT NULL,
	"cluster_id" uuid NOT NULL,
	"checked_at" timestamp with time zone NOT NULL,
	"their_hash" text NOT NULL,
	"our_hash" text NOT NULL,
	"compatible" boolean NOT NULL,
	"sdl" text NOT NULL,
	"changes" jsonb NOT NULL
);
--> statement-breakpoint
ALTER TABLE "federation"."benchmarks" ADD CONSTRAINT "benchmarks_cluster_id_clusters_id_fk" FOREIGN KEY ("cluster_id") REFERENCES "federation"."clusters"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "federation"."cluster_events" ADD CONSTRAINT "cluster_events_cluster_id_clusters_id_fk" FOREIGN KEY ("cluster_id") REFERENCES "federation"."clusters"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "federation"."cluster_keys" ADD CONSTRAINT "cluster_keys_cluster_id_clusters_id_fk" FOREIGN KEY ("cluster_id") REFERENCES "federation"."clusters"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "federation"."schema_checks" ADD CONSTRAINT "schema_checks_cluster_id_clusters_id_fk" FOREIGN KEY ("cluster_id") REFERENCES "federation"."clusters"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "benchmarks_cluster_id_started_at_idx" ON "federation"."benchmarks" USING btree ("cluster_id","started_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "cluster_events_cluster_id_at_idx" ON "federation"."cluster_events" USING btree ("cluster_id","at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "cluster_keys_cluster_id_idx" ON "federation"."cluster_keys" USING btree ("cluster_id");--> statement-breakpoint
CREATE UNIQUE INDEX "clusters_name_key" ON "federation"."clusters" USING btree (lower("name"));--> statement-breakpoint
CREATE UNIQUE INDEX "clusters_base_url_key" ON "federation"."clusters" USING btree ("base_url");--> statement-breakpoint
CREATE INDEX "clusters_state_idx" ON "federation"."clusters" USING btree ("state");--> statement-breakpoint
CREATE INDEX "schema_checks_cluster_id_checked_at_idx" ON "federation"."schema_checks" USING btree ("cluster_id","checked_at" DESC NULLS LAST);