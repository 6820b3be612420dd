import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { existsSync, readFileSync } from 'node:fs';
import { startTestApp, call, gql } from '../../../test/kit/app.js';
import { createUser, type TestUser } from '../../../test/kit/users.js';
import { connectomeFile, createTinyDataset } from '../../../test/kit/datasets.js';
import { byClass, expectSound } from '../../../domain/plot/test/svg-tree.js';
import { studiesOf, TABLES, type TableName } from '../meta/test/fixtures/tables.js';

/** fixtures/metafor_reference.R's answers: every table, measure, method, with and without Knapp-Hartung. */
const METAFOR = JSON.parse(readFileSync(new URL('../meta/test/fixtures/metafor_reference.json', import.meta.url), 'utf8')) as {
  cases: Array<Record<string, any> & { table: TableName | 'hine_zero'; measure: string; vtype: string; method: string; knapp_hartung: boolean; zero_cell: { add: number; to: string } | null }>;
};
const CHROMIUM = '/usr/bin/chromium';
const WITVLIET = Array.from({ length: 8 }, (_, i) => `celegans_witvliet_2021_${i + 1}`);
const SCALARS = ['k', 'estimate', 'se', 'statistic', 'p', 'ci_lower', 'ci_upper', 'pi_lower', 'pi_upper', 'tau2', 'tau', 'I2', 'H2', 'Q', 'df', 'p_Q'] as const;

function close(actual: number, expected: number, what: string): void {
  expect(Math.abs(actual - expected), `${what}: ${actual} vs ${expected}`).toBeLessThanOrEqual(1e-6 * Math.max(Math.abs(expected), 1e-3));
}

/** Connections of a shipped connectome read from its CSV, as a user would count them. */
async function chemicalArcs(folder: string): Promise<Array<[string, string]>> {
  const [, ...lines] = (await connectomeFile(folder, 'connections.csv')).toString('utf8').trim().split(/\r?\n/);
  return lines.map((l) => l.split(',')).filter((f) => f[2] === 'chemical' && f[0] !== f[1]).map((f) => [f[0], f[1]] as [string, string]);
}

