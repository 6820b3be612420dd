import type { RequestContext } from '../../../lib/context.js';
import { BadInput, NotFound } from '../../../lib/errors.js';
import { LruCache } from '../../../lib/lru.js';
import type { ObjectStore } from '../../../lib/objects/objects.js';
import { throwIfRequestAborted } from '../../../lib/request-scope.js';
import { runTask } from '../../../lib/workers/pool.js';
import type { DatasetVersionRef } from '../../neurodata/index.js';
import type { ResolveVersion } from '../graph.service.js';
import { intParam } from '../graph-params.js';
import { datasetLabel } from '../analytics/analytics.service.js';
import type { AnalyticsStore, MorphologyFile } from '../store/analytics.store.js';
import { DEFAULT_SHOLL_STEP, distribution, type Distribution, type MorphometricsOptions, type NeuronMorphometrics } from './morphometrics.js';
import type { MorphometricsTaskInput, MorphometricsTaskResult } from './morphometrics.task.js';

type Viewer = Pick<RequestContext, 'viewer' | 'authError' | 'reloadViewer' | 'log'>;

// Named by URL, not imported: the task module runs on worker threads.
const MORPHOMETRICS_TASK = new URL('./morphometrics.task.ts', import.meta.url);

export const MORPHOMETRICS_LIMITS = {
  /** Files whose measures one request computes (a dataset's distribution covers them all). */
  files: 5000,
  /** Files listed per page. */
  listed: { min: 1, default: 100, max: 1000 },
  shollRadii: 1000,
  /** Bytes of SWC handed to one worker task: a few files of a NeuroMorpho-sized collection, or one large skeleton. */
  taskBytes: 8 << 20,
} as const;

/** The scalar measures a dataset's distribution is given for, in this order. */
export const DISTRIBUTED_MEASURES = [
  'n_points',
  'n_soma_points',
  'n_trees',
  'n_stems',
  'n_bifurcations',
  'n_multifurcations',
  'n_tips',
  'n_sections',
  'total_length',
  'max_path_distance',
  'max_branch_order',
  'max_euclidean_distance',
  'strahler_order',
  'surface_area',
  'volume',
  'surface_area_cylinder',
  'volume_cylinder',
  'soma_radius',
] as const satisfies ReadonlyArray<keyof NeuronMorphometrics>;

export interface MorphometricsArgs {
  dataset_id: string;
  version?: string | null;
  neuron?: string | null;
  sholl_radii?: number[] | null;
  sholl_step?: number | null;
  limit?: number | null;
  offset?: number | null;
}

interface FileMeasures {
  file: MorphologyFile;
  measures: NeuronMorphometrics | null;
  error: string | null;
}

/**
 * Neuron morphometrics from the stored SWC files (GET /v1/analytics/morphometrics): one neuron's files, or every
 * file of a dataset with the distribution of each measure. Files are read from object storage and measured on the
 * worker pool; measures are kept per file content and options, so a dataset's second request reads nothing.
 */
export class MorphometricsService {
  /** As many files as one request measures: a dataset asked for again is answered from memory (a few KB per file). */
  private readonly cache = new LruCache<string, NeuronMorphometrics | string>(MORPHOMETRICS_LIMITS.files);

  constructor(
    private readonly resolveVersion: ResolveVersion,
    private readonly store: AnalyticsStore,
    private readonly objects: ObjectStore,
  ) {}

  async morphometrics(ctx: Viewer, args: MorphometricsArgs) {
    const options = shollOptions(args);
    const listed = intParam('limit', args.limit, MORPHOMETRICS_LIMITS.listed);
    const offset = intParam('offset', args.offset, { min: 0, default: 0, max: MORPHOMETRICS_LIMITS.files });
    const neuron = args.neuron?.trim() || null;
    const ref = await this.resolveVersion(ctx, args.dataset_id, args.version);
    const v = { datasetId: ref.datasetId, version: ref.version };
    const { files, total } = await this.store.morphologyFiles(v, neuron, MORPHOMETRICS_LIMITS.files);
    if (neuron !== null && files.length === 0) {
      if (await this.store.hasNeuron(v, neuron)) throw new NotFound(`neuron ${JSON.stringify(neuron)} of ${ref.slug}@v${ref.version} has no morphology file`);
      throw new NotFound(`${ref.slug}@v${ref.version} has no cell ${JSON.stringify(neuron)}`);
    }
    const measured = await this.measure(ref, files, options);
    return {
      dataset: datasetLabel(ref),
      neuron,
      total_files: total,
      measured_files: measured.length,
      failed_files: measured.filter((m) => m.error !== null).length,
      offset,
      limit: listed,
      files: measured.slice(offset, offset + listed).map((m) => ({ neuron: m.file.neuron, file: m.file.file, sha256: m.file.sha256, morphometrics: m.measures, error: m.error })),
      distribution: distributions(measured.flatMap((m) => (m.measures ? [m.measures] : []))),
      sholl_step: options.shollRadii ? null : (options.shollStep ?? DEFAULT_SHOLL_STEP),
    };
  }

