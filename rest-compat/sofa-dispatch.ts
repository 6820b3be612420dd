import { GraphQLBoolean, Kind, isEqualType, isInputObjectType, isScalarType, type DocumentNode, type GraphQLSchema, type OperationDefinitionNode, type TypeNode, type VariableDefinitionNode } from 'graphql';
import { parse as parseQueryString } from 'qs';
import type { RequestContext } from '../lib/context.js';
import { censusJson } from './census-json.js';

/** What a REST route answers: its status, the headers the answer carries, and its body (none for 204). */
export interface RestAnswer {
  status: number;
  headers: Record<string, string>;
  text: string | undefined;
}

/** Runs one operation with the request's context (through the direct path or Apollo Server). */
export type RunDocument = (args: { document: DocumentNode; variables: Record<string, unknown>; operationName?: string; context: RequestContext }) => Promise<{
  data?: Record<string, unknown> | null;
  errors?: ReadonlyArray<unknown>;
}>;

/** A route's operation as sofa-api runs it: its document, the root field it answers with, and its variables. */
export interface SofaOperation {
  document: DocumentNode;
  fieldName: string;
  operationName?: string;
  variables: readonly VariableDefinitionNode[];
  responseStatus: number;
  /** How its answer is written as JSON: with every triad census in the standard order when it can hold one (census-json.ts). */
  json: (value: unknown) => string | undefined;
}

export function sofaOperation(document: DocumentNode, field: string, responseStatus: number, census: boolean): SofaOperation {
  const operation = document.definitions.find((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION)!;
  return {
    document,
    fieldName: field.split('.')[1],
    operationName: operation.name?.value,
    variables: operation.variableDefinitions ?? [],
    responseStatus,
    json: census ? censusJson : JSON.stringify,
  };
}

/**
 * Answers a REST request as sofa-api's route handler does, without building a fetch `Request` and routing it
 * again: each variable is taken from the path parameters, then the query string (parsed by `qs`, as sofa does),
 * then the body, and converted by its declared type as sofa converts it; the operation's errors become the answer
 * `errorAnswer` makes of them, its data the root field's value as JSON with the route's status. The REST
 * equivalence test holds the two to the same answers.
 */
export async function dispatchLikeSofa(
  op: SofaOperation,
  input: { params: Record<string, string>; query: string; body: Record<string, unknown> },
  context: RequestContext,
  schema: GraphQLSchema,
  run: RunDocument,
  errorAnswer: (errors: ReadonlyArray<unknown>) => RestAnswer,
): Promise<RestAnswer> {
  try {
    const searchParams = op.variables.length && input.query ? (parseQueryString(input.query) as Record<string, unknown>) : {};
    const variables: Record<string, unknown> = {};
    try {
      for (const variable of op.variables) {
        const name = variable.variable.name.value;
        const raw = name in input.params ? input.params[name] : searchParams[name] || input.body[name];
        const value = raw === null || raw === undefined ? undefined : sofaValue(raw, variable.type, schema);
        if (value !== undefined) variables[name] = value;
      }
    } catch (e) {
      return errorAnswer([{ message: e instanceof Error ? e.message : String(e), extensions: { http: { status: 400 } } }]);
    }
    const result = await run({ document: op.document, variables, operationName: op.operationName, context });
    if (result.errors) return errorAnswer(result.errors);
    return { status: op.responseStatus, headers: { 'content-type': 'application/json' }, text: op.json(result.data?.[op.fieldName]) };
  } catch (e) {
    return errorAnswer([e]);
  }
}

/** sofa-api's conversion of a parameter to its variable's type: scalars serialized, Booleans from "true", input objects from JSON. */
function sofaValue(value: unknown, type: TypeNode, schema: GraphQLSchema): unknown {
  return converterOf(type, schema)(value);
}

type Converter = (value: unknown) => unknown;
/**
 * Per schema and type node of a route's fixed operation: a list of 10,000 values is converted without looking its
 * type up 10,000 times.
 */
const converters = new WeakMap<GraphQLSchema, WeakMap<TypeNode, Converter>>();

function converterOf(type: TypeNode, schema: GraphQLSchema): Converter {
  let ofSchema = converters.get(schema);
  if (!ofSchema) converters.set(schema, (ofSchema = new WeakMap()));
  let convert = ofSchema.get(type);
  if (convert) return convert;
  if (type.kind === Kind.NAMED_TYPE) {
    const named = schema.getType(type.name.value);
    if (isScalarType(named)) {
      const boolean = isEqualType(GraphQLBoolean, named);
      convert = (value) => named.serialize(boolean ? value === 'true' || value === true : value);
    } else if (isInputObjectType(named)) {
      convert = (value) => (value && typeof value === 'object' ? value : JSON.parse(value as string));
    } else {
      convert = (value) => value;
    }
  } else if (type.kind === Kind.LIST_TYPE) {
    const item = converterOf(type.type, schema);
    convert = (value) => (Array.isArray(value) ? value : [value]).map((v) => item(v));
  } else {
    convert = converterOf(type.type, schema);
  }
  ofSchema.set(type, convert);
  return convert;
}
