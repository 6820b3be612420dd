import { byteLengthOf, type GraphData } from './graph.model.js';

/**
 * The graphs this process has built, kept until their bytes exceed the budget (GRAPH_CACHE_MB), least recently
 * used dropped first. Only published versions are kept: their rows never change. Callers asking for a graph that
 * is being built wait for that build instead of starting another.
 */
export class GraphCache {
  private readonly entries = new Map<string, { graph: GraphData; bytes: number }>();
  private readonly building = new Map<string, Promise<GraphData>>();
  private used = 0;

  constructor(readonly maxBytes: number) {}

  get bytes(): number {
    return this.used;
  }

  get size(): number {
    return this.entries.size;
  }

  get(key: string): GraphData | undefined {
    const e = this.entries.get(key);
    if (!e) return undefined;
    this.entries.delete(key);
    this.entries.set(key, e);
    return e.graph;
  }

  /** The cached graph, the one being built, or a new build by `build` (kept when it fits the budget). */
  obtain(key: string, build: () => Promise<GraphData>): Promise<GraphData> {
    const hit = this.get(key);
    if (hit) return Promise.resolve(hit);
    let pending = this.building.get(key);
    if (!pending) {
      pending = build().then(
        (graph) => {
          this.building.delete(key);
          this.put(key, graph);
          return graph;
        },
        (err: unknown) => {
          this.building.delete(key);
          throw err;
        },
      );
      this.building.set(key, pending);
    }
    return pending;
  }

  private put(key: string, graph: GraphData): void {
    const bytes = byteLengthOf(graph);
    if (bytes > this.maxBytes) return;
    this.entries.set(key, { graph, bytes });
    this.used += bytes;
    for (const [k, e] of this.entries) {
      if (this.used <= this.maxBytes) break;
      this.entries.delete(k);
      this.used -= e.bytes;
    }
  }
}