describe('POST /v1/meta-analysis', () => {
  let t: Awaited<ReturnType<typeof startTestApp>>;
  let academic: TestUser;
  let other: TestUser;
  let regular: TestUser;

  beforeAll(async () => {
    t = await startTestApp({ SEED_DATASETS: 'true' }, { listen: true });
    [academic, other, regular] = await Promise.all([createUser(t, { accountType: 'ACADEMIC' }), createUser(t, { accountType: 'ACADEMIC' }), createUser(t, { accountType: 'REGULAR' })]);
  });
  afterAll(async () => t?.close());

  const post = (body: unknown, opts: { path?: string; token?: string; headers?: Record<string, string> } = {}) =>
    call(t.url, 'POST', opts.path ?? '/v1/meta-analysis', { token: opts.token ?? academic.accessToken, body, headers: opts.headers });

  it("equals R's metafor on the BCG, Normand and Hine tables for every method, with and without Knapp-Hartung", async () => {
    expect(METAFOR.cases.length).toBeGreaterThanOrEqual(100);
    for (const c of METAFOR.cases) {
      const what = `${c.table} ${c.measure}/${c.vtype} ${c.method}${c.knapp_hartung ? ' knha' : ''}${c.zero_cell ? ' zero-cell' : ''}`;
      const res = await post({ studies: studiesOf(c.table), measure: c.measure, vtype: c.vtype, method: c.method, knapp_hartung: c.knapp_hartung, ...(c.zero_cell ? { zero_cell: c.zero_cell } : {}) });
      expect(res.status, `${what}: ${JSON.stringify(res.body).slice(0, 300)}`).toBe(200);
      for (const f of SCALARS) close(res.body[f], c[f], `${what} ${f}`);
      expect(res.body.statistic_kind).toBe(c.statistic_kind);
      expect(res.body.tau2).toBeGreaterThanOrEqual(0);
      c.studies.forEach((s: Record<string, number>, i: number) => {
        for (const f of ['yi', 'vi', 'weight', 'ci_lower', 'ci_upper']) close(res.body.studies[i][f], s[f], `${what} study ${i} ${f}`);
      });
      if (c.back_transformed) for (const f of ['estimate', 'ci_lower', 'ci_upper', 'pi_lower', 'pi_upper']) close(res.body.back_transformed[f], c.back_transformed[f], `${what} exp ${f}`);
      else expect(res.body.back_transformed).toBeNull();
    }
  });

  it('pools a metric computed per dataset with its sampling variance, as the same studies given by hand', async () => {
    const datasets = WITVLIET.slice(0, 6);
    const res = await post({ datasets, metric: 'reciprocity', method: 'REML' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ metric: 'reciprocity', measure: 'GEN', k: 6 });
    for (const [i, folder] of datasets.entries()) {
      // Reciprocity and its delta-method variance from the CSV: r = 2M / (2M + A), q = M / (M + A).
      const arcs = new Set((await chemicalArcs(folder)).map(([a, b]) => `${a}\t${b}`));
      let mutual = 0;
      let oneWay = 0;
      for (const arc of arcs) {
        const [a, b] = arc.split('\t');
        if (arcs.has(`${b}\t${a}`)) mutual += 0.5;
        else oneWay++;
      }
      const q = mutual / (mutual + oneWay);
      const study = res.body.studies[i];
      expect(study.dataset.slug).toBe(folder);
      expect(study.label).toBe(`${folder}@v1`);
      expect(study.n).toBe(mutual + oneWay);
      close(study.yi, (2 * mutual) / (2 * mutual + oneWay), `${folder} yi`);
      close(study.vi, (2 / (1 + q) ** 2) ** 2 * (q * (1 - q)) / (mutual + oneWay), `${folder} vi`);
    }
    const byHand = await post({ studies: res.body.studies.map((s: { label: string; yi: number; vi: number }) => ({ label: s.label, yi: s.yi, vi: s.vi })) });
    for (const f of SCALARS) close(res.body[f], byHand.body[f], f);

    const probability = await post({ datasets: datasets.slice(0, 3), metric: 'connection_probability', metric_params: { class_field: 'cell_type', pre_class: 'sensory', post_class: 'interneuron' } });
    expect(probability.status, JSON.stringify(probability.body)).toBe(200);
    for (const [i, folder] of datasets.slice(0, 3).entries()) {
      const [, ...rows] = (await connectomeFile(folder, 'neurons.csv')).toString('utf8').trim().split(/\r?\n/);
      const type = new Map(rows.map((l) => l.split(',')).map((f) => [f[0], f[2]]));
      const count = (t: string) => [...type.values()].filter((x) => x === t).length;
      const pairs = count('sensory') * count('interneuron');
      const connected = (await chemicalArcs(folder)).filter(([a, b]) => type.get(a) === 'sensory' && type.get(b) === 'interneuron').length;
      const p = connected / pairs;
      close(probability.body.studies[i].yi, p, `${folder} connection probability`);
      close(probability.body.studies[i].vi, (p * (1 - p)) / pairs, `${folder} its variance`);
    }
    const inDegree = await post({ datasets: datasets.slice(0, 3), metric: 'mean_in_degree', metric_params: { class_field: 'cell_type', cell_class: 'motor' } });
    expect(inDegree.status, JSON.stringify(inDegree.body)).toBe(200);
    for (const s of [...probability.body.studies, ...inDegree.body.studies]) {
      expect(s.vi).toBeGreaterThan(0);
      expect(s.detail).toEqual(expect.any(String));
    }
  });

  it('draws a forest plot at POST /v1/meta-analysis.svg, and with ?format=svg or Accept: image/svg+xml, also in the older form', async () => {
    const bcg = { studies: TABLES.bcg(), measure: 'logRR', title: 'BCG vaccine and tuberculosis' };
    for (const opts of [{ path: '/v1/meta-analysis.svg' }, { path: '/v1/meta-analysis?format=svg' }, { headers: { accept: 'image/svg+xml' } }, { path: '/v1/meta-analysis/analyze?format=svg' }]) {
      const res = await post(bcg, opts);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^image\/svg\+xml/);
      const root = expectSound(res.body);
      expect(byClass(root, 'study-row')).toHaveLength(13);
      expect(byClass(root, 'diamond', 'path')).toHaveLength(1);
    }
    const json = await post(bcg, { path: '/v1/meta-analysis/analyze' });
    expect(json.body.svg).toBeNull();
    // The plot route takes the JSON route's body, and refuses what it refuses.
    expect((await post({ ...bcg, format: 'svg' }, { path: '/v1/meta-analysis.svg' })).status).toBe(400);
    expect((await post({ studies: [] }, { path: '/v1/meta-analysis.svg' })).status).toBe(400);
    close(json.body.back_transformed.estimate, 0.48942093982603, 'BCG pooled RR');
  });

  it.skipIf(!existsSync(CHROMIUM))('renders the forest plot legibly in a browser: every label inside the picture and none on another', async () => {
    const res = await post({ studies: TABLES.bcg(), measure: 'logRR', title: 'BCG vaccine and tuberculosis' }, { path: '/v1/meta-analysis?format=svg' });
    const { chromium } = await import('playwright-core');
    const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'] });
    try {
      const page = await browser.newPage();
      await page.setContent(`<!doctype html><html><body style="margin:0">${res.body}</body></html>`);
      const layout = await page.evaluate(() => {
        const svg = document.querySelector('svg')!.getBoundingClientRect();
        const texts = [...document.querySelectorAll('svg text')].map((e) => {
          const r = e.getBoundingClientRect();
          return { text: e.textContent ?? '', left: r.left, right: r.right, top: r.top, bottom: r.bottom };
        });
        const diamond = document.querySelector('svg .diamond')!.getBoundingClientRect();
        return { svg: { width: svg.width, height: svg.height }, texts, diamond: { width: diamond.width, height: diamond.height } };
      });
      expect(layout.texts.length).toBeGreaterThan(13 * 3);
      for (const t of layout.texts) {
        expect(t.left, t.text).toBeGreaterThanOrEqual(-0.5);
        expect(t.right, t.text).toBeLessThanOrEqual(layout.svg.width + 0.5);
        expect(t.bottom, t.text).toBeLessThanOrEqual(layout.svg.height + 0.5);
      }
      const overlaps = layout.texts.flatMap((a, i) =>
        layout.texts.slice(i + 1).filter((b) => a.text.trim() && b.text.trim() && a.left < b.right - 1 && b.left < a.right - 1 && a.top < b.bottom - 1 && b.top < a.bottom - 1).map((b) => `${a.text} / ${b.text}`),
      );
      expect(overlaps).toEqual([]);
      expect(layout.diamond.width).toBeGreaterThan(5);
    } finally {
      await browser.close();
    }
  });

  it('refuses bad input with a 400 naming the study and field, and callers without access', async () => {
    const studies = TABLES.bcg().slice(0, 3);
    const cases: Array<[unknown, RegExp]> = [
      [{ studies: studies.slice(0, 1), measure: 'logRR' }, /k|2/],
      [{ studies: [{ label: 'A', yi: 0.1, vi: 0.02 }, { label: 'B', yi: 0.3, vi: 0 }] }, /B.*vi|vi.*B/],
      [{ studies: [{ ...studies[0], ai: 0 }, studies[1]], measure: 'logOR' }, new RegExp(`${studies[0].label}.*ai|ai.*${studies[0].label}`)],
      [{ studies: [{ label: 'A', yi: 0.1, vi: 0.02 }, { label: 'B', ai: 1, bi: 2, ci: 3, di: 4 }], measure: 'logRR' }, /B/],
      [{ studies: [{ label: 'A', yi: 'NaN', vi: 0.02 }, { label: 'B', yi: 0.3, vi: 0.1 }] }, /yi/],
      [{ studies, measure: 'logRR', method: 'EB' }, /method/],
      [{ studies, measure: 'logRR', level: 0.95 }, /level/],
      [{ studies, datasets: WITVLIET.slice(0, 2), metric: 'reciprocity' }, /either studies .* or datasets/],
      [{ datasets: WITVLIET.slice(0, 2), metric: 'wiring' }, /metric/],
      [{ datasets: WITVLIET.slice(0, 2), metric: 'connection_probability' }, /pre_class/],
      [{ datasets: WITVLIET.slice(0, 2), metric: 'mean_in_degree', metric_params: { cell_class: 'NOPE' } }, /celegans_witvliet_2021_1@v1: 0 cells/],
    ];
    for (const [body, message] of cases) {
      const res = await post(body);
      expect(res.status, JSON.stringify(body).slice(0, 200)).toBe(400);
      expect(res.body.error, JSON.stringify(body).slice(0, 200)).toMatch(message);
    }
    expect((await call(t.url, 'POST', '/v1/meta-analysis', { body: { studies } })).status).toBe(401);
    expect((await post({ studies, measure: 'logRR' }, { token: regular.accessToken })).status).toBe(403);
    const secret = await createTinyDataset(t, academic, { visibility: 'restricted' });
    const denied = await post({ datasets: [WITVLIET[0], secret.id], metric: 'reciprocity' }, { token: other.accessToken });
    expect(denied.status).toBe(403);
    expect(JSON.stringify(denied.body)).not.toMatch(/"yi"|A1|B1/);
  });

  it('refuses effect sizes and variances outside the accepted range with a 400 naming the field and the range, also for the plot', async () => {
    const extreme = { studies: [{ label: 'A', yi: 1e308, vi: 1e-308 }, { label: 'B', yi: 0.3, vi: 0.1 }] };
    for (const path of ['/v1/meta-analysis', '/v1/meta-analysis?format=svg']) {
      const res = await post(extreme, { path });
      expect(res.status, path).toBe(400);
      expect(res.body.error, path).toMatch(/study "A".*yi.*-1e\+?6 and 1e\+?6/i);
    }
    const tiny = await post({ studies: [{ label: 'A', yi: 0.1, vi: 1e-308 }, { label: 'B', yi: 0.3, vi: 0.1 }] });
    expect(tiny.status).toBe(400);
    expect(tiny.body.error).toMatch(/study "A".*vi.*1e-12 and 1e\+?12/i);
    const means = await post({ studies: [{ label: 'A', m1i: 1e300, sd1i: 1, n1i: 10, m2i: 0, sd2i: 1, n2i: 10 }, { label: 'B', m1i: 1, sd1i: 1, n1i: 10, m2i: 0, sd2i: 1, n2i: 10 }], measure: 'MD' });
    expect(means.status).toBe(400);
    expect(means.body.error).toMatch(/study "A".*yi/);
  });

  it('answers through GraphQL', async () => {
    const { body } = await gql(
      t.url,
      'query($s: [MetaStudyInput!]) { metaAnalysis(studies: $s, measure: "logRR", method: "DL") { k tau2 I2 back_transformed { scale estimate } } }',
      { s: TABLES.bcg() },
      academic.accessToken,
    );
    expect(body.errors).toBeUndefined();
    const dl = METAFOR.cases.find((c) => c.table === 'bcg' && c.measure === 'logRR' && c.method === 'DL' && !c.knapp_hartung && !c.zero_cell)!;
    close(body.data.metaAnalysis.tau2, dl.tau2, 'DL tau2');
    expect(body.data.metaAnalysis.back_transformed.scale).toBe('RR');
  });
});
