import { packagePath, serviceVersion } from '../lib/package-root.js';
import { SUBGRAPH_NAMES } from '../lib/config.js';
import { accessRegistry, remoteCallerFields, tokenNeeds } from '../lib/access.js';
import { ROUTES } from '../rest-compat/routes/index.js';
import { buildSofaRoutes } from '../rest-compat/sofa.js';
import { buildOpenApi, routeKey } from '../rest-compat/openapi/document.js';
import { graphqlRoutes, type Route } from '../rest-compat/route-table.js';
import type { Composition } from './compose.js';
import { composeSupergraph } from './compose.js';
import { schemaOnlyDeps } from './supergraph-file.js';

export const OPENAPI_FILE = packagePath('schema', 'openapi.json');

/**
 * The routes a composition answers, the same for the server (app.ts mounts exactly these) and for the document:
 * a GraphQL route when the API schema has its field, a handler route when the subgraph it names is composed. A
 * subgraph left out by SUBGRAPHS_DISABLED takes its routes with it. With nothing left out, a route whose field is
 * missing is a mistake in the table and fails here.
 */
export function routesFor(composition: Pick<Composition, 'apiSchema' | 'subgraphs'>): Route[] {
  const partial = composition.subgraphs.length < SUBGRAPH_NAMES.length;
  return ROUTES.filter((route) => {
    if (route.kind === 'handler') return !route.subgraph || composition.subgraphs.includes(route.subgraph);
    const [operation, field] = route.field.split('.');
    const root = operation === 'Mutation' ? composition.apiSchema.getMutationType() : operation === 'Query' ? composition.apiSchema.getQueryType() : null;
    if (root?.getFields()[field]) return true;
    if (partial) return false;
    throw new Error(`${route.method} ${route.path} answers ${route.field}, which the API schema does not have`);
  });
}

/** The OpenAPI document of the REST layer over a composition (its routes: routesFor), from the operations sofa runs for each route. */
export function openApiDocument(composition: Composition, mounted: ReturnType<typeof buildSofaRoutes>): Record<string, unknown> {
  return buildOpenApi({
    routes: routesFor(composition),
    apiSchema: composition.apiSchema,
    documents: new Map(mounted.map((m) => [routeKey(m.route), m.document])),
    access: accessRegistry,
    remoteCallers: remoteCallerFields,
    tokenNeeds,
    // The document describes this build: the version /v1/federation/ping reports, from package.json.
    version: serviceVersion(),
  });
}

/** The document as served at /openapi.json, built from the code without opening any store. */
export async function renderOpenApi(): Promise<string> {
  const composition = await composeSupergraph(schemaOnlyDeps());
  const mounted = buildSofaRoutes(composition.apiSchema, graphqlRoutes(routesFor(composition)));
  return `${JSON.stringify(openApiDocument(composition, mounted), null, 2)}\n`;
}
