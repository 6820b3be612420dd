import type { FastifyBaseLogger } from 'fastify';
import type { ObjectStore } from '../../lib/objects/objects.js';
import { runTask } from '../../lib/workers/pool.js';
import { outsideRequestScope } from '../../lib/request-scope.js';
import type { DatasetVersionRef } from '../neurodata/index.js';
import type { GraphData } from './graph.model.js';
import { GraphCache } from './graph-cache.js';
import { decodeGraph, encodeGraph } from './store/graph-blob.js';
import type { GraphSourceStore } from './store/graph-source.store.js';

export const GRAPH_TASK = new URL('./graph.task.ts', import.meta.url);

/**
 * Where a dataset version's graph comes from: this process's cache, else the binary object kept in object storage,
 * else the column tables (parsed on the worker pool), which then leaves that object behind for the next start.
 * A published version's graph never changes; a draft's is read afresh every time and kept nowhere.
 */
export class GraphLoader {
  constructor(
    private readonly sources: GraphSourceStore,
    private readonly objects: ObjectStore,
    readonly cache: GraphCache,
    private readonly log: FastifyBaseLogger,
  ) {}

  /** The cache key of a version's graph; null for a draft, which is not kept. */
  static keyOf(ref: Pick<DatasetVersionRef, 'datasetId' | 'version' | 'isDraft'>): string | null {
    return ref.isDraft ? null : `${ref.datasetId}@${ref.version}`;
  }

  async load(ref: DatasetVersionRef): Promise<GraphData> {
    const key = GraphLoader.keyOf(ref);
    if (key === null) return this.build(ref);
    // Several requests may wait for one build, so none of them may stop it: it runs outside their scopes.
    return this.cache.obtain(key, () => outsideRequestScope(() => this.restoreOrBuild(ref)));
  }

  private objectKey(ref: DatasetVersionRef): string {
    return `graph-cache/${ref.datasetId}/v${ref.version}.ndgraph`;
  }

  private async restoreOrBuild(ref: DatasetVersionRef): Promise<GraphData> {
    const objectKey = this.objectKey(ref);
    try {
      const stored = await this.objects.get(objectKey);
      const g = stored ? decodeGraph(stored.body) : null;
      if (g && g.source.n === ref.rowCounts.neurons && g.source.chemPre.length + g.source.elecA.length === ref.rowCounts.connections) return g;
    } catch (err) {
      this.log.warn({ err: (err as Error).message, objectKey }, 'stored graph unreadable: rebuilding it from the column store');
    }
    const started = performance.now();
    const g = await this.build(ref);
    this.log.info({ dataset: ref.slug, version: ref.version, nodes: g.source.n, ms: Math.round(performance.now() - started) }, 'graph built');
    this.objects.put(objectKey, encodeGraph(g), 'application/octet-stream').catch((err: Error) => {
      this.log.warn({ err: err.message, objectKey }, 'could not keep the built graph in object storage');
    });
    return g;
  }

  private async build(ref: DatasetVersionRef): Promise<GraphData> {
    const neurons = await this.sources.neurons(ref.datasetId, ref.version);
    const connections = await this.sources.connections(ref.datasetId, ref.version);
    return runTask<GraphData>(GRAPH_TASK, 'buildSource', { neurons, connections });
  }
}
