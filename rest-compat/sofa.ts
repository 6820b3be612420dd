import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Kind, OperationTypeNode, type DocumentNode, type ExecutionResult, type GraphQLSchema } from 'graphql';
import { buildOperationNodeForField, filterSchema, pruneSchema } from '@graphql-tools/utils';
import { createSofaRouter, createSofa } from 'sofa-api';
import type { RequestContext } from '../lib/context.js';
import { GENERIC_SERVER_ERROR, SERVER_FAULT_CODE, isExposed, reasonOf, statusForCode } from '../lib/errors.js';
import { errorCodeHeaders, sendError } from '../lib/error-reply.js';
import { jsonBody } from '../lib/json-body.js';
import { colonPath, type GraphqlRoute } from './route-table.js';
import type { OpenApiValidator } from './openapi/validator.js';
import { selectsTriadCensus } from './census-json.js';
import { accessGate } from './access-gate.js';
import { dispatchLikeSofa, sofaOperation, type RestAnswer, type SofaOperation } from './sofa-dispatch.js';

/** Runs one GraphQL operation through the gateway with the request's context. */
export type ExecuteOperation = (args: {
  document: DocumentNode;
  variables: Record<string, unknown>;
  operationName?: string;
  context: RequestContext;
}) => Promise<ExecutionResult>;

type SofaRouter = ReturnType<typeof createSofaRouter>;

export interface MountedRoute {
  route: GraphqlRoute;
  router: SofaRouter;
  sofaPath: string;
  /** The operation sofa runs for this route (the OpenAPI document describes exactly its variables and selection). */
  document: DocumentNode;
  /** The same operation, as the direct dispatch runs it (sofa-dispatch.ts). */
  operation: SofaOperation;
  /** The schema of the route's sofa router (the API schema pruned to its group's fields). */
  schema: GraphQLSchema;
}

/**
 * How a request's operation runs: through the gateway of the app that made its context. The routers depend only on
 * the API schema and the route table, so the apps of one process (the tests) share them (mount.ts), and each
 * request brings its app's way of running operations.
 */
const executors = new WeakMap<RequestContext, ExecuteOperation>();

/**
 * Answers the table's GraphQL routes through sofa-api. A field may serve several routes (current and alternate
 * forms), but sofa gives each field one route, so rows are split into groups with each field at most once, and
 * each group gets a sofa router over a schema pruned to its own fields: nothing else is reachable through it.
 */
export function buildSofaRoutes(apiSchema: GraphQLSchema, routes: GraphqlRoute[]): MountedRoute[] {
  const groups: GraphqlRoute[][] = [];
  for (const route of routes) {
    const group = groups.find((g) => !g.some((r) => r.field === route.field));
    if (group) group.push(route);
    else groups.push([route]);
  }
  const mounted: MountedRoute[] = [];
  for (const group of groups) {
    const fields = new Set(group.map((r) => r.field));
    // A group of mutations still needs a Query type for a valid schema: keep one query field, never routed.
    if (!group.some((r) => r.field.startsWith('Query.'))) fields.add(`Query.${Object.keys(apiSchema.getQueryType()!.getFields())[0]}`);
    const schema = pruneSchema(filterSchema({ schema: apiSchema, rootFieldFilter: (op, name) => fields.has(`${op}.${name}`) }));
    const sofa = createSofa({
      basePath: '',
      schema,
      depthLimit: 4,
      routes: Object.fromEntries(
        group.map((r) => [r.field, { method: r.method, path: colonPath(r.path, r.rename), responseStatus: (r.status ?? 200) as 200, tags: [r.tag], description: r.summary }]),
      ),
      context: (serverContext: { ctx: RequestContext }) => serverContext.ctx as never,
      execute: (async (args: { document: DocumentNode; variableValues?: Record<string, unknown>; operationName?: string; contextValue: RequestContext }) => {
        const execute = executors.get(args.contextValue);
        if (!execute) throw new Error('a REST request reached sofa without its app');
        return execute({ document: args.document, variables: args.variableValues ?? {}, operationName: args.operationName ?? undefined, context: args.contextValue });
      }) as never,
      errorHandler: restErrorResponse as never,
    });
    const router = createSofaRouter(sofa);
    for (const route of group) {
      const document = sofaDocument(sofa, route);
      const operation = sofaOperation(document, route.field, route.status ?? 200, selectsTriadCensus(sofa.schema, document));
      mounted.push({ route, router, sofaPath: colonPath(route.path, route.rename), document, operation, schema: sofa.schema });
    }
  }
  return mounted;
}

/** The document sofa builds for a route's field: the same call, with the same models, ignores and depth. */
function sofaDocument(sofa: ReturnType<typeof createSofa>, route: GraphqlRoute): DocumentNode {
  const [kind, field] = route.field.split('.');
  const node = buildOperationNodeForField({
    kind: kind === 'Mutation' ? OperationTypeNode.MUTATION : OperationTypeNode.QUERY,
    schema: sofa.schema,
    field,
    models: sofa.models,
    ignore: sofa.ignore,
    circularReferenceDepth: sofa.depthLimit,
  });
  return { kind: Kind.DOCUMENT, definitions: [node] };
}

