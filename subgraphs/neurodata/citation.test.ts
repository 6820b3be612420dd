import { describe, expect, it } from 'vitest';
import { Cite } from '@citation-js/core';
import '@citation-js/plugin-bibtex';
import '@citation-js/plugin-ris';
import { BadInput } from '../../lib/errors.js';
import {
  BIBTEX_MEDIA_TYPE,
  CITATION_FORMATS,
  RIS_MEDIA_TYPE,
  citationFormatFor,
  escapeBibtex,
  citationKey,
  isOrganisationName,
  splitPersonName,
  toBibtex,
  toCitationText,
  toRis,
  type CitationInput,
} from './citation.js';
import type { DatasetMetadata } from './dataset.model.js';

interface CslName {
  family?: string;
  given?: string;
  literal?: string;
  'non-dropping-particle'?: string;
}
interface Csl {
  type: string;
  title: string;
  author?: CslName[];
  issued?: { 'date-parts': number[][] };
  DOI?: string;
  URL?: string;
  publisher?: string;
  version?: string;
  keyword?: string;
  abstract?: string;
}

function parse(text: string): Csl[] {
  return new Cite(text).data as Csl[];
}

const TITLE = 'Connectome of C. elegans & {weird}_stuff 100% $5 #1 ~x^2 \\o/';

function metadata(overrides: Partial<DatasetMetadata & { slug: string }> = {}): DatasetMetadata & { id: string; slug: string } {
  return {
    id: '0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b',
    slug: 'nerve_ring_connectome',
    title: TITLE,
    description: 'Chemical and electrical synapses\nof one adult hermaphrodite.',
    species: [],
    brainRegions: [],
    microscopy: [],
    neurotransmitters: [],
    keywords: ['connectome', 'nerve ring, head', 'C. elegans'],
    license: 'CC-BY-4.0',
    creators: [
      { name: 'Dmitri B. Chklovskii', orcid: '0000-0002-1825-0097', affiliation: 'Janelia Research Campus' },
      { name: 'Žiga Müller', orcid: null, affiliation: null },
      { name: 'Jan van der Berg', orcid: null, affiliation: null },
      { name: 'Allen Institute for Brain Science', orcid: null, affiliation: null },
    ],
    relatedPublication: null,
    doi: '10.5555/neuro_data.2024-01',
    ...overrides,
  };
}

function input(overrides: Partial<CitationInput> = {}): CitationInput {
  return {
    dataset: metadata(),
    version: 3,
    publishedAt: new Date('2024-06-03T10:20:30Z'),
    url: 'https://data.example.org/datasets/0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b',
    publisher: 'Neurodata Cluster Zürich & Co',
    ...overrides,
  };
}

function expectRoundTrip(entry: Csl) {
  expect(entry.type).toBe('dataset');
  expect(entry.title).toBe(TITLE);
  expect(entry.author?.slice(0, 2)).toEqual([
    { family: 'Chklovskii', given: 'Dmitri B.' },
    { family: 'Müller', given: 'Žiga' },
  ]);
  expect(entry.issued?.['date-parts'][0][0]).toBe(2024);
  expect(entry.DOI).toBe('10.5555/neuro_data.2024-01');
  expect(entry.URL).toBe('https://data.example.org/datasets/0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b');
  expect(entry.publisher).toBe('Neurodata Cluster Zürich & Co');
  expect(entry.version).toBe('3');
}

