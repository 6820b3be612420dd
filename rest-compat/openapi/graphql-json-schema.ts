import { withExample } from './examples.js';
import { TRIAD_CODES } from '../../domain/triad-codes.js';
import { Kind, parse, type DocumentNode, type FieldNode, type GraphQLSchema, type OperationDefinitionNode, type SelectionSetNode, type TypeNode } from 'graphql';

export type Json = Record<string, unknown>;

/**
 * The parts of graphql-js types this module reads. Types are recognised by their `Symbol.toStringTag` rather than
 * graphql's `is*Type` helpers: the API schema comes from Apollo's composition (graphql's CommonJS build) while
 * this module may be loaded through the ES module build, and the helpers' `instanceof` fails across the two.
 */
interface TypeLike {
  name?: string;
  description?: string | null;
  ofType?: TypeLike;
  getFields?: () => Record<string, FieldLike>;
  getValues?: () => { name: string }[];
  [Symbol.toStringTag]?: string;
}
export interface FieldLike {
  name: string;
  description?: string | null;
  type: TypeLike;
  defaultValue?: unknown;
  args?: readonly FieldLike[];
}

const tag = (t: TypeLike) => t[Symbol.toStringTag];
export const isNonNull = (t: TypeLike) => tag(t) === 'GraphQLNonNull';
const isList = (t: TypeLike) => tag(t) === 'GraphQLList';
export const namedType = (t: TypeLike): TypeLike => (t.ofType ? namedType(t.ofType) : t);

/** A census object (the graph subgraph's TriadCounts and TriadValues): its 16 classes, in the standard order. */
const triadObject = (value: Json): Json => ({
  type: 'object',
  required: [...TRIAD_CODES],
  additionalProperties: false,
  properties: Object.fromEntries(TRIAD_CODES.map((c) => [c, value])),
});

/** How each scalar travels in JSON. DateTime is graphql-scalars' RFC 3339 string. */
const SCALARS: Record<string, Json> = {
  SafeInt: { type: 'integer', minimum: -Number.MAX_SAFE_INTEGER, maximum: Number.MAX_SAFE_INTEGER },
  TriadCounts: triadObject({ type: 'integer', minimum: 0 }),
  TriadValues: triadObject({ type: ['number', 'null'] }),
  PerNodeSelection: { oneOf: [{ type: 'boolean' }, { type: 'array', items: { type: 'string' }, maxItems: 1000 }] },
  SyqlRow: { type: 'array', items: { type: ['string', 'number', 'boolean', 'null'] }, description: 'values in the order of columns' },
  SyqlValue: { type: ['string', 'number', 'boolean', 'null', 'array'], items: { type: ['string', 'number', 'boolean', 'null'] } },
  String: { type: 'string' },
  ID: { type: 'string' },
  Int: { type: 'integer', format: 'int32' },
  Float: { type: 'number' },
  Boolean: { type: 'boolean' },
  DateTime: { type: 'string', format: 'date-time' },
  JSONObject: { type: 'object', additionalProperties: true },
  JSON: {},
};

const withNull = (schema: Json): Json => {
  if (schema.$ref) return { anyOf: [schema, { type: 'null' }] };
  if (typeof schema.type === 'string') return { ...schema, type: [schema.type, 'null'] };
  if (Array.isArray(schema.enum)) return { ...schema, enum: [...schema.enum, null], type: ['string', 'null'] };
  return schema;
};

const described = (schema: Json, description?: string | null): Json => {
  if (!description) return schema;
  // A sibling of $ref is ignored by some tools; a wrapper keeps the description everywhere.
  if (schema.$ref) return { allOf: [schema], description };
  if (schema.anyOf) return { ...schema, description };
  return { ...schema, description };
};

/**
 * JSON Schemas of the GraphQL types that REST bodies and responses use, named like the GraphQL types so the
 * document reads like the GraphQL schema. Components are only made for selections that cover a whole type.
 */
export class GraphqlJsonSchemas {
  readonly components: Record<string, Json> = {};

  constructor(private readonly schema: GraphQLSchema) {}

  /** The schema of an input value (argument or input field) of GraphQL type `type`. */
  input(type: TypeLike): Json {
    if (isNonNull(type)) return this.inputNonNull(type.ofType!);
    return withNull(this.inputNonNull(type));
  }

  /** The schema of an operation variable, from its declared type (sofa declares one per argument). */
  variable(node: TypeNode): Json {
    return this.input(this.typeOf(node));
  }

  private typeOf(node: TypeNode): TypeLike {
    if (node.kind === Kind.NON_NULL_TYPE) return { ofType: this.typeOf(node.type), [Symbol.toStringTag]: 'GraphQLNonNull' };
    if (node.kind === Kind.LIST_TYPE) return { ofType: this.typeOf(node.type), [Symbol.toStringTag]: 'GraphQLList' };
    const type = this.schema.getType(node.name.value);
    if (!type) throw new Error(`unknown type ${node.name.value}`);
    return type as unknown as TypeLike;
  }

