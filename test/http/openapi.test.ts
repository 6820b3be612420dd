import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { OPENAPI_FILE } from '../../gateway/openapi-file.js';
import { Validator } from '@seriousme/openapi-schema-validator';
import { startTestApp, call, type TestApp } from '../kit/app.js';
import { ROUTES } from '../../rest-compat/routes/index.js';

const CHROMIUM = '/usr/bin/chromium';

describe('GET /openapi.json and /docs', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({}, { listen: true });
  });
  afterAll(async () => t?.close());

  it('is a valid OpenAPI 3.1 document', async () => {
    const r = await call(t.url, 'GET', '/openapi.json');
    expect(r.status).toBe(200);
    expect(r.body.openapi).toBe('3.1.0');
    const validator = new Validator();
    const result = await validator.validate(r.body);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
  });

  it('is the committed schema/openapi.json, which the linter checks', async () => {
    const { body } = await call(t.url, 'GET', '/openapi.json');
    expect(body).toEqual(JSON.parse(await readFile(OPENAPI_FILE, 'utf8')));
  });

  it('lists every route of the route table with its access class and error model', async () => {
    const { body } = await call(t.url, 'GET', '/openapi.json');
    for (const route of ROUTES) {
      const op = body.paths[route.path]?.[route.method.toLowerCase()];
      expect(op, `${route.method} ${route.path}`).toBeDefined();
      expect(op['x-access-class']).toMatch(/^(Public|User|Academic|SuperUser)$/);
      expect(op.responses['429']).toBeDefined();
    }
    expect(body.components.schemas.Error.required).toEqual(['error']);
  });

  it('gives every operation of a GraphQL route one media type per status, a plot its own .svg route', async () => {
    const { body } = await call(t.url, 'GET', '/openapi.json');
    const several: string[] = [];
    const plots: string[] = [];
    for (const [path, ops] of Object.entries(body.paths as Record<string, Record<string, { 'x-graphql-field'?: string; 'x-svg-alias-of'?: string; responses: Record<string, { content?: object }> }>>)) {
      for (const [method, op] of Object.entries(ops)) {
        if (!op['x-graphql-field']) continue;
        for (const [status, r] of Object.entries(op.responses)) if (r.content && Object.keys(r.content).length !== 1) several.push(`${method} ${path} ${status}`);
        if (op['x-svg-alias-of']) {
          const [aliasMethod, aliasPath] = op['x-svg-alias-of'].split(' ');
          expect(Object.keys(body.paths[aliasPath][aliasMethod.toLowerCase()].responses['200'].content), `${method} ${path}`).toEqual(['image/svg+xml']);
          plots.push(op['x-svg-alias-of']);
        }
      }
    }
    expect(several).toEqual([]);
    expect([...new Set(plots)].sort()).toEqual([
      'GET /v1/analytics/graph/{dataset_id}/degree-distribution.svg',
      'GET /v1/graph/{dataset_id}/neighbourhood.svg',
      'POST /v1/graph/{dataset_id}/reachability-curve.svg',
      'POST /v1/meta-analysis.svg',
    ]);
  });

  it('carries the version of the service, the one /v1/federation/ping reports', async () => {
    const { body } = await call(t.url, 'GET', '/openapi.json');
    const pkg = JSON.parse(await readFile(new URL('../../package.json', import.meta.url), 'utf8'));
    expect(body.info.version).toBe(pkg.version);
    expect((await call(t.url, 'GET', '/v1/federation/ping')).body.version).toBe(body.info.version);
  });

  it('answers every documented route (no path in the document is unserved)', async () => {
    const { body } = await call(t.url, 'GET', '/openapi.json');
    for (const [p, ops] of Object.entries<Record<string, unknown>>(body.paths)) {
      for (const method of Object.keys(ops)) {
        const url = p.replace(/\{[^}]+\}/g, '01890a5d-ac96-774b-bcce-b302099a8057');
        const r = await call(t.url, method.toUpperCase(), url, method === 'get' || method === 'delete' ? {} : { body: {} });
        expect(r.body?.error ?? '', `${method} ${p}`).not.toMatch(/^no route for/);
      }
    }
  });

  it.skipIf(!existsSync(CHROMIUM))('renders the interactive documentation offline in a browser', async () => {
    const { chromium } = await import('playwright-core');
    // Playwright gives the browser a fresh profile; these flags keep Chromium from calling out on its own.
    const browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    });
    try {
      const page = await browser.newPage();
      const external: string[] = [];
      page.on('request', (req) => {
        if (!req.url().startsWith(t.url) && !req.url().startsWith('data:')) external.push(req.url());
      });
      // The pages run under their own Content-Security-Policy: nothing they need may be blocked by it.
      const blocked: string[] = [];
      page.on('console', (msg) => {
        if (/Content Security Policy/i.test(msg.text())) blocked.push(msg.text());
      });
      await page.goto(`${t.url}/docs`);
      await page.waitForSelector('.swagger-ui .opblock', { timeout: 30_000 });
      const title = await page.textContent('.swagger-ui .info .title');
      expect(title).toContain('Neuroscience Data Service API');
      const paths = await page.$$eval('.opblock-summary-path', (els) => els.map((e) => e.getAttribute('data-path')));
      expect(paths).toContain('/health');
      expect(external).toEqual([]);

      await page.goto(`${t.url}/graphql`);
      await page.waitForSelector('.graphiql-container', { timeout: 30_000 });
      // The explorer runs its example query against /graphql.
      await page.click('.graphiql-execute-button');
      await page.waitForFunction(() => document.querySelector('.graphiql-response')?.textContent?.includes('"status": "ok"'), undefined, { timeout: 30_000 });
      expect(blocked).toEqual([]);
    } finally {
      await browser.close();
    }
  });
});
