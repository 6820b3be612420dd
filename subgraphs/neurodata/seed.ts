import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import type { SubgraphDeps } from '../../lib/subgraph.js';
import { newId } from '../../lib/ids.js';
import { identity } from '../identity/index.js';
import type { Actor, DatasetService } from './dataset.service.js';
import type { AssetService } from './asset.service.js';
import type { DatasetStore } from './store/dataset.store.js';
import { SEED_CONNECTOMES_DIR, SEED_MORPHOLOGY_DIR, morphologySeedInput, seedDatasetInput, transmittersOf, type SeedDatasetInput } from './seed-catalogue.js';

export interface SeedReport {
  slug: string;
  action: 'published' | 'exists';
  files: number;
  ms: number;
}

interface SeedServices {
  store: DatasetStore;
  datasets: DatasetService;
  assets: AssetService;
}

/**
 * Publishes the data shipped in data/: the 11 C. elegans connectomes (neurons.csv, connections.csv and their
 * dataset.json as a described file) and the neuron morphologies (SWC), owned by the curator account, as v1 of
 * public datasets. A dataset whose slug exists is left as it is.
 */
export async function seedShippedDatasets(
  deps: SubgraphDeps,
  s: SeedServices,
  opts: { onlyMissing: boolean; onProgress?: (message: string) => void },
): Promise<SeedReport[]> {
  const curator: Actor = { id: await identity.use(deps).ensureCuratorAccount(), superuser: false };
  const reports: SeedReport[] = [];
  const folders = (await readdir(SEED_CONNECTOMES_DIR, { withFileTypes: true })).filter((e) => e.isDirectory()).map((e) => e.name).sort();
  for (const folder of folders) {
    const dir = path.join(SEED_CONNECTOMES_DIR, folder);
    const descriptor = JSON.parse(await readFile(path.join(dir, 'dataset.json'), 'utf8'));
    const neurons = await readFile(path.join(dir, 'neurons.csv'));
    const input = seedDatasetInput(folder, descriptor, transmittersOf(neurons.toString('utf8')));
    reports.push(
      await publishOne(deps, s, curator, input, [
        { filename: 'neurons.csv', mediaType: 'text/csv', body: neurons },
        { filename: 'connections.csv', mediaType: 'text/csv', body: await readFile(path.join(dir, 'connections.csv')) },
        { filename: 'dataset.json', mediaType: 'application/json', body: await readFile(path.join(dir, 'dataset.json')) },
      ]),
    );
    opts.onProgress?.(`neurodata: ${folder}: ${reports.at(-1)!.action} (${reports.at(-1)!.ms} ms)`);
  }
  const swc = await listSwc(SEED_MORPHOLOGY_DIR);
  const morph = morphologySeedInput(await readFile(path.join(SEED_MORPHOLOGY_DIR, 'README.md'), 'utf8'));
  const files = [];
  for (const f of swc) files.push({ filename: path.basename(f), mediaType: 'text/plain', body: await readFile(f) });
  reports.push(await publishOne(deps, s, curator, morph, files));
  opts.onProgress?.(`neurodata: ${morph.slug}: ${reports.at(-1)!.action} (${reports.at(-1)!.ms} ms)`);
  return reports;
}

async function listSwc(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const e of await readdir(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) out.push(...(await listSwc(p)));
    else if (/\.swc$/i.test(e.name)) out.push(p);
  }
  return out.sort();
}

async function publishOne(
  deps: Pick<SubgraphDeps, 'stores'>,
  s: SeedServices,
  curator: Actor,
  input: SeedDatasetInput,
  files: Array<{ filename: string; mediaType: string; body: Buffer }>,
): Promise<SeedReport> {
  const started = performance.now();
  const existing = await s.store.find(input.slug);
  if (existing) return { slug: input.slug, action: 'exists', files: 0, ms: 0 };
  const { license_note: _note, ...metadata } = input;
  const dataset = await s.datasets.create(curator, { ...metadata, visibility: 'public' });
  for (const f of files) {
    const uploadKey = `uploads/${dataset.id}/${newId()}`;
    await deps.stores.objects.put(uploadKey, f.body, f.mediaType);
    await s.assets.attach(curator, dataset.id, { uploadKey, filename: f.filename, mediaType: f.mediaType });
  }
  await s.datasets.publish(curator, dataset.id, 'Shipped with the service from the published sources named in its description.');
  return { slug: input.slug, action: 'published', files: files.length, ms: Math.round(performance.now() - started) };
}
