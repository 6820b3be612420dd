import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { sql } from 'drizzle-orm';
import { startTestSubgraph, type TestSubgraph } from '../../../test/kit/subgraph.js';
import { ontology } from '../index.js';
import { TermStore, type ExactMatch } from '../store/term.store.js';
import { TermValidationService, SNAPSHOT_FROM } from '../term-validation.service.js';
import { VocabularyNames } from '../vocabulary-names.js';
import { asciiNormalForm } from '../name-index.js';
import { NotifiedCache } from '../../../lib/notified-cache.js';
import { listenUntilReady } from '../../../test/kit/notices.js';
import { TERMS_CHANGED_CHANNEL } from '../term.service.js';
import { newId } from '../../../lib/ids.js';
import { uniqueVocabulary } from '../../../test/kit/factories.js';
import { eventually } from '../../../test/kit/eventually.js';

const sorted = (matches: readonly ExactMatch[]) => [...matches].sort((a, b) => `${a.term.id} ${a.kind}`.localeCompare(`${b.term.id} ${b.kind}`));

describe("validation against a snapshot of the vocabularies' names", () => {
  let t: TestSubgraph;
  let store: TermStore;
  let vocabulary: string;
  const rows = async (query: ReturnType<typeof sql>) => ((await t.server.stores.relational.db.execute(query)) as unknown as { rows: Record<string, unknown>[] }).rows;

  beforeAll(async () => {
    t = await startTestSubgraph('ontology');
    store = new TermStore(t.server.stores.relational.db);
    // A deprecated term with its replacement, and a label two terms share in case only.
    vocabulary = uniqueVocabulary('names');
    const now = new Date();
    await store.ensureVocabulary(vocabulary, null, now);
    const [old, current, twin] = [newId(), newId(), newId()];
    await store.insertTerms(
      [
        { id: current, vocabulary, code: 'N:2', label: 'Current region', uri: 'http://example.org/N2', parentId: null, description: null, metadata: {} },
        { id: old, vocabulary, code: 'N:1', label: 'Old region', uri: null, parentId: null, description: null, metadata: {} },
        { id: twin, vocabulary, code: 'N:3', label: 'current REGION', uri: null, parentId: null, description: null, metadata: {} },
      ],
      now,
    );
    await t.server.stores.relational.db.execute(sql`UPDATE ontology.terms SET status = 'deprecated', replaced_by = ${current} WHERE id = ${old}`);
  });
  afterAll(async () => t?.close());

  it('computes the normal form of ASCII values as PostgreSQL does, and leaves every other value to it', async () => {
    const printable = Array.from({ length: 95 }, (_, i) => String.fromCharCode(0x20 + i));
    const values = [...printable, ...printable.map((c) => ` A${c}b `), '  Field CA1  ', '\tCA1 ', 'MBA:382', ' \t ', '', 'x\ny'];
    const norms = (await rows(sql`SELECT lower(unaccent(btrim(value))) AS n FROM jsonb_array_elements_text(${JSON.stringify(values)}::jsonb) WITH ORDINALITY ORDER BY ordinality`)).map(
      (r) => r.n,
    );
    expect(values.map(asciiNormalForm)).toEqual(norms);
    expect(['Danio rério', 'Ωmega', 'ﬁeld'].map(asciiNormalForm)).toEqual([null, null, null]);
  });

  it('matches each ASCII value to the same names and terms as the engine, in one vocabulary and in all', async () => {
    const labels = (await rows(sql`SELECT code, label FROM ontology.terms WHERE vocabulary = 'brain_region' ORDER BY md5(code) LIMIT 40`)) as { code: string; label: string }[];
    const synonyms = (await rows(sql`SELECT name FROM ontology.term_names WHERE kind = 'synonym' ORDER BY md5(name) LIMIT 20`)).map((r) => r.name as string);
    const inputs = [
      ...labels.flatMap((r) => [r.code, r.label.toUpperCase(), `  ${r.label.toLowerCase()} `, `\t${r.code}`]),
      ...synonyms,
      'Old region',
      'CURRENT region',
      'n:1',
      'mouse',
      'no such term',
    ];
    for (const voc of ['brain_region', vocabulary, undefined]) {
      const names = await VocabularyNames.load(store, voc);
      const found = await names.matchExact([...inputs, 'Danio rério']);
      for (const [i, input] of inputs.entries()) expect(sorted(found[i]!), `${input} in ${voc ?? 'all'}`).toEqual(sorted(await store.matchExact([input], voc)));
      expect(found[inputs.length]).toBeUndefined();
    }
  });

  it('classifies a batch against the snapshot as value-by-value statements do, beyond ASCII too', async () => {
    const values = ['Field CA1', 'mba:382', '  Mus musculus ', 'Danio rério', 'Old region', 'current region', 'CURRENT REGION', 'n:3', 'hipocampus', 'mouse', 'CA1', ''];
    const batch = [...values, ...Array.from({ length: SNAPSHOT_FROM }, (_, i) => `filler ${i}`)];
    const loads: number[] = [];
    class CountingStore extends TermStore {
      override vocabularyNames(voc?: string) {
        loads.push(1);
        return super.vocabularyNames(voc);
      }
    }
    const service = new TermValidationService(new CountingStore(t.server.stores.relational.db));
    const together = await service.validate(batch);
    expect(loads.length).toBe(1);
    for (const value of values) {
      const alone = (await service.validate([value])).results[0]!;
      const { suggestions: _a, ...fromBatch } = together.results.find((r) => r.input === value)!;
      const { suggestions: _b, ...fromStatement } = alone;
      expect(fromBatch, value).toEqual(fromStatement);
    }
    // Fewer values than SNAPSHOT_FROM, and no snapshot kept: statements only.
    expect(loads.length).toBe(1);
    // Two terms whose labels differ in case only: the same one, whichever way the names were found.
    const twin = together.results.find((r) => r.input === 'CURRENT REGION')!;
    expect(twin.status).toBe('valid');
    expect(twin.term?.id).toBe([...(await store.matchExact(['current region'], vocabulary))].map((m) => m.term.id).sort()[0]);
    expect(together.results.find((r) => r.input === 'Old region')).toMatchObject({ status: 'deprecated', replacedBy: { code: 'N:2' } });
  });

  it('reads the names once, and again after a change to the term tables is announced', async () => {
    let loads = 0;
    class CountingStore extends TermStore {
      override vocabularyNames(voc?: string) {
        loads++;
        return super.vocabularyNames(voc);
      }
    }
    const kept = new NotifiedCache<string, VocabularyNames>(8);
    const unsubscribe = await listenUntilReady(t.server.stores.relational, TERMS_CHANGED_CHANNEL, kept.follow);
    try {
      const service = new TermValidationService(new CountingStore(t.server.stores.relational.db), kept);
      const batch = (probe: string) => [probe, ...Array.from({ length: SNAPSHOT_FROM }, (_, i) => `filler ${i}`)];
      expect((await service.validate(batch('kept-names probe'), vocabulary)).unrecognized).toContain('kept-names probe');
      expect((await service.validate(['Field CA1'])).valid).toEqual(['Field CA1']);
      expect((await service.validate(batch('Current region'), vocabulary)).valid).toEqual(['Current region']);
      expect(loads).toBe(1);
      // A label written past the service: valid once the notice arrives, read from a new snapshot.
      await t.server.stores.relational.db.execute(sql`UPDATE ontology.terms SET label = 'Kept-names probe' WHERE vocabulary = ${vocabulary} AND code = 'N:3'`);
      await t.server.stores.relational.db.execute(
        sql`UPDATE ontology.term_names SET name = 'Kept-names probe', norm = 'kept-names probe' WHERE vocabulary = ${vocabulary} AND kind = 'label' AND name = 'current REGION'`,
      );
      await eventually(async () => (await service.validate(batch('kept-names probe'), vocabulary)).valid.includes('kept-names probe'), { what: 'the new label valid' });
      expect(loads).toBeGreaterThan(1);
    } finally {
      unsubscribe();
    }
  });

  it("answers this process's own writes at once", async () => {
    const { terms, validation } = await ontology.services(t.server.deps);
    const batch = (probe: string) => [probe, ...Array.from({ length: SNAPSHOT_FROM }, (_, i) => `filler ${i}`)];
    const [term] = await store.matchExact(['N:2'], vocabulary);
    expect((await validation.validate(batch('Own write probe'), vocabulary)).unrecognized).toContain('Own write probe');
    await terms.update(term!.term.id, { label: 'Own write probe' });
    expect((await validation.validate(batch('Own write probe'), vocabulary)).valid).toEqual(['Own write probe']);
  });
});
