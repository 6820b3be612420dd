import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { startTestApp, call, type TestApp } from '../kit/app.js';
import { createApiToken, createUser, type TestAccountType } from '../kit/users.js';
import { minimalRequest } from '../kit/route-requests.js';
import { ROUTES } from '../../rest-compat/routes/index.js';
import { ruleOfRoute } from '../../rest-compat/access-gate.js';
import { AccessClass, satisfies, type TokenScope } from '../../lib/access.js';

const RANK = { read: 0, compute: 1, write: 2, login: 3 } as const;

const HOLDERS: { name: string; accountType: TestAccountType; holds: AccessClass; scope: TokenScope }[] = [
  { name: 'Academic read token', accountType: 'ACADEMIC', holds: AccessClass.Academic, scope: 'read' },
  { name: 'Academic compute token', accountType: 'ACADEMIC', holds: AccessClass.Academic, scope: 'compute' },
  // A token never exceeds its account: write on a Regular account opens no Academic route.
  { name: 'Regular write token', accountType: 'REGULAR', holds: AccessClass.User, scope: 'write' },
  { name: 'SuperUser compute token', accountType: 'SUPERUSER', holds: AccessClass.SuperUser, scope: 'compute' },
];

describe('API token scopes: every route × read, compute and write tokens', () => {
  let t: TestApp;
  const tokens = new Map<string, string>();
  beforeAll(async () => {
    t = await startTestApp({ RATE_LIMIT_BURST: '1000000', RATE_LIMIT_REFILL_PER_SEC: '1000000' });
    for (const h of HOLDERS) tokens.set(h.name, (await createApiToken(t, await createUser(t, { accountType: h.accountType }), h.scope)).token);
  });
  afterAll(async () => t?.close());

  it('lets a token call what its scope and its account both allow, and refuses the rest with 403 saying which', async () => {
    const schema = t.app.composition.apiSchema;
    const failures: string[] = [];
    const seen = { allowed: 0, scope: 0, login: 0, accountClass: 0 };
    for (const route of ROUTES) {
      const rule = ruleOfRoute(route);
      if (!rule) {
        failures.push(`${route.method} ${route.path}: no access rule`);
        continue;
      }
      const req = minimalRequest(route, schema);
      const anonymous = await call(t.url, route.method, req.url, { body: req.body, headers: req.headers });
      for (const holder of HOLDERS) {
        const r = await call(t.url, route.method, req.url, { body: req.body, token: tokens.get(holder.name), headers: req.headers });
        const message = String(r.body?.error ?? '');
        const checksToken = rule.required !== AccessClass.Public || rule.token === 'login';
        // The reason header is what a client chooses its handling by (the Python client's TokenScopeTooNarrow, NotAcademic).
        let expected: { status: number; says: RegExp; reason: string | null } | 'allowed';
        if (checksToken && rule.token === 'login') {
          seen.login++;
          expected = { status: 403, says: /needs a signed-in person, not an API token/, reason: 'TOKEN_SCOPE' };
        } else if (checksToken && RANK[holder.scope] < RANK[rule.token]) {
          seen.scope++;
          expected = { status: 403, says: new RegExp(`has the ${holder.scope} scope and .* needs ${rule.token}`), reason: 'TOKEN_SCOPE' };
        } else if (rule.required !== AccessClass.Public && !satisfies(holder.holds, rule.required)) {
          seen.accountClass++;
          expected = rule.required === AccessClass.Academic
            ? { status: 403, says: /verified academic account/, reason: 'ACADEMIC_REQUIRED' }
            : { status: 403, says: /access class/, reason: null };
        } else {
          seen.allowed++;
          expected = 'allowed';
        }
        const where = `${route.method} ${req.url} [${rule.required}, token ${rule.token}] with ${holder.name}`;
        if (expected === 'allowed') {
          // A Public route may refuse the credentials in its own body (login, refresh): then it refuses everyone alike.
          const refused = r.status === 401 || r.status === 403;
          if (refused && !(rule.required === AccessClass.Public && anonymous.status === r.status)) failures.push(`${where}: expected neither 401 nor 403, got ${r.status} ${message.slice(0, 160)}`);
        } else if (r.status !== expected.status || !expected.says.test(message) || r.headers.get('x-error-code') !== 'FORBIDDEN' || r.headers.get('x-error-reason') !== expected.reason) {
          failures.push(
            `${where}: expected ${expected.status} ${expected.says} FORBIDDEN/${expected.reason}, got ${r.status} ${message.slice(0, 160)} ${r.headers.get('x-error-code')}/${r.headers.get('x-error-reason')}`,
          );
        }
      }
    }
    expect(failures).toEqual([]);
    for (const [what, n] of Object.entries(seen)) expect(n, what).toBeGreaterThan(0);
  });

  it('declares the scopes docs/identity.md promises, route by route', () => {
    /** What the documentation says each area needs, by path. */
    const promised = (method: string, path: string): string => {
      if (/^\/v1\/user\/(tokens|auth\/password|\{user_id\}\/(promote|verify))|^\/v1\/user\/authenticate\/[a-z]+\/(authorize|callback)$/.test(path)) return 'login';
      if (path === '/v1/user/authenticate/identities/{provider}' || (path === '/v1/user/authenticate/orcid' && method === 'DELETE') || (path === '/v1/user/profile' && method === 'PATCH')) return 'login';
      if (/^\/v1\/(syql|graph|analytics|meta-analysis|jobs|queries)(\/|\.svg$|$)/.test(path)) return 'compute';
      if (path === '/v1/neurodata/download-urls' || /^\/v1\/neurodata\/datasets\/\{dataset_id\}\/(neurons\/search|connectivity\/(adjacency|common-partners|by-field))(\.arrow)?$/.test(path)) return 'read';
      return method === 'GET' ? 'read' : 'write';
    };
    const differing = ROUTES.flatMap((route) => {
      const rule = ruleOfRoute(route)!;
      if (rule.required === AccessClass.Public && rule.token !== 'login') return [];
      const want = promised(route.method, route.path);
      return rule.token === want ? [] : [`${route.method} ${route.path}: declares ${rule.token}, docs say ${want}`];
    });
    expect(differing).toEqual([]);
  });

  it("lets a read token read a dataset version's neurons and connections, paged and whole", () => {
    const rows = ROUTES.filter((r) => /^\/v1\/neurodata\/datasets\/\{dataset_id\}\/(neurons|connections)(\.arrow)?$/.test(r.path));
    expect(rows.map((r) => `${r.method} ${r.path}`).sort()).toEqual([
      'GET /v1/neurodata/datasets/{dataset_id}/connections',
      'GET /v1/neurodata/datasets/{dataset_id}/connections.arrow',
      'GET /v1/neurodata/datasets/{dataset_id}/neurons',
      'GET /v1/neurodata/datasets/{dataset_id}/neurons.arrow',
    ]);
    for (const route of rows) expect(ruleOfRoute(route), route.path).toMatchObject({ required: AccessClass.Academic, token: 'read' });
  });
});
