import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import type { Json } from './graphql-json-schema.js';

// ajv-formats is CommonJS with a default export that TypeScript's NodeNext view does not see as callable.
const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => void;

interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header';
  required?: boolean;
  schema: Json;
}

interface Operation {
  parameters?: Parameter[];
  requestBody?: { required?: boolean; content: Record<string, { schema: Json }> };
  responses: Record<string, { $ref?: string; content?: Record<string, { schema: Json }>; headers?: Record<string, { required?: boolean; schema: { enum?: string[] } }> }>;
  /** The plot operation whose image/svg+xml answer `?format=svg` here gives (docs/rest-contract.md). */
  'x-svg-alias-of'?: string;
  /** The .arrow operation whose Arrow answer `?format=arrow` here gives. */
  'x-arrow-alias-of'?: string;
}

const pointer = (...parts: string[]) => parts.map((p) => p.replace(/~/g, '~0').replace(/\//g, '~1')).join('/');

/**
 * Checks requests and responses against the OpenAPI document: the REST layer refuses a body or query value the
 * document forbids, and the test kit holds every response the tests receive to it. One Ajv instance holds the
 * whole document, so `$ref`s resolve exactly as a client's tooling resolves them.
 */
export class OpenApiValidator {
  private readonly ajv = new Ajv2020({ strict: false, allErrors: false, verbose: true });
  private readonly compiled = new Map<string, ValidateFunction>();
  private readonly templates: { method: string; path: string; pattern: RegExp }[] = [];

  constructor(private readonly doc: Json) {
    addFormats(this.ajv);
    this.ajv.addSchema(doc, 'openapi');
    for (const [path, ops] of Object.entries(doc.paths as Record<string, Record<string, unknown>>)) {
      const pattern = new RegExp(`^${path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\\?\{[^}]+\\?\}/g, '[^/]+')}$`);
      for (const method of Object.keys(ops)) this.templates.push({ method: method.toUpperCase(), path, pattern });
    }
    // Literal paths win over templated ones (`/terms/validate` over `/terms/{id}`).
    this.templates.sort((a, b) => (a.path.includes('{') ? 1 : 0) - (b.path.includes('{') ? 1 : 0));
  }

  operation(method: string, path: string): Operation | undefined {
    return (this.doc.paths as Record<string, Record<string, Operation>>)[path]?.[method.toLowerCase()];
  }

  /** The documented path template a concrete URL path matches, e.g. `/v1/ontology/terms/{id}`. */
  match(method: string, urlPath: string): string | undefined {
    return this.templates.find((t) => t.method === method.toUpperCase() && t.pattern.test(urlPath))?.path;
  }

  private validatorAt(ref: string): ValidateFunction {
    let v = this.compiled.get(ref);
    if (!v) {
      v = this.ajv.compile({ $ref: `openapi#${ref}` });
      this.compiled.set(ref, v);
    }
    return v;
  }

  /** Why a JSON body does not fit the operation's documented body, as one REST message; undefined when it fits. */
  bodyProblem(method: string, path: string, body: unknown): string | undefined {
    const op = this.operation(method, path);
    if (!op?.requestBody?.content['application/json']) return undefined;
    if (body === undefined) return op.requestBody.required ? 'a JSON body is required' : undefined;
    const validate = this.validatorAt(`/${pointer('paths', path, method.toLowerCase(), 'requestBody', 'content', 'application/json', 'schema')}`);
    if (validate(body)) return undefined;
    return bodyMessage(validate.errors ?? [], body);
  }

  /** Why a query string does not fit the operation's documented query parameters; undefined when it fits. */
  queryProblem(method: string, path: string, query: URLSearchParams): string | undefined {
    const op = this.operation(method, path);
    for (const p of op?.parameters ?? []) {
      if (p.in !== 'query') continue;
      const values = query.getAll(p.name);
      if (values.length === 0) {
        if (p.required) return `${p.name} is required`;
        continue;
      }
      const problem = scalarProblem(p.name, values, this.resolve(p.schema));
      if (problem) return problem;
    }
    return undefined;
  }

  /** A parameter schema with its `$ref`s (enums) replaced by what they point at. */
  private resolve(schema: Json): Json {
    const ref = schema.$ref as string | undefined;
    if (ref) return this.resolve((this.doc.components as { schemas: Record<string, Json> }).schemas[ref.split('/').pop()!]);
    if (schema.type === 'array' && schema.items) return { ...schema, items: this.resolve(schema.items as Json) };
    return schema;
  }

  /**
   * Problems of one response: an undocumented status, a documented header missing or out of its values, a content
   * type the operation does not declare, or a body that does not fit the schema. Empty when the response is as documented (or its path is not in the document).
   */
  responseProblems(method: string, urlPath: string, status: number, contentType: string | null, body: unknown, header: (name: string) => string | null = () => null): string[] {
    const path = this.match(method, urlPath);
    if (!path) return [];
    const op = this.operation(method, path)!;
    let response = op.responses[String(status)];
    if (!response) return [`${method} ${path}: status ${status} is not documented (documented: ${Object.keys(op.responses).join(', ')})`];
    let base = `/${pointer('paths', path, method.toLowerCase(), 'responses', String(status))}`;
    if (response.$ref) {
      base = response.$ref.slice(1);
      response = (this.doc.components as { responses: Record<string, typeof response> }).responses[response.$ref.split('/').pop()!];
    }
    const headerProblems = Object.entries(response.headers ?? {}).flatMap(([name, h]) => {
      const value = header(name);
      if (value === null) return h.required ? [`${method} ${path} ${status}: header ${name} is missing`] : [];
      return h.schema.enum && !h.schema.enum.includes(value) ? [`${method} ${path} ${status}: header ${name} is ${value}, not one of ${h.schema.enum.join(', ')}`] : [];
    });
    if (headerProblems.length) return headerProblems;
    if (!response.content) return status === 204 || body === null || body === '' ? [] : [`${method} ${path} ${status}: documented without a body`];
    const type = (contentType ?? '').split(';')[0].trim();
    if (type === 'image/svg+xml' && status === 200 && op['x-svg-alias-of']) {
      const [aliasMethod, aliasPath] = op['x-svg-alias-of'].split(' ');
      return this.operation(aliasMethod, aliasPath)?.responses['200']?.content?.[type] ? [] : [`${method} ${path}: x-svg-alias-of ${op['x-svg-alias-of']} documents no SVG answer`];
    }
    if (type === 'application/vnd.apache.arrow.stream' && status === 200 && op['x-arrow-alias-of']) {
      const [aliasMethod, aliasPath] = op['x-arrow-alias-of'].split(' ');
      return this.operation(aliasMethod, aliasPath)?.responses['200']?.content?.[type] ? [] : [`${method} ${path}: x-arrow-alias-of ${op['x-arrow-alias-of']} documents no Arrow answer`];
    }
    if (!response.content[type]) return [`${method} ${path} ${status}: content type ${type || '(none)'} is not documented (documented: ${Object.keys(response.content).join(', ')})`];
    if (type !== 'application/json') return [];
    const validate = this.validatorAt(`${base}/${pointer('content', type, 'schema')}`);
    if (validate(body)) return [];
    return (validate.errors ?? []).map((e) => `${method} ${path} ${status}: ${e.instancePath || '(body)'} ${e.message} ${JSON.stringify(e.params)}`);
  }
}

const fieldName = (instancePath: string) => instancePath.replace(/^\//, '').replace(/\//g, '.');

/** An Ajv error as the kind of message the rest of the API gives: the field, then what was expected. */
export function bodyMessage(errors: ErrorObject[], body: unknown): string {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return 'the JSON body must be an object';
  const e = errors[0];
  if (!e) return 'the body does not fit this operation';
  const at = fieldName(e.instancePath);
  const prefix = at ? `${at}.` : '';
  switch (e.keyword) {
    case 'required':
      return `${prefix}${(e.params as { missingProperty: string }).missingProperty} is required`;
    case 'additionalProperties': {
      const known = Object.keys(((e.parentSchema as Json | undefined)?.properties as Json | undefined) ?? {});
      return `unknown field ${prefix}${(e.params as { additionalProperty: string }).additionalProperty}${known.length ? ` (accepted: ${known.join(', ')})` : ''}`;
    }
    case 'type':
      return `${at || 'the body'} must be ${article((e.params as { type: string | string[] }).type)}`;
    case 'enum':
      return `${at} must be one of ${((e.params as { allowedValues: unknown[] }).allowedValues ?? []).filter((v) => v !== null).join(', ')}`;
    case 'format':
      return `${at} must be ${article((e.params as { format: string }).format)}`;
    default:
      return `${at || 'the body'} ${e.message ?? 'is not valid'}`;
  }
}

function article(type: string | string[]): string {
  const types = (Array.isArray(type) ? type : type.split(',')).filter((t) => t !== 'null');
  const nullable = (Array.isArray(type) ? type : type.split(',')).includes('null');
  const named = types.map((t) => (t === 'array' || t === 'object' || t === 'integer' ? `an ${t}` : `a ${t}`)).join(' or ');
  return nullable ? `${named} or null` : named;
}

/**
 * Repetitions of one list parameter sofa reads as a list: its query-string parser (qs) turns a key repeated more
 * often into an object, which no GraphQL list accepts.
 */
export const REPEATED_PARAMETER_MAX = 20;

/** A query value against a parameter's (scalar or array-of-scalar) schema. */
function scalarProblem(name: string, values: string[], schema: Json): string | undefined {
  const itemSchema = schema.type === 'array' ? ((schema.items as Json) ?? {}) : schema;
  if (schema.type !== 'array' && values.length > 1) return `${name} was given ${values.length} times; give it once`;
  if (schema.type === 'array' && values.length > REPEATED_PARAMETER_MAX) return `${name} was given ${values.length} times; repeat it at most ${REPEATED_PARAMETER_MAX} times`;
  for (const value of values) {
    switch (itemSchema.type) {
      case 'integer':
        if (!/^[+-]?\d{1,10}$/.test(value) || Math.abs(Number(value)) > 2 ** 31 - 1) return `${name} must be an integer (got ${JSON.stringify(value)})`;
        break;
      case 'number':
        if (value.trim() === '' || !Number.isFinite(Number(value))) return `${name} must be a number (got ${JSON.stringify(value)})`;
        break;
      case 'boolean':
        if (value !== 'true' && value !== 'false') return `${name} must be true or false (got ${JSON.stringify(value)})`;
        break;
    }
    if (Array.isArray(itemSchema.enum) && !itemSchema.enum.includes(value)) return `${name} must be one of ${itemSchema.enum.join(', ')} (got ${JSON.stringify(value)})`;
  }
  return undefined;
}
