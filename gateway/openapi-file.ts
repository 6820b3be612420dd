import { packagePath } from '../lib/package-root.js';
import { accessRegistry } from '../lib/access.js';
import { ROUTES } from '../rest-compat/routes/index.js';
import { buildSofaRoutes } from '../rest-compat/sofa.js';
import { buildOpenApi, routeKey } from '../rest-compat/openapi/document.js';
import type { GraphqlRoute } from '../rest-compat/route-table.js';
import type { Composition } from './compose.js';
import { composeSupergraph } from './compose.js';
import { schemaOnlyDeps } from './supergraph-file.js';

export const API_VERSION = '1.0.0';
export const OPENAPI_FILE = packagePath('schema', 'openapi.json');

/** The REST routes answered through sofa, each with the GraphQL operation it runs. */
export const graphqlRoutes = () => ROUTES.filter((r): r is GraphqlRoute => r.kind === 'graphql');

/** The OpenAPI document of the REST layer over a composition, from the operations sofa runs for each route. */
export function openApiDocument(composition: Composition, mounted: ReturnType<typeof buildSofaRoutes>): Record<string, unknown> {
  return buildOpenApi({
    routes: ROUTES,
    apiSchema: composition.apiSchema,
    documents: new Map(mounted.map((m) => [routeKey(m.route), m.document])),
    access: accessRegistry,
    version: API_VERSION,
  });
}

/** The document as served at /openapi.json, built from the code without opening any store. */
export async function renderOpenApi(): Promise<string> {
  const composition = await composeSupergraph(schemaOnlyDeps());
  const mounted = buildSofaRoutes(composition.apiSchema, graphqlRoutes(), () => {
    throw new Error('no operation runs while the document is rendered');
  });
  return `${JSON.stringify(openApiDocument(composition, mounted), null, 2)}\n`;
}
