import { BadInput } from '../../lib/errors.js';
import type { Creator, CreatorKind, DatasetMetadata } from './dataset.model.js';

/** What a dataset citation is built from; the dataset is a published version's frozen metadata or the draft's. */
export interface CitationInput {
  dataset: DatasetMetadata & { id: string; slug: string };
  /** The cited version, or null for a dataset that has not been published. */
  version: number | null;
  /**
   * When this version was published in this service: the citation's year and date. A citer cites the version they
   * read, as published here (DataCite's publicationYear), not the year of the paper the data came from (that paper
   * is the related publication).
   */
  publishedAt: Date | null;
  /** The dataset's landing page, `/datasets/{slug}` under the service's base URL: its URL and `@id` everywhere. */
  url: string;
  /** The service (cluster) that publishes the dataset. */
  publisher: string;
}

export type CitationFormat = 'bibtex' | 'ris';

export const BIBTEX_MEDIA_TYPE = 'application/x-bibtex; charset=utf-8';
export const RIS_MEDIA_TYPE = 'application/x-research-info-systems; charset=utf-8';

/** Media type, file extension and renderer of each citation format. */
export const CITATION_FORMATS: Record<
  CitationFormat,
  { mediaType: string; extension: string; render: (input: CitationInput) => string }
> = {
  bibtex: { mediaType: BIBTEX_MEDIA_TYPE, extension: 'bib', render: toBibtex },
  ris: { mediaType: RIS_MEDIA_TYPE, extension: 'ris', render: toRis },
};

const ACCEPTED_FORMATS = Object.keys(CITATION_FORMATS) as CitationFormat[];

const ACCEPT_TYPES: Record<string, CitationFormat> = {
  'application/x-bibtex': 'bibtex',
  'text/x-bibtex': 'bibtex',
  'application/x-research-info-systems': 'ris',
  'application/x-ris': 'ris',
};

/**
 * Chooses the citation format: the `format` query parameter wins, then the most preferred citation type of the
 * Accept header (q-values honoured, header order breaks ties), then BibTeX. Throws BadInput for an unknown
 * `format` value; an Accept header without a citation type is not an error (browsers send a wildcard).
 */
export function citationFormatFor(format?: string, accept?: string): CitationFormat {
  const requested = format?.trim().toLowerCase();
  if (requested) {
    if ((ACCEPTED_FORMATS as string[]).includes(requested)) return requested as CitationFormat;
    throw new BadInput(`format: unknown citation format "${format}"; accepted values: ${ACCEPTED_FORMATS.join(', ')}`);
  }
  let best: { format: CitationFormat; q: number } | null = null;
  for (const range of (accept ?? '').split(',')) {
    const [type, ...params] = range.split(';').map((s) => s.trim().toLowerCase());
    const chosen = ACCEPT_TYPES[type];
    if (!chosen) continue;
    const qParam = params.find((p) => /^q\s*=/.test(p));
    const q = qParam ? Number(qParam.slice(qParam.indexOf('=') + 1)) : 1;
    if (!(q > 0)) continue;
    if (!best || q > best.q) best = { format: chosen, q };
  }
  return best?.format ?? 'bibtex';
}

/** A DOI as its resolver's URL, whichever form it was given in (bare, doi:, or a doi.org URL). */
export function doiUrl(doi: string): string {
  return `https://doi.org/${doi.trim().replace(/^(?:doi:|https?:\/\/(?:dx\.)?doi\.org\/)/i, '')}`;
}

// ---------------------------------------------------------------------------------------------------------------
// Names

export interface PersonName {
  given: string | null;
  /** With its particles ("van der Berg"), as BibTeX's "von Last" part reads them back. */
  family: string;
  suffix: string | null;
}

