import { describe, it, expect } from 'vitest';
import { recordedStore, snapshotText, statementNames } from '../../../test/kit/sql-recorder.js';
import type { DatasetMetadata } from '../dataset.model.js';
import { DatasetStore } from './dataset.store.js';

const DATASET = '0190f3a4-5b6c-7d8e-9f00-112233445566';
const OTHER = '0190f3a4-5b6c-7d8e-9f00-112233445567';
const USER = '0190f3a4-5b6c-7d8e-9f00-aabbccddeeff';
const AT = new Date('2026-01-01T00:00:00Z');

const METADATA: DatasetMetadata = {
  title: 'C. elegans connectome',
  description: 'Chemical and electrical synapses of the hermaphrodite.',
  species: [],
  brainRegions: [],
  microscopy: [],
  neurotransmitters: [],
  keywords: ['connectome'],
  license: 'CC-BY-4.0',
  creators: [{ name: 'Varshney, Lav', kind: 'person', orcid: null, affiliation: null }],
  relatedPublication: null,
  doi: null,
};

const recorder = () => recordedStore((db) => new DatasetStore(db));

describe(DatasetStore.name, () => {
  it('keeps the SQL of its performance-relevant queries as reviewed (store/__sql__/dataset.store.sql; vitest -u rewrites it)', async () => {
    const { store, statements } = recorder();
    await store.insert({ id: DATASET, slug: 'celegans', metadata: METADATA, ownerId: USER, maintainerIds: [OTHER], visibility: 'public', now: AT });
    await store.find(DATASET);
    await store.find('celegans', { forUpdate: true });
    await store.findMany([DATASET, OTHER]);
    await store.list({ kind: 'visible', userId: USER, superuser: false, visibility: 'restricted' }, { limit: 20, offset: 0 });
    await store.list({ kind: 'modifiable', userId: USER, superuser: false }, { limit: 20, offset: 0 });
    await store.list({ kind: 'incomplete', userId: USER }, { limit: 20, offset: 0 });
    await store.update(DATASET, { metadata: METADATA, visibility: 'restricted', maintainerIds: [OTHER], slug: 'celegans_2011', draftVersion: 2 }, AT);
    await store.renameSlug(DATASET, 'celegans', 'celegans_2011', AT);
    await store.versions(DATASET);
    await store.version(DATASET, 1);
    await store.latestMetadata([DATASET, OTHER]);
    await store.latestVersions([DATASET, OTHER]);
    await store.assets(DATASET, 1);
    await store.asset(DATASET, OTHER);
    await store.insertAsset({
      id: OTHER, datasetId: DATASET, version: 1, filename: 'neurons.csv', kind: 'neurons', mediaType: 'text/csv', size: 1024, sha256: 'ab'.repeat(32),
      objectKey: `datasets/${DATASET}/${'ab'.repeat(32)}`, rows: 302, summary: {}, createdBy: USER, now: AT,
    });
    await store.events(DATASET);
    await expect(snapshotText(statements)).toMatchFileSnapshot('./__sql__/dataset.store.sql');
  });

  it('names every statement after its method', async () => {
    const { store, statements } = recorder();
    await store.find(DATASET);
    await store.delete(DATASET);
    await store.objectInUse(DATASET, 'k');
    expect(statementNames(statements)).toEqual(['DatasetStore.find', 'DatasetStore.delete', 'DatasetStore.objectInUse']);
  });
});
