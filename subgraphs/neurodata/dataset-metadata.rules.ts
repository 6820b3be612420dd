import { createRequire } from 'node:module';
import { BadInput } from '../../lib/errors.js';
import { creatorKind } from './citation.js';
import type { CoordinateBounds, CoordinateUnit, Creator, CreatorKind, Publication } from './dataset.model.js';

const SPDX_IDS: ReadonlySet<string> = new Set((createRequire(import.meta.url)('spdx-license-ids') as string[]).map((s) => s));
const SPDX_BY_LOWER = new Map([...SPDX_IDS].map((id) => [id.toLowerCase(), id]));

export const LIMITS = { title: [3, 300], description: 20_000, keywords: 50, keyword: 100, creators: 200, terms: 100, text: 2_000 } as const;

/** The written-out fields a draft needs before it can be published; data is checked separately. */
export const REQUIRED_FOR_PUBLICATION = ['title', 'description', 'species', 'brain_regions', 'microscopy', 'license', 'creators'] as const;

export function checkTitle(title: unknown): string {
  if (typeof title !== 'string') throw new BadInput('title: expected a string');
  const t = title.trim();
  if (t.length < LIMITS.title[0] || t.length > LIMITS.title[1]) throw new BadInput(`title: ${LIMITS.title[0]} to ${LIMITS.title[1]} characters (got ${t.length})`);
  return t;
}

export function checkText(field: string, value: string | null | undefined, max: number): string {
  const t = (value ?? '').trim();
  if (t.length > max) throw new BadInput(`${field}: at most ${max} characters (got ${t.length})`);
  return t;
}

export function checkKeywords(list: readonly string[] | null | undefined): string[] {
  const out = [...new Set((list ?? []).map((k) => String(k).trim()).filter(Boolean))];
  if (out.length > LIMITS.keywords) throw new BadInput(`keywords: at most ${LIMITS.keywords}`);
  const long = out.find((k) => k.length > LIMITS.keyword);
  if (long) throw new BadInput(`keywords: each at most ${LIMITS.keyword} characters (${JSON.stringify(long.slice(0, 40))}...)`);
  return out;
}

/** An SPDX licence identifier, case-insensitively, returned in its canonical spelling; LicenseRef-... for others. */
export function checkLicense(value: string | null | undefined): string | null {
  if (value === null || value === undefined || !value.trim()) return null;
  const v = value.trim();
  if (/^LicenseRef-[A-Za-z0-9.-]{1,60}$/.test(v)) return v;
  const id = SPDX_BY_LOWER.get(v.toLowerCase());
  if (id) return id;
  const close = [...SPDX_IDS].filter((s) => s.toLowerCase().startsWith(v.toLowerCase().slice(0, 5))).slice(0, 5);
  throw new BadInput(
    `license: ${JSON.stringify(v)} is not an SPDX licence identifier (https://spdx.org/licenses/)${close.length ? `; closest: ${close.join(', ')}` : '; e.g. CC-BY-4.0, CC0-1.0, ODC-By-1.0, MIT'}, or use LicenseRef-<name> for another licence`,
  );
}

/** `10.1038/s41586-019-1352-7`, also given as https://doi.org/... or doi:...; returned bare and lower-cased prefix kept. */
export function checkDoi(field: string, value: string | null | undefined): string | null {
  if (value === null || value === undefined || !value.trim()) return null;
  const bare = value.trim().replace(/^(https?:\/\/(dx\.)?doi\.org\/|doi:)/i, '');
  if (!/^10\.\d{4,9}\/\S{1,200}$/.test(bare)) throw new BadInput(`${field}: ${JSON.stringify(value)} is not a DOI (expected 10.<registrant>/<suffix>, e.g. 10.1038/s41586-019-1352-7)`);
  return bare;
}