  private inputNonNull(type: TypeLike): Json {
    if (isList(type)) return { type: 'array', items: this.input(type.ofType!) };
    const kind = tag(type);
    if (kind === 'GraphQLScalarType') return { ...(SCALARS[type.name!] ?? { type: 'string' }) };
    if (kind === 'GraphQLEnumType') return this.enumRef(type);
    if (kind === 'GraphQLInputObjectType') return this.inputObjectRef(type);
    throw new Error(`unexpected input type ${type.name}`);
  }

  private enumRef(type: TypeLike): Json {
    this.components[type.name!] ??= { type: 'string', enum: type.getValues!().map((v) => v.name), ...(type.description ? { description: type.description } : {}) };
    return { $ref: `#/components/schemas/${type.name}` };
  }

  private inputObjectRef(type: TypeLike): Json {
    const name = type.name!;
    if (!this.components[name]) {
      this.components[name] = {}; // reserved first: an input type may refer to itself
      this.components[name] = this.inputObject(type);
    }
    return { $ref: `#/components/schemas/${name}` };
  }

  /** An input object as a JSON object: GraphQL refuses unknown fields, so the schema does too. */
  inputObject(type: TypeLike, description = type.description): Json {
    const properties: Json = {};
    const required: string[] = [];
    for (const field of Object.values(type.getFields!())) {
      properties[field.name] = withExample(field.name, described(this.input(field.type), field.description));
      if (isNonNull(field.type) && field.defaultValue === undefined) required.push(field.name);
    }
    return { type: 'object', ...(required.length ? { required } : {}), additionalProperties: false, properties, ...(description ? { description } : {}) };
  }

  /**
   * The schema of what a selection returns: every selected field is present (GraphQL always answers the fields it
   * was asked for), null where the GraphQL type is nullable. A selection of every field of an object type becomes
   * a named component; a partial one (sofa answers a nested model by its `id` only) stays inline.
   */
  output(type: TypeLike, selection: SelectionSetNode | undefined): Json {
    if (isNonNull(type)) return this.outputNonNull(type.ofType!, selection);
    return withNull(this.outputNonNull(type, selection));
  }

  private outputNonNull(type: TypeLike, selection: SelectionSetNode | undefined): Json {
    if (isList(type)) return { type: 'array', items: this.output(type.ofType!, selection) };
    const kind = tag(type);
    if (kind === 'GraphQLScalarType') return { ...(SCALARS[type.name!] ?? { type: 'string' }) };
    if (kind === 'GraphQLEnumType') return this.enumRef(type);
    if (kind !== 'GraphQLObjectType' || !selection) throw new Error(`unsupported output type ${type.name} (only objects, scalars and enums travel over REST)`);
    const fields = type.getFields!();
    const selected = selection.selections.filter((s): s is FieldNode => s.kind === Kind.FIELD);
    if (selected.length !== selection.selections.length) throw new Error(`fragments in a REST selection of ${type.name}`);
    const properties: Json = {};
    for (const node of selected) {
      const field = fields[node.name.value];
      properties[node.alias?.value ?? node.name.value] = described(this.output(field.type, node.selectionSet), field.description);
    }
    const object: Json = {
      type: 'object',
      required: Object.keys(properties),
      additionalProperties: false,
      properties,
      ...(type.description ? { description: type.description } : {}),
    };
    const whole = Object.keys(fields).every((f) => selected.some((n) => n.name.value === f && !n.alias));
    if (!whole) return object;
    const existing = this.components[type.name!];
    if (existing && JSON.stringify(existing) !== JSON.stringify(object)) return object;
    this.components[type.name!] = object;
    return { $ref: `#/components/schemas/${type.name}` };
  }

  /**
   * The schema of a REST route's 200 body: its root field's value, never null. A root field is null only beside an
   * error (a lookup's NOT_FOUND, a subgraph that is down), and the REST layer answers the error's status instead.
   */
  rootOutput(type: TypeLike, selection: SelectionSetNode | undefined): Json {
    return this.outputNonNull(isNonNull(type) ? type.ofType! : type, selection);
  }

  /** The schema of what `selection` (fields as written in a GraphQL document) on the object type `typeName` returns. */
  selectionOf(typeName: string, selection: string): Json {
    const type = this.schema.getType(typeName);
    if (!type) throw new Error(`unknown type ${typeName}`);
    const operation = parse(`{ ${selection} }`).definitions[0] as OperationDefinitionNode;
    return this.outputNonNull(type as unknown as TypeLike, operation.selectionSet);
  }

  /** The root field an operation document selects, with its selection. */
  rootField(document: DocumentNode): { field: FieldLike; node: FieldNode } {
    const op = document.definitions.find((d) => d.kind === Kind.OPERATION_DEFINITION);
    if (!op || op.kind !== Kind.OPERATION_DEFINITION) throw new Error('no operation in a REST document');
    const node = op.selectionSet.selections[0] as FieldNode;
    const root = op.operation === 'mutation' ? this.schema.getMutationType() : this.schema.getQueryType();
    const field = (root as unknown as TypeLike).getFields!()[node.name.value];
    return { field, node };
  }
}
