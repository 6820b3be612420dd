import type { GraphqlRoute, Route } from '../route-table.js';

const ds = '/v1/graph/{dataset_id}';
const tag = 'graph';

const route = (method: 'GET' | 'POST', path: string, field: string, summary: string, extra: Partial<GraphqlRoute> = {}): GraphqlRoute => ({
  kind: 'graphql',
  method,
  path,
  field: `Query.${field}`,
  tag,
  summary,
  ...extra,
});

/** Graph analysis of one connectome, and across connectomes (spec 4.3 Graph; docs/graph.md). */
export const graphRoutes: Route[] = [
  route('GET', `${ds}/metrics`, 'graphMetrics', 'Graph metrics: density, reciprocity, dyads, components, clustering, transitivity, degrees, top cells by strength'),
  route('POST', `${ds}/motifs`, 'graphMotifs', 'Exact triad census; per_node: true or a list of cells adds per-cell censuses; null_model adds z-scores'),
  route('POST', `${ds}/motifs/compare-synapse-types`, 'graphMotifsBySynapseType', 'Triad census of the chemical and the electrical graph side by side, with null-model z-scores'),
  route('POST', `${ds}/shortest-path`, 'graphShortestPath', 'Shortest path between two cells (by id or name): length, one path, number of shortest paths; length null when there is none'),
  route('POST', `${ds}/reachability`, 'graphReachability', 'Cells reachable from the sources within max_hops, per hop and cumulatively'),
  route('POST', `${ds}/reachability-curve`, 'graphReachabilityCurve', 'Cells reachable within k hops for k = 1..K (from sources, or the mean over all cells); reachability-curve.svg plots it', {
    svg: true,
    plotSummary: 'The reachability curve (the body of POST .../reachability-curve) plotted as SVG',
    queryArgs: ['format'],
  }),
  route('POST', `${ds}/full-analysis`, 'graphFullAnalysis', 'All analyses in one answer, or (status run_as_job) where to run them as a job when they would exceed the request deadline'),
  route('GET', `${ds}/neighbourhood`, 'graphNeighbourhood', "A cell's ego network as Cytoscape.js JSON with a layout; neighbourhood.svg draws it", {
    svg: true,
    plotSummary: "A cell's ego network (the parameters of GET .../neighbourhood) drawn as SVG",
  }),
  route('GET', '/v1/graph/compare', 'graphCompare', 'Graph metrics of several datasets side by side with differences from the first: ?datasets=a,b,...'),
  route('POST', '/v1/graph/compare', 'graphCompare', 'Graph metrics of several datasets side by side (the datasets in the body)', { operationId: 'graphCompareByBody', alternate: true }),
];

/** The graph routes of Analytics (spec 4.3) and their older forms (spec 4.5). */
export const graphAnalyticsRoutes: Route[] = [
  route('GET', '/v1/analytics/graph/{dataset_id}/summary', 'graphSummary', 'Graph summary of a dataset: size, weight, isolated cells, mean degree, density, reciprocity, components, clustering', { tag: 'analytics' }),
  route('GET', '/v1/analytics/graph/{dataset_id}/reciprocity', 'graphReciprocity', 'Reciprocity (with and without self-loops) and the dyad census', { tag: 'analytics' }),
  route('GET', '/v1/analytics/graph/{dataset_id}/degree-distribution', 'graphDegreeDistribution', 'In-, out- and total degree histograms; degree-distribution.svg plots them', {
    tag: 'analytics',
    svg: true,
    plotSummary: 'The in-, out- and total degree histograms plotted as SVG',
  }),
  route('GET', '/v1/analytics/{dataset_id}/graph-summary', 'graphSummary', 'Graph summary (older form of /v1/analytics/graph/{dataset_id}/summary)', {
    tag: 'analytics',
    alternate: true,
    operationId: 'graphSummaryOlderForm',
  }),
  route('GET', '/v1/analytics/{dataset_id}/reciprocity', 'graphReciprocity', 'Reciprocity (older form of /v1/analytics/graph/{dataset_id}/reciprocity)', {
    tag: 'analytics',
    alternate: true,
    operationId: 'graphReciprocityOlderForm',
  }),
  route('GET', '/v1/analytics/{dataset_id}/degree-distribution', 'graphDegreeDistribution', 'Degree histograms (older form of /v1/analytics/graph/{dataset_id}/degree-distribution)', {
    tag: 'analytics',
    alternate: true,
    svg: true,
    operationId: 'graphDegreeDistributionOlderForm',
  }),
];
