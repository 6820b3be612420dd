import { describe, it, expect } from 'vitest';
import { recordedStore, snapshotText } from '../../../test/kit/sql-recorder.js';
import type { PlanClause, RecognizedTerm, SearchPlan } from '../search/search.model.js';
import { DatasetSearchStore } from './search.store.js';

const DATASET = '0190f3a4-5b6c-7d8e-9f00-112233445566';
const OTHER = '0190f3a4-5b6c-7d8e-9f00-112233445567';

const WORM: RecognizedTerm = {
  text: 'c elegans',
  term: { id: '0190f3a4-5b6c-7d8e-9f00-000000006239', vocabulary: 'species', code: 'NCBITaxon:6239', label: 'Caenorhabditis elegans' },
  matchIds: ['0190f3a4-5b6c-7d8e-9f00-000000006239'],
};
const clause = (tsquery: string | null, text: string, terms: RecognizedTerm[] = []): PlanClause => ({ tsquery, text, terms });

/** connectome -electron in species C. elegans, CC-BY-4.0, 2010 to 2020, public, facets counted. */
const PLAN: SearchPlan = {
  must: [clause(`'connectom'`, 'connectome'), clause(null, 'c elegans', [WORM])],
  mustNot: [clause(`'electron'`, 'electron')],
  rankQuery: `'connectom' | 'elegan'`,
  termFilters: [{ field: 'species', values: [WORM] }],
  licenses: ['CC-BY-4.0'],
  years: { from: 2010, to: 2020 },
  visibility: 'public',
  limit: 20,
  offset: 0,
  facets: true,
};

const recorder = () => recordedStore((db) => new DatasetSearchStore(db));

describe(DatasetSearchStore.name, () => {
  it('keeps the SQL of its performance-relevant queries as reviewed (store/__sql__/search.store.sql; vitest -u rewrites it)', async () => {
    const { store, statements } = recorder();
    await store.search(PLAN);
    await store.search({ ...PLAN, must: [], mustNot: [], rankQuery: null, termFilters: [], licenses: [], years: null, visibility: null, offset: 40, facets: false });
    await store.rowsByIds([DATASET, OTHER]);
    await store.sync(DATASET);
    await store.syncStale(100);
    await store.publishedIds(null, 100);
    await store.documents([DATASET, OTHER]);
    await store.tsqueries(['connectome -electron']);
    await store.knownWords(['connectome', 'elegans']);
    await store.nearestWords(['conectome'], 0.3);
    await store.pruneUnpublished();
    await expect(snapshotText(statements)).toMatchFileSnapshot('./__sql__/search.store.sql');
  });

  it('names every statement after its method, once', async () => {
    const { store, statements } = recorder();
    await store.countPublished();
    await store.analyze();
    expect(statements.map((s) => s.match(/^\/\* (DatasetSearchStore\.\w+) \*\/ (?!\/\*)/)?.[1])).toEqual(['DatasetSearchStore.countPublished', 'DatasetSearchStore.analyze']);
  });
});
