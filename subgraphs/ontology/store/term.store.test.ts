import { describe, it, expect } from 'vitest';
import { recordedStore, snapshotText, statementNames } from '../../../test/kit/sql-recorder.js';
import { TermStore } from './term.store.js';

const recorder = () => recordedStore((db) => new TermStore(db));

describe(TermStore.name, () => {
  it('keeps the SQL of its performance-relevant queries as reviewed (store/__sql__/term.store.sql; vitest -u rewrites it)', async () => {
    const { store, statements } = recorder();
    await store.search({ vocabulary: 'brain_region', q: 'hippocampus', includeDeprecated: false, limit: 50, offset: 0 });
    await store.list({ vocabulary: 'brain_region', includeDeprecated: false, limit: 50, offset: 0 });
    await store.selfAndAncestors('0190f3a4-5b6c-7d8e-9f00-112233445566');
    await store.findByIds(['0190f3a4-5b6c-7d8e-9f00-112233445566', '0190f3a4-5b6c-7d8e-9f00-112233445567']);
    await store.matchExact(['Field CA1'], 'brain_region');
    await store.suggest(['hipocampus'], { vocabulary: 'brain_region', limit: 5, minScore: 0.3 });
    await store.vocabularyNames('brain_region');
    await store.measureForeignNames(['hipocampus'], 'brain_region');
    await store.insertTerms([{ id: 'i', vocabulary: 'v', code: 'c', label: 'l', uri: null, parentId: null, description: null, metadata: {} }], new Date('2026-01-01T00:00:00Z'));
    await store.updateTerms([{ id: 'i', label: 'l2' }], new Date('2026-01-01T00:00:00Z'));
    await expect(snapshotText(statements)).toMatchFileSnapshot('./__sql__/term.store.sql');
  });

  it('names every statement after its method', async () => {
    const { store, statements } = recorder();
    await store.listVocabularies();
    await store.lockVocabulary('brain_region');
    expect(statementNames(statements)).toEqual(['TermStore.listVocabularies', 'TermStore.lockVocabulary']);
  });
});
