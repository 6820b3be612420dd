import http from 'node:http';
import { seededRandom } from '../../lib/seeded-random.js';

/**
 * Generated hostile requests from an OpenAPI document, for the test that no input answers 5xx
 * (test/http/fuzz.test.ts). Everything is drawn from a seeded generator, one seed per request, so a failing
 * request is printed with the seed that makes it again. No fuzzing library: the document's schemas are small
 * enough (objects, arrays, scalars, enums, anyOf with null) for a walk over them.
 */

type Json = Record<string, any>;

/** The draws the request generator makes, from one seeded sequence: the same seed gives the same requests. */
export function rng(seed: number) {
  const next = seededRandom(seed);
  return {
    next,
    chance: (p: number) => next() < p,
    int: (min: number, max: number) => min + Math.floor(next() * (max - min + 1)),
    pick: <T>(xs: readonly T[]): T => xs[Math.floor(next() * xs.length)],
    uuid: () => {
      const hex = Array.from({ length: 32 }, () => Math.floor(next() * 16).toString(16)).join('');
      return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-7${hex.slice(13, 16)}-8${hex.slice(17, 20)}-${hex.slice(20)}`;
    },
  };
}
export type Rng = ReturnType<typeof rng>;

/** A 32-bit seed from any parts (FNV-1a), so each request's seed depends only on the run's seed and its place. */
export function seedOf(...parts: (string | number)[]): number {
  let h = 0x811c9dc5;
  for (const ch of parts.join('\u0000')) {
    h ^= ch.codePointAt(0)!;
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** Ids and names of records that exist, by kind, so generated requests reach past "not found". */
export type FuzzPools = Partial<Record<'dataset' | 'version' | 'asset' | 'user' | 'term' | 'savedQuery' | 'job' | 'collection' | 'accessRequest' | 'cluster' | 'provider' | 'vocabulary', string[]>>;

/** Which pool a parameter or property draws its valid-looking values from, by its name. */
export function poolFor(name: string): keyof FuzzPools | undefined {
  if (/^(dataset_id|dataset|datasets|reference|reference_id|parent|parents|derived_from)$/.test(name)) return 'dataset';
  if (/version$/.test(name)) return 'version';
  if (/^asset_ids?$/.test(name)) return 'asset';
  if (/^user_id$/.test(name)) return 'user';
  if (/^(id|term_id|replaced_by|parent_code|parent_id)$/.test(name)) return 'term';
  if (/^saved_query_id$/.test(name)) return 'savedQuery';
  if (/^job_id$/.test(name)) return 'job';
  if (/^collection_id$/.test(name)) return 'collection';
  if (/^request_id$/.test(name)) return 'accessRequest';
  if (/^cluster_id$/.test(name)) return 'cluster';
  if (/^provider$/.test(name)) return 'provider';
  if (/^vocabulary$/.test(name)) return 'vocabulary';
  return undefined;
}

/** Strings that have broken parsers, paths, SQL and renderers somewhere; JSON carries every one of them. */
export function hostileString(r: Rng): string {
  switch (r.int(0, 17)) {
    case 0:
      return '';
    case 1:
      return '..';
    case 2:
      return '../../etc/passwd';
    case 3:
      return 'x'.repeat(r.pick([300, 5000, 70_000, 1_000_000]));
    case 4:
      return 'ünïcödé ✓ 中文 😀 \u202e';
    case 5:
      return `x${r.pick(['\ud800', '\udfff', '\udc00\ud800'])}yz`;
    case 6:
      return "' OR 1=1 --";
    case 7:
      return '</script><script>alert(1)</script>';
    case 8:
      return r.pick(['1e308', '-1e308', 'NaN', 'Infinity', '-0', '1.23e29', '9007199254740993']);
    case 9:
      return '\u0000\u0001\u001f';
    case 10:
      return r.uuid();
    case 11:
      return r.uuid().toUpperCase();
    case 12:
      return '{"$ne": null}';
    case 13:
      return '%2e%2e%2f';
    case 14:
      return ' \t\n ';
    case 15:
      return r.pick(['@latest', 'x@v1', 'x@v99999999999999999999', 'x@draft', '@']);
    case 16:
      return r.pick(['true', 'null', '[]', '{}', '-1']);
    default:
      return randomText(r, r.int(1, 40));
  }
}

function randomText(r: Rng, n: number): string {
  const alphabet = 'abcdefghijklmnopqrstuvwxyzABCXYZ0123456789_-.:/@ $%&*()[]{}"\'\\';
  return Array.from({ length: n }, () => r.pick(alphabet.split(''))).join('');
}

function hostileNumber(r: Rng): number {
  return r.pick([0, -0, -1, 1, 0.5, -2147483649, 2147483648, 2 ** 53 + 2, -(2 ** 53) - 2, 1e308, -1e308, 5e-324, 1e-308, 1.23e29, 1e21, 3.14159]);
}

/** Numbers at the ends of what a double or an integer column holds. */
function extremeNumber(r: Rng): number {
  return r.pick([1e308, -1e308, 1e-308, 1.23e29, 2 ** 53 + 2, -2147483649]);
}

/** A value of any JSON type: what a client sends in the wrong place. */
export function anyValue(r: Rng, depth = 0): unknown {
  switch (r.int(0, 8)) {
    case 0:
      return null;
    case 1:
      return r.chance(0.5);
    case 2:
      return hostileNumber(r);
    case 3:
      // Long strings come from the fields' own values (within the request's budget); here they stay short.
      return hostileString(r).slice(0, 5000);
    case 4:
      return depth > 2 ? [] : Array.from({ length: r.int(0, 3) }, () => anyValue(r, depth + 1));
    case 5:
      return depth > 2 ? {} : Object.fromEntries(Array.from({ length: r.int(0, 3) }, () => [hostileString(r).slice(0, 20), anyValue(r, depth + 1)]));
    case 6:
      return nestedArrays(r.pick([10, 63, 70, 500]));
    case 7:
      return Array.from({ length: r.pick([1000, 10_001, 100_000]) }, (_, i) => (r.chance(0.5) ? i : `v${i}`));
    default:
      return r.uuid();
  }
}

function nestedArrays(depth: number): unknown {
  let v: unknown = [];
  for (let i = 0; i < depth; i++) v = [v];
  return v;
}

/** SyQL texts over the fixtures' datasets: valid ones with hostile parameters, and broken ones. */
function syqlText(r: Rng, pools: FuzzPools): string {
  const ds = r.pick(pools.dataset ?? ['x']);
  return r.pick([
    `MATCH (a:Neuron)-[c:Chemical]->(b:Neuron) IN "${ds}" WHERE a.name STARTS WITH $prefix RETURN a.name AS pre, b.name AS post, c.weight ORDER BY c.weight DESC LIMIT 10`,
    `MATCH (a:Neuron)-[c]->(b:Neuron) IN "${ds}" WHERE c.weight >= $w RETURN count(*)`,
    `MATCH (a:Neuron) IN "${ds}" WHERE a.name IN $list RETURN a.name`,
    `MATCH (a:Neuron) IN "${ds}"@latest RETURN a.name SKIP $n LIMIT $n`,
    `MATCH (a)-[c]->(b) IN "${ds}" RETURN a.name, sum(c.weight) AS w ORDER BY w DESC LIMIT $n`,
    `MATCH (a) IN "${ds}" RETURN a.name LIMIT 1; DROP TABLE x`,
    `MATCH (a IN "${ds}" RETURN`,
    hostileString(r),
  ]);
}

/** Values for a SyQL query's free-form parameters: the names the templates use, with hostile values. */
function syqlParameters(g: GenContext, rate: number): Record<string, unknown> {
  const { r, flavour } = g;
  const fitting: Record<string, () => unknown> = {
    prefix: () => (flavour === 'surrogates' ? 'A\ud800' : r.pick(['A', 'B1', ''])),
    w: () => (flavour === 'numbers' ? extremeNumber(r) : r.int(0, 5)),
    list: () => (flavour === 'lists' ? Array.from({ length: r.pick([10_001, 100_000, 1_000_000]) }, (_, i) => `N${i}`) : ['A1', 'B1', 'C1']),
    n: () => (flavour === 'numbers' ? extremeNumber(r) : r.int(0, 10)),
  };
  const out: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(fitting)) if (r.chance(0.8)) out[name] = r.chance(rate) ? anyValue(r) : value();
  return out;
}

export const FLAVOURS = ['numbers', 'surrogates', 'lists'] as const;
export type Flavour = (typeof FLAVOURS)[number];

export interface GenContext {
  doc: Json;
  r: Rng;
  pools: FuzzPools;
  /**
   * The chance that a node of the request is hostile (a wrong type, an extreme number, a broken string, a missing
   * required field). Drawn per request: near 0 the request is valid and reaches the services' own checks and the
   * stores; near 1 it tests the edges.
   */
  rate?: number;
  /**
   * One kind of hostility put everywhere it fits in an otherwise valid request, so that it reaches the code past
   * the checks of the other fields: every number extreme, every free text with a lone surrogate, every list long.
   */
  flavour?: Flavour | null;
  /** Characters the request's strings may still take: huge strings, but bodies of a few MB, not a hundred. */
  budget?: { chars: number };
}

const resolve = (doc: Json, schema: Json): Json => (schema?.$ref ? resolve(doc, doc.components.schemas[schema.$ref.split('/').pop()]) : schema);

/** The hostility of one request: a third valid-looking, a third with a few bad nodes, a third wild. */
export function drawRate(r: Rng): number {
  return r.pick([0, 0, 0.04, 0.08, 0.15, 0.4]);
}

/** A string for a named field: an existing record's id, the documented example or enum, else hostile. */
function namedString(g: GenContext, name: string, schema: Json): string {
  const { r, pools } = g;
  if (r.chance(g.rate ?? 0.1)) return withinBudget(g, hostileString(r));
  const pool = poolFor(name);
  if (pool && pools[pool]?.length && r.chance(0.8)) return r.pick(pools[pool]!);
  if (g.flavour === 'surrogates' && !schema.enum && r.chance(0.5)) return `${schema.examples ? String(r.pick(schema.examples)) : 'fuzz'}${r.pick(['\ud800', '\udfff', '\udc00\ud800'])}yz`;
  if (/(^|_)query$/.test(name)) return syqlText(r, pools);
  if (schema.enum) return r.pick(schema.enum);
  if (schema.examples && r.chance(0.8)) return String(r.pick(schema.examples));
  if (schema.format === 'date-time') return new Date(Date.UTC(2020, 0, 1) + r.int(0, 1e11)).toISOString();
  if (/url$/.test(name)) return r.pick(['https://cluster-b.example.org', 'http://127.0.0.1:0', 'https://[::1]/', 'ftp://x']);
  if (/email|contact/.test(name)) return `fuzz-${r.int(0, 1e6)}@example.org`;
  return r.chance(0.7) ? `fuzz ${randomText(r, r.int(1, 12)).replace(/[^a-zA-Z0-9 ]/g, '')}` : withinBudget(g, hostileString(r));
}

/** A string field whose valid values the document does not show (no example, no enum). */
function isGuessedString(schema: Json): boolean {
  const types = Array.isArray(schema.type) ? schema.type : [schema.type];
  return types.includes('string') && !schema.examples && !schema.enum;
}

function withinBudget(g: GenContext, s: string): string {
  if (!g.budget) return s;
  if (s.length > g.budget.chars) return s.slice(0, 100);
  g.budget.chars -= s.length;
  return s;
}

/**
 * A JSON value for `schema`: fitting, except that each node is hostile with the request's `rate`: a missing
 * required field, a wrong type, an extreme number, a huge or broken string, deep nesting, null. `name` is the
 * property's name, which picks existing ids for id fields.
 */
export function valueFor(g: GenContext, schema: Json | undefined, name = '', depth = 0): unknown {
  const { r, doc } = g;
  const rate = g.rate ?? 0.1;
  if (!schema) return anyValue(r);
  schema = resolve(doc, schema);
  if (schema.anyOf) {
    const choices = schema.anyOf.map((s: Json) => resolve(doc, s));
    const nonNull = choices.filter((s: Json) => s.type !== 'null');
    return r.chance(rate / 2) ? null : valueFor(g, r.pick(nonNull.length ? nonNull : choices), name, depth);
  }
  if (schema.allOf) return valueFor(g, schema.allOf[0], name, depth);
  if (r.chance(rate / 3)) return anyValue(r, depth);
  const types: string[] = Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type] : [];
  const type = types.filter((t) => t !== 'null').length ? r.pick(types.filter((t) => t !== 'null')) : 'any';
  if (types.includes('null') && r.chance(rate / 2)) return null;
  switch (type) {
    case 'string':
      return namedString(g, name, schema);
    case 'integer':
      if (g.flavour === 'numbers') return extremeNumber(r);
      if (r.chance(rate)) return hostileNumber(r);
      return schema.examples && r.chance(0.5) ? r.pick(schema.examples) : r.int(0, 20);
    case 'number':
      if (g.flavour === 'numbers') return extremeNumber(r);
      if (r.chance(rate)) return hostileNumber(r);
      return Math.round(r.next() * 1000) / 100;
    case 'boolean':
      return r.chance(0.5);
    case 'array': {
      if (schema.examples && !r.chance(rate) && g.flavour !== 'lists' && r.chance(0.5)) return r.pick(schema.examples);
      const length = r.chance(rate) || g.flavour === 'lists' ? r.pick([0, 100, 2000, 10_001]) : r.int(g.flavour ? 2 : 0, 4);
      const pool = poolFor(name);
      // The items of a long list are fitting: the length is what such a request tests (a list of lists, such as
      // conditions with their values, would otherwise multiply the lengths past any memory).
      const items = length > 10 ? { ...g, rate: 0, flavour: null } : g;
      return Array.from({ length: pool === 'dataset' || pool === 'asset' ? Math.min(length, 60) : length }, () => valueFor(items, schema.items, name, depth + 1));
    }
    case 'object': {
      if (!schema.properties) {
        if (name === 'parameters') return syqlParameters(g, rate);
        if (name === 'variables') return { q: anyValue(r), limit: anyValue(r), id: anyValue(r) };
        return anyValue(r, depth);
      }
      const out: Json = {};
      const required: string[] = schema.required ?? [];
      for (const [prop, propSchema] of Object.entries<Json>(schema.properties)) {
        // A flavoured request leaves out more of the optional strings it can only guess, so that its one kind of
        // hostility is what the service meets first.
        const guessed = g.flavour && !poolFor(prop) && isGuessedString(resolve(doc, propSchema));
        if (required.includes(prop) ? r.chance(rate / 2) : r.chance(guessed ? 0.85 : 0.5)) continue;
        out[prop] = valueFor(g, propSchema, prop, depth + 1);
      }
      if (r.chance(rate / 3)) out[`unknown_${r.int(0, 9)}`] = anyValue(r);
      return out;
    }
    default:
      return anyValue(r, depth);
  }
}

/** A path segment as it goes on the wire: encoded values, and raw forms that path parsers have tripped on. */
function pathSegment(g: GenContext, name: string, schema: Json): string {
  const { r, pools } = g;
  const pool = poolFor(name);
  if (!r.chance(g.rate ?? 0.1) && pool && pools[pool]?.length && r.chance(0.85)) return encode(r.pick(pools[pool]!));
  const roll = r.next();
  if (roll < 0.3) return r.uuid();
  if (roll < 0.7)
    return r.pick(['..', '%2e%2e', '%2E%2e', '.', '%2e', '%', '%zz', '%ED%A0%80', '%00', '%2F', 'a%2Fb', '%252e%252e', 'x'.repeat(r.pick([300, 5000])), '%F0%9F%98%80', 'x%3Fy%3Dz', '%23']);
  return encode(name === 'version' ? r.pick(['v1', 'latest', 'draft', '1', 'v0', '-1', 'v1e308']) : hostileString(r).slice(0, 2000) || namedString(g, name, schema));
}

/** encodeURIComponent, with lone surrogates written as the bytes a careless client would send. */
function encode(s: string): string {
  try {
    return encodeURIComponent(s);
  } catch {
    return s
      .split('')
      .map((c) => (/[\ud800-\udfff]/.test(c) ? '%ED%A0%80' : encodeURIComponent(c)))
      .join('');
  }
}

/** A query-string value: the documented kind, the wrong kind, extremes, or empty. */
function queryValue(g: GenContext, name: string, schema: Json): string {
  const { r, doc } = g;
  const s = resolve(doc, schema ?? {});
  const roll = r.next();
  if (!r.chance(g.rate ?? 0.1) || roll < 0.3) {
    const v = valueFor(g, s, name);
    return encode(typeof v === 'string' ? v : JSON.stringify(v) ?? '');
  }
  if (roll < 0.8) return encode(r.pick(['', 'abc', '-1', '0', '1e308', '-1e308', '1.5', '99999999999999999999', 'NaN', 'true', '[]', ',,,', 'x'.repeat(3000), '\u00e9\u4e2d']));
  return r.pick(['%', '%ED%A0%80', '%00', encode(hostileString(r).slice(0, 3000))]);
}

export interface FuzzRequest {
  method: string;
  /** The path and query exactly as sent (no normalisation of `..`). */
  path: string;
  headers: Record<string, string>;
  body?: Buffer;
}

/** The text of a request for a failure report, with long bodies cut. */
export function describeRequest(req: FuzzRequest): string {
  const body = req.body ? ` body(${req.body.length} B): ${JSON.stringify(req.body.toString('utf8').slice(0, 300))}` : '';
  const headers = Object.entries(req.headers)
    .filter(([h]) => h !== 'authorization')
    .map(([h, v]) => ` ${h}: ${v.slice(0, 80)}`)
    .join(';');
  return `${req.method} ${req.path.length > 300 ? `${req.path.slice(0, 300)}…(${req.path.length} chars)` : req.path}${headers ? ` [${headers.trim()}]` : ''}${body}`;
}

/** A non-JSON body for a route that takes text (CSV, SWC) or bytes. */
function rawBody(r: Rng, type: string): Buffer {
  const lines = r.pick([
    'neuron_id,cell_class,neurotransmitter\nA1,A,acetylcholine\nB1,B,GABA\n',
    'pre,post,synapse_type,weight\nA1,B1,chemical,1e308\nB1,A1,electrical,-1\n',
    '1 1 0 0 0 1 -1\n2 3 1e308 -1e308 0 0.5 1\n3 3 0 9 0 1e308 2\n',
    'code,label,parent_code\nX:1,Example,\nX:2,Child,X:1\nX:3,Loop,X:3\n',
    '"unterminated,quote\n\u0000\u0001',
    `a,b\n${'x,'.repeat(50_000)}\n`,
    '',
  ]);
  if (type === 'application/octet-stream' && r.chance(0.5)) return Buffer.from(Array.from({ length: r.int(1, 256) }, () => r.int(0, 255)));
  return Buffer.from(lines, 'utf8');
}

/**
 * One generated request for an operation of the document. Without a `flavour` in the context one is drawn (or
 * none: hostility mixed at the request's drawn rate); `null` asks for the mixed kind.
 */
export function generateRequest(context: GenContext, method: string, specPath: string, op: Json): FuzzRequest {
  const flavour = context.flavour === undefined ? context.r.pick([null, null, null, null, ...FLAVOURS]) : context.flavour;
  const g = { ...context, flavour, rate: context.rate ?? (flavour ? 0 : drawRate(context.r)), budget: { chars: 2_000_000 } };
  const { r, doc } = g;
  let path = specPath;
  const query: string[] = [];
  const headers: Record<string, string> = {};
  for (const p of op.parameters ?? []) {
    if (p.in === 'path') path = path.replace(`{${p.name}}`, pathSegment(g, p.name, resolve(doc, p.schema ?? {})));
    else if (p.in === 'query') {
      if (p.required ? !r.chance(g.rate ?? 0.1) : r.chance(g.flavour && isGuessedString(resolve(doc, p.schema ?? {})) ? 0.15 : 0.5)) query.push(`${encode(p.name)}=${queryValue(g, p.name, p.schema)}`);
      if (r.chance(0.05)) query.push(`${encode(p.name)}=${queryValue(g, p.name, p.schema)}`);
    } else if (p.in === 'header' && r.chance(0.7)) headers[p.name] = hostileString(r).replace(/[^\x20-\x7e]/g, '').slice(0, 200) || 'x';
  }
  if (r.chance(g.rate / 5)) query.push(`${encode(hostileString(r).slice(0, 40))}=${encode(hostileString(r).slice(0, 40))}`);
  const full = query.length ? `${path}?${query.join('&')}` : path;
  const content: Json = op.requestBody?.content ?? {};
  const types = Object.keys(content);
  let body: Buffer | undefined;
  if (types.length && (op.requestBody.required || !r.chance(g.rate))) {
    const type = types.includes('application/json') && r.chance(0.8) ? 'application/json' : r.pick(types);
    if (type === 'application/json') {
      const value = specPath === '/graphql' ? graphqlBody(g) : valueFor(g, content[type].schema);
      // JSON.stringify writes lone surrogates as \ud800 escapes: valid JSON text that decodes to them.
      body = Buffer.from(r.chance(g.rate / 10) ? '{"unterminated": ' : JSON.stringify(value) ?? 'null', 'utf8');
      headers['content-type'] = 'application/json';
    } else if (type === 'multipart/form-data') {
      const boundary = 'fuzzboundary';
      headers['content-type'] = `multipart/form-data; boundary=${boundary}`;
      body = Buffer.concat([
        Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${r.pick(['n.csv', 'c.swc', '../x.csv', 'x'])}"\r\nContent-Type: text/csv\r\n\r\n`),
        rawBody(r, 'text/csv'),
        Buffer.from(r.chance(0.8) ? `\r\n--${boundary}--\r\n` : ''),
      ]);
    } else {
      headers['content-type'] = type;
      body = rawBody(r, type);
    }
    if (type !== 'application/json' && r.chance(g.rate)) headers['content-encoding'] = r.pick(['gzip', 'deflate', 'br']);
  }
  return { method, path: full, headers, body };
}

