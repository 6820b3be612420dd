import { sql } from 'drizzle-orm';
import type { Db } from './relational.js';
import { instances } from './platform.tables.js';
import { newId } from '../ids.js';

/** This deployment's id, created on first start and stable afterwards; other clusters know us by it. */
export async function ensureInstanceId(db: Db): Promise<string> {
  await db.insert(instances).values({ id: newId(), singleton: 1 }).onConflictDoNothing({ target: instances.singleton });
  const rows = await db.select({ id: instances.id }).from(instances).where(sql`${instances.singleton} = 1`);
  return rows[0].id;
}
