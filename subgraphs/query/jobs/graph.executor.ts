import { Float64, RecordBatch, Schema, Table, Utf8, tableToIPC, vectorFromArray } from 'apache-arrow';
import { createHash } from 'node:crypto';
import type { SubgraphDeps } from '../../../lib/subgraph.js';
import type { TokenVerifier } from '../../../lib/auth/viewer.js';
import { runFullAnalysis, type FullAnalysisArgs } from '../../graph/index.js';
import { ARROW_STREAM_MEDIA_TYPE } from '../results/arrow-export.js';
import { ownerContext } from './owner-context.js';
import type { JobExecutor } from './job.model.js';

/** Every finite number of an answer with its path (`motifs.census.030T`), in document order. */
export function numericLeaves(value: unknown, path: string[] = [], out: { section: string; measure: string; value: number }[] = []) {
  if (typeof value === 'number' && Number.isFinite(value) && path.length) out.push({ section: path[0], measure: path.slice(1).join('.'), value });
  else if (Array.isArray(value)) value.forEach((v, i) => numericLeaves(v, [...path, String(i)], out));
  else if (value && typeof value === 'object') for (const [k, v] of Object.entries(value)) if (k !== 'svg') numericLeaves(v, [...path, k], out);
  return out;
}

/** A long table (section, measure, value) as an Arrow IPC stream, with the whole answer as JSON in the metadata. */
export function analysisArrow(answer: Record<string, unknown>, metadata: Record<string, string>): Uint8Array {
  const leaves = numericLeaves(answer);
  const table = new Table({
    section: vectorFromArray(leaves.map((l) => l.section), new Utf8()),
    measure: vectorFromArray(leaves.map((l) => l.measure), new Utf8()),
    value: vectorFromArray(leaves.map((l) => l.value), new Float64()),
  });
  const fields = table.schema.fields.map((f) => f.clone({ nullable: false }));
  const schema = new Schema(fields, new Map(Object.entries({ ...metadata, graph_analysis: JSON.stringify(answer) })));
  return tableToIPC(new Table(schema, table.batches.map((b) => new RecordBatch(schema, b.data))), 'stream');
}

/** A graph job: the full analysis of POST /v1/graph/{id}/full-analysis, whatever its time, as its owner. */
export function graphExecutor(deps: Pick<SubgraphDeps, 'stores' | 'config' | 'clock' | 'log'>, verifier: TokenVerifier, serviceVersion: string): JobExecutor {
  return async (job, run) => {
    const args = job.input as unknown as FullAnalysisArgs;
    const ctx = await ownerContext(verifier, job.ownerId, job.id, run.log);
    const answer = (await runFullAnalysis(deps, ctx, args, (p) => run.progress(Math.min(0.95, p.fraction), p.step))) as unknown as Record<string, unknown>;
    const bytes = Buffer.from(
      analysisArrow(answer, {
        job_id: job.id,
        analysis: 'graph full analysis',
        parameters: JSON.stringify(args),
        datasets: JSON.stringify([{ dataset_id: answer.dataset_id, slug: answer.slug, version: answer.version }]),
        service: 'neurodata-service',
        service_version: serviceVersion,
        created_at: job.createdAt.toISOString(),
      }),
    );
    const key = `jobs/${job.id}/attempt-${job.attempts}.arrow`;
    await deps.stores.objects.put(key, bytes, ARROW_STREAM_MEDIA_TYPE);
    return {
      resultKey: key,
      resultBytes: bytes.length,
      resultRows: numericLeaves(answer).length,
      resultSha256: createHash('sha256').update(bytes).digest('hex'),
      resultMeta: { analysis: answer },
    };
  };
}
