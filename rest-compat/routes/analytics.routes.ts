import type { GraphqlRoute, Route } from '../route-table.js';

const route = (method: 'GET' | 'POST', path: string, field: string, summary: string, extra: Partial<GraphqlRoute> = {}): GraphqlRoute => ({
  kind: 'graphql',
  method,
  path,
  field: `Query.${field}`,
  tag: 'analytics',
  summary,
  ...extra,
});

/** Dataset analytics other than graph algorithms (spec 4.3 Analytics; docs/analytics.md, docs/morphometrics.md) and their older forms (4.5). */
export const analyticsRoutes: Route[] = [
  route('GET', '/v1/analytics/summary', 'analyticsSummary', 'Without dataset_id, the catalogue the caller may see by species, region and technique; with it, that dataset: cells by class, type, transmitter and region, connections and weights, morphologies'),
  route('GET', '/v1/analytics/{dataset_id}/summary', 'analyticsSummary', 'Summary of one dataset (older form of /v1/analytics/summary?dataset_id=)', {
    alternate: true,
    operationId: 'analyticsSummaryOlderForm',
  }),
  route('GET', '/v1/analytics/morphometrics', 'analyticsMorphometrics', "Morphometrics of a neuron's SWC files (?dataset_id=&neuron=), or of every morphology of a dataset with each measure's distribution; Sholl radii with sholl_radii or sholl_step"),
  route('GET', '/v1/analytics/{dataset_id}/neuron-morphometrics', 'analyticsMorphometrics', 'Neuron morphometrics (older form of /v1/analytics/morphometrics)', {
    alternate: true,
    operationId: 'analyticsMorphometricsOlderForm',
  }),
  route('GET', '/v1/analytics/comparison', 'analyticsComparison', 'Summary metrics of several datasets side by side with differences from the first: ?datasets=a,b&metrics=...'),
  route('GET', '/v1/analytics/zscore-comparison', 'analyticsZScoreComparison', "A dataset's summary metrics as z-scores against reference datasets, flagging |z| > 2: ?dataset_id=&reference=a,b,...&metrics=..."),
];

/** Meta-analysis across studies or datasets, and atlas comparison (spec 4.3 Meta-analysis; docs/meta-analysis.md). */
export const metaAnalysisRoutes: Route[] = [
  route('POST', '/v1/meta-analysis', 'metaAnalysis', 'Meta-analysis of studies (effect sizes, 2x2 counts or group summaries) or of a metric across datasets: pooled estimate, CI, prediction interval, tau2, I2, H2, Q; POST /v1/meta-analysis.svg answers the forest plot', {
    tag: 'meta-analysis',
    svg: true,
    plotSummary: 'The forest plot of a meta-analysis (the body of POST /v1/meta-analysis), as SVG',
    queryArgs: ['format'],
  }),
  route('POST', '/v1/meta-analysis/analyze', 'metaAnalysis', 'Meta-analysis (older form of POST /v1/meta-analysis)', {
    tag: 'meta-analysis',
    svg: true,
    queryArgs: ['format'],
    alternate: true,
    operationId: 'metaAnalysisOlderForm',
  }),
  route('GET', '/v1/meta-analysis/atlas/compare', 'atlasComparison', 'Two datasets compared region by region through the brain-region hierarchy at a chosen level', { tag: 'meta-analysis' }),
  route('POST', '/v1/meta-analysis/atlas-compare', 'atlasComparison', 'Atlas comparison (older form of GET /v1/meta-analysis/atlas/compare; the parameters in the body)', {
    tag: 'meta-analysis',
    alternate: true,
    operationId: 'atlasComparisonOlderForm',
  }),
];
