import { sql } from 'drizzle-orm';
import { boolean, check, doublePrecision, index, integer, jsonb, pgSchema, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';

/** The federation subgraph's Postgres schema: the clusters this one knows, their keys, history, schemas and benchmarks. */
export const federation = pgSchema('federation');

/**
 * Another deployment of the service. A cluster is never deleted: deactivation keeps the record, its keys and its
 * history, and only `state` decides whether its tokens are accepted and whether it is called.
 */
export const clusters = federation.table(
  'clusters',
  {
    id: uuid().primaryKey(),
    name: text().notNull(),
    /** Normalised (no trailing slash); every call goes to `<base_url>/graphql`. */
    baseUrl: text().notNull(),
    contact: text().notNull(),
    /** pending | active | inactive */
    state: text().notNull(),
    /** register (self-registration with the federation password) | admin (added by a SuperUser) */
    origin: text().notNull(),
    /** up | down | unknown: the last contact's outcome. */
    health: text().notNull().default('unknown'),
    lastContactAt: timestamp({ withTimezone: true }),
    lastLatencyMs: doublePrecision(),
    lastError: text(),
    version: text(),
    schemaHash: text(),
    /** From the last schema check; null before one. */
    compatible: boolean(),
    /** When a process last claimed the scheduled ping, so that several replicas ping each cluster once. */
    checkClaimedAt: timestamp({ withTimezone: true }),
    createdAt: timestamp({ withTimezone: true }).notNull(),
    verifiedAt: timestamp({ withTimezone: true }),
    deactivatedAt: timestamp({ withTimezone: true }),
  },
  (t) => [
    uniqueIndex('clusters_name_key').on(sql`lower(${t.name})`),
    uniqueIndex('clusters_base_url_key').on(t.baseUrl),
    index('clusters_state_idx').on(t.state),
    check('clusters_state_check', sql`${t.state} in ('pending', 'active', 'inactive')`),
    check('clusters_origin_check', sql`${t.origin} in ('register', 'admin')`),
    check('clusters_health_check', sql`${t.health} in ('up', 'down', 'unknown')`),
  ],
);

/** The PASERK k4.public keys a cluster signs its access tokens with; `kid` is what a token's footer names. */
export const clusterKeys = federation.table(
  'cluster_keys',
  {
    kid: text().primaryKey(),
    clusterId: uuid()
      .notNull()
      .references(() => clusters.id),
    paserk: text().notNull(),
    addedAt: timestamp({ withTimezone: true }).notNull(),
  },
  (t) => [index('cluster_keys_cluster_id_idx').on(t.clusterId)],
);

/** What happened to a cluster: registered, verified, deactivated, up, down, schema checked. */
export const clusterEvents = federation.table(
  'cluster_events',
  {
    id: uuid().primaryKey(),
    clusterId: uuid()
      .notNull()
      .references(() => clusters.id),
    at: timestamp({ withTimezone: true }).notNull(),
    kind: text().notNull(),
    message: text().notNull(),
    /** The SuperUser who acted, when one did. */
    actorId: uuid(),
  },
  (t) => [index('cluster_events_cluster_id_at_idx').on(t.clusterId, t.at.desc())],
);

/** One fetch of a cluster's API schema and how it compares with ours at that time. */
export const schemaChecks = federation.table(
  'schema_checks',
  {
    id: uuid().primaryKey(),
    clusterId: uuid()
      .notNull()
      .references(() => clusters.id),
    checkedAt: timestamp({ withTimezone: true }).notNull(),
    theirHash: text().notNull(),
    ourHash: text().notNull(),
    compatible: boolean().notNull(),
    sdl: text().notNull(),
    /** [{ type, criticality, message, path }] */
    changes: jsonb().$type<{ type: string; criticality: string; message: string; path: string | null }[]>().notNull(),
  },
  (t) => [index('schema_checks_cluster_id_checked_at_idx').on(t.clusterId, t.checkedAt.desc())],
);

/** One benchmark run of one operation against one cluster. */
export const benchmarks = federation.table(
  'benchmarks',
  {
    id: uuid().primaryKey(),
    /** Runs started by one request share it. */
    runId: uuid().notNull(),
    clusterId: uuid()
      .notNull()
      .references(() => clusters.id),
    operation: text().notNull(),
    requests: integer().notNull(),
    concurrency: integer().notNull(),
    errors: integer().notNull(),
    minMs: doublePrecision(),
    p50Ms: doublePrecision(),
    p99Ms: doublePrecision(),
    maxMs: doublePrecision(),
    meanMs: doublePrecision(),
    requestsPerSec: doublePrecision().notNull(),
    startedAt: timestamp({ withTimezone: true }).notNull(),
    durationMs: doublePrecision().notNull(),
    ourVersion: text().notNull(),
    theirVersion: text(),
    actorId: uuid(),
  },
  (t) => [index('benchmarks_cluster_id_started_at_idx').on(t.clusterId, t.startedAt.desc())],
);
