import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { startTestApp, call, gql, type TestApp } from '../../../test/kit/app.js';
import { createUser, type TestUser } from '../../../test/kit/users.js';
import { createTerm, uniqueVocabulary } from '../../../test/kit/factories.js';
import { ontology } from '../index.js';
import { expectError } from '../../../test/kit/expect.js';


interface Result {
  input: string;
  status: string;
  matched_by: string | null;
  term: { code: string; label: string } | null;
  replaced_by: { id: string; code: string; label: string } | null;
  suggestions: { code: string; label: string; score: number; matched: string }[];
}

describe('POST /v1/ontology/terms/validate', () => {
  let t: TestApp;
  let su: TestUser;
  const validate = (body: Record<string, unknown>) => call(t.url, 'POST', '/v1/ontology/terms/validate', { body });
  const resultOf = (body: { results: Result[] }, input: string) => body.results.find((r) => r.input === input)!;

  beforeAll(async () => {
    t = await startTestApp();
    su = await createUser(t, { accountType: 'SUPERUSER' });
  });
  afterAll(async () => t?.close());

  it('accepts codes and labels case- and accent-insensitively, and sorts the rest into unrecognized', async () => {
    const r = await validate({ terms: ['Field CA1', 'mba:382', '  Mus musculus ', 'DROSOPHILA MELANOGASTER', 'Hippocampus proper', 'Danio rério'] });
    expect(r.status).toBe(200);
    expect(r.body.valid).toEqual(['Field CA1', 'mba:382', '  Mus musculus ', 'DROSOPHILA MELANOGASTER', 'Danio rério']);
    expect(r.body.unrecognized).toEqual(['Hippocampus proper']);
    expect(r.body.deprecated).toEqual([]);
    expect(resultOf(r.body, 'mba:382')).toMatchObject({ status: 'valid', matched_by: 'code', term: { code: 'MBA:382', label: 'Field CA1' }, suggestions: [] });
    expect(resultOf(r.body, 'Field CA1')).toMatchObject({ matched_by: 'label' });
    expect(r.body.results.map((x: Result) => x.input)).toEqual(['Field CA1', 'mba:382', '  Mus musculus ', 'DROSOPHILA MELANOGASTER', 'Hippocampus proper', 'Danio rério']);
  });

  it('suggests the closest terms for misspellings', async () => {
    const r = await validate({ terms: ['hipocampus', 'Drosophilla melanogaster', 'two photon microscopy'] });
    expect(r.body.unrecognized).toEqual(['hipocampus', 'Drosophilla melanogaster', 'two photon microscopy']);

    const hippo = resultOf(r.body, 'hipocampus');
    expect(hippo.suggestions.length).toBeLessThanOrEqual(5);
    expect(hippo.suggestions[0]).toMatchObject({ code: 'MBA:1080', label: 'Hippocampal region' });
    expect(hippo.suggestions.map((s) => s.label)).toContain('Hippocampal formation');

    const fly = resultOf(r.body, 'Drosophilla melanogaster');
    expect(fly.suggestions[0]).toMatchObject({ code: 'NCBITaxon:7227', label: 'Drosophila melanogaster' });
    expect(fly.suggestions[0].score).toBeGreaterThan(0.8);

    const twoPhoton = resultOf(r.body, 'two photon microscopy');
    const labels = twoPhoton.suggestions.map((s) => s.label);
    expect(labels.slice(0, 2).sort()).toEqual(['multi-photon microscopy', 'two-photon laser scanning microscopy']);
    for (const s of twoPhoton.suggestions) expect(s.score).toBeGreaterThanOrEqual(0.3);
  });

  it('treats a synonym as unrecognized but offers its term first', async () => {
    const r = await validate({ terms: ['mouse', 'CA1'] });
    expect(r.body.unrecognized).toEqual(['mouse', 'CA1']);
    expect(resultOf(r.body, 'mouse').suggestions[0]).toMatchObject({ label: 'Mus musculus', matched: 'mouse' });
    expect(resultOf(r.body, 'CA1').suggestions[0]).toMatchObject({ code: 'MBA:382', matched: 'CA1' });
  });

  it('checks against one vocabulary when asked', async () => {
    const r = await validate({ terms: ['Field CA1', 'Mus musculus', 'medulla', 'Medulla'], vocabulary: 'species' });
    expect(r.body.valid).toEqual(['Mus musculus']);
    const brain = await validate({ terms: ['medulla', 'Medulla', 'Mus musculus'], vocabulary: 'brain_region' });
    // "Medulla" (mouse) and "medulla" (fly) differ only in case: either spelling is valid
    expect(brain.body.valid).toEqual(['medulla', 'Medulla']);
    expect(resultOf(brain.body, 'Medulla').term!.code).toBe('MBA:354');
    expect(resultOf(brain.body, 'medulla').term!.code).toBe('FBbt:00003748');
    expectError(await validate({ terms: ['x'], vocabulary: 'regions' }), 400, /unknown vocabulary "regions"/);
  });

  it('reports deprecated terms as deprecated, with the replacement as first suggestion', async () => {
    const v = uniqueVocabulary('validation');
    const create = (code: string, label: string) => createTerm(t, su, { vocabulary: v, code, label });
    const old = await create('OLD:1', 'Posterior parietal association areas');
    const current = await create('NEW:1', 'Posterior parietal cortex');
    const orphan = await create('OLD:2', 'Retired area');
    await call(t.url, 'DELETE', `/v1/ontology/terms/${old.id}?replaced_by=${current.id}`, { token: su.accessToken });
    await call(t.url, 'DELETE', `/v1/ontology/terms/${orphan.id}`, { token: su.accessToken });

    const r = await validate({ terms: ['Posterior parietal association areas', 'old:2', 'Posterior parietal cortex'], vocabulary: v });
    expect(r.body).toMatchObject({ valid: ['Posterior parietal cortex'], deprecated: ['Posterior parietal association areas', 'old:2'], unrecognized: [] });
    const dep = resultOf(r.body, 'Posterior parietal association areas');
    expect(dep).toMatchObject({ status: 'deprecated', term: { code: 'OLD:1' }, replaced_by: { id: current.id, code: 'NEW:1', label: 'Posterior parietal cortex' } });
    expect(dep.suggestions[0]).toMatchObject({ code: 'NEW:1' });
    expect(resultOf(r.body, 'old:2')).toMatchObject({ status: 'deprecated', replaced_by: null });
  });

  it('refuses a request without terms', async () => {
    expectError(await validate({}), 400, /terms/);
    expectError(await validate({ terms: [{ a: 1 }] }), 400);
  });

  it('refuses terms that are not an array, and fields it does not know, instead of guessing', async () => {
    // GraphQL would coerce a single string into a one-item list; the REST contract says array.
    expectError(await validate({ terms: 'hippocampus' }), 400, /^terms must be an array$/);
    expectError(await validate({ terms: { a: 'hippocampus' } }), 400, /^terms must be an array$/);
    expectError(await validate({ terms: ['hippocampus'], vocabulary: 7 }), 400, /^vocabulary must be a string or null$/);
    expectError(await validate({ terms: ['hippocampus'], vocab: 'brain_region' }), 400, /^unknown field vocab \(accepted: vocabulary, terms\)$/);
  });

  it('refuses a value longer than any term name with a 400 naming the value and the limit, before looking anything up', async () => {
    expectError(await validate({ terms: ['hippocampus', 'x'.repeat(1001)] }), 400, /^terms\[1\]: at most 1000 characters per value \(got 1001\)/);
    const atLimit = await validate({ terms: ['x'.repeat(1000)] });
    expect(atLimit.status).toBe(200);
    expect(atLimit.body.unrecognized).toHaveLength(1);
  });

  it('is served over GraphQL as termValidation', async () => {
    const r = await gql(t.url, 'query($t: [String!]!) { termValidation(terms: $t, vocabulary: "species") { valid unrecognized results { suggestions { label } } } }', {
      t: ['Homo sapiens', 'Homo sapien'],
    });
    expect(r.body.data.termValidation.valid).toEqual(['Homo sapiens']);
    expect(r.body.data.termValidation.results[1].suggestions[0].label).toBe('Homo sapiens');
  });

  describe('validateTermValues (for dataset metadata)', () => {
    it('returns the matched terms of valid metadata', async () => {
      const out = await ontology.use(t.app.deps).validateTermValues({ brain_region: ['Field CA1', 'MBA:1089'], species: 'Mus musculus', microscopy: 'two-photon laser scanning microscopy' });
      expect(out.brain_region!.map((x) => x.code)).toEqual(['MBA:382', 'MBA:1089']);
      expect(out.species![0].code).toBe('NCBITaxon:10090');
      expect(out.microscopy![0].code).toBe('FBbi:00000254');
    });

    it('rejects unknown values with BadInput listing the closest terms of each field', async () => {
      const err = await ontology.use(t.app.deps).validateTermValues({ brain_region: 'hipocampus', species: 'Drosophilla melanogaster', microscopy: 'two photon microscopy' }).catch((e) => e);
      expect(err.extensions.code).toBe('BAD_USER_INPUT');
      expect(err.message).toMatch(/brain_region: "hipocampus" is not a term of vocabulary brain_region; closest terms: "Hippocampal region" \(MBA:1080\)/);
      expect(err.message).toMatch(/species: "Drosophilla melanogaster" is not a term of vocabulary species; closest terms: "Drosophila melanogaster" \(NCBITaxon:7227\)/);
      expect(err.message).toMatch(/microscopy: "two photon microscopy" is not a term of vocabulary microscopy_technique; closest terms: .*"two-photon laser scanning microscopy" \(FBbi:00000254\)/);
    });

    it('rejects a value from the wrong vocabulary', async () => {
      const err = await ontology.use(t.app.deps).validateTermValues({ species: 'Field CA1' }).catch((e) => e);
      expect(err.message).toMatch(/^species: "Field CA1" is not a term of vocabulary species/);
    });
  });
});