/** ORCID iD with a valid ISO 7064 11,2 check digit; https://orcid.org/ prefix accepted. */
export function checkOrcid(field: string, value: string | null | undefined): string | null {
  if (value === null || value === undefined || !value.trim()) return null;
  const bare = value.trim().replace(/^https?:\/\/orcid\.org\//i, '');
  const m = /^(\d{4})-(\d{4})-(\d{4})-(\d{3}[\dX])$/.exec(bare);
  if (!m) throw new BadInput(`${field}: ${JSON.stringify(value)} is not an ORCID iD (expected 0000-0002-1825-0097)`);
  const digits = bare.replace(/-/g, '');
  let total = 0;
  for (const c of digits.slice(0, 15)) total = (total + Number(c)) * 2;
  const check = (12 - (total % 11)) % 11;
  if ((check === 10 ? 'X' : String(check)) !== digits[15]) throw new BadInput(`${field}: ${JSON.stringify(value)} has a wrong check digit; copy the iD from the researcher's ORCID record`);
  return bare;
}

const CREATOR_KINDS: readonly CreatorKind[] = ['person', 'organization'];

/**
 * Creators as they are kept: a name, a kind (given, or read from the name), an ORCID iD (people only) and an
 * affiliation. Throws BadInput naming the creator's index.
 */
export function checkCreators(
  list: ReadonlyArray<{ name?: string | null; kind?: string | null; orcid?: string | null; affiliation?: string | null }> | null | undefined,
): Creator[] {
  const creators = list ?? [];
  if (creators.length > LIMITS.creators) throw new BadInput(`creators: at most ${LIMITS.creators}`);
  return creators.map((c, i) => {
    const name = (c.name ?? '').trim();
    if (!name || name.length > 300) throw new BadInput(`creators[${i}].name: 1 to 300 characters`);
    const given = c.kind?.trim().toLowerCase() || null;
    if (given !== null && !(CREATOR_KINDS as string[]).includes(given)) {
      throw new BadInput(`creators[${i}].kind: ${JSON.stringify(c.kind)} is not a creator kind; accepted values: ${CREATOR_KINDS.join(', ')}`);
    }
    const orcid = checkOrcid(`creators[${i}].orcid`, c.orcid);
    const kind = (given as CreatorKind | null) ?? creatorKind({ name, orcid });
    if (kind === 'organization' && orcid) throw new BadInput(`creators[${i}].orcid: an ORCID iD names a person; leave it out for an organization`);
    return { name, kind, orcid, affiliation: checkText(`creators[${i}].affiliation`, c.affiliation, 500) || null };
  });
}

export function checkPublication(p: { doi?: string | null; citation?: string | null; url?: string | null; year?: number | null } | null | undefined): Publication | null {
  if (!p) return null;
  const doi = checkDoi('related_publication.doi', p.doi);
  const citation = checkText('related_publication.citation', p.citation, LIMITS.text) || null;
  const url = p.url?.trim() || (doi ? `https://doi.org/${doi}` : null);
  if (url && !/^https?:\/\/\S+$/.test(url)) throw new BadInput('related_publication.url: expected an http(s) URL');
  const year = p.year ?? null;
  if (year !== null && (!Number.isInteger(year) || year < 1600 || year > 2200)) throw new BadInput(`related_publication.year: a year from 1600 to 2200 (got ${year})`);
  if (!doi && !citation && !url) return null;
  return { doi, citation, url, year };
}

export const COORDINATE_UNITS: readonly CoordinateUnit[] = ['nm', 'um', 'voxel'];
/** The largest magnitude of a coordinate or voxel edge kept (a whole brain is about 1e6 nm across; 1e12 is far past any). */
const MAX_COORDINATE = 1e12;

export interface CoordinatesInput {
  coordinate_unit?: string | null;
  voxel_size?: readonly number[] | null;
  bounds?: { min?: readonly number[] | null; max?: readonly number[] | null } | null;
}

export interface Coordinates {
  coordinateUnit: CoordinateUnit | null;
  voxelSize: [number, number, number] | null;
  bounds: CoordinateBounds | null;
}

function point(field: string, v: readonly number[] | null | undefined, positive: boolean): [number, number, number] {
  if (!Array.isArray(v) || v.length !== 3) throw new BadInput(`${field}: three numbers [x, y, z] (got ${JSON.stringify(v)})`);
  for (const n of v) {
    if (typeof n !== 'number' || !Number.isFinite(n) || Math.abs(n) > MAX_COORDINATE) throw new BadInput(`${field}: finite numbers of magnitude at most ${MAX_COORDINATE} (got ${JSON.stringify(v)})`);
    if (positive && !(n > 0)) throw new BadInput(`${field}: each edge in nm greater than 0 (got ${JSON.stringify(v)})`);
  }
  return [v[0], v[1], v[2]];
}

/**
 * The coordinate declaration of a dataset after a change: the fields given replace the current ones (null clears),
 * and the result must hold together: a voxel unit needs the voxel size, bounds need min <= max on each axis.
 */
export function checkCoordinates(current: Coordinates, input: CoordinatesInput): Coordinates {
  const out: Coordinates = { ...current };
  if (input.coordinate_unit !== undefined) {
    const u = input.coordinate_unit === null ? null : String(input.coordinate_unit).trim().toLowerCase();
    if (u !== null && u !== '' && !(COORDINATE_UNITS as string[]).includes(u)) {
      throw new BadInput(`coordinate_unit: ${JSON.stringify(input.coordinate_unit)} is not one of ${COORDINATE_UNITS.join(', ')}`);
    }
    out.coordinateUnit = u ? (u as CoordinateUnit) : null;
  }
  if (input.voxel_size !== undefined) out.voxelSize = input.voxel_size === null ? null : point('voxel_size', input.voxel_size, true);
  if (input.bounds !== undefined) {
    if (input.bounds === null) out.bounds = null;
    else {
      const min = point('bounds.min', input.bounds.min, false);
      const max = point('bounds.max', input.bounds.max, false);
      const axis = [0, 1, 2].find((i) => min[i] > max[i]);
      if (axis !== undefined) throw new BadInput(`bounds: min ${'xyz'[axis]} (${min[axis]}) exceeds max (${max[axis]})`);
      out.bounds = { min, max };
    }
  }
  if (out.coordinateUnit === 'voxel' && !out.voxelSize) throw new BadInput('voxel_size: required when coordinate_unit is voxel (the size of a voxel in nm, [x, y, z])');
  return out;
}
