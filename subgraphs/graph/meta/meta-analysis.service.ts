import type { RequestContext } from '../../../lib/context.js';
import { BadInput } from '../../../lib/errors.js';
import { runTask } from '../../../lib/workers/pool.js';
import { unwrapOutcome } from '../../../lib/workers/outcome.js';
import type { ResolveVersion } from '../graph.service.js';
import { splitList } from '../graph-params.js';
import type { AnalyticsStore } from '../store/analytics.store.js';
import { datasetLabel, type DatasetLabel } from '../analytics/analytics.service.js';
import { checkEffectMetric, datasetEffect, type DatasetEffectParams } from '../analytics/dataset-effects.js';
import type { MetaInput, StudyInput } from './meta.model.js';
import type { MetaTaskResult } from './meta.task.js';

type Viewer = Pick<RequestContext, 'viewer' | 'authError' | 'reloadViewer' | 'log'>;

// Named by URL, not imported: the task module runs on worker threads.
const META_TASK = new URL('./meta.task.ts', import.meta.url);

export const META_LIMITS = { studies: 10_000, datasets: 50, label: 200 } as const;

/** A study as GraphQL gives it: fields left out are null. */
type StudyArg = { [K in keyof StudyInput]?: StudyInput[K] | null };

export interface MetaAnalysisArgs {
  studies?: StudyArg[] | null;
  datasets?: string[] | null;
  metric?: string | null;
  metric_params?: DatasetEffectParams | null;
  measure?: string | null;
  method?: string | null;
  knapp_hartung?: boolean | null;
  level?: number | null;
  vtype?: string | null;
  zero_cell?: { add: number; to: string } | null;
  title?: string | null;
  format?: string | null;
}

/**
 * Random-effects meta-analysis (POST /v1/meta-analysis): of studies given by the caller, or of a metric the
 * service computes per dataset with its sampling variance (docs/meta-analysis.md, docs/analytics.md). The pooling
 * and the forest plot run on the worker pool.
 */
export class MetaAnalysisService {
  constructor(
    private readonly resolveVersion: ResolveVersion,
    private readonly store: AnalyticsStore,
  ) {}

  async analyse(ctx: Viewer, args: MetaAnalysisArgs) {
    if (args.format !== null && args.format !== undefined && args.format !== 'svg' && args.format !== 'json') throw new BadInput('format: json (default) or svg');
    const hasStudies = Array.isArray(args.studies) && args.studies.length > 0;
    const hasDatasets = Array.isArray(args.datasets) && args.datasets.length > 0;
    if (hasStudies === hasDatasets) throw new BadInput('give either studies (effect sizes, 2x2 counts or group summaries) or datasets with a metric, not both and not neither');
    let studies: StudyInput[];
    let sources: Array<{ dataset: DatasetLabel; n: number; detail: string } | null>;
    let measure = args.measure ?? undefined;
    if (hasStudies) {
      if (args.metric || args.metric_params) throw new BadInput('metric, metric_params: only with datasets');
      if (args.studies!.length > META_LIMITS.studies) throw new BadInput(`studies: at most ${META_LIMITS.studies}`);
      args.studies!.forEach((s, i) => {
        if (typeof s.label !== 'string' || !s.label.trim() || s.label.length > META_LIMITS.label) throw new BadInput(`studies[${i}].label: a name of 1 to ${META_LIMITS.label} characters`);
      });
      studies = args.studies!.map(withoutNulls);
      sources = studies.map(() => null);
    } else {
      if (measure !== undefined && measure !== 'GEN') throw new BadInput('measure: with datasets the metric is the effect size (measure GEN)');
      measure = 'GEN';
      ({ studies, sources } = await this.datasetStudies(ctx, args));
    }
    const meta = {
      studies,
      measure,
      method: args.method ?? undefined,
      knapp_hartung: args.knapp_hartung ?? undefined,
      level: args.level ?? undefined,
      vtype: args.vtype ?? undefined,
      zero_cell: args.zero_cell ?? undefined,
    } as MetaInput;
    const plot = args.format === 'svg' ? { title: args.title ?? (hasDatasets ? `${args.metric} across datasets` : undefined) } : null;
    const { result, svg } = unwrapOutcome(await runTask<MetaTaskResult>(META_TASK, 'analyse', { meta, plot }));
    return {
      ...result,
      metric: hasDatasets ? args.metric! : null,
      studies: result.studies.map((s, i) => ({ ...s, dataset: sources[i]?.dataset ?? null, n: sources[i]?.n ?? null, detail: sources[i]?.detail ?? null })),
      svg,
    };
  }

  private async datasetStudies(ctx: Viewer, args: MetaAnalysisArgs) {
    const refs = splitList(args.datasets);
    if (refs.length < 2 || refs.length > META_LIMITS.datasets) throw new BadInput(`datasets: give 2 to ${META_LIMITS.datasets} datasets (id or slug, optionally @vN)`);
    const params = args.metric_params ?? {};
    const { metric, field } = checkEffectMetric(args.metric, params);
    const studies: StudyInput[] = [];
    const sources: Array<{ dataset: DatasetLabel; n: number; detail: string }> = [];
    for (const r of refs) {
      const ref = await this.resolveVersion(ctx, r);
      const at = `${ref.slug}@v${ref.version}`;
      const e = await datasetEffect(this.store, { datasetId: ref.datasetId, version: ref.version }, at, metric, field, params);
      studies.push({ label: at, yi: e.yi, vi: e.vi });
      sources.push({ dataset: datasetLabel(ref), n: e.n, detail: e.detail });
    }
    return { studies, sources };
  }
}

/** GraphQL gives absent optional fields as null; the engine tells "absent" from "given" by undefined. */
function withoutNulls(s: StudyArg): StudyInput {
  return Object.fromEntries(Object.entries(s).filter(([, v]) => v !== null && v !== undefined)) as unknown as StudyInput;
}
