import { Kind, type DocumentNode, type OperationDefinitionNode } from 'graphql';
import { pathParams, type GraphqlRoute } from '../route-table.js';
import { FIELD_EXAMPLES, withExample } from './examples.js';
import { GraphqlJsonSchemas, type FieldLike, type Json } from './graphql-json-schema.js';

const hasBody = (method: string) => method === 'POST' || method === 'PUT' || method === 'PATCH';

/** Where one GraphQL variable of a REST route travels. */
export type ParameterPlace = 'path' | 'query' | 'header' | 'body' | 'text';

export interface RouteVariable {
  /** The GraphQL variable (and argument) name. */
  name: string;
  /** The name a REST caller uses (differs when the route renames a path parameter). */
  restName: string;
  place: ParameterPlace;
  required: boolean;
  schema: Json;
  description?: string;
}

/**
 * Where each variable of the operation sofa runs for a route is read from: path parameters by their place in the
 * path, configured headers, the text body, then the JSON body for POST/PUT/PATCH and the query string otherwise.
 */
export function routeVariables(route: GraphqlRoute, document: DocumentNode, schemas: GraphqlJsonSchemas): RouteVariable[] {
  const op = document.definitions.find((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION)!;
  const { field } = schemas.rootField(document);
  const args = new Map<string, FieldLike>((field.args ?? []).map((a) => [a.name, a]));
  const back = Object.fromEntries(Object.entries(route.rename ?? {}).map(([rest, gql]) => [gql, rest]));
  const inPath = new Set(pathParams(route.path));
  const headerOf = Object.fromEntries(Object.entries(route.headerArgs ?? {}).map(([header, arg]) => [arg, header]));
  // A plot route sets format=svg itself: the argument is no parameter of it.
  const variables = (op.variableDefinitions ?? []).filter((v) => !(route.plot && v.variable.name.value === 'format'));
  return variables.map((v) => {
    const name = v.variable.name.value;
    const restName = back[name] ?? name;
    let place: ParameterPlace;
    if (inPath.has(restName)) place = 'path';
    else if (headerOf[name]) place = 'header';
    else if (route.textBodyArg === name) place = 'text';
    else if (route.queryArgs?.includes(name)) place = 'query';
    else if (hasBody(route.method) && !route.textBodyArg) place = 'body';
    else place = 'query';
    const arg = args.get(name);
    return {
      name,
      restName: place === 'header' ? headerOf[name] : restName,
      place,
      required: v.type.kind === Kind.NON_NULL_TYPE && !v.defaultValue,
      schema: schemas.variable(v.type),
      description: arg?.description ?? undefined,
    };
  });
}

/** A query, path or header value is a string on the wire: the documented schema has no null. */
function parameterSchema(schema: Json): Json {
  if (Array.isArray(schema.type)) {
    const type = (schema.type as string[]).filter((t) => t !== 'null');
    const rest: Json = { ...schema, type: type.length === 1 ? type[0] : type };
    if (Array.isArray(schema.enum)) rest.enum = (schema.enum as unknown[]).filter((e) => e !== null);
    return rest;
  }
  if (Array.isArray(schema.anyOf)) return (schema.anyOf as Json[]).find((s) => s.type !== 'null') ?? schema;
  return schema;
}

/** The body schema of a route: the input object itself (bodyArg), or an object of the body variables. */
function bodySchema(route: GraphqlRoute, variables: RouteVariable[], schemas: GraphqlJsonSchemas, document: DocumentNode): { schema: Json; required: boolean } | undefined {
  if (route.bodyArg) {
    const { field } = schemas.rootField(document);
    const arg = field.args!.find((a) => a.name === route.bodyArg)!;
    const schema = schemas.input(arg.type);
    return { schema: arg.description ? { allOf: [schema], description: arg.description } : schema, required: true };
  }
  const body = variables.filter((v) => v.place === 'body' || (route.textBodyArg && (v.place === 'text' || v.place === 'query')));
  if (!hasBody(route.method)) return undefined;
  const properties: Json = {};
  for (const v of body) properties[v.restName] = withExample(v.restName, v.description ? { ...v.schema, description: v.description } : v.schema);
  const required = body.filter((v) => v.required).map((v) => v.restName);
  return {
    schema: { type: 'object', ...(required.length ? { required } : {}), additionalProperties: false, properties },
    required: required.length > 0,
  };
}

/** A field's example as a parameter of this schema: a repeatable query parameter (an array) takes it as a list. */
function parameterExample(example: unknown, schema: Json): unknown {
  return (schema as { type?: unknown }).type === 'array' && !Array.isArray(example) ? [example] : example;
}

/** The request half of an OpenAPI operation for a GraphQL route: parameters and body. */
export function requestParts(route: GraphqlRoute, document: DocumentNode, schemas: GraphqlJsonSchemas): Json {
  const variables = routeVariables(route, document, schemas);
  const parameters = variables
    .filter((v) => v.place === 'path' || v.place === 'query' || v.place === 'header')
    .map((v) => ({
      name: v.restName,
      in: v.place,
      required: v.place === 'path' ? true : v.required,
      ...(v.description ? { description: v.description } : {}),
      schema: parameterSchema(v.schema),
      ...(FIELD_EXAMPLES[v.restName] != null ? { example: parameterExample(FIELD_EXAMPLES[v.restName], parameterSchema(v.schema)) } : {}),
    }));
  const out: Json = { parameters };
  const body = bodySchema(route, variables, schemas, document);
  if (body) {
    const content: Json = { 'application/json': { schema: body.schema } };
    if (route.textBodyArg) {
      const others = variables.filter((v) => v.place === 'query').map((v) => v.restName);
      out.requestBody = {
        required: true,
        content: {
          'text/csv': { schema: { type: 'string', description: `the ${route.textBodyArg} argument${others.length ? `; ${others.join(', ')} from the query string` : ''}` } },
          ...content,
        },
      };
    } else {
      out.requestBody = { required: body.required, content };
    }
  }
  return out;
}

/** The success response of a GraphQL route: exactly what its sofa operation selects. */
export function successResponse(route: GraphqlRoute, document: DocumentNode, schemas: GraphqlJsonSchemas): Json {
  const { field, node } = schemas.rootField(document);
  const schema = schemas.rootOutput(field.type, node.selectionSet);
  // One media type per status, so that a generated client types the answer as one thing.
  const content: Json = route.plot ? { 'image/svg+xml': { schema: { type: 'string', description: 'the plot, an SVG document' } } } : { 'application/json': { schema } };
  return { [String(route.status ?? 200)]: { description: route.plot ? route.summary : (field.description ?? route.summary), content } };
}