// Metadata kept before creators had a kind: a name with one of these words is taken as an organisation.
// Bounded by letters rather than \b, which only knows ASCII ("Université").
const ORGANISATION_WORDS = new RegExp(
  `(?<![\\p{L}\\p{N}])(${[
    'institut\\p{L}*', 'univers\\p{L}*', 'uniwersytet', 'college', 'school', 'laborator(?:y|ies)',
    'lab', 'cent(?:er|re)', 'consortium', 'foundation', 'society', 'association', 'council', 'project', 'initiative',
    'network', 'group', 'team', 'agency', 'department', 'hospital', 'museum', 'academy', 'inc', 'ltd', 'llc', 'gmbh',
    'corporation', 'company', 'collaboration', 'organi[sz]ation', 'programme', 'program', 'facility', 'service', 'atlas',
  ].join('|')})(?![\\p{L}\\p{N}])`,
  'iu',
);
const PARTICLES = new Set([
  'van', 'von', 'der', 'den', 'de', 'del', 'della', 'di', 'da', 'du', 'dos', 'das', 'la', 'le', 'ten', 'ter', 'zu', 'af', 'av',
]);
const SUFFIXES = /^(jr\.?|sr\.?|ii|iii|iv)$/i;

// A name that is a web domain ("NeuroMorpho.Org", "FlyWire.ai") is a resource's, not a person's.
const DOMAIN_NAME = /\p{L}\.(?:org|com|net|edu|gov|int|io|ai|info|eu)(?![\p{L}\p{N}])/iu;

/** True when a creator's name reads as an organisation rather than a person (no ORCID; an organisation word or a domain). */
export function isOrganisationName(creator: Pick<Creator, 'name'> & { orcid?: string | null }): boolean {
  return !creator.orcid && (ORGANISATION_WORDS.test(creator.name) || DOMAIN_NAME.test(creator.name));
}

/** A creator's kind: the one recorded, or for metadata kept before kinds were recorded, the one its name reads as. */
export function creatorKind(creator: Pick<Creator, 'name' | 'kind'> & { orcid?: string | null }): CreatorKind {
  return creator.kind ?? (isOrganisationName(creator) ? 'organization' : 'person');
}

const isOrganisation = (creator: Creator) => creatorKind(creator) === 'organization';

/**
 * Splits a person's name. "Family, Given" is taken as written; otherwise the last word is the family name, together
 * with the lower-case particles before it ("Jan van der Berg") and without a trailing Jr./Sr./II/III/IV. A single
 * word is a family name alone.
 */
export function splitPersonName(name: string): PersonName {
  const clean = collapse(name);
  const comma = clean.indexOf(',');
  if (comma > 0) {
    const given = clean.slice(comma + 1).trim();
    return { family: clean.slice(0, comma).trim(), given: given || null, suffix: null };
  }
  const words = clean.split(' ');
  let suffix: string | null = null;
  if (words.length > 2 && SUFFIXES.test(words[words.length - 1])) suffix = words.pop()!;
  if (words.length === 1) return { family: words[0], given: null, suffix };
  let start = words.length - 1;
  while (start > 1 && PARTICLES.has(words[start - 1])) start--;
  return { given: words.slice(0, start).join(' '), family: words.slice(start).join(' '), suffix };
}

// ---------------------------------------------------------------------------------------------------------------
// BibTeX

const BIBTEX_ESCAPES: Record<string, string> = {
  '\\': '\\textbackslash{}',
  // \{ and \} still count in BibTeX's brace balance, so an unpaired brace in a title would end the field early.
  '{': '\\textbraceleft{}',
  '}': '\\textbraceright{}',
  '&': '\\&',
  '%': '\\%',
  $: '\\$',
  '#': '\\#',
  _: '\\_',
  '~': '\\textasciitilde{}',
  '^': '\\textasciicircum{}',
};

