import { defineConfig } from 'drizzle-kit';

// One migration history for every subgraph's tables; each subgraph keeps its tables in its own Postgres schema.
export default defineConfig({
  dialect: 'postgresql',
  schema: ['./lib/db/platform.tables.ts', './lib/jobs/tables.ts', './subgraphs/*/store/*tables.ts'],
  out: './migrations',
  casing: 'snake_case',
});
