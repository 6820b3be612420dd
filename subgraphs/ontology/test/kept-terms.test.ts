import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { sql } from 'drizzle-orm';
import { startTestSubgraph, type TestSubgraph } from '../../../test/kit/subgraph.js';
import { ontology } from '../index.js';
import { TERMS_CHANGED_CHANNEL, TermService, type TermRecord } from '../term.service.js';
import { TermStore } from '../store/term.store.js';
import { NotifiedCache } from '../../../lib/notified-cache.js';
import { listenUntilReady } from '../../../test/kit/notices.js';
import { eventually } from '../../../test/kit/eventually.js';

// A notice from another connection arrives when the server sends it: what it changes is polled for, never waited out.

describe('terms kept by id until the term tables announce a change', () => {
  let t: TestSubgraph;
  let id: string;
  const read = async (): Promise<{ label: string; synonyms: string[] }> => (await t.gql('query ($id: ID!) { term(id: $id) { label synonyms } }', { id })).body.data!.term;
  const label = async () => (await read()).label;

  beforeAll(async () => {
    t = await startTestSubgraph('ontology');
    const page = await t.gql('{ terms(vocabulary: "brain_region", limit: 1) { items { id } } }');
    id = page.body.data!.terms.items[0].id;
  });
  afterAll(async () => t?.close());

  it('reads a term from the store once, and again after a change to the term tables is announced', async () => {
    class CountingStore extends TermStore {
      reads = 0;
      override findByIds(ids: readonly string[]) {
        this.reads++;
        return super.findByIds(ids);
      }
    }
    const store = new CountingStore(t.server.stores.relational.db);
    const kept = new NotifiedCache<string, TermRecord>(100);
    const unsubscribe = await listenUntilReady(t.server.stores.relational, TERMS_CHANGED_CHANNEL, kept.follow);
    try {
      const service = new TermService(store, t.server.deps.clock, t.server.deps.log, { kept });
      const first = await service.get(id);
      expect(await service.get(id.toUpperCase())).toEqual(first);
      expect(store.reads).toBe(1);
      // Any statement that writes the table announces a change, even one that leaves every value as it was.
      await t.server.stores.relational.db.execute(sql`UPDATE ontology.terms SET label = label WHERE id = ${id}`);
      await eventually(async () => (await service.get(id), store.reads === 2), { timeoutMs: 5000, intervalMs: 20 });
      await service.get(id);
      expect(store.reads).toBe(2);
      // Unknown ids are not kept: a term created later is found.
      await expect(service.get('01a22000-0000-7000-8000-000000000000')).rejects.toThrow(/no term/);
      await expect(service.get('01a22000-0000-7000-8000-000000000000')).rejects.toThrow(/no term/);
      expect(store.reads).toBe(4);
    } finally {
      unsubscribe();
    }
  });

  it('answers a change written past the service (SQL, another process) once its notice arrives', async () => {
    const before = await label();
    expect(await label()).toBe(before);
    await t.server.stores.relational.db.execute(sql`UPDATE ontology.terms SET label = ${`${before} (changed)`} WHERE id = ${id}`);
    await eventually(async () => (await label()) === `${before} (changed)`, { timeoutMs: 5000, intervalMs: 20 });
    await t.server.stores.relational.db.execute(sql`UPDATE ontology.terms SET label = ${before} WHERE id = ${id}`);
    await eventually(async () => (await label()) === before, { timeoutMs: 5000, intervalMs: 20 });
  });

  it('answers a synonym added past the service once its notice arrives', async () => {
    const synonyms = async () => (await read()).synonyms;
    expect(await synonyms()).not.toContain('kept-terms probe');
    await t.server.stores.relational.db.execute(
      sql`INSERT INTO ontology.term_names (term_id, vocabulary, kind, name, norm) SELECT id, vocabulary, 'synonym', 'kept-terms probe', 'kept-terms probe' FROM ontology.terms WHERE id = ${id}`,
    );
    await eventually(async () => (await synonyms()).includes('kept-terms probe'), { timeoutMs: 5000, intervalMs: 20 });
    await t.server.stores.relational.db.execute(sql`DELETE FROM ontology.term_names WHERE term_id = ${id} AND name = 'kept-terms probe'`);
    await eventually(async () => !(await synonyms()).includes('kept-terms probe'), { timeoutMs: 5000, intervalMs: 20 });
  });

  it('reads its own writes at once', async () => {
    const { terms } = await ontology.services(t.server.deps);
    const before = (await terms.get(id)).label;
    await terms.update(id, { label: `${before} (own)` });
    expect((await terms.get(id)).label).toBe(`${before} (own)`);
    expect(await label()).toBe(`${before} (own)`);
    await terms.update(id, { label: before });
    expect(await label()).toBe(before);
  });

  it('keeps nothing while its listening connection is gone, and listens again', async ({ skip }) => {
    if (t.server.stores.relational.kind !== 'postgres') skip('PGlite has one connection, which this process owns');
    const killed = await t.server.stores.relational.db.execute(
      sql`SELECT pg_terminate_backend(pid) AS gone FROM pg_stat_activity WHERE query = ${`LISTEN "${TERMS_CHANGED_CHANNEL}"`} AND datname = current_database()`,
    );
    expect((killed as unknown as { rows: unknown[] }).rows.length).toBeGreaterThan(0);
    // Written while no connection listens: no notice will ever arrive for it.
    const before = await label();
    await t.server.stores.relational.db.execute(sql`UPDATE ontology.terms SET label = ${`${before} (unannounced)`} WHERE id = ${id}`);
    await eventually(async () => (await label()) === `${before} (unannounced)`, { timeoutMs: 5000, intervalMs: 20 });
    await t.server.stores.relational.db.execute(sql`UPDATE ontology.terms SET label = ${before} WHERE id = ${id}`);
    await eventually(async () => (await label()) === before, { timeoutMs: 5000, intervalMs: 20 });
    // Listening again: a new connection waits on the channel.
    const listening = async () => {
      const r = await t.server.stores.relational.db.execute(sql`SELECT count(*)::int AS n FROM pg_stat_activity WHERE query = ${`LISTEN "${TERMS_CHANGED_CHANNEL}"`} AND datname = current_database()`);
      return ((r as unknown as { rows: { n: number }[] }).rows[0]?.n ?? 0) > 0;
    };
    await eventually(listening, { timeoutMs: 10_000, intervalMs: 20 });
  });
});
