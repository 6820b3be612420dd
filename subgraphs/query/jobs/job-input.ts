import type { DataRead } from '../../../lib/objects/signed-url.js';
import type { JobRecord } from './job.model.js';
import type { SyqlPlan } from '../syql/plan.js';

/** What a SyQL job keeps: the text, its parameters, and the version each dataset reference resolved to at submission. */
export interface SyqlJobInput {
  query: string;
  parameters: Record<string, unknown>;
  /** Dataset reference as written -> version, so every attempt and a rerun read the same data. */
  pins: Record<string, number>;
}

/** Each attempt writes its own object: a stalled earlier attempt that is discarded never deletes the live result. */
export const resultKey = (job: Pick<JobRecord, 'id' | 'attempts'>, ext: 'arrow') => `jobs/${job.id}/attempt-${job.attempts}.${ext}`;

export const pinsOf = (plan: SyqlPlan): Record<string, number> => Object.fromEntries(plan.datasets.map((d) => [d.ref, d.version]));

/** The Arrow schema metadata of a result: enough for a saved file to say where it came from. */
export function resultMetadata(job: Pick<JobRecord, 'id' | 'createdAt'>, plan: SyqlPlan, serviceVersion: string): Record<string, string> {
  return {
    job_id: job.id,
    syql: plan.normalised,
    parameters: JSON.stringify(plan.parameters),
    datasets: JSON.stringify(plan.datasets.map((d) => ({ dataset_id: d.datasetId, slug: d.slug, version: d.version, label: d.label }))),
    service: 'neurodata-service',
    service_version: serviceVersion,
    created_at: job.createdAt.toISOString(),
  };
}

/**
 * The dataset versions a finished job's result was computed from: a SyQL job's from the datasets its result
 * records (results of older versions name a draft only in their label), a graph job's from its pinned input.
 */
export function readsOf(job: Pick<JobRecord, 'kind' | 'input' | 'resultMeta'>): DataRead[] {
  if (job.kind === 'graph') {
    const version = String(job.input.version ?? '');
    const analysed = Number((job.resultMeta?.analysis as { version?: unknown } | undefined)?.version);
    return [{ datasetId: String(job.input.dataset_id), version: /^\d+$/.test(version) ? Number(version) : Number.isInteger(analysed) ? analysed : 0, draft: version === 'draft' }];
  }
  const datasets = (job.resultMeta?.datasets ?? []) as Array<{ dataset_id: string; version: number; is_draft?: boolean; label?: string }>;
  return datasets.map((d) => ({ datasetId: d.dataset_id, version: d.version, draft: d.is_draft ?? Boolean(d.label?.endsWith('@draft')) }));
}
