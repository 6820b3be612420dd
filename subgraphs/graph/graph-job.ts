import { Float64, RecordBatch, Schema, Table, Utf8, tableToIPC, vectorFromArray } from 'apache-arrow';
import { createHash } from 'node:crypto';
import type { Stores } from '../../lib/stores.js';
import { Forbidden, NotFound } from '../../lib/errors.js';
import type { DataRead } from '../../lib/objects/signed-url.js';
import { ARROW_STREAM_MEDIA_TYPE, ownerContext, resultKey, type AccountStanding, type Caller, type JobExecutor, type JobKind, type JobRecord } from '../../lib/jobs/index.js';
import type { DatasetVersionRef } from '../neurodata/index.js';
import { fullAnalysisParams, type GraphService, type FullAnalysisArgs } from './graph.service.js';

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

/** What the graph job kind needs from outside the graph subgraph: the neurodata decisions and account standings. */
export interface GraphJobDeps {
  stores: Pick<Stores, 'objects'>;
  graph: GraphService;
  resolveDatasetVersion(ctx: Caller, ref: string, version?: string | null): Promise<DatasetVersionRef>;
  checkStillReadable(ctx: Caller, reads: readonly DataRead[]): Promise<void>;
  standing: AccountStanding;
  serviceVersion: string;
}

/**
 * The graph subgraph's job kind `graph`: the full analysis of POST /v1/graph/{dataset_id}/full-analysis, whatever its
 * time, with progress, on the dataset version resolved at submission.
 */
export function graphJobKind(deps: GraphJobDeps): JobKind {
  return {
    name: 'graph',
    async prepare(ctx, args) {
      fullAnalysisParams(args as unknown as FullAnalysisArgs);
      const r = await deps.resolveDatasetVersion(ctx, String(args.dataset_id ?? ''), (args.version as string | null | undefined) ?? null);
      // The job reads the version resolved now, whatever is published meanwhile. The slug is kept beside the id to
      // name the dataset in job listings, as a SyQL job's text does; the job reads by id.
      return { ...args, dataset_id: r.datasetId, slug: r.slug, version: r.isDraft ? 'draft' : String(r.version) };
    },
    execute: graphExecutor(deps),
    reads: readsOf,
    // result_meta holds the whole analysis, data of its dataset: withheld (with the reason) once the caller may no
    // longer read that dataset; the rest of the job stays.
    async present(ctx, job) {
      if (!job.resultMeta?.analysis) return job;
      try {
        await deps.checkStillReadable(ctx, readsOf(job));
        return job;
      } catch (e) {
        if (e instanceof NotFound || e instanceof Forbidden) return { ...job, resultMeta: { withheld: e.message } };
        throw e;
      }
    },
  };
}

/** The dataset version a graph job read: pinned in its input (older jobs: the version its analysis answered). */
function readsOf(job: Pick<JobRecord, 'input' | 'resultMeta'>): DataRead[] {
  const version = String(job.input.version ?? '');
  const analysed = Number((job.resultMeta?.analysis as { version?: unknown } | undefined)?.version);
  return [{ datasetId: String(job.input.dataset_id), version: /^\d+$/.test(version) ? Number(version) : Number.isInteger(analysed) ? analysed : 0, draft: version === 'draft' }];
}

/** A graph job: the full analysis, as its owner, written as a long Arrow table with the whole answer in its metadata. */
function graphExecutor(deps: GraphJobDeps): JobExecutor {
  return async (job, run) => {
    const { slug: _slug, ...input } = job.input;
    const args = input as unknown as FullAnalysisArgs;
    const ctx = await ownerContext(deps.standing, job.ownerId, job.id, run.log);
    const answer = (await deps.graph.fullAnalysis(ctx, args, { asJob: true, onProgress: (p) => run.progress(Math.min(0.95, p.fraction), p.step) })) as unknown as Record<string, unknown>;
    const bytes = Buffer.from(
      analysisArrow(answer, {
        job_id: job.id,
        analysis: 'graph full analysis',
        parameters: JSON.stringify(args),
        datasets: JSON.stringify([{ dataset_id: answer.dataset_id, slug: answer.slug, version: answer.version }]),
        service: 'neurodata-service',
        service_version: deps.serviceVersion,
        created_at: job.createdAt.toISOString(),
      }),
    );
    const key = resultKey(job, 'arrow');
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
