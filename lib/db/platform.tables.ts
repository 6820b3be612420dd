import { pgSchema, text, timestamp, integer } from 'drizzle-orm/pg-core';

export const platform = pgSchema('platform');

/** One row: this deployment's identity, created on first start. Other clusters know us by this id. */
export const instances = platform.table('instances', {
  id: text().primaryKey(),
  singleton: integer().notNull().unique().default(1),
  createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
});
