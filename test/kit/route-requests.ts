import { randomUUID } from 'node:crypto';
import type { GraphQLArgument, GraphQLEnumType, GraphQLField, GraphQLInputObjectType, GraphQLInputType, GraphQLSchema } from 'graphql';
import { pathParams, type Route } from '../../rest-compat/route-table.js';

/**
 * The smallest request each REST route accepts, built from the API schema: the sweeps over every route (access
 * classes, API token scopes) call each route with it.
 */

// The app's schema comes from the CommonJS build of graphql (through Apollo) and this file would load the ESM one,
// whose instanceof-based predicates refuse the other's types: classify types by their constructor names instead.
const kind = (type: unknown) => (type as { constructor: { name: string } }).constructor.name;
const isNonNullType = (t: GraphQLInputType): t is GraphQLInputType & { ofType: GraphQLInputType } => kind(t) === 'GraphQLNonNull';
const isListType = (t: GraphQLInputType) => kind(t) === 'GraphQLList';
const isEnumType = (t: GraphQLInputType): t is GraphQLEnumType => kind(t) === 'GraphQLEnumType';
const isInputObjectType = (t: GraphQLInputType): t is GraphQLInputObjectType => kind(t) === 'GraphQLInputObjectType';
const isScalarType = (t: GraphQLInputType): t is GraphQLInputType & { name: string } => kind(t) === 'GraphQLScalarType';
const getNamedType = (t: GraphQLInputType): GraphQLInputType => ('ofType' in t ? getNamedType(t.ofType as GraphQLInputType) : t);

/** The smallest value GraphQL accepts for a type: required input fields only, empty lists. */
function minimalValue(type: GraphQLInputType): unknown {
  if (isNonNullType(type)) return minimalValue(type.ofType);
  if (isListType(type)) return [];
  if (isEnumType(type)) return type.getValues()[0].name;
  if (isInputObjectType(type)) {
    const out: Record<string, unknown> = {};
    for (const f of Object.values(type.getFields())) if (isRequired(f)) out[f.name] = minimalValue(f.type);
    return out;
  }
  if (isScalarType(type)) {
    switch (type.name) {
      case 'Int':
      case 'Float':
        return 1;
      case 'Boolean':
        return false;
      case 'ID':
      case 'UUID':
        return randomUUID();
      case 'DateTime':
        return new Date().toISOString();
      case 'JSON':
      case 'JSONObject':
        return {};
      default:
        return 'x';
    }
  }
  return 'x';
}

const isRequired = (a: { type: GraphQLInputType; defaultValue?: unknown }) => isNonNullType(a.type) && a.defaultValue === undefined;

function rootField(schema: GraphQLSchema, coordinate: string): GraphQLField<unknown, unknown> {
  const [typeName, fieldName] = coordinate.split('.');
  const type = typeName === 'Query' ? schema.getQueryType() : schema.getMutationType();
  const field = type?.getFields()[fieldName];
  if (!field) throw new Error(`route field ${coordinate} is not in the API schema`);
  return field;
}

export interface MinimalRequest {
  url: string;
  body?: unknown;
  headers: Record<string, string>;
}

/** A request that satisfies the route's required arguments, with random UUIDs for path parameters. */
export function minimalRequest(route: Route, schema: GraphQLSchema): MinimalRequest {
  const path = pathParams(route.path);
  let url = route.path;
  for (const p of path) url = url.replace(`{${p}}`, randomUUID());
  const headers: Record<string, string> = {};
  const hasBody = route.method !== 'GET' && route.method !== 'DELETE';
  if (route.kind === 'handler') return { url, headers, body: hasBody ? {} : undefined };
  const rename = route.rename ?? {};
  const restName = (arg: string) => Object.entries(rename).find(([, a]) => a === arg)?.[0] ?? arg;
  const fromPath = new Set(path.map((p) => rename[p] ?? p));
  const fromHeader = new Map(Object.entries(route.headerArgs ?? {}).map(([h, a]) => [a, h]));
  const query = new URLSearchParams();
  let body: Record<string, unknown> | undefined = hasBody ? {} : undefined;
  for (const arg of rootField(schema, route.field).args as readonly GraphQLArgument[]) {
    if (!isRequired(arg) || fromPath.has(arg.name)) continue;
    const value = minimalValue(arg.type);
    if (fromHeader.has(arg.name)) headers[fromHeader.get(arg.name)!] = String(value);
    else if (route.bodyArg === arg.name) body = value as Record<string, unknown>;
    else if (hasBody) body![arg.name] = value;
    // A query string cannot carry an empty list: a required list gets one minimal item.
    else if (Array.isArray(value)) query.set(restName(arg.name), String(minimalValue(getNamedType(arg.type) as GraphQLInputType)));
    else query.set(restName(arg.name), isInputObjectType(getNamedType(arg.type)) ? JSON.stringify(value) : String(value));
  }
  const qs = query.toString();
  return { url: qs ? `${url}?${qs}` : url, body, headers };
}