/** Maps the first GraphQL error to a status by its code and writes exactly `{"error": message}`. */
export function restErrorAnswer(errors: ReadonlyArray<unknown>): RestAnswer {
  const first = errors[0] as { message?: string; extensions?: { code?: string; http?: { status?: number }; retryAfter?: number } };
  const code = first?.extensions?.code;
  let status = code ? statusForCode(code) : (first?.extensions?.http?.status ?? 500);
  if (status === 500 && first?.extensions?.http?.status === 400) status = 400;
  const message = isExposed(status) ? restMessage(first?.message ?? 'request failed') : GENERIC_SERVER_ERROR;
  const headers: Record<string, string> = {
    'content-type': 'application/json; charset=utf-8',
    ...errorCodeHeaders(status, isExposed(status) ? code : SERVER_FAULT_CODE, isExposed(status) ? reasonOf(first) : undefined),
  };
  if (status === 429 && first?.extensions?.retryAfter) headers['retry-after'] = String(first.extensions.retryAfter);
  if (!isExposed(status)) headers['x-error-detail'] = encodeURIComponent((first?.message ?? '').slice(0, 300));
  return { status, headers, text: JSON.stringify({ error: message }) };
}

/** restErrorAnswer as the fetch Response sofa's router sends. */
function restErrorResponse(errors: ReadonlyArray<unknown>): Response {
  const answer = restErrorAnswer(errors);
  return new Response(answer.text, { status: answer.status, headers: answer.headers });
}

/** GraphQL's variable messages name `$variables`; REST callers know them as fields. */
export function restMessage(message: string): string {
  return message
    .replace(/^Variable "\$(\w+)" of required type "[^"]+" was not provided\.$/, '$1 is required')
    .replace(/^Variable "\$(\w+)" of non-null type "[^"]+" must not be null\.$/, '$1 must not be null')
    .replace(/^Variable "\$(\w+)" got invalid value (.*?); (.*)$/s, '$1: $3 (got $2)');
}

/**
 * Registers one Fastify route per table row, handing the request to its sofa router. The caller's access class is
 * checked first, before the body is parsed or anything is validated (access-gate.ts).
 */
