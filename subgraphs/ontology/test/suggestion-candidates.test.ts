import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { sql } from 'drizzle-orm';
import { startTestSubgraph, type TestSubgraph } from '../../../test/kit/subgraph.js';
import { newId } from '../../../lib/ids.js';
import { SUGGEST_NEAREST_NAMES, TermStore, type Suggestion } from '../store/term.store.js';
import { compareBytes } from '../suggestion-ranking.js';
import { seededRandom } from '../../../lib/seeded-random.js';
import { asciiTrigrams, nearestNames, trigramDistance, trigramSimilarity, wordSimilarity } from '../trigram-candidates.js';
import { RANK_ON_WORKERS_FROM, SUGGESTION_MIN_SCORE, SUGGESTIONS_MAX, TermValidationService } from '../term-validation.service.js';

/** Values as people mistype them: dropped, doubled and swapped letters, codes, punctuation, repeated words. */
const VALUES = [
  'hipocampus',
  'Hippocampal regoin',
  'Fiedl CA1',
  'field ca 1',
  'CA1',
  'mba:382',
  'MBA 382',
  'Drosophilla melanogaster',
  'Mus muscullus',
  'homo sapien',
  'two photon microscopy',
  'confocal microscopy microscopy',
  'dopamin',
  'GABA',
  'serotonine',
  'Primary somatosensory areaa, barrel field',
  'Paramedian llobule',
  'VISal4',
  'BLAp',
  'Flocculus, molecularlayer',
  'a',
  'x-y_z',
  'layer 2/3',
  'L2/3 IT',
  '(VIII)',
  'dentate gyrus granule',
  'thalamus thalamus',
  'mous',
  'Ammon horn',
  'Priimates',
];

