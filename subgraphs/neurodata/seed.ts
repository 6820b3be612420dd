import path from 'node:path';
import type { SubgraphDeps } from '../../lib/subgraph.js';
import { newId } from '../../lib/ids.js';
import { readSeedDir, readSeedFile } from '../../lib/seed-files.js';
import { identity } from '../identity/index.js';
import type { Actor, DatasetService } from './dataset.service.js';
import type { AssetService } from './asset.service.js';
import type { DatasetStore } from './store/dataset.store.js';
import { CONNECTOMES_SEED, FORMER_SEED_SLUGS, MORPHOLOGY_SEED, morphologySeedInput, seedDatasetInput, transmittersOf, type SeedDatasetInput } from './seed-catalogue.js';

export interface SeedReport {
  slug: string;
  /** renamed: published by an earlier release under a former slug (FORMER_SEED_SLUGS), which still resolves to it. */
  action: 'published' | 'exists' | 'renamed';
  files: number;
  ms: number;
}

interface SeedServices {
  store: DatasetStore;
  datasets: DatasetService;
  assets: AssetService;
}

/**
 * Publishes the data shipped in the seed folder (SEED_DIR): the 11 C. elegans connectomes (neurons.csv,
 * connections.csv and their dataset.json as a described file) and the neuron morphologies (SWC), owned by the
 * curator account, as v1 of public datasets. A dataset whose slug exists is left as it is; one an earlier release
 * published under a former slug is renamed first, so it is neither duplicated nor lost. A missing or unreadable
 * seed file throws SeedFileError.
 */
export async function seedShippedDatasets(
  deps: SubgraphDeps,
  s: SeedServices,
  opts: { onlyMissing: boolean; onProgress?: (message: string) => void },
): Promise<SeedReport[]> {
  const seedDir = deps.config.seedDir;
  const curator: Actor = { id: await identity.use(deps).ensureCuratorAccount(), superuser: false };
  const reports: SeedReport[] = [];
  for (const [from, to] of Object.entries(FORMER_SEED_SLUGS)) {
    const old = await s.store.find(from);
    // Only the dataset the seeder published: a user's dataset that happens to hold the slug keeps it.
    if (!old || old.slug !== from || old.ownerId !== curator.id || !(await s.datasets.renameSlug(from, to))) continue;
    reports.push({ slug: to, action: 'renamed', files: 0, ms: 0 });
    opts.onProgress?.(`neurodata: ${from}: renamed ${to}`);
  }
  const folders = (await readSeedDir(seedDir, CONNECTOMES_SEED)).filter((e) => e.isDirectory()).map((e) => e.name).sort();
  for (const folder of folders) {
    const file = (name: string) => readSeedFile(seedDir, path.join(CONNECTOMES_SEED, folder, name));
    const descriptorText = await file('dataset.json');
    const descriptor = JSON.parse(descriptorText.toString('utf8'));
    const neurons = await file('neurons.csv');
    const input = seedDatasetInput(folder, descriptor, transmittersOf(neurons.toString('utf8')));
    reports.push(
      await publishOne(deps, s, curator, input, [
        { filename: 'neurons.csv', mediaType: 'text/csv', body: neurons },
        { filename: 'connections.csv', mediaType: 'text/csv', body: await file('connections.csv') },
        { filename: 'dataset.json', mediaType: 'application/json', body: descriptorText },
      ]),
    );
    opts.onProgress?.(`neurodata: ${folder}: ${reports.at(-1)!.action} (${reports.at(-1)!.ms} ms)`);
  }
  const swc = await listSwc(seedDir, MORPHOLOGY_SEED);
  const morph = morphologySeedInput((await readSeedFile(seedDir, path.join(MORPHOLOGY_SEED, 'README.md'))).toString('utf8'));
  const files = [];
  for (const f of swc) files.push({ filename: path.basename(f), mediaType: 'text/plain', body: await readSeedFile(seedDir, f) });
  reports.push(await publishOne(deps, s, curator, morph, files));
  opts.onProgress?.(`neurodata: ${morph.slug}: ${reports.at(-1)!.action} (${reports.at(-1)!.ms} ms)`);
  return reports;
}

/** The SWC files under `dir` (relative to the seed folder, as are the paths returned), sorted. */
async function listSwc(seedDir: string, dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const e of await readSeedDir(seedDir, dir)) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) out.push(...(await listSwc(seedDir, p)));
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
