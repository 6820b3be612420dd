import { callProblem, type RemoteCluster } from './remote.js';
import type { ClusterStore } from './store/cluster.store.js';

/** What one active cluster answered to a fanned-out query. */
export interface ClusterAnswer<T = unknown> {
  cluster: { id: string; name: string; base_url: string };
  /** ok | timeout | unreachable | refused | error (an answer with errors, or of the wrong shape) */
  status: string;
  latency_ms: number | null;
  data: T | null;
  error: string | null;
}

export interface FanOutRequest {
  document: string;
  variables: Record<string, unknown>;
  /** Each cluster's time limit; the caller's signal (its request deadline) ends every call earlier. */
  timeoutMs: number;
  signal?: AbortSignal;
}

const statusOf = (kind: string) => (['timeout', 'unreachable', 'refused'].includes(kind) ? kind : 'error');

/**
 * Sends one read-only document to every active cluster at once, without the caller's token (other clusters answer
 * as to anyone), and waits at most `timeoutMs`: a slow or stopped cluster costs its own answer, not the others'.
 */
export async function fanOut<T>(store: ClusterStore, remote: RemoteCluster, req: FanOutRequest): Promise<ClusterAnswer<T>[]> {
  const active = await store.list('active');
  return Promise.all(
    active.map(async (c): Promise<ClusterAnswer<T>> => {
      const cluster = { id: c.id, name: c.name, base_url: c.baseUrl };
      try {
        const answer = await remote.query<T>(c.baseUrl, req.document, req.variables, { signal: req.signal, timeoutMs: req.timeoutMs, retries: 0 });
        const latency = Math.round(answer.latencyMs * 1000) / 1000;
        if (answer.errors.length || !answer.data) {
          return { cluster, status: 'error', latency_ms: latency, data: null, error: answer.errors.map((e) => e.message).slice(0, 3).join('; ') || 'the cluster answered without data' };
        }
        return { cluster, status: 'ok', latency_ms: latency, data: answer.data, error: null };
      } catch (e) {
        const p = callProblem(e);
        return { cluster, status: statusOf(p.kind), latency_ms: null, data: null, error: p.message };
      }
    }),
  );
}
