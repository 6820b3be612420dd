import type { AccessClass, TokenNeed } from '../lib/access.js';
import type { SubgraphName } from '../lib/config.js';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** A REST route answered by one GraphQL root field through sofa-api. */
export interface GraphqlRoute {
  kind: 'graphql';
  method: HttpMethod;
  /** Spec path with `{param}` placeholders, e.g. `/v1/ontology/terms/{id}`. */
  path: string;
  /** Root field coordinate, e.g. `Query.term` or `Mutation.createTerm`. */
  field: string;
  /** Success status (default 200). */
  status?: number;
  tag: string;
  summary: string;
  /** The whole JSON body becomes this GraphQL argument (otherwise body keys map to arguments by name). */
  bodyArg?: string;
  /** Request headers copied into arguments: header name (lower case) -> argument name. */
  headerArgs?: Record<string, string>;
  /**
   * A text body (text/csv, text/plain; the host parses these as a string) becomes this argument; query parameters
   * still map to the other arguments by name. A JSON object body is handled as on any other route.
   */
  textBodyArg?: string;
  /** Arguments of a route with a JSON body that travel in the query string instead (e.g. `format`). */
  queryArgs?: string[];
  /**
   * The field's type has a `svg` field (a plot) filled when its `format` argument is `svg`: the route then answers
   * the plot itself as image/svg+xml, also when the client asks with `Accept: image/svg+xml` alone.
   */
  svg?: boolean;
  /**
   * The plot route of a `svg` route (its path + `.svg`, made by `withPlotRoutes`): the same field with `format=svg`,
   * answering only the image/svg+xml body, so that each operation has one media type per status.
   */
  plot?: boolean;
  /** The summary of the plot route of a `svg` route. */
  plotSummary?: string;
  /**
   * The path of the handler route (`.arrow`, of this route's method) that `?format=arrow` here answers like: every matching row as an
   * Apache Arrow IPC stream, unpaged. The JSON route documents application/json only (one media type per status).
   */
  arrow?: string;
  /** REST parameter name -> GraphQL argument name, where they differ (path and query parameters). */
  rename?: Record<string, string>;
  /** Marks an older route form kept for compatibility (spec 4.5). */
  alternate?: boolean;
  /** OpenAPI operationId; defaults to the field name, so a field's second route must name its own. */
  operationId?: string;
  /**
   * Error statuses of this operation beyond those every route documents (see rest-compat/openapi/error-responses.ts),
   * e.g. 401 for a wrong password on a Public route. The tests hold every response to the document.
   */
  errors?: number[];
}

/**
 * A JSON answer of a hand-written handler that is the result of a GraphQL selection on an object type: the OpenAPI
 * document describes it from the schema, as it does the answers of GraphQL routes.
 */
export interface GraphqlResult {
  graphqlType: string;
  selection: string;
}

/** A route whose body is not JSON (health, Arrow, BibTeX/RIS, CSV, redirects), answered by a hand-written handler. */
export interface HandlerRoute {
  kind: 'handler';
  method: HttpMethod;
  path: string;
  /** Name of the handler implementation the host registers for it. */
  handler: string;
  /**
   * The subgraph whose operations the handler runs, when SUBGRAPHS_DISABLED may leave it out: the route is then
   * neither mounted nor documented. (GraphQL routes need no marker: their field is absent.)
   */
  subgraph?: SubgraphName;
  access: AccessClass;
  /** What a personal API token needs to call it; GET routes read and others write unless said otherwise. */
  tokenNeed?: TokenNeed;
  tag: string;
  summary: string;
  alternate?: boolean;
  /** The body reaches the handler unread, as a stream (or multipart parts): uploads larger than BODY_LIMIT_BYTES. */
  streamBody?: boolean;
  /**
   * The route answers under UPLOAD_TIMEOUT_MS instead of REQUEST_TIMEOUT_MS, as uploads do: a whole read of a
   * FlyWire-sized table takes minutes to produce and to send.
   */
  longTransfer?: boolean;
  /** OpenAPI operationId; defaults to the method and handler name, e.g. `getHealth`. */
  operationId?: string;
  /** OpenAPI operation parts that cannot be derived: parameters, request body, responses. */
  openapi: {
    parameters?: unknown[];
    requestBody?: unknown;
    responses: Record<string, unknown>;
  };
}

export type Route = GraphqlRoute | HandlerRoute;

/** What a personal API token needs to call a hand-written route: its declaration, or GET reads and the rest write. */
export const handlerTokenNeed = (route: HandlerRoute): TokenNeed => route.tokenNeed ?? (route.method === 'GET' ? 'read' : 'write');

/** The REST routes answered through sofa, each with the GraphQL operation it runs. */
export const graphqlRoutes = (routes: Route[]) => routes.filter((r): r is GraphqlRoute => r.kind === 'graphql');

/** `/v1/terms/{id}` -> `/v1/terms/:id` (Fastify and sofa), with parameters renamed for sofa when asked. */
export function colonPath(path: string, rename: Record<string, string> = {}): string {
  return path.replace(/\{([^}]+)\}/g, (_, p: string) => `:${rename[p] ?? p}`);
}

export const pathParams = (path: string): string[] => [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]);

/** `/v1/graph/{dataset_id}/neighbourhood` -> `/v1/graph/{dataset_id}/neighbourhood.svg`: where a route's plot is. */
export const plotPath = (path: string) => `${path}.svg`;

/**
 * The routes with, after each `svg` route that is not an older form, its plot route at `plotPath`: the JSON route
 * documents one media type (application/json), the plot route another (image/svg+xml). `?format=svg` and `Accept:
 * image/svg+xml` on the JSON route stay an alias of the plot route (docs/rest-contract.md).
 */
export function withPlotRoutes(routes: Route[]): Route[] {
  return routes.flatMap((route) => {
    if (route.kind !== 'graphql' || !route.svg || route.alternate) return [route];
    const id = route.operationId ?? route.field.slice(route.field.indexOf('.') + 1);
    const plot: GraphqlRoute = {
      ...route,
      path: plotPath(route.path),
      svg: undefined,
      plot: true,
      queryArgs: route.queryArgs?.filter((a) => a !== 'format'),
      operationId: `${id}Svg`,
      plotSummary: undefined,
      summary: route.plotSummary ?? `${route.summary}: the plot, as SVG`,
    };
    return [route, plot];
  });
}
