import type { Route } from '../route-table.js';

export const federationRoutes: Route[] = [
  { kind: 'graphql', method: 'GET', path: '/v1/federation/ping', field: 'Query.federationPing', tag: 'federation', summary: 'Federation liveness of this cluster' },
];
