import { creatorKind, doiUrl, splitPersonName, type CitationInput } from './citation.js';
import type { Creator, TermValue } from './dataset.model.js';

export const JSONLD_MEDIA_TYPE = 'application/ld+json; charset=utf-8';

/** One downloadable file of the dataset. */
export interface DistributionFile {
  name: string;
  contentUrl: string;
  /** Media type, e.g. text/csv. */
  encodingFormat: string;
  /** Bytes. */
  contentSize: number;
  /** Lower-case hex SHA-256 of the file. */
  sha256: string;
}

export interface JsonLdInput extends CitationInput {
  createdAt: Date;
  updatedAt: Date;
  distribution: DistributionFile[];
  /** What the data measure, e.g. "synapse count", "gap junction count". */
  variableMeasured: string[];
  /** The catalogue's home page; its name is the publisher. */
  catalogUrl?: string;
  /** No charge is asked for a dataset, restricted or not; restricted ones need an approved access request. */
  isAccessibleForFree?: boolean;
  /** What reading the data takes (conditionsOfAccess()); left out when not given. */
  conditionsOfAccess?: string;
}

/**
 * What reading the data takes, for schema.org's conditionsOfAccess: free of charge (isAccessibleForFree) is not
 * free of conditions, since the files need an account.
 */
export function conditionsOfAccess(visibility: 'public' | 'restricted'): string {
  const account = 'Data files need a verified academic account on this service';
  return visibility === 'restricted' ? `${account}; this dataset is restricted and also needs its owner's grant (an approved access request).` : `${account}.`;
}

type Node = Record<string, unknown>;

/**
 * Ontologies by CURIE prefix. OBO Foundry ontologies resolve at their PURL; MBAO (the BICAN form of the Allen
 * mouse brain structure graph) is named without one.
 */
const TERM_SETS: Record<string, { name: string; url?: string }> = {
  NCBITaxon: { name: 'NCBI organismal classification', url: 'http://purl.obolibrary.org/obo/ncbitaxon.owl' },
  WBbt: { name: 'C. elegans Gross Anatomy Ontology', url: 'http://purl.obolibrary.org/obo/wbbt.owl' },
  FBbt: { name: 'Drosophila Anatomy Ontology', url: 'http://purl.obolibrary.org/obo/fbbt.owl' },
  FBbi: { name: 'Biological Imaging Methods Ontology', url: 'http://purl.obolibrary.org/obo/fbbi.owl' },
  CHEBI: { name: 'Chemical Entities of Biological Interest', url: 'http://purl.obolibrary.org/obo/chebi.owl' },
  MBA: { name: 'Allen Mouse Brain Atlas structure ontology (MBAO)' },
};

export function spdxLicenseUrl(spdxId: string): string {
  return `https://spdx.org/licenses/${encodeURIComponent(spdxId)}.html`;
}

function definedTerm(term: TermValue): Node {
  const prefix = term.code.split(':')[0];
  const set = TERM_SETS[prefix];
  return {
    '@type': 'DefinedTerm',
    ...(term.uri ? { '@id': term.uri, url: term.uri } : {}),
    name: term.label,
    termCode: term.code,
    inDefinedTermSet: set
      ? { '@type': 'DefinedTermSet', name: set.name, ...(set.url ? { '@id': set.url, url: set.url } : {}) }
      : { '@type': 'DefinedTermSet', name: term.vocabulary },
  };
}

function creator(c: Creator): Node {
  if (creatorKind(c) === 'organization') return { '@type': 'Organization', name: c.name };
  const { given, family } = splitPersonName(c.name);
  const orcid = c.orcid ? `https://orcid.org/${c.orcid}` : null;
  return {
    '@type': 'Person',
    ...(orcid ? { '@id': orcid, identifier: orcid } : {}),
    name: c.name,
    ...(given ? { givenName: given } : {}),
    familyName: family,
    ...(c.affiliation ? { affiliation: { '@type': 'Organization', name: c.affiliation } } : {}),
  };
}

/**
 * The dataset as a schema.org Dataset in JSON-LD, the form Google Dataset Search reads. Empty fields are
 * left out rather than written as null. Dates are full ISO 8601 date-times in UTC.
 */
export function toJsonLd(input: JsonLdInput): Node {
  const { dataset, version, publishedAt, url, publisher } = input;
  const doi = dataset.doi ? doiUrl(dataset.doi) : null;
  const publication = dataset.relatedPublication;
  const publicationDoi = publication?.doi ? doiUrl(publication.doi) : null;
  const publisherNode = { '@type': 'Organization', name: publisher };

  const doc: Node = {
    '@context': 'https://schema.org/',
    '@type': 'Dataset',
    '@id': url,
    name: dataset.title,
    description: dataset.description,
    identifier: doi ? [doi, dataset.id] : [dataset.id],
    ...(doi ? { sameAs: doi } : {}),
    url,
    ...(version !== null ? { version } : {}),
    ...(publishedAt ? { datePublished: publishedAt.toISOString() } : {}),
    dateCreated: input.createdAt.toISOString(),
    dateModified: input.updatedAt.toISOString(),
    ...(dataset.license ? { license: spdxLicenseUrl(dataset.license) } : {}),
    creator: dataset.creators.map(creator),
    keywords: dataset.keywords,
    // Neurotransmitters are listed with the anatomy and species: they are what the neurons are characterised by.
    about: [...dataset.species, ...dataset.brainRegions, ...dataset.neurotransmitters].map(definedTerm),
    measurementTechnique: dataset.microscopy.map(definedTerm),
    variableMeasured: input.variableMeasured.map((name) => ({ '@type': 'PropertyValue', name })),
    isAccessibleForFree: input.isAccessibleForFree ?? true,
    ...(input.conditionsOfAccess ? { conditionsOfAccess: input.conditionsOfAccess } : {}),
    publisher: publisherNode,
    includedInDataCatalog: { '@type': 'DataCatalog', name: publisher, ...(input.catalogUrl ? { url: input.catalogUrl } : {}) },
  };
  // Left out rather than empty (files withheld, or none), as every other empty field: validators read an empty
  // distribution as a dataset with nothing to download.
  if (input.distribution.length) {
    doc.distribution = input.distribution.map((file) => ({
      '@type': 'DataDownload',
      name: file.name,
      contentUrl: file.contentUrl,
      encodingFormat: file.encodingFormat,
      // schema.org's contentSize is text with a unit; bytes keep it exact.
      contentSize: `${file.contentSize} B`,
      // schema.org defines sha256 on MediaObject, DataDownload's parent (https://schema.org/sha256, from
      // schemaorg/schemaorg#2450, still in the "new" area), so the digest needs no identifier/PropertyValue stand-in.
      sha256: file.sha256,
    }));
  }
  if (publication && (publication.citation || publicationDoi || publication.url)) {
    const link = publicationDoi ?? publication.url;
    doc.citation = {
      '@type': 'ScholarlyArticle',
      ...(link ? { '@id': link, url: link } : {}),
      ...(publicationDoi ? { identifier: publicationDoi } : {}),
      ...(publication.citation ? { name: publication.citation } : {}),
      ...(publication.year ? { datePublished: String(publication.year) } : {}),
    };
  }
  return doc;
}