describe('suggestion candidates', () => {
  let t: TestSubgraph;
  let store: TermStore;
  const rows = async (query: ReturnType<typeof sql>) => ((await t.server.stores.relational.db.execute(query)) as unknown as { rows: Record<string, unknown>[] }).rows;
  const norm = async (values: string[]) => (await rows(sql`SELECT lower(unaccent(btrim(value))) AS n FROM jsonb_array_elements_text(${JSON.stringify(values)}::jsonb) WITH ORDINALITY ORDER BY ordinality`)).map((r) => r.n as string);
  /** A float4 as PostgreSQL prints it, read back: the same number Math.fround gives. */
  const real = (v: unknown) => Math.fround(Number(v));

  beforeAll(async () => {
    t = await startTestSubgraph('ontology');
    store = new TermStore(t.server.stores.relational.db);
  });
  afterAll(async () => t?.close());

  it('measures similarity, distance and word similarity exactly as pg_trgm does', async () => {
    const values = await norm(VALUES);
    // A fixed sample of the seeded names, of every vocabulary and kind.
    const names = (await rows(sql`SELECT norm FROM (SELECT DISTINCT norm FROM ontology.term_names) n ORDER BY md5(norm) LIMIT 600`)).map((r) => r.norm as string);
    const measured = await rows(
      sql`SELECT v, n, similarity(n, v) AS s, n <-> v AS d, word_similarity(v, n) AS w
          FROM jsonb_array_elements_text(${JSON.stringify(values)}::jsonb) AS a(v), jsonb_array_elements_text(${JSON.stringify(names)}::jsonb) AS b(n)`,
    );
    expect(measured.length).toBe(values.length * names.length);
    const mismatches = measured.filter((m) => {
      const v = asciiTrigrams(m.v as string)!;
      const n = asciiTrigrams(m.n as string)!;
      return (
        Math.fround(trigramSimilarity(v, n)) !== real(m.s) ||
        trigramDistance(trigramSimilarity(v, n)) !== real(m.d) ||
        wordSimilarity(m.v as string, m.n as string) !== real(m.w)
      );
    });
    expect(mismatches).toEqual([]);
  });

  it('narrows each value down to names that include its nearest by pg_trgm distance, ties included', async () => {
    const values = await norm(VALUES);
    const names = (await rows(sql`SELECT DISTINCT norm FROM ontology.term_names`)).map((r) => r.norm as string);
    const { nearest, unmeasured } = nearestNames(names, values, SUGGEST_NEAREST_NAMES);
    expect(unmeasured).toEqual([]);
    for (const [i, value] of values.entries()) {
      const knn = await rows(sql`SELECT norm, norm <-> ${value} AS d FROM ontology.term_names ORDER BY norm <-> ${value} LIMIT ${SUGGEST_NEAREST_NAMES}`);
      const candidates = new Map(nearest[i]!.map((c) => [c.name, c]));
      for (const k of knn) {
        if (real(k.d) === 1) continue; // nothing in common: never a suggestion
        expect(candidates.get(k.norm as string)?.distance, `${value}: ${k.norm}`).toBe(real(k.d));
      }
    }
  });

  it('leaves values it cannot measure to the index walk, and offers names it cannot measure to every value', async () => {
    expect(nearestNames(['alpha'], ['αλφα', '--', ''], 20).nearest).toEqual([null, null, null]);
    expect(nearestNames(['ωmega', 'alpha'], ['alpha'], 20).unmeasured).toEqual(['ωmega']);
  });

  /**
   * Validates `values` (enough to be ranked on the worker pool) and holds each non-valid value's suggestions to the
   * index walk's: the same terms, in the same order, with the same scores. Returns how many values were compared.
   */
  async function compareWithWalk(values: string[]): Promise<number> {
    expect(values.length).toBeGreaterThanOrEqual(RANK_ON_WORKERS_FROM);
    const report = await new TermValidationService(store).validate(values);
    const opts = { limit: SUGGESTIONS_MAX, minScore: SUGGESTION_MIN_SCORE };
    const terms = (list: Pick<Suggestion, 'code' | 'score'>[]) => list.map((s) => `${s.code} ${s.score}`);
    let compared = 0;
    for (const result of report.results) {
      if (result.status !== 'unrecognized') continue;
      // Which of several names equally distant from the value are taken as its 20 nearest is up to the engine (the
      // index walk takes them in index order), so only values without such a tie have one right answer.
      const [value] = await norm([result.input]);
      const distances = (await rows(sql`SELECT norm <-> ${value} AS d FROM ontology.term_names ORDER BY 1 LIMIT ${SUGGEST_NEAREST_NAMES + 1}`)).map((r) => real(r.d));
      if (distances[SUGGEST_NEAREST_NAMES - 1] === distances[SUGGEST_NEAREST_NAMES]) continue;
      expect(terms(result.suggestions), result.input).toEqual(terms(await store.suggest([result.input], opts)));
      compared++;
    }
    return compared;
  }

  it('ranks suggestions as the index walk does, for a batch ranked on the worker pool', async () => {
    expect(await compareWithWalk(VALUES)).toBeGreaterThan(10);
  });

  it('ranks as the index walk does for hundreds of labels and codes mistyped as people type them', async () => {
    const seeded = await rows(sql`SELECT code, label FROM ontology.terms WHERE status = 'active' ORDER BY md5(code) LIMIT 400`);
    const rnd = seededRandom(7);
    const typo = (s: string) => {
      const i = 1 + Math.floor(rnd() * Math.max(1, s.length - 2));
      const kind = Math.floor(rnd() * 3);
      if (kind === 0) return s.slice(0, i) + s.slice(i + 1);
      if (kind === 1) return s.slice(0, i) + s[i] + s.slice(i);
      return s.slice(0, i - 1) + s[i] + s[i - 1] + s.slice(i + 1);
    };
    const values = seeded.map((r, i) => typo((i % 4 === 0 ? r.code : r.label) as string));
    expect(await compareWithWalk(values)).toBeGreaterThan(150);
  });

  it('measures names beyond ASCII in PostgreSQL and ranks them with the rest', async () => {
    const vocabulary = `probe_${Date.now()}`;
    const now = new Date();
    await store.ensureVocabulary(vocabulary, null, now);
    // A name beyond ASCII: measured by PostgreSQL itself, and still found for an ASCII value.
    await store.insertTerms([{ id: newId(), vocabulary, code: 'X:1', label: 'Ωmega hippocampal region', uri: null, parentId: null, description: null, metadata: {} }], now);
    const values = [...VALUES, 'omega hipocampal region'];
    expect(await compareWithWalk(values)).toBeGreaterThan(10);
    const report = await new TermValidationService(store).validate(values);
    const omega = report.results.find((r) => r.input === 'omega hipocampal region')!;
    expect(omega.suggestions.map((s) => s.code)).toContain('X:1');
  });

  it('orders labels as PostgreSQL orders them under COLLATE "C": by code point', async () => {
    const labels = ['b', 'a', 'ab', '', 'é', 'z', '\u{1F600}', '\uFFFD', '\uE000', 'A'];
    const ordered = (await rows(sql`SELECT value FROM jsonb_array_elements_text(${JSON.stringify(labels)}::jsonb) ORDER BY value COLLATE "C"`)).map((r) => r.value);
    expect([...labels].sort(compareBytes)).toEqual(ordered);
  });
});
