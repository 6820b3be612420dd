import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { packagePath } from '../../lib/package-root.js';
import { call, type TestApp } from './app.js';
import type { TestUser } from './users.js';

/** The shipped connectomes (seed/connectomes/<folder>). */
export const CONNECTOMES_DIR = packagePath('seed', 'connectomes');

export const connectomeFile = (folder: string, file: string) => readFile(path.join(CONNECTOMES_DIR, folder, file));
export const connectomeCounts = async (folder: string) => JSON.parse((await connectomeFile(folder, 'dataset.json')).toString('utf8')).counts as Record<string, number>;

/** Metadata every publishable test dataset has; override what a test is about. */
export const COMPLETE_METADATA = {
  description: 'A test connectome with every field a publication needs.',
  species: ['Caenorhabditis elegans'],
  brain_regions: ['nerve ring'],
  microscopy: ['transmission electron microscopy (TEM)'],
  license: 'CC-BY-4.0',
  creators: [{ name: 'Ada Lovelace', orcid: '0000-0002-1825-0097', affiliation: 'Analytical Engine Lab' }],
};

async function expectStatus<T extends { status: number; body: unknown }>(res: T, status: number, what: string): Promise<T> {
  if (res.status !== status) throw new Error(`${what}: expected ${status}, got ${res.status} ${JSON.stringify(res.body)}`);
  return res;
}

/** Creates a dataset through the API as `user` (a draft unless `publish` with files is asked for). */
export async function createDataset(t: TestApp, user: TestUser, fields: Record<string, unknown> = {}): Promise<{ id: string; slug: string } & Record<string, any>> {
  const res = await call(t.url, 'POST', '/v1/neurodata/datasets', { token: user.accessToken, body: { title: `Test dataset ${Math.random().toString(36).slice(2, 8)}`, ...COMPLETE_METADATA, ...fields } });
  return (await expectStatus(res, 201, 'create dataset')).body;
}

/** Uploads one file to a dataset's draft as a raw body. */
export async function uploadFile(t: TestApp, user: TestUser, datasetId: string, filename: string, body: Buffer | string, contentType = 'text/csv') {
  return call(t.url, 'POST', `/v1/neurodata/datasets/${datasetId}/assets?filename=${encodeURIComponent(filename)}`, {
    token: user.accessToken,
    body: typeof body === 'string' ? body : body.toString('utf8'),
    headers: { 'content-type': contentType },
  });
}

/** A dataset holding one shipped connectome (neurons.csv and connections.csv), published as v1 unless `publish: false`. */
export async function createConnectome(
  t: TestApp,
  user: TestUser,
  opts: { folder?: string; visibility?: 'public' | 'restricted'; publish?: boolean; fields?: Record<string, unknown> } = {},
) {
  const folder = opts.folder ?? 'celegans_varshney_2011';
  const d = await createDataset(t, user, { visibility: opts.visibility ?? 'public', ...(opts.fields ?? {}) });
  await expectStatus(await uploadFile(t, user, d.id, 'neurons.csv', await connectomeFile(folder, 'neurons.csv')), 201, 'upload neurons.csv');
  await expectStatus(await uploadFile(t, user, d.id, 'connections.csv', await connectomeFile(folder, 'connections.csv')), 201, 'upload connections.csv');
  if (opts.publish !== false) await expectStatus(await call(t.url, 'POST', `/v1/neurodata/datasets/${d.id}/publish`, { token: user.accessToken }), 201, 'publish');
  return d;
}

/** Three neurons in a chain: the least data a dataset needs to be published. */
const TINY_NEURONS = 'neuron_id,cell_class,neurotransmitter\nA1,A,acetylcholine\nB1,B,GABA\nC1,C,glutamate\n';
const TINY_CONNECTIONS = 'pre,post,synapse_type,weight\nA1,B1,chemical,3\nB1,C1,chemical,2\nA1,C1,electrical,1\n';

/** A dataset with `fields` as its metadata and a three-neuron connectome, published as v1 unless `publish: false`. */
export async function createTinyDataset(t: TestApp, user: TestUser, fields: Record<string, unknown> = {}, opts: { publish?: boolean } = {}) {
  const d = await createDataset(t, user, fields);
  await expectStatus(await uploadFile(t, user, d.id, 'neurons.csv', TINY_NEURONS), 201, 'upload neurons.csv');
  await expectStatus(await uploadFile(t, user, d.id, 'connections.csv', TINY_CONNECTIONS), 201, 'upload connections.csv');
  if (opts.publish !== false) await expectStatus(await call(t.url, 'POST', `/v1/neurodata/datasets/${d.id}/publish`, { token: user.accessToken }), 201, 'publish');
  return d;
}
