import { BadInput } from '../../lib/errors.js';

/** Pure input rules of the ontology subgraph: each throws BadInput naming the field and what is accepted. */

export const CODE_MAX = 256;
export const LABEL_MAX = 1000;
export const URI_MAX = 2048;
export const DESCRIPTION_MAX = 10_000;
export const METADATA_MAX_BYTES = 64 * 1024;
export const SYNONYMS_MAX = 200;
export const PAGE_LIMIT_DEFAULT = 50;
export const PAGE_LIMIT_MAX = 1000;
export const QUERY_MAX = 200;
export const VALIDATE_MAX_TERMS = 10_000;
/** Longest value a validation takes: no term's code or label is longer, so a longer value can only cost time. */
export const VALIDATE_VALUE_MAX = LABEL_MAX;

const VOCABULARY_NAME = /^[a-z][a-z0-9_]{0,62}$/;
/** A URI with a scheme (RFC 3986), e.g. http://purl.obolibrary.org/obo/FBbi_00000254 or urn:... */
const URI = /^[A-Za-z][A-Za-z0-9+.-]*:[^\s]+$/;

export function vocabularyName(value: unknown, field = 'vocabulary'): string {
  const v = typeof value === 'string' ? value.trim() : '';
  if (!VOCABULARY_NAME.test(v)) {
    throw new BadInput(`${field}: expected a vocabulary name in lower-case snake_case, such as brain_region (got ${JSON.stringify(value ?? null)})`);
  }
  return v;
}

/**
 * Trimmed, non-empty text of at most `max` characters, without control characters; `multiline` text (labels) may
 * hold tabs and line breaks, as a quoted CSV field can.
 */
export function requiredText(value: unknown, field: string, max: number, opts: { multiline?: boolean } = {}): string {
  const v = typeof value === 'string' ? value.trim() : '';
  if (!v) throw new BadInput(`${field} is required and must not be empty`);
  if (v.length > max) throw new BadInput(`${field}: at most ${max} characters (got ${v.length})`);
  const control = opts.multiline ? /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/ : /[\u0000-\u001f\u007f]/;
  if (control.test(v)) throw new BadInput(`${field}: must not contain control characters${opts.multiline ? '' : ' such as line breaks'}`);
  return v;
}

/** Trimmed text or null when empty. */
export function optionalText(value: unknown, field: string, max: number): string | null {
  if (value === null || value === undefined) return null;
  const v = String(value).trim();
  if (!v) return null;
  if (v.length > max) throw new BadInput(`${field}: at most ${max} characters (got ${v.length})`);
  return v;
}

export function optionalUri(value: unknown, field = 'uri'): string | null {
  const v = optionalText(value, field, URI_MAX);
  if (v === null) return null;
  if (!URI.test(v)) throw new BadInput(`${field}: expected an absolute URI such as http://purl.obolibrary.org/obo/FBbi_00000254 (got ${JSON.stringify(v)})`);
  return v;
}

export function metadataObject(value: unknown, field = 'metadata'): Record<string, unknown> {
  if (value === null || value === undefined) return {};
  if (typeof value !== 'object' || Array.isArray(value)) throw new BadInput(`${field}: expected a JSON object`);
  const bytes = Buffer.byteLength(JSON.stringify(value));
  if (bytes > METADATA_MAX_BYTES) throw new BadInput(`${field}: at most ${METADATA_MAX_BYTES} bytes of JSON (got ${bytes})`);
  return value as Record<string, unknown>;
}

export function synonymList(value: unknown, field = 'synonyms'): string[] {
  if (value === null || value === undefined) return [];
  if (!Array.isArray(value)) throw new BadInput(`${field}: expected an array of strings`);
  const out = [...new Set(value.map((s, i) => requiredText(s, `${field}[${i}]`, LABEL_MAX, { multiline: true })))];
  if (out.length > SYNONYMS_MAX) throw new BadInput(`${field}: at most ${SYNONYMS_MAX} synonyms (got ${out.length})`);
  return out;
}

export function pageLimit(value: number | null | undefined): number {
  if (value === null || value === undefined) return PAGE_LIMIT_DEFAULT;
  if (!Number.isInteger(value) || value < 1 || value > PAGE_LIMIT_MAX) throw new BadInput(`limit: expected an integer from 1 to ${PAGE_LIMIT_MAX} (got ${value})`);
  return value;
}

export function pageOffset(value: number | null | undefined): number {
  if (value === null || value === undefined) return 0;
  if (!Number.isInteger(value) || value < 0) throw new BadInput(`offset: expected an integer of 0 or more (got ${value})`);
  return value;
}

/**
 * The text of a search: `q`, or its older name `search`. Both may be given only when they agree. Blank means no
 * text filter.
 */
export function searchText(q: string | null | undefined, search: string | null | undefined): string | null {
  const a = q?.trim() || null;
  const b = search?.trim() || null;
  if (a && b && a !== b) throw new BadInput('q and search are the same parameter under two names: give one of them');
  const text = a ?? b;
  if (text && text.length > QUERY_MAX) throw new BadInput(`q: at most ${QUERY_MAX} characters (got ${text.length})`);
  return text;
}
