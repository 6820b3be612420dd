import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Cite } from '@citation-js/core';
import '@citation-js/plugin-bibtex';
import '@citation-js/plugin-ris';
import { call, startTestApp, type TestApp } from '../../../test/kit/app.js';

interface PublicRecord {
  slug: string;
  version: number;
  page_url: string;
  citations: { format: string; text: string }[];
  json_ld: { '@id': string; creator: { '@type': string; name: string }[] };
}

/** The citations of every shipped dataset, as a reader collects them into one bibliography. */
describe('the shipped datasets cited together', () => {
  let t: TestApp;
  let records: PublicRecord[];

  beforeAll(async () => {
    t = await startTestApp({ SEED_DATASETS: 'true' });
    const hits = await call(t.url, 'GET', '/v1/search/fulltext?limit=100');
    expect(hits.status).toBe(200);
    const slugs = (hits.body.items as { slug: string }[]).map((h) => h.slug);
    expect(slugs.length).toBeGreaterThan(10);
    records = await Promise.all(slugs.map(async (slug) => (await call(t.url, 'GET', `/v1/search/datasets/${slug}`)).body as PublicRecord));
  });
  afterAll(async () => t?.close());

  const cited = (r: PublicRecord, format: string) => r.citations.find((c) => c.format === format)!.text;

  it('keeps every entry of a BibTeX and a RIS bibliography: one key per dataset, its slug and version', () => {
    const bib = new Cite(records.map((r) => cited(r, 'bibtex')).join('\n')).data as { id: string }[];
    expect(bib.map((e) => e.id).sort()).toEqual(records.map((r) => `${r.slug}_v${r.version}`).sort());
    const risIds = records.map((r) => /^ID {2}- (.*)\r$/m.exec(cited(r, 'ris'))?.[1]);
    expect(new Set(risIds).size).toBe(records.length);
    // The two Cook datasets share their authors, year and paper, and still have a key each.
    expect(bib.map((e) => e.id).filter((id) => id.startsWith('celegans_cook_2019_'))).toHaveLength(2);
  });

  it('cites NeuroMorpho.Org, a creator of the morphology collection, as an organisation', () => {
    const morphology = records.find((r) => r.json_ld.creator.some((c) => c.name === 'NeuroMorpho.Org'))!;
    expect(morphology).toBeDefined();
    expect(cited(morphology, 'bibtex')).toMatch(/author = \{\{NeuroMorpho\.Org\} and /);
    expect(cited(morphology, 'ris')).toContain('AU  - NeuroMorpho.Org\r\n');
    expect(morphology.json_ld.creator.find((c) => c.name === 'NeuroMorpho.Org')).toEqual({ '@type': 'Organization', name: 'NeuroMorpho.Org' });
  });

  it('names each dataset by its landing page', () => {
    for (const r of records) expect(r.json_ld['@id']).toBe(`${t.url}/datasets/${r.slug}`);
  });
});
