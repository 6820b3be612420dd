import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { packagePath } from '../../lib/package-root.js';
import { call, startTestApp, type TestApp } from '../../test/kit/app.js';
import { createTinyDataset, uploadFile } from '../../test/kit/datasets.js';
import { createUser, type TestUser } from '../../test/kit/users.js';

const SWC = '1 1 0 0 0 2 -1\n2 3 0 5 0 0.5 1\n3 3 0 10 0 0.5 2\n4 3 3 12 0 0.5 3\n';

/** The pages as HTML, as a browser without scripts gets them (the browser tests, web/test/*.test.ts, need Chromium). */
describe('pages as served: JSON-LD, file lists, jobs and the navigation', () => {
  let t: TestApp;
  let owner: TestUser;
  let dataset: { id: string; slug: string };

  /** A page as a signed-in browser gets it: its access token in the session cookie. */
  const page = async (path: string, user?: TestUser) => {
    const r = await call(t.url, 'GET', path, { headers: { accept: 'text/html', ...(user ? { cookie: `nd_at=${user.accessToken}` } : {}) } });
    expect(r.status, `${path}: ${String(r.body).slice(0, 300)}`).toBe(200);
    return String(r.body);
  };
  const jsonLdIn = (html: string) => JSON.parse(/<script type="application\/ld\+json">([\s\S]*?)<\/script>/.exec(html)![1]) as Record<string, unknown>;
  const navOf = (html: string) => [.../<nav aria-label="Main">([\s\S]*?)<\/nav>/.exec(html)![1].matchAll(/<(?:a|button)\b[^>]*>([^<]+)<\/(?:a|button)>/g)].map((m) => m[1]);

  beforeAll(async () => {
    t = await startTestApp();
    owner = await createUser(t, { accountType: 'ACADEMIC' });
    dataset = await createTinyDataset(t, owner, { title: 'Ring wiring with a reconstruction' });
    expect((await uploadFile(t, owner, dataset.id, 'cell.swc', SWC, 'text/plain')).status).toBe(201);
  });
  afterAll(async () => t?.close());

  it("embeds the JSON-LD the API answers, under the page's own URL as @id, without an empty distribution", async () => {
    const url = `${t.url}/datasets/${dataset.slug}`;
    const embedded = jsonLdIn(await page(`/datasets/${dataset.slug}`));
    const api = (await call(t.url, 'GET', `/v1/neurodata/datasets/${dataset.id}/metadata.jsonld`, { token: owner.accessToken })).body;
    const record = (await call(t.url, 'GET', `/v1/search/datasets/${dataset.slug}`)).body;
    expect([embedded['@id'], api['@id'], record.json_ld['@id']]).toEqual([url, url, url]);
    expect(embedded).not.toHaveProperty('distribution');
    expect(embedded).toMatchObject({ isAccessibleForFree: true, conditionsOfAccess: expect.stringMatching(/verified academic account/) });
  });

  it('gives the rows of a table file and no row count for an SWC morphology', async () => {
    const html = await page(`/datasets/${dataset.slug}`, owner);
    const facts = (file: string) => new RegExp(`Download ${file.replace('.', '\\.')}</a>\\s*<span class="file-facts">([^<]*)</span>`).exec(html)?.[1];
    expect(facts('neurons.csv')).toMatch(/, 3 rows$/);
    expect(facts('cell.swc')).toBeDefined();
    expect(facts('cell.swc')).not.toMatch(/row/);
  });

  it('lists a graph job by its dataset slug, in GET /v1/jobs and on the jobs page', async () => {
    const submitted = await call(t.url, 'POST', '/v1/jobs/graph', { token: owner.accessToken, body: { dataset_id: dataset.id } });
    expect(submitted.status, JSON.stringify(submitted.body)).toBe(202);
    expect(submitted.body.input).toMatchObject({ dataset_id: dataset.id, slug: dataset.slug });
    const listed = await call(t.url, 'GET', '/v1/jobs', { token: owner.accessToken });
    expect(listed.body.items.find((j: { job_id: string }) => j.job_id === submitted.body.job_id).input.slug).toBe(dataset.slug);
    const html = await page('/jobs', owner);
    expect(html).toContain(`<dt>Dataset</dt><dd><code>${dataset.slug}</code></dd>`);
    expect(html).not.toContain(`<code>${dataset.id}</code>`);
  });

  it("names in docs/web.md, in order, the header's navigation entries signed out and signed in", async () => {
    const signedOut = navOf(await page('/'));
    const signedIn = navOf(await page('/', owner));
    expect(signedOut.at(-1)).toBe('Sign in');
    expect(signedIn.at(-1)).toBe('Sign out');
    const docs = await readFile(packagePath('docs', 'web.md'), 'utf8');
    const sentence = /^The navigation has [\s\S]*?\.\n/m.exec(docs)![0];
    expect([...sentence.matchAll(/\*\*([^*]+)\*\*/g)].map((m) => m[1])).toEqual([...signedIn.slice(0, -1), 'Sign in', 'Sign out']);
    for (const entry of signedOut.slice(0, -1)) expect(signedIn).toContain(entry);
  });
});