  private async measure(ref: DatasetVersionRef, files: MorphologyFile[], options: MorphometricsOptions): Promise<FileMeasures[]> {
    const optionKey = JSON.stringify(options);
    const out = new Map<MorphologyFile, FileMeasures>();
    let batch: Array<{ file: MorphologyFile; bytes: Uint8Array }> = [];
    let bytes = 0;
    const flush = async () => {
      if (!batch.length) return;
      const input: MorphometricsTaskInput = { files: batch.map((b) => ({ filename: b.file.file, bytes: b.bytes })), options };
      const results = await runTask<MorphometricsTaskResult>(MORPHOMETRICS_TASK, 'morphometricsOfFiles', input);
      results.forEach((r, i) => {
        const file = batch[i].file;
        const value = 'ok' in r ? r.ok : r.problem.message;
        this.cache.set(`${file.sha256}:${optionKey}`, value);
        out.set(file, toMeasures(file, value));
      });
      batch = [];
      bytes = 0;
    };
    for (const file of files) {
      const cached = this.cache.get(`${file.sha256}:${optionKey}`);
      if (cached !== undefined) {
        out.set(file, toMeasures(file, cached));
        continue;
      }
      throwIfRequestAborted();
      const object = await this.objects.get(file.object_key);
      if (!object) {
        out.set(file, { file, measures: null, error: `${file.file}: the stored file of ${ref.slug}@v${ref.version} is missing from object storage` });
        continue;
      }
      batch.push({ file, bytes: new Uint8Array(object.body) });
      bytes += object.body.length;
      if (bytes >= MORPHOMETRICS_LIMITS.taskBytes) await flush();
    }
    await flush();
    return files.map((f) => out.get(f)!);
  }
}

function toMeasures(file: MorphologyFile, value: NeuronMorphometrics | string): FileMeasures {
  return typeof value === 'string' ? { file, measures: null, error: value } : { file, measures: value, error: null };
}

function distributions(all: NeuronMorphometrics[]): Array<{ measure: string } & Distribution> {
  if (!all.length) return [];
  return DISTRIBUTED_MEASURES.flatMap((measure) => {
    const values = all.map((m) => m[measure]).filter((x): x is number => typeof x === 'number' && Number.isFinite(x));
    return values.length ? [{ measure, ...distribution(values) }] : [];
  });
}

/** The Sholl spheres asked for, checked here so the worker never gets options it would refuse. */
function shollOptions(args: MorphometricsArgs): MorphometricsOptions {
  if (args.sholl_radii && args.sholl_radii.length) {
    if (args.sholl_step !== null && args.sholl_step !== undefined) throw new BadInput('sholl_radii, sholl_step: give one of them');
    if (args.sholl_radii.length > MORPHOMETRICS_LIMITS.shollRadii) throw new BadInput(`sholl_radii: at most ${MORPHOMETRICS_LIMITS.shollRadii} radii`);
    const bad = args.sholl_radii.find((r) => !Number.isFinite(r) || r < 0);
    if (bad !== undefined) throw new BadInput(`sholl_radii: ${bad} is not a finite radius >= 0`);
    return { shollRadii: [...args.sholl_radii].sort((a, b) => a - b) };
  }
  if (args.sholl_step !== null && args.sholl_step !== undefined) {
    if (!Number.isFinite(args.sholl_step) || args.sholl_step <= 0) throw new BadInput('sholl_step: a spacing > 0 in the file\'s units');
    return { shollStep: args.sholl_step };
  }
  return {};
}
