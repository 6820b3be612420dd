import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import jsonld, { type JsonLdDocument, type Options } from 'jsonld';
import type { DatasetMetadata, TermValue } from './dataset.model.js';
import { conditionsOfAccess, toJsonLd, type JsonLdInput } from './jsonld.js';

const CONTEXT_FILE = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../seed/jsonld/schemaorg-context.jsonld');
type RemoteDocument = Awaited<ReturnType<NonNullable<Options.Expand['documentLoader']>>>;

const SCHEMA_CONTEXT = JSON.parse(readFileSync(CONTEXT_FILE, 'utf8')) as RemoteDocument['document'];
const S = 'http://schema.org/';

/** Serves the shipped schema.org context for both schema.org URLs and refuses everything else: no network. */
async function documentLoader(url: string): Promise<RemoteDocument> {
  if (url === 'https://schema.org/' || url === 'http://schema.org/') {
    return { contextUrl: undefined, documentUrl: url, document: SCHEMA_CONTEXT };
  }
  throw new Error(`refusing to load ${url}`);
}

function term(vocabulary: string, code: string, label: string, uri: string | null): TermValue {
  return { termId: `${vocabulary}-${code}`, vocabulary, code, label, uri };
}

const NERVE_RING = term('brain_region', 'WBbt:0006749', 'nerve ring', 'http://purl.obolibrary.org/obo/WBbt_0006749');
const WORM = term('species', 'NCBITaxon:6239', 'Caenorhabditis elegans', 'http://purl.obolibrary.org/obo/NCBITaxon_6239');
const TEM = term('microscopy_technique', 'FBbi:00000258', 'transmission electron microscopy (TEM)', 'http://purl.obolibrary.org/obo/FBbi_00000258');
const ACH = term('neurotransmitter', 'CHEBI:15355', 'acetylcholine', 'http://purl.obolibrary.org/obo/CHEBI_15355');
const LOCAL = term('brain_region', 'LOCAL:1', 'unlisted region', null);

const URL = 'https://data.example.org/datasets/0190a1b2';
const SHA = 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855';

function metadata(overrides: Partial<DatasetMetadata> = {}): DatasetMetadata & { id: string; slug: string } {
  return {
    id: '0190a1b2',
    slug: 'nerve_ring_connectome',
    title: 'Connectome of C. elegans',
    description: 'Chemical and electrical synapses of one adult hermaphrodite.',
    species: [WORM],
    brainRegions: [NERVE_RING, LOCAL],
    microscopy: [TEM],
    neurotransmitters: [ACH],
    keywords: ['connectome', 'adult'],
    license: 'CC-BY-4.0',
    creators: [
      { name: 'Dmitri B. Chklovskii', orcid: '0000-0002-1825-0097', affiliation: 'Janelia Research Campus' },
      { name: 'Žiga Müller', orcid: null, affiliation: null },
      { name: 'Allen Institute for Brain Science', orcid: null, affiliation: null },
    ],
    relatedPublication: {
      doi: '10.1371/journal.pcbi.1001066',
      citation: 'Varshney LR et al. (2011). Structural properties of the Caenorhabditis elegans neuronal network.',
      url: 'https://doi.org/10.1371/journal.pcbi.1001066',
    },
    doi: '10.5555/neuro.2024',
    ...overrides,
  };
}

function input(overrides: Partial<JsonLdInput> = {}): JsonLdInput {
  return {
    dataset: metadata(),
    version: 2,
    publishedAt: new Date('2024-06-03T10:00:00Z'),
    createdAt: new Date('2024-05-01T08:00:00Z'),
    updatedAt: new Date('2024-06-03T10:00:00Z'),
    url: URL,
    publisher: 'Neurodata Cluster',
    catalogUrl: 'https://data.example.org/',
    distribution: [{ name: 'connections.csv', contentUrl: `${URL}/files/connections.csv`, encodingFormat: 'text/csv', contentSize: 1234, sha256: SHA }],
    variableMeasured: ['synapse count', 'gap junction count'],
    ...overrides,
  };
}

type Expanded = Record<string, unknown[]>;

async function expand(doc: object): Promise<Expanded[]> {
  return (await jsonld.expand(doc as JsonLdDocument, { documentLoader })) as unknown as Expanded[];
}

const nodes = (node: Expanded, property: string) => (node[S + property] ?? []) as Expanded[];
const value = (node: Expanded, property: string) => (nodes(node, property)[0] as unknown as { '@value': unknown })?.['@value'];
const iri = (node: Expanded, property: string) => (nodes(node, property)[0] as unknown as { '@id': string })?.['@id'];

