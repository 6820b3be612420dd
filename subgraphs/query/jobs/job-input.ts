import type { DataRead } from '../../../lib/objects/signed-url.js';
import type { JobRecord } from '../../../lib/jobs/index.js';
import type { SyqlPlan } from '../syql/plan.js';

/** What a SyQL job keeps: the text, its parameters, and the version each dataset reference resolved to at submission. */
export interface SyqlJobInput {
  query: string;
  parameters: Record<string, unknown>;
  /** Dataset reference as written -> version, so every attempt and a rerun read the same data. */
  pins: Record<string, number>;
}

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
 * The dataset versions a finished SyQL job's result was computed from: the datasets its result records (results of
 * older versions name a draft only in their label).
 */
export function readsOf(job: Pick<JobRecord, 'resultMeta'>): DataRead[] {
  const datasets = (job.resultMeta?.datasets ?? []) as Array<{ dataset_id: string; version: number; is_draft?: boolean; label?: string }>;
  return datasets.map((d) => ({ datasetId: d.dataset_id, version: d.version, draft: d.is_draft ?? Boolean(d.label?.endsWith('@draft')) }));
}
