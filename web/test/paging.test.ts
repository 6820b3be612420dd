import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { startTestApp, type TestApp } from '../../test/kit/app.js';
import { createUser } from '../../test/kit/users.js';
import { createTinyDataset } from '../../test/kit/datasets.js';

/** The cookies a browser keeps from a response (name=value of each Set-Cookie), on top of `jar`. */
function keep(jar: Map<string, string>, res: Response): Map<string, string> {
  for (const line of res.headers.getSetCookie()) {
    const pair = line.split(';')[0]!;
    const eq = pair.indexOf('=');
    jar.set(pair.slice(0, eq), pair.slice(eq + 1));
  }
  return jar;
}
const cookieHeader = (jar: Map<string, string>) => [...jar].map(([k, v]) => `${k}=${v}`).join('; ');

describe('page numbers of the paged pages', () => {
  let t: TestApp;
  const get = (path: string, jar = new Map<string, string>()) => fetch(`${t.url}${path}`, { redirect: 'manual', headers: { cookie: cookieHeader(jar) } });

  beforeAll(async () => {
    // The pages' session is a cookie: the test signs in through the form over a socket, as a browser does.
    t = await startTestApp({}, { listen: true });
    const owner = await createUser(t, { accountType: 'ACADEMIC' });
    for (const slug of ['paging_one', 'paging_two', 'paging_three']) await createTinyDataset(t, owner, { slug, title: `Paging ${slug}` });
  });
  afterAll(async () => t?.close());

  it('sends a catalogue page past the end to the last page, and reads a page that is no number as the first', async () => {
    const first = await (await get('/datasets?limit=1')).text();
    const total = Number(/Showing 1–1 of ([\d,]+)/.exec(first)![1]!.replace(/,/g, ''));
    expect(total).toBeGreaterThanOrEqual(3);
    for (const page of ['99999999999999999999', '1e30', String(total + 1), '1001']) {
      const res = await get(`/datasets?limit=1&page=${page}`);
      expect(res.status, page).toBe(302);
      expect(res.headers.get('location'), page).toBe(`/datasets?limit=1&page=${total}`);
    }
    const last = await (await get(`/datasets?limit=1&page=${total}`)).text();
    expect(last).toContain(`Showing ${total}–${total} of ${total}`);
    expect(last).toContain(`Page ${total} of ${total}`);
    for (const page of ['-3', '0', 'abc', '1.5']) {
      const res = await get(`/datasets?limit=1&page=${page}`);
      expect(res.status, page).toBe(200);
      expect(await res.text(), page).toContain(`Showing 1–1 of ${total}`);
    }
  });

  it('sends a jobs page past the end to the last page', async () => {
    const user = await createUser(t, { accountType: 'ACADEMIC' });
    const jar = keep(new Map(), await get('/sign-in'));
    const signIn = await fetch(`${t.url}/sign-in`, {
      method: 'POST',
      redirect: 'manual',
      headers: { cookie: cookieHeader(jar), 'content-type': 'application/x-www-form-urlencoded', origin: t.url },
      body: new URLSearchParams({ _csrf: jar.get('nd_csrf')!, email: user.email, password: user.password }),
    });
    expect(signIn.status).toBe(303);
    keep(jar, signIn);
    for (const page of ['99999999999999999999', '2', '500']) {
      const res = await get(`/jobs?page=${page}`, jar);
      expect(res.status, page).toBe(302);
      expect(res.headers.get('location'), page).toBe('/jobs');
    }
    const only = await get('/jobs', jar);
    expect(only.status).toBe(200);
    expect(await only.text()).toContain('You have no jobs yet');
  });
});