export function mountSofaRoutes(
  app: FastifyInstance,
  mounted: MountedRoute[],
  makeContext: (request: FastifyRequest) => Promise<RequestContext>,
  validator: OpenApiValidator,
  execute: ExecuteOperation,
  /** Answer without sofa's router (sofa-dispatch.ts); false keeps the router, the reference the two are tested against. */
  direct: boolean,
  /** The handler route by path and method: what `?format=arrow` on a route with `arrow` hands the request to. */
  handlerAt: (path: string, method: string) => ((request: FastifyRequest, reply: FastifyReply) => unknown) | undefined = () => undefined,
): void {
  for (const m of mounted) {
    const gate = accessGate(m.route, makeContext);
    app.route({
      method: m.route.method,
      url: colonPath(m.route.path),
      ...(gate ? { onRequest: gate } : {}),
      handler: async (request: FastifyRequest, reply: FastifyReply) => {
        const ctx = await makeContext(request);
        executors.set(ctx, execute);
        const params = request.params as Record<string, string>;
        const rename = m.route.rename ?? {};
        let sofaUrl = m.sofaPath;
        for (const [k, v] of Object.entries(params)) sofaUrl = sofaUrl.replace(`:${rename[k] ?? k}`, encodeURIComponent(v));
        const query = new URLSearchParams();
        const rawQuery = request.url.includes('?') ? request.url.slice(request.url.indexOf('?') + 1) : '';
        const restQuery = new URLSearchParams(rawQuery);
        // The document is the contract: what it forbids is refused here, before GraphQL's more lenient coercion
        // (a single value for a list, any string for a Boolean) can accept it.
        const problem =
          pathParameterProblem(params) ??
          validator.queryProblem(m.route.method, m.route.path, restQuery) ??
          (typeof request.body === 'string' && m.route.textBodyArg ? undefined : validator.bodyProblem(m.route.method, m.route.path, request.body ?? undefined));
        if (problem) return sendError(reply, 400, problem, 'BAD_USER_INPUT');
        // Every row as Arrow is the .arrow route's answer: the same parameters, unpaged.
        if (m.route.arrow && restQuery.get('format') === 'arrow') {
          const arrow = handlerAt(m.route.arrow, m.route.method);
          if (arrow) return arrow(request, reply);
        }
        const fromQuery: Record<string, string> = {};
        if (m.route.svg && !restQuery.has('format') && prefersSvg(request.headers.accept)) restQuery.set('format', 'svg');
        // The plot route is its JSON route with format=svg, which it does not document as a parameter.
        if (m.route.plot) restQuery.set('format', 'svg');
        for (const [k, v] of restQuery) {
          if (m.route.queryArgs?.includes(k)) fromQuery[k] = v;
          else query.append(rename[k] ?? k, v);
        }
        let body: unknown = request.body;
        if (Object.keys(fromQuery).length) {
          if (body !== undefined && body !== null && !isObject(body)) return sendError(reply, 400, 'the JSON body must be an object', 'BAD_USER_INPUT');
          body = { ...((body as Record<string, unknown> | undefined) ?? {}), ...fromQuery };
        }
        if (m.route.textBodyArg && typeof body === 'string') body = { [m.route.textBodyArg]: body };
        if (m.route.headerArgs) {
          const extra: Record<string, unknown> = {};
          for (const [h, arg] of Object.entries(m.route.headerArgs)) {
            const value = request.headers[h];
            if (typeof value === 'string') extra[arg] = value;
          }
          body = { ...(isObject(body) ? body : {}), ...extra };
        }
        if (m.route.bodyArg) body = { [m.route.bodyArg]: body ?? {} };
        if (body !== undefined && !isObject(body)) {
          return sendError(reply, 400, 'the JSON body must be an object', 'BAD_USER_INPUT');
        }
        const qs = query.toString();
        const hasBody = m.route.method !== 'GET' && m.route.method !== 'DELETE';
        const answer = direct
          ? await dispatchLikeSofa(
              m.operation,
              { params: Object.fromEntries(Object.entries(params).map(([k, v]) => [rename[k] ?? k, v])), query: qs, body: hasBody && isObject(body) ? body : {} },
              ctx,
              m.schema,
              execute,
              restErrorAnswer,
            )
          : await throughRouter(m, `${sofaUrl}${qs ? `?${qs}` : ''}`, hasBody ? JSON.stringify(body ?? {}) : undefined, ctx);
        const errorCode = answer.headers['x-error-code'];
        if (errorCode) {
          const detail = answer.headers['x-error-detail'];
          if (detail) request.log.error({ errorCode, detail: decodeURIComponent(detail) }, 'operation failed');
          else request.log.info({ errorCode }, 'operation rejected');
        }
        if (request.abort.aborted) return reply;
        reply.code(answer.status);
        for (const name of ANSWER_HEADERS) if (answer.headers[name]) reply.header(name, answer.headers[name]);
        const text = answer.text ?? '';
        if ((m.route.svg || m.route.plot) && answer.status === 200 && restQuery.get('format') === 'svg') {
          const svg = (JSON.parse(text) as { svg?: string | null }).svg;
          if (typeof svg === 'string') return reply.type('image/svg+xml; charset=utf-8').header('vary', 'Accept').send(svg);
        }
        reply.type('application/json; charset=utf-8');
        return reply.send(answer.status === 204 ? undefined : jsonBody(text));
      },
    });
  }
}

/** The headers of an operation's answer that reach the client (`x-error-detail` is for the log only). */
const ANSWER_HEADERS = ['x-error-code', 'x-error-reason', 'retry-after'];

/** The request as sofa's router answers it: a fetch Request routed to the route's handler. */
async function throughRouter(m: MountedRoute, url: string, body: string | undefined, ctx: RequestContext): Promise<RestAnswer> {
  const res = await m.router.fetch(new Request(`http://rest.local${url}`, { method: m.route.method, headers: { 'content-type': 'application/json' }, body }), { ctx });
  const headers: Record<string, string> = {};
  for (const name of ['x-error-detail', ...ANSWER_HEADERS]) {
    const value = res.headers.get(name);
    if (value) headers[name] = value;
  }
  const text = await res.text();
  // sofa writes its answer with JSON.stringify: a census is rewritten in the order the direct path writes it.
  return { status: res.status, headers, text: res.ok && text && m.operation.json !== JSON.stringify ? m.operation.json(JSON.parse(text)) : text };
}

/**
 * A path parameter that is empty, "." or "..": no id, slug or name is one, and inside the URL handed to sofa it
 * would be a dot segment (whatever its encoding, %2e included) resolved away, or an empty one no route matches.
 */
function pathParameterProblem(params: Record<string, string>): string | undefined {
  const name = Object.keys(params).find((k) => params[k] === '' || params[k] === '.' || params[k] === '..');
  if (name === undefined) return undefined;
  return params[name] ? `path parameter ${name}: ${JSON.stringify(params[name])} is not a valid value` : `path parameter ${name} must not be empty`;
}

/** An Accept header that ranks SVG above JSON (a browser's image request, `curl -H 'Accept: image/svg+xml'`). */
function prefersSvg(accept: string | undefined): boolean {
  if (!accept || !accept.includes('image/svg+xml')) return false;
  const quality = (type: string) => {
    const part = accept.split(',').find((p) => p.trim().startsWith(type));
    if (!part) return 0;
    const m = /;\s*q=([0-9.]+)/.exec(part);
    return m ? Number(m[1]) : 1;
  };
  return quality('image/svg+xml') > quality('application/json');
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
