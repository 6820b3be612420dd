import type { Route } from '../route-table.js';

const summary =
  'Search published datasets (public metadata, for everyone): q (words, "phrases", or, -exclusions), species, brain_region, microscopy, neurotransmitter, license (repeatable), year, visibility, limit, offset, facets';

/** Full-text dataset search (spec 4.1 Public; the older form from 4.5). */
export const searchRoutes: Route[] = [
  { kind: 'graphql', method: 'GET', path: '/v1/search/fulltext', field: 'Query.searchDatasets', tag: 'search', summary, errors: [400] },
  {
    kind: 'graphql',
    method: 'GET',
    path: '/v1/search',
    field: 'Query.searchDatasets',
    operationId: 'searchDatasetsOlderForm',
    tag: 'search',
    summary: 'Search published datasets (older form of /v1/search/fulltext, same parameters and answer)',
    alternate: true,
    errors: [400],
  },
  {
    kind: 'graphql',
    method: 'GET',
    path: '/v1/search/datasets/{slug}',
    field: 'Query.publishedDataset',
    tag: 'search',
    summary: "A published dataset's public record (for everyone): metadata, creators, published versions, citations (text, BibTeX, RIS) and schema.org JSON-LD",
    errors: [400],
  },
];