/** GraphQL bodies: documents that exist (with hostile variables), operation names, broken documents. */
function graphqlBody(g: GenContext): unknown {
  const { r } = g;
  const doc = r.pick([
    'query Terms($q: String, $limit: Int) { terms(q: $q, limit: $limit) { total items { code label } } }',
    'query A { __typename } query B { __typename }',
    'query Term($id: String!) { term(id: $id) { code label } }',
    'mutation M($title: String!) { createDataset(input: { title: $title }) { id } }',
    '{ __schema { types { name } } }',
    '{ terms(limit: 1e308) { total } }',
    '{',
    hostileString(r),
  ]);
  const body: Json = { query: doc };
  if (r.chance(0.7)) body.variables = r.chance(0.8) ? { q: anyValue(r), limit: anyValue(r), id: anyValue(r), title: anyValue(r) } : anyValue(r);
  if (r.chance(0.4)) body.operationName = r.pick(['A', 'B', 'Terms', 'Missing', hostileString(r)]);
  return body;
}

/** Sends a request exactly as generated (Node's fetch would resolve `..` segments first). */
export function sendRaw(base: string, req: FuzzRequest, timeoutMs: number): Promise<{ status: number; text: string }> {
  const url = new URL(base);
  return new Promise((resolvePromise, reject) => {
    const headers: Record<string, string | number> = { ...req.headers };
    if (req.body) headers['content-length'] = req.body.length;
    const rq = http.request({ host: url.hostname, port: url.port, method: req.method, path: req.path, headers, timeout: timeoutMs }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolvePromise({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', reject);
    });
    rq.on('timeout', () => rq.destroy(new Error(`no answer within ${timeoutMs} ms`)));
    rq.on('error', reject);
    rq.end(req.body);
  });
}