describe('toJsonLd', () => {
  it('expands with the shipped schema.org context into a Dataset with name, creator and licence IRI', async () => {
    const [dataset, ...rest] = await expand(toJsonLd(input()));
    expect(rest).toHaveLength(0);
    expect(dataset['@id']).toBe(URL);
    expect(dataset['@type']).toEqual([`${S}Dataset`]);
    expect(value(dataset, 'name')).toBe('Connectome of C. elegans');
    expect(iri(dataset, 'license')).toBe('https://spdx.org/licenses/CC-BY-4.0.html');
    expect(iri(dataset, 'url')).toBe(URL);
    expect(nodes(dataset, 'identifier').map((v) => (v as { '@value'?: string })['@value'])).toEqual(['https://doi.org/10.5555/neuro.2024', '0190a1b2']);
    expect(nodes(dataset, 'datePublished')[0]).toEqual({ '@type': `${S}Date`, '@value': '2024-06-03T10:00:00.000Z' });
    expect(value(dataset, 'version')).toBe(2);
    expect(value(dataset, 'isAccessibleForFree')).toBe(true);

    const [person, person2, org] = nodes(dataset, 'creator');
    expect(person['@id']).toBe('https://orcid.org/0000-0002-1825-0097');
    expect(person['@type']).toEqual([`${S}Person`]);
    expect(value(person, 'givenName')).toBe('Dmitri B.');
    expect(value(person, 'familyName')).toBe('Chklovskii');
    expect(value(nodes(person, 'affiliation')[0], 'name')).toBe('Janelia Research Campus');
    expect(person2['@id']).toBeUndefined();
    expect(value(person2, 'familyName')).toBe('Müller');
    expect(org['@type']).toEqual([`${S}Organization`]);
    expect(value(nodes(dataset, 'publisher')[0], 'name')).toBe('Neurodata Cluster');
    expect(iri(nodes(dataset, 'includedInDataCatalog')[0], 'url')).toBe('https://data.example.org/');
  });

  it('describes species, regions and transmitters as DefinedTerms with their IRIs, and techniques likewise', async () => {
    const [dataset] = await expand(toJsonLd(input()));
    const about = nodes(dataset, 'about');
    expect(about.map((t) => t['@id'])).toEqual([WORM.uri, NERVE_RING.uri, undefined, ACH.uri]);
    for (const t of about) expect(t['@type']).toEqual([`${S}DefinedTerm`]);
    const ring = about[1];
    expect(value(ring, 'termCode')).toBe('WBbt:0006749');
    expect(value(ring, 'name')).toBe('nerve ring');
    expect(iri(ring, 'url')).toBe(NERVE_RING.uri);
    expect(iri(ring, 'inDefinedTermSet')).toBe('http://purl.obolibrary.org/obo/wbbt.owl');
    expect(value(nodes(about[2], 'inDefinedTermSet')[0], 'name')).toBe('brain_region');

    const [technique] = nodes(dataset, 'measurementTechnique');
    expect(technique['@id']).toBe(TEM.uri);
    expect(value(technique, 'termCode')).toBe('FBbi:00000258');

    const measured = nodes(dataset, 'variableMeasured');
    expect(measured.map((m) => m['@type'])).toEqual([[`${S}PropertyValue`], [`${S}PropertyValue`]]);
    expect(measured.map((m) => value(m, 'name'))).toEqual(['synapse count', 'gap junction count']);
  });

  it('lists each file as a DataDownload with its content URL, format, size and SHA-256', async () => {
    const [dataset] = await expand(toJsonLd(input()));
    const [file] = nodes(dataset, 'distribution');
    expect(file['@type']).toEqual([`${S}DataDownload`]);
    expect(iri(file, 'contentUrl')).toBe(`${URL}/files/connections.csv`);
    expect(value(file, 'encodingFormat')).toBe('text/csv');
    expect(value(file, 'contentSize')).toBe('1234 B');
    expect(value(file, 'sha256')).toBe(SHA);
    expect(value(file, 'name')).toBe('connections.csv');
  });

  it('cites the related publication as a ScholarlyArticle identified by its DOI', async () => {
    const [dataset] = await expand(toJsonLd(input()));
    const [article] = nodes(dataset, 'citation');
    expect(article['@id']).toBe('https://doi.org/10.1371/journal.pcbi.1001066');
    expect(article['@type']).toEqual([`${S}ScholarlyArticle`]);
    expect(value(article, 'identifier')).toBe('https://doi.org/10.1371/journal.pcbi.1001066');
    expect(value(article, 'name')).toMatch(/^Varshney LR et al\. \(2011\)/);
  });

  it('leaves out what a draft does not have instead of writing nulls', () => {
    const doc = toJsonLd(input({ version: null, publishedAt: null, distribution: [], dataset: metadata({ doi: null, license: null, relatedPublication: null }) }));
    for (const key of ['version', 'datePublished', 'license', 'sameAs', 'citation', 'distribution', 'conditionsOfAccess']) expect(doc).not.toHaveProperty(key);
    expect(doc.identifier).toEqual(['0190a1b2']);
    expect(JSON.stringify(doc)).not.toContain('null');
  });

  it('types a creator of kind organization as an Organization, a domain-like name included, and a person as a Person', async () => {
    const creators = [
      { name: 'NeuroMorpho.Org', kind: 'organization' as const, orcid: null, affiliation: null },
      { name: 'Ada Group', kind: 'person' as const, orcid: null, affiliation: null },
      { name: 'NeuroMorpho.Org', orcid: null, affiliation: null },
    ];
    const [dataset] = await expand(toJsonLd(input({ dataset: metadata({ creators }) })));
    const [org, person, legacy] = nodes(dataset, 'creator');
    expect(org['@type']).toEqual([`${S}Organization`]);
    expect(value(org, 'name')).toBe('NeuroMorpho.Org');
    expect(org[`${S}familyName`]).toBeUndefined();
    expect(person['@type']).toEqual([`${S}Person`]);
    expect(value(person, 'familyName')).toBe('Group');
    expect(legacy['@type']).toEqual([`${S}Organization`]);
  });

  it('states the conditions of access beside isAccessibleForFree', async () => {
    const [dataset] = await expand(toJsonLd(input({ conditionsOfAccess: conditionsOfAccess('restricted') })));
    expect(value(dataset, 'isAccessibleForFree')).toBe(true);
    expect(value(dataset, 'conditionsOfAccess')).toMatch(/verified academic account.*owner's grant/);
    expect(conditionsOfAccess('public')).toMatch(/verified academic account/);
    expect(conditionsOfAccess('public')).not.toMatch(/grant/);
  });

  it('is served only with the local context: any other URL is refused', async () => {
    await expect(jsonld.expand({ '@context': 'https://example.org/ctx', name: 'x' } as JsonLdDocument, { documentLoader })).rejects.toThrow();
  });
});
