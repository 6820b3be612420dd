import { index, jsonb, pgSchema, text, timestamp, unique, uuid } from 'drizzle-orm/pg-core';

/**
 * The query subgraph's Postgres schema: saved queries. The jobs platform keeps its table `query.jobs` in the same
 * schema (lib/jobs/tables.ts), where it was created.
 */
export const query = pgSchema('query');

/** A named SyQL query of a user, with its parameters and the jobs that last ran it. */
export const savedQueries = query.table(
  'saved_queries',
  {
    id: uuid().primaryKey(),
    ownerId: uuid().notNull(),
    name: text().notNull(),
    description: text(),
    syql: text().notNull(),
    parameters: jsonb().$type<Record<string, unknown>>().notNull().default({}),
    lastJobId: uuid(),
    previousJobId: uuid(),
    lastRunAt: timestamp({ withTimezone: true }),
    createdAt: timestamp({ withTimezone: true }).notNull(),
    updatedAt: timestamp({ withTimezone: true }).notNull(),
  },
  (t) => [unique('saved_queries_owner_id_name_unique').on(t.ownerId, t.name), index('saved_queries_owner_id_idx').on(t.ownerId)],
);