/** Escapes text for a brace-delimited BibTeX field. Non-ASCII stays UTF-8 (biber, bibtexu and citation-js read it). */
export function escapeBibtex(text: string): string {
  return collapse(text).replace(/[\\{}&%$#_~^]/g, (c) => BIBTEX_ESCAPES[c]);
}

/** url and doi are verbatim fields: nothing is unescaped, so only what would break the field is percent-encoded. */
function verbatim(value: string): string {
  return value.trim().replace(/[{}\\\s]/g, (c) => encodeURIComponent(c));
}

function bibtexName(creator: Creator): string {
  if (isOrganisation(creator)) return `{${escapeBibtex(creator.name)}}`;
  const { given, family, suffix } = splitPersonName(creator.name);
  // A word "and" inside a name would split it into two names.
  const part = (s: string) => escapeBibtex(s).replace(/(^|\s)(and)(?=\s|$)/gi, '$1{$2}');
  return [part(family), suffix && part(suffix), given && part(given)].filter(Boolean).join(', ');
}

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];

/**
 * The citation key (BibTeX) and reference id (RIS): the dataset's slug and the version, `celegans_cook_2019_male_v1`
 * (`_draft` before publication). Unique within the service, as slugs are, and stable: the same version keeps its key
 * whatever is edited or published later, so a bibliography of several datasets keeps every entry. Only letters,
 * digits, `_` and `-` are kept, the characters every BibTeX dialect accepts in a key.
 */
export function citationKey(input: Pick<CitationInput, 'dataset' | 'version'>): string {
  const slug = input.dataset.slug.normalize('NFKD').replace(/[^A-Za-z0-9_-]+/g, '_').replace(/^[_-]+|[_-]+$/g, '') || 'dataset';
  return `${slug}_${input.version === null ? 'draft' : `v${input.version}`}`;
}

/**
 * The dataset as one BibTeX entry.
 *
 * Entry type: biblatex `@dataset`. citation-js (and so Zotero's and Mendeley's importers built on the same
 * mapping) reads it as CSL type `dataset`, whereas `@misc` becomes the generic `document` and loses the type;
 * biber and biblatex support it natively, and classic BibTeX styles print an unknown type as `@misc`, with a
 * warning. Fields are the ones both dialects share (author, title, publisher, year, month) plus the biblatex
 * ones a dataset needs (version, doi, url, keywords); `copyright` carries the SPDX licence, as DataCite's
 * BibTeX export does, and is ignored by styles that do not know it. The title is braced as a whole so that
 * styles which lower-case titles keep species names and acronyms.
 */
export function toBibtex(input: CitationInput): string {
  const { dataset, version, publishedAt, url, publisher } = input;
  const fields: [string, string][] = [];
  if (dataset.creators.length) fields.push(['author', `{${dataset.creators.map(bibtexName).join(' and ')}}`]);
  fields.push(['title', `{{${escapeBibtex(dataset.title)}}}`]);
  fields.push(['publisher', `{{${escapeBibtex(publisher)}}}`]);
  if (publishedAt) {
    fields.push(['year', `{${publishedAt.getUTCFullYear()}}`]);
    fields.push(['month', MONTHS[publishedAt.getUTCMonth()]]);
  }
  if (version !== null) fields.push(['version', `{${version}}`]);
  if (dataset.doi) fields.push(['doi', `{${verbatim(dataset.doi)}}`]);
  fields.push(['url', `{${verbatim(url)}}`]);
  if (dataset.keywords.length) {
    // Keywords are comma-separated, so a keyword with a comma of its own is braced.
    const words = dataset.keywords.map((k) => escapeBibtex(k)).filter(Boolean);
    fields.push(['keywords', `{${words.map((k) => (k.includes(',') ? `{${k}}` : k)).join(', ')}}`]);
  }
  if (dataset.license) fields.push(['copyright', `{${escapeBibtex(dataset.license)}}`]);
  const body = fields.map(([name, value]) => `  ${name} = ${value}`).join(',\n');
  return `@dataset{${citationKey(input)},\n${body}\n}\n`;
}

// ---------------------------------------------------------------------------------------------------------------
// RIS

function risName(creator: Creator): string {
  if (isOrganisation(creator)) return collapse(creator.name);
  const { given, family, suffix } = splitPersonName(creator.name);
  return [family, given, suffix].filter(Boolean).join(', ');
}

const pad2 = (n: number) => String(n).padStart(2, '0');

/**
 * The dataset as one RIS record (type DATA). Each tag is "XX  - value" on its own line, lines end in CRLF as the
 * RIS specification requires, TY comes first and ER last; values are folded onto one line.
 */
export function toRis(input: CitationInput): string {
  const { dataset, version, publishedAt, url, publisher } = input;
  const lines: [string, string][] = [['TY', 'DATA'], ['TI', dataset.title]];
  for (const creator of dataset.creators) lines.push(['AU', risName(creator)]);
  if (publishedAt) {
    lines.push(['PY', String(publishedAt.getUTCFullYear())]);
    lines.push(['DA', `${publishedAt.getUTCFullYear()}/${pad2(publishedAt.getUTCMonth() + 1)}/${pad2(publishedAt.getUTCDate())}`]);
  }
  lines.push(['PB', publisher]);
  if (version !== null) lines.push(['ET', String(version)]);
  if (dataset.doi) lines.push(['DO', dataset.doi]);
  lines.push(['UR', url]);
  for (const keyword of dataset.keywords) lines.push(['KW', keyword]);
  if (dataset.description) lines.push(['AB', dataset.description]);
  // RIS has no licence tag; a note keeps it with the record.
  if (dataset.license) lines.push(['N1', `License: ${dataset.license}`]);
  lines.push(['ID', citationKey(input)]);
  const body = lines
    .map(([tag, value]) => [tag, collapse(value)] as const)
    .filter(([, value]) => value)
    .map(([tag, value]) => `${tag}  - ${value}\r\n`)
    .join('');
  return `${body}ER  - \r\n`;
}

// ---------------------------------------------------------------------------------------------------------------
// Text

/** A person as a reference list names them: family name, then the initials of the given names ("Lovelace, A. A."). */
function textName(creator: Creator): string {
  if (isOrganisation(creator)) return collapse(creator.name);
  const { given, family, suffix } = splitPersonName(creator.name);
  const initials = (given ?? '')
    .split(/\s+/)
    .filter(Boolean)
    .map((word) => word.split('-').map((part) => (part.endsWith('.') && part.length <= 3 ? part : `${[...part][0]}.`)).join('-'))
    .join(' ');
  return [family, initials, suffix].filter(Boolean).join(', ');
}

/** Up to 20 names all listed, "&" before the last; more: the first 19, an ellipsis and the last (APA 7th edition). */
function textNames(creators: Creator[]): string {
  const names = creators.map(textName);
  if (names.length <= 1) return names.join('');
  if (names.length === 2) return `${names[0]}, & ${names[1]}`;
  if (names.length <= 20) return `${names.slice(0, -1).join(', ')}, & ${names.at(-1)}`;
  return `${names.slice(0, 19).join(', ')}, … ${names.at(-1)}`;
}

/**
 * The dataset as one line of a reference list, in the APA style for data sets: creators, (year), title, (Version n),
 * [Data set], publisher, and the DOI as a URL (the landing page when there is none). Plain text, for people to copy.
 */
export function toCitationText(input: CitationInput): string {
  const { dataset, version, publishedAt, url, publisher } = input;
  const year = publishedAt ? String(publishedAt.getUTCFullYear()) : 'n.d.';
  const who = textNames(dataset.creators);
  const title = collapse(dataset.title).replace(/[.\s]+$/, '');
  const link = dataset.doi ? doiUrl(dataset.doi) : url;
  const parts = [
    who ? `${who.replace(/\.$/, '')}. (${year}).` : `${title}. (${year}).`,
    who ? `${title}${version !== null ? ` (Version ${version})` : ''} [Data set].` : `${version !== null ? `(Version ${version}) ` : ''}[Data set].`,
    `${collapse(publisher).replace(/\.$/, '')}.`,
    link,
  ];
  return parts.join(' ');
}

function collapse(text: string): string {
  return text.normalize('NFC').replace(/[\s\p{Cc}]+/gu, ' ').trim();
}
