import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { packagePath } from '../../lib/package-root.js';
import { promisify } from 'node:util';
import type { Browser } from 'playwright-core';
import { startTestApp, type TestApp } from '../../test/kit/app.js';
import { allowOrigin, hasChromium, launchBrowser, openTab, textOf } from '../../test/kit/browser.js';
import { freePort } from '../../test/kit/processes.js';
import { register } from './page-helpers.js';
import { startTestOidcProvider, type TestOidcProvider } from '../../subgraphs/identity/test/oidc-provider.fixture.js';

const curl = promisify(execFile);
const DATASET = 'celegans_cook_2019_male';
const SHIPPED_COUNTS = (JSON.parse(readFileSync(packagePath('seed', 'connectomes', DATASET, 'dataset.json'), 'utf8')) as { counts: { connections: number } }).counts;

/**
 * A new researcher on a fresh service with an institutional provider: from registration to an Academic API token
 * entirely in the browser, then the token reads a connectome with curl, as their script would.
 */
describe.skipIf(!hasChromium)('a researcher from registration to a script reading a connectome', () => {
  let op: TestOidcProvider;
  let t: TestApp;
  let browser: Browser;
  let publicUrl: string;

  beforeAll(async () => {
    const port = await freePort();
    publicUrl = `http://127.0.0.1:${port}`;
    [op, browser] = await Promise.all([
      startTestOidcProvider({
        identities: { 'grace@example.edu': { email: 'grace@example.edu', email_verified: true, name: 'Grace Example', idp_name: 'Example University', affiliation: 'faculty@example.edu' } },
        loginPage: true,
        scopes: { openid: ['sub'], email: ['email', 'email_verified'], 'org.cilogon.userinfo': ['idp_name', 'affiliation'] },
        clients: [
          {
            client_id: 'journey-institutional',
            client_secret: 'journey-institutional-secret',
            token_endpoint_auth_method: 'client_secret_post',
            redirect_uris: [`${publicUrl}/v1/user/authenticate/institutional/callback`],
          },
        ],
      }),
      launchBrowser(),
    ]);
    allowOrigin(op.issuer);
    t = await startTestApp(
      {
        // The shipped connectomes, published on first start as on a fresh `npm start`.
        SEED_DATASETS: 'true',
        PUBLIC_URL: publicUrl,
        OIDC_INSTITUTIONAL_ISSUER: op.issuer,
        OIDC_INSTITUTIONAL_CLIENT_ID: 'journey-institutional',
        OIDC_INSTITUTIONAL_CLIENT_SECRET: 'journey-institutional-secret',
        OIDC_INSTITUTIONAL_SCOPES: 'openid email org.cilogon.userinfo',
      },
      { listen: true, port },
    );
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
    await op?.close();
  });

  it('registers, verifies the institution, makes a token in the browser; curl with the token downloads the connections of a connectome', async () => {
    const { page } = await openTab(browser, publicUrl);
    await register(page, { name: 'Grace Example', email: `grace-${Date.now()}@example.org`, password: 'compilers all the way down' });

    await page.getByRole('link', { name: 'Verify my institution' }).click();
    await page.waitForURL(`${op.issuer}/interaction/**`);
    await page.getByLabel('Institutional login').fill('grace@example.edu');
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.waitForURL(`${publicUrl}/account`);
    expect(await textOf(page.locator('.details'))).toContain('Account class Academic verified');

    await page.getByRole('link', { name: 'API tokens' }).click();
    await page.getByLabel('Name').fill('analysis notebooks');
    await page.getByRole('button', { name: 'Make token' }).click();
    const token = (await textOf(page.locator('#new-token'))).trim();
    expect(await textOf(page.locator('#new-token-curl'))).toContain(`curl -H "Authorization: Bearer ${token}" ${publicUrl}/v1/neurodata/datasets`);

    // What the page suggests, run as a script runs it.
    const header = `Authorization: Bearer ${token}`;
    const listed = JSON.parse((await curl('curl', ['-sf', '-H', header, `${publicUrl}/v1/neurodata/datasets?limit=50`])).stdout);
    expect(listed.items.map((d: { slug: string }) => d.slug)).toContain(DATASET);
    const assets = JSON.parse((await curl('curl', ['-sf', '-H', header, `${publicUrl}/v1/neurodata/datasets/${DATASET}/assets`])).stdout);
    const connections = assets.items.find((a: { filename: string }) => a.filename === 'connections.csv');
    const csv = (await curl('curl', ['-sfL', '-H', header, `${publicUrl}/v1/neurodata/datasets/${DATASET}/assets/${connections.id}/content`], { maxBuffer: 64 * 1024 * 1024 })).stdout;
    // One line per connection after the header: as many as the shipped dataset's counts say (7,064 for Cook et al. 2019, male).
    expect(csv.trimEnd().split('\n').length - 1).toBe(SHIPPED_COUNTS.connections);
  });
});