describe('toBibtex', () => {
  it('round-trips title, authors, year, DOI, URL, publisher and version through citation-js', () => {
    const [entry, ...rest] = parse(toBibtex(input()));
    expect(rest).toHaveLength(0);
    expectRoundTrip(entry);
    expect(entry.issued?.['date-parts'][0]).toEqual([2024, 6]);
  });

  it('keeps particles with the family name and an organisation as one name', () => {
    const [entry] = parse(toBibtex(input()));
    const [, , berg, allen] = entry.author!;
    expect(`${berg['non-dropping-particle'] ?? ''} ${berg.family}`.trim()).toBe('van der Berg');
    expect(berg.given).toBe('Jan');
    expect(allen.family ?? allen.literal).toBe('Allen Institute for Brain Science');
    expect(allen.given).toBeUndefined();
  });

  it('keys each entry by slug and version, so a bibliography of datasets sharing authors, year and title keeps them all', () => {
    const same = { creators: [{ name: 'Steven J. Cook', orcid: null, affiliation: null }], title: 'Whole-animal connectomes of both C. elegans sexes' };
    const male = input({ dataset: metadata({ ...same, slug: 'celegans_cook_2019_male' }), version: 1 });
    const herm = input({ dataset: metadata({ ...same, slug: 'celegans_cook_2019_hermaphrodite' }), version: 1 });
    const entries = parse(toBibtex(male) + toBibtex(herm)) as unknown as { id: string }[];
    expect(entries.map((e) => e.id)).toEqual(['celegans_cook_2019_male_v1', 'celegans_cook_2019_hermaphrodite_v1']);
    // Stable: another title or creator keeps the key of the version; the next version and a draft have their own.
    expect(citationKey(input({ dataset: metadata({ slug: 'celegans_cook_2019_male', title: 'Renamed' }), version: 1 }))).toBe('celegans_cook_2019_male_v1');
    expect(citationKey(input({ dataset: metadata({ slug: 'celegans_cook_2019_male' }), version: 2 }))).toBe('celegans_cook_2019_male_v2');
    expect(citationKey(input({ dataset: metadata({ slug: 'celegans_cook_2019_male' }), version: null }))).toBe('celegans_cook_2019_male_draft');
    // Only characters every BibTeX dialect reads in a key.
    expect(citationKey(input({ dataset: metadata({ slug: 'ring {1}, %x' }) }))).toBe('ring_1_x_v3');
    // RIS carries the same key as the record's ID.
    expect(toRis(male)).toContain('ID  - celegans_cook_2019_male_v1\r\n');
  });

  it('dates the entry by the version\'s publication in this service, not by the year of the source paper', () => {
    const cited = input({
      dataset: metadata({ relatedPublication: { doi: '10.1038/s41586-019-1352-7', citation: 'Cook SJ et al. (2019).', url: null, year: 2019 } }),
      publishedAt: new Date('2026-03-04T05:06:07Z'),
    });
    expect(toBibtex(cited)).toContain('year = {2026}');
    expect(toRis(cited)).toContain('PY  - 2026\r\n');
    expect(toCitationText(cited)).toContain('(2026)');
  });

  it('cites a creator of kind organization by its whole name, whatever the name looks like, and a person of kind person by parts', () => {
    const creators = [
      { name: 'NeuroMorpho.Org', kind: 'organization' as const, orcid: null, affiliation: null },
      { name: 'Blue Brain', kind: 'organization' as const, orcid: null, affiliation: null },
      { name: 'Ada Group', kind: 'person' as const, orcid: null, affiliation: null },
    ];
    const cited = input({ dataset: metadata({ creators }) });
    const bib = toBibtex(cited);
    expect(bib).toContain('author = {{NeuroMorpho.Org} and {Blue Brain} and Group, Ada}');
    const [entry] = parse(bib);
    expect(entry.author?.map((a) => a.literal ?? a.family)).toEqual(['NeuroMorpho.Org', 'Blue Brain', 'Group']);
    expect(entry.author?.[0].given).toBeUndefined();
    expect(entry.author?.[1].given).toBeUndefined();
    // RIS: a corporate author is one name without a comma, which readers keep whole.
    const ris = toRis(cited);
    expect(ris).toContain('AU  - NeuroMorpho.Org\r\nAU  - Blue Brain\r\nAU  - Group, Ada\r\n');
    const [risEntry] = parse(ris);
    expect(risEntry.author?.slice(0, 2).map((a) => a.literal ?? a.family)).toEqual(['NeuroMorpho.Org', 'Blue Brain']);
    expect(risEntry.author?.[0].given).toBeUndefined();
    expect(toCitationText(cited)).toMatch(/^NeuroMorpho\.Org, Blue Brain, & Group, A\. \(2024\)/);
    // Metadata kept before creators had a kind: a web domain as a name reads as an organisation.
    expect(toBibtex(input({ dataset: metadata({ creators: [{ name: 'NeuroMorpho.Org', orcid: null, affiliation: null }] }) }))).toContain('author = {{NeuroMorpho.Org}}');
  });

  it('writes a biblatex @dataset entry with an ASCII key, UTF-8 names and braced special characters', () => {
    const bib = toBibtex(input());
    expect(bib).toMatch(/^@dataset\{nerve_ring_connectome_v3,\n/);
    expect(bib).toContain('author = {Chklovskii, Dmitri B. and Müller, Žiga and van der Berg, Jan and {Allen Institute for Brain Science}}');
    expect(bib).toContain('copyright = {CC-BY-4.0}');
    expect(bib).toContain('month = jun');
    // Every brace opened in the entry is closed, so BibTeX's field scanner stays in step.
    let depth = 0;
    for (const c of bib) {
      depth += c === '{' ? 1 : c === '}' ? -1 : 0;
      expect(depth).toBeGreaterThanOrEqual(0);
    }
    expect(depth).toBe(0);
  });

  it('keeps a keyword that holds a comma whole', () => {
    const bib = toBibtex(input());
    expect(bib).toContain('keywords = {connectome, {nerve ring, head}, C. elegans}');
  });

  it('leaves out version, year and DOI of an unpublished dataset without a DOI', () => {
    const bib = toBibtex(input({ version: null, publishedAt: null, dataset: metadata({ doi: null }) }));
    expect(bib).not.toMatch(/\b(version|year|month|doi) =/);
    const [entry] = parse(bib);
    expect(entry.title).toBe(TITLE);
    expect(entry.version).toBeUndefined();
  });

  it('escapes every BibTeX special character', () => {
    expect(escapeBibtex('a{b}c\\d&e%f$g#h_i~j^k')).toBe(
      'a\\textbraceleft{}b\\textbraceright{}c\\textbackslash{}d\\&e\\%f\\$g\\#h\\_i\\textasciitilde{}j\\textasciicircum{}k',
    );
  });
});

describe('toRis', () => {
  it('round-trips title, authors, year, DOI, URL, publisher and version through citation-js', () => {
    const [entry, ...rest] = parse(toRis(input()));
    expect(rest).toHaveLength(0);
    expectRoundTrip(entry);
    expect(entry.issued?.['date-parts'][0]).toEqual([2024, 6, 3]);
    expect(entry.abstract).toBe('Chemical and electrical synapses of one adult hermaphrodite.');
  });

  it('ends every line with CRLF, starts with TY and ends with ER', () => {
    const ris = toRis(input());
    const lines = ris.split('\r\n');
    expect(lines[0]).toBe('TY  - DATA');
    expect(lines.at(-2)).toBe('ER  - ');
    expect(lines.at(-1)).toBe('');
    expect(ris.replace(/\r\n/g, '')).not.toMatch(/[\r\n]/);
    for (const line of lines.slice(0, -1)) expect(line).toMatch(/^[A-Z][A-Z0-9]  - /);
  });

  it('writes one AU per creator as Family, Given and one KW per keyword', () => {
    const ris = toRis(input());
    expect(ris).toContain('AU  - Chklovskii, Dmitri B.\r\nAU  - Müller, Žiga\r\nAU  - van der Berg, Jan\r\nAU  - Allen Institute for Brain Science\r\n');
    expect(ris).toContain('KW  - connectome\r\nKW  - nerve ring, head\r\nKW  - C. elegans\r\n');
    expect(ris).toContain('DA  - 2024/06/03\r\n');
    expect(ris).toContain('ET  - 3\r\n');
  });
});

describe('splitPersonName', () => {
  it('splits given names, particles and suffixes', () => {
    expect(splitPersonName('Dmitri B. Chklovskii')).toEqual({ given: 'Dmitri B.', family: 'Chklovskii', suffix: null });
    expect(splitPersonName('Ludwig van Beethoven')).toEqual({ given: 'Ludwig', family: 'van Beethoven', suffix: null });
    expect(splitPersonName('Martin Luther King Jr.')).toEqual({ given: 'Martin Luther', family: 'King', suffix: 'Jr.' });
    expect(splitPersonName('García Márquez, Gabriel')).toEqual({ given: 'Gabriel', family: 'García Márquez', suffix: null });
    expect(splitPersonName('Plato')).toEqual({ given: null, family: 'Plato', suffix: null });
  });
});

describe('isOrganisationName', () => {
  it('takes names with an organisation word, in any language, for organisations', () => {
    for (const name of ['Allen Institute for Brain Science', 'Université de Paris', 'Max-Planck-Institut für Neurobiologie', 'OpenWorm Consortium']) {
      expect(isOrganisationName({ name }), name).toBe(true);
    }
    expect(isOrganisationName({ name: 'NeuroMorpho.Org' })).toBe(true);
    for (const name of ['Dmitri B. Chklovskii', 'Labrador Smith', 'Žiga Müller', 'Martin Luther King Jr.']) expect(isOrganisationName({ name }), name).toBe(false);
    expect(isOrganisationName({ name: 'Lab Member', orcid: '0000-0002-1825-0097' })).toBe(false);
  });
});

describe('citationFormatFor', () => {
  it('lets the format parameter win over Accept', () => {
    expect(citationFormatFor('ris', 'application/x-bibtex')).toBe('ris');
    expect(citationFormatFor('BibTeX', 'application/x-ris')).toBe('bibtex');
  });

  it('reads the citation types of the Accept header with their q-values', () => {
    expect(citationFormatFor(undefined, 'application/x-research-info-systems')).toBe('ris');
    expect(citationFormatFor(undefined, 'text/html, application/x-ris;q=0.9, */*;q=0.1')).toBe('ris');
    expect(citationFormatFor(undefined, 'text/x-bibtex')).toBe('bibtex');
    expect(citationFormatFor(undefined, 'application/x-ris;q=0.5, application/x-bibtex;q=0.8')).toBe('bibtex');
    expect(citationFormatFor(undefined, 'application/x-ris;q=0, application/json')).toBe('bibtex');
  });

  it('defaults to BibTeX', () => {
    expect(citationFormatFor()).toBe('bibtex');
    expect(citationFormatFor('', '*/*')).toBe('bibtex');
  });

  it('rejects an unknown format naming the accepted values', () => {
    expect(() => citationFormatFor('endnote')).toThrow(BadInput);
    expect(() => citationFormatFor('endnote')).toThrow(/bibtex, ris/);
  });

  it('names a UTF-8 media type per format', () => {
    expect(CITATION_FORMATS.bibtex.mediaType).toBe(BIBTEX_MEDIA_TYPE);
    expect(CITATION_FORMATS.ris.mediaType).toBe(RIS_MEDIA_TYPE);
    expect(BIBTEX_MEDIA_TYPE).toBe('application/x-bibtex; charset=utf-8');
    expect(RIS_MEDIA_TYPE).toBe('application/x-research-info-systems; charset=utf-8');
  });
});

describe('toCitationText', () => {
  it('writes one APA-style line: family names and initials, year, title, version, [Data set], publisher, DOI', () => {
    expect(toCitationText(input())).toBe(
      `Chklovskii, D. B., Müller, Ž., van der Berg, J., & Allen Institute for Brain Science. (2024). ${TITLE} (Version 3) [Data set]. Neurodata Cluster Zürich & Co. https://doi.org/10.5555/neuro_data.2024-01`,
    );
  });

  it('cites the landing page without a DOI, n.d. without a date, and the title first without creators', () => {
    const text = toCitationText(input({ dataset: metadata({ creators: [], doi: null, title: 'Worm wiring.' }), version: null, publishedAt: null }));
    expect(text).toBe('Worm wiring. (n.d.). [Data set]. Neurodata Cluster Zürich & Co. https://data.example.org/datasets/0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b');
  });

  it('joins two creators with "&" and shortens more than 20 to the first 19, an ellipsis and the last', () => {
    const people = (n: number) => Array.from({ length: n }, (_, i) => ({ name: `Given${i} Family${i}`, orcid: null, affiliation: null }));
    expect(toCitationText(input({ dataset: metadata({ creators: people(2) }) }))).toMatch(/^Family0, G\., & Family1, G\. \(2024\)/);
    const many = toCitationText(input({ dataset: metadata({ creators: people(25) }) }));
    expect(many).toMatch(/Family18, G\., … Family24, G\. \(2024\)/);
    expect(many).not.toContain('Family19');
  });
});
