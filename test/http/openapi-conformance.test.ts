import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { startTestApp, call, type TestApp } from '../kit/app.js';
import { createUser, type TestUser } from '../kit/users.js';

type Json = Record<string, any>;

/**
 * The document walked as a REST user's tooling walks it: for every operation, a request built only from what the
 * document says (its examples, else values made from the schemas) must be accepted, and a body the document
 * forbids must be refused with 400. `call` holds every answer to the documented responses as well.
 */
describe('/openapi.json is the contract of every route', () => {
  let t: TestApp;
  let su: TestUser;
  let doc: Json;
  beforeAll(async () => {
    t = await startTestApp({ RATE_LIMIT_BURST: '1000000', RATE_LIMIT_REFILL_PER_SEC: '1000000' });
    su = await createUser(t, { accountType: 'SUPERUSER' });
    doc = t.app.openapi as Json;
  });
  afterAll(async () => t?.close());

  const resolve = (schema: Json): Json => (schema?.$ref ? resolve(doc.components.schemas[schema.$ref.split('/').pop()]) : schema);

  /** A value that fits `schema`, preferring its documented example. */
  function sample(schema: Json): unknown {
    if (schema.examples) return schema.examples[0];
    if (schema.$ref) return sample(resolve(schema));
    if (schema.allOf) return sample(schema.allOf[0]);
    if (schema.anyOf) return sample(schema.anyOf.find((s: Json) => s.type !== 'null'));
    if (schema.enum) return schema.enum[0];
    const type = Array.isArray(schema.type) ? schema.type.find((x: string) => x !== 'null') : schema.type;
    switch (type) {
      case 'string':
        return schema.format === 'date-time' ? new Date().toISOString() : schema.format === 'uri' ? 'https://example.org/' : 'example';
      case 'integer':
        return 1;
      case 'number':
        return 1.5;
      case 'boolean':
        return true;
      case 'array':
        return [sample(schema.items ?? {})];
      case 'object': {
        const out: Json = {};
        for (const [name, prop] of Object.entries<Json>(schema.properties ?? {})) {
          if ((schema.required ?? []).includes(name) || 'examples' in prop) out[name] = sample(prop);
        }
        return out;
      }
      default:
        return 'example';
    }
  }

  function operations(): { path: string; method: string; op: Json }[] {
    return Object.entries<Json>(doc.paths).flatMap(([path, ops]) => Object.entries<Json>(ops).map(([method, op]) => ({ path, method: method.toUpperCase(), op })));
  }

  function request(path: string, op: Json): { url: string; headers: Record<string, string>; body?: unknown; token?: string } {
    let url = path;
    const query = new URLSearchParams();
    const headers: Record<string, string> = {};
    for (const p of op.parameters ?? []) {
      const value = p.example ?? sample(p.schema);
      if (p.in === 'path') url = url.replace(`{${p.name}}`, encodeURIComponent(String(value)));
      else if (p.in === 'query' && (p.required || p.example !== undefined)) query.set(p.name, String(value));
      else if (p.in === 'header' && p.required) headers[p.name] = String(value);
    }
    const qs = query.toString();
    const content = op.requestBody?.content ?? {};
    let body: unknown;
    if (content['application/json']) body = sample(content['application/json'].schema);
    else if (content['text/csv']) {
      body = 'code,label\nX:1,Example\n';
      headers['content-type'] = 'text/csv';
    }
    return { url: qs ? `${url}?${qs}` : url, headers, body, token: op['x-access-class'] === 'Public' ? undefined : su.accessToken };
  }

  it('accepts, for every operation, a request built from the document (and answers as documented)', async () => {
    const refused: string[] = [];
    let sent = 0;
    for (const { path, method, op } of operations()) {
      const req = request(path, op);
      let r: Awaited<ReturnType<typeof call>>;
      try {
        r = await call(t.url, method, req.url, { body: req.body, token: req.token, headers: req.headers });
      } catch (e) {
        refused.push(String(e));
        continue;
      }
      sent++;
      if (r.status === 400 || r.status === 415 || r.status >= 500) refused.push(`${method} ${req.url} ${JSON.stringify(req.body)} -> ${r.status} ${JSON.stringify(r.body)}`);
    }
    expect(refused).toEqual([]);
    expect(sent).toBeGreaterThan(40 - refused.length);
  });

  it('refuses bodies the document forbids: unknown fields, missing required fields, wrong types', async () => {
    const accepted: string[] = [];
    let checked = 0;
    const expect400 = async (method: string, url: string, body: unknown, token: string | undefined, why: string) => {
      const r = await call(t.url, method, url, { body, token });
      checked++;
      if (r.status !== 400 || typeof r.body?.error !== 'string') accepted.push(`${why}: ${method} ${url} ${JSON.stringify(body)} -> ${r.status} ${JSON.stringify(r.body)}`);
    };
    for (const { path, method, op } of operations()) {
      const schema = op.requestBody?.content?.['application/json']?.schema;
      if (!schema || path === '/graphql') continue;
      const req = request(path, op);
      const object = resolve(schema.allOf?.[0] ?? schema);
      const valid = req.body as Json;
      if (object.additionalProperties === false) await expect400(method, req.url, { ...valid, not_a_field: 1 }, req.token, 'unknown field');
      for (const name of object.required ?? []) {
        const { [name]: _dropped, ...rest } = valid;
        await expect400(method, req.url, rest, req.token, `without ${name}`);
        const type = resolve(object.properties[name]).type;
        await expect400(method, req.url, { ...valid, [name]: type === 'string' || type?.[0] === 'string' ? 12345 : 'not-the-right-type' }, req.token, `${name} of the wrong type`);
      }
      await expect400(method, req.url, [valid], req.token, 'an array instead of an object');
    }
    expect(accepted).toEqual([]);
    expect(checked).toBeGreaterThan(20);
  });

  it('refuses query values the document forbids', async () => {
    const accepted: string[] = [];
    for (const { path, method, op } of operations()) {
      for (const p of op.parameters ?? []) {
        if (p.in !== 'query') continue;
        const bad = p.schema.type === 'integer' ? '1.5' : p.schema.type === 'boolean' ? 'yes' : p.schema.enum ? 'not-one-of-them' : undefined;
        if (!bad) continue;
        const req = request(path, op);
        const url = new URL(req.url, t.url);
        url.searchParams.set(p.name, bad);
        const r = await call(t.url, method, `${url.pathname}${url.search}`, { body: req.body, token: req.token, headers: req.headers });
        if (r.status !== 400) accepted.push(`${method} ${url.pathname}${url.search} -> ${r.status}`);
      }
    }
    expect(accepted).toEqual([]);
  });
});
