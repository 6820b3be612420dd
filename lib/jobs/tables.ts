import { sql } from 'drizzle-orm';
import { bigint, check, doublePrecision, index, integer, jsonb, pgSchema, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { JOB_KIND_NAMES, JOB_STATUSES } from './job.model.js';

/**
 * The jobs platform's table. It lives in the `query` schema, where jobs began (the query subgraph declares the same
 * schema for its saved queries): moving it would need a migration for no gain.
 */
const query = pgSchema('query');

/** A closed set of names as the literal list of a check constraint (names of letters only: no quoting needed). */
const listed = (names: readonly string[]) => sql.raw(names.map((n) => `'${n}'`).join(', '));

/**
 * A long computation run for a user (docs/jobs.md, "How jobs run"). Every change of `status` is conditional on the
 * status expected and, while running, on the claiming worker and attempt, so a late writer never overwrites a newer
 * state. No foreign key to saved_queries: a job outlives the saved query that started it.
 */
export const jobs = query.table(
  'jobs',
  {
    id: uuid().primaryKey(),
    ownerId: uuid().notNull(),
    /** A registered job kind (lib/jobs/job-kind.ts): one of JOB_KIND_NAMES, which the check below lists. */
    kind: text().notNull(),
    /** One of JOB_STATUSES: queued | running | succeeded | failed | cancelled */
    status: text().notNull(),
    input: jsonb().$type<Record<string, unknown>>().notNull(),
    savedQueryId: uuid(),
    /** Attempts started so far: each claim adds one. */
    attempts: integer().notNull().default(0),
    maxAttempts: integer().notNull(),
    /** 0..1 */
    progress: doublePrecision().notNull().default(0),
    progressMessage: text(),
    error: text(),
    /** The worker holding (or that last held) the job. */
    workerId: text(),
    /** Renewed by the running worker; older than JOBS_LEASE_MS means the worker is gone. */
    heartbeatAt: timestamp({ withTimezone: true }),
    /** Object storage key of the result. */
    resultKey: text(),
    resultBytes: bigint({ mode: 'number' }),
    resultRows: bigint({ mode: 'number' }),
    resultSha256: text(),
    resultMeta: jsonb().$type<Record<string, unknown>>(),
    createdAt: timestamp({ withTimezone: true }).notNull(),
    startedAt: timestamp({ withTimezone: true }),
    finishedAt: timestamp({ withTimezone: true }),
  },
  (t) => [
    index('jobs_status_created_at_idx').on(t.status, t.createdAt),
    index('jobs_owner_id_created_at_idx').on(t.ownerId, t.createdAt.desc()),
    check('jobs_kind_check', sql`${t.kind} in (${listed(JOB_KIND_NAMES)})`),
    check('jobs_status_check', sql`${t.status} in (${listed(JOB_STATUSES)})`),
    check('jobs_progress_check', sql`${t.progress} >= 0 and ${t.progress} <= 1`),
    check('jobs_attempts_check', sql`${t.attempts} >= 0 and ${t.maxAttempts} >= 1`),
  ],
);
