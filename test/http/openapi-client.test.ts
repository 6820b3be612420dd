import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import ts from 'typescript';
import openapiTS, { astToString } from 'openapi-typescript';
import { startTestApp, call, type TestApp } from '../kit/app.js';
import { createUser, type TestUser } from '../kit/users.js';

interface Recorded {
  path: string;
  method: string;
  status: number;
  body: unknown;
}

/**
 * What a REST user does: generate a typed client from /openapi.json with openapi-typescript, then use it on real
 * answers. Every recorded response is written as a value of the generated type for its path, method and status, and
 * the TypeScript compiler (strict) must accept them all: a null where the type says string, a timestamp typed as an
 * object, a field the document does not declare, or a status it does not list fails to compile.
 */
describe('a client generated from /openapi.json by openapi-typescript', () => {
  let t: TestApp;
  let su: TestUser;
  let regular: TestUser;
  let dir: string;
  const recorded: Recorded[] = [];

  const record = async (template: string, method: string, url: string, opts: { body?: unknown; token?: string } = {}) => {
    const r = await call(t.url, method, url, opts);
    recorded.push({ path: template, method: method.toLowerCase(), status: r.status, body: r.body });
    return r;
  };

  beforeAll(async () => {
    t = await startTestApp({ RATE_LIMIT_BURST: '1000000', RATE_LIMIT_REFILL_PER_SEC: '1000000' });
    su = await createUser(t, { accountType: 'SUPERUSER' });
    regular = await createUser(t);
    dir = await mkdtemp(path.join(os.tmpdir(), 'openapi-client-'));
  });
  afterAll(async () => {
    await t?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('type-checks against real responses of every kind of route', async () => {
    const vocabulary = `client_${Date.now().toString(36)}`;
    await record('/health', 'GET', '/health');
    await record('/v1/federation/ping', 'GET', '/v1/federation/ping');
    await record('/v1/user/auth/keys', 'GET', '/v1/user/auth/keys');
    const email = `client-${Date.now()}@example.org`;
    await record('/v1/user/auth/register', 'POST', '/v1/user/auth/register', { body: { email, password: 'a long enough password', display_name: 'Client' } });
    await record('/v1/user/auth/register', 'POST', '/v1/user/auth/register', { body: { email, password: 'a long enough password', display_name: 'Client' } });
    const login = await record('/v1/user/auth/login', 'POST', '/v1/user/auth/login', { body: { email, password: 'a long enough password' } });
    await record('/v1/user/auth/login', 'POST', '/v1/user/auth/login', { body: { email, password: 'wrong' } });
    await record('/v1/user/auth/refresh', 'POST', '/v1/user/auth/refresh', { body: { refresh_token: login.body.refresh_token } });
    await record('/v1/user/profile', 'GET', '/v1/user/profile', { token: regular.accessToken });
    await record('/v1/user/profile', 'GET', '/v1/user/profile');
    await record('/v1/user/profile', 'PATCH', '/v1/user/profile', { token: regular.accessToken, body: { bio: null, affiliation: 'Institute' } });
    await record('/v1/user/profile/{user_id}', 'GET', `/v1/user/profile/${regular.id}`);
    await record('/v1/user/authenticate/institutional', 'GET', '/v1/user/authenticate/institutional', { token: regular.accessToken });
    await record('/v1/user/authenticate/orcid', 'GET', '/v1/user/authenticate/orcid', { token: regular.accessToken });
    await record('/v1/user/authenticate/identities', 'GET', '/v1/user/authenticate/identities', { token: regular.accessToken });
    await record('/v1/user/{user_id}/promote', 'POST', `/v1/user/${regular.id}/promote`, { token: regular.accessToken });
    const verifiable = await createUser(t);
    await record('/v1/user/{user_id}/verify', 'POST', `/v1/user/${verifiable.id}/verify`, { token: su.accessToken, body: { reason: 'a typed client' } });
    await record('/v1/user/profile', 'GET', '/v1/user/profile', { token: verifiable.accessToken });
    await record('/v1/user/accounts', 'GET', '/v1/user/accounts?limit=2', { token: su.accessToken });
    await record('/v1/user/{user_id}/verify', 'DELETE', `/v1/user/${verifiable.id}/verify`, { token: su.accessToken });
    await record('/v1/user/{user_id}/verify', 'DELETE', `/v1/user/${su.id}/verify`, { token: su.accessToken });

    await record('/v1/ontology/vocabularies', 'GET', '/v1/ontology/vocabularies');
    const parent = await record('/v1/ontology/terms', 'POST', '/v1/ontology/terms', { token: su.accessToken, body: { vocabulary, code: 'P:1', label: 'Parent' } });
    const child = await record('/v1/ontology/terms', 'POST', '/v1/ontology/terms', {
      token: su.accessToken,
      body: { vocabulary, code: 'C:1', label: 'Child', parent_id: parent.body.id, metadata: { source: 'test' } },
    });
    await record('/v1/ontology/terms/{id}', 'PUT', `/v1/ontology/terms/${child.body.id}`, { token: su.accessToken, body: { label: 'Child region', uri: null } });
    await record('/v1/ontology/terms/{id}', 'DELETE', `/v1/ontology/terms/${child.body.id}`, { token: su.accessToken });
    await record('/v1/ontology/terms', 'GET', `/v1/ontology/terms?vocabulary=${vocabulary}`);
    await record('/v1/ontology/terms', 'GET', '/v1/ontology/terms?q=hipocampus&limit=3');
    await record('/v1/ontology/terms/{id}', 'GET', `/v1/ontology/terms/${child.body.id}`);
    await record('/v1/ontology/terms/{id}', 'GET', '/v1/ontology/terms/01890a5d-ac96-774b-bcce-b302099a8057');
    await record('/v1/ontology/terms/{id}/children', 'GET', `/v1/ontology/terms/${parent.body.id}/children`);
    await record('/v1/ontology/terms/{id}/ancestors', 'GET', `/v1/ontology/terms/${child.body.id}/ancestors`);
    await record('/v1/ontology/terms/validate', 'POST', '/v1/ontology/terms/validate', { body: { terms: ['hippocampus', 'hipocampus', 'Field CA1'] } });
    await record('/v1/ontology/terms/validate', 'POST', '/v1/ontology/terms/validate', { body: { terms: 'hippocampus' } });
    await record('/v1/ontology/import/csv', 'POST', '/v1/ontology/import/csv', { token: su.accessToken, body: { vocabulary, csv_data: 'code,label,parent_code\nC:2,Second child,P:1\n' } });
    await record('/v1/ontology/import/csv', 'POST', '/v1/ontology/import/csv', { token: regular.accessToken, body: { vocabulary, csv_data: 'code,label\n' } });

    const studies = [
      { label: 'A', yi: 0.2, vi: 0.04 },
      { label: 'B', yi: 0.5, vi: 0.09 },
      { label: 'C', yi: 0.1, vi: 0.02 },
    ];
    const pooled = await record('/v1/meta-analysis', 'POST', '/v1/meta-analysis', { token: su.accessToken, body: { studies } });
    expect(pooled.body.estimate).toEqual(expect.any(Number));

    await writeFile(path.join(dir, 'api.ts'), astToString(await openapiTS(t.app.openapi as never)));
    const lines = recorded.map((r, i) => `export const r${i}: Body<${JSON.stringify(r.path)}, ${JSON.stringify(r.method)}, ${r.status}> = ${JSON.stringify(r.body)};`);
    await writeFile(
      path.join(dir, 'responses.ts'),
      [
        `import type { paths } from './api.js';`,
        `type Body<P extends keyof paths, M extends keyof paths[P], S extends keyof Responses<P, M>> = Responses<P, M>[S] extends { content: { 'application/json': infer B } } ? B : never;`,
        `type Responses<P extends keyof paths, M extends keyof paths[P]> = paths[P][M] extends { responses: infer R } ? R : never;`,
        ...lines,
        // A client reads a JSON answer's fields without narrowing it first: each operation answers one media type
        // per status (whatever the media type, as a client that does not pick one sees it), the plot its own.
        `type Answer<P extends keyof paths, M extends keyof paths[P]> = Responses<P, M> extends { 200: { content: infer C } } ? C[keyof C] : never;`,
        `declare const metaAnalysis: Answer<'/v1/meta-analysis', 'post'>;`,
        `export const estimate: number = metaAnalysis.estimate;`,
        `export const found: [typeof metaAnalysis] extends [never] ? 'no such answer' : true = true;`,
        `declare const degrees: Answer<'/v1/analytics/graph/{dataset_id}/degree-distribution', 'get'>;`,
        `export const nodes: number = degrees.nodes;`,
        `declare const forest: Answer<'/v1/meta-analysis.svg', 'post'>;`,
        `export const picture: string = forest;`,
        `export const plotted: [typeof forest] extends [never] ? 'no such answer' : true = true;`,
      ].join('\n'),
    );
    const program = ts.createProgram([path.join(dir, 'responses.ts')], {
      strict: true,
      noEmit: true,
      exactOptionalPropertyTypes: true,
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
      skipLibCheck: true,
      types: [],
    });
    const problems = ts.getPreEmitDiagnostics(program).map((d) => {
      const where = d.file && d.start !== undefined ? d.file.getLineAndCharacterOfPosition(d.start) : undefined;
      const line = where ? d.file!.text.split('\n')[where.line].slice(0, 200) : '';
      return `${ts.flattenDiagnosticMessageText(d.messageText, '\n')}\n  at ${line}`;
    });
    expect(problems).toEqual([]);
    // Each kind of answer was met: successes, refusals of input, of credentials and of access, and not found.
    expect(new Set(recorded.map((r) => r.status))).toEqual(new Set([200, 201, 400, 401, 403, 404, 409]));
  });
});
