import { BadInput } from '../../lib/errors.js';
import type { DatasetStatus, Visibility } from './dataset.model.js';

/** How the viewer stands to a dataset; the first that applies, in this order. */
export type DatasetRole = 'owner' | 'superuser' | 'maintainer' | 'granted' | 'reader' | 'none';

export interface DatasetAccess {
  role: DatasetRole;
  /** Metadata, versions, citation, JSON-LD, lineage, provenance. False: the dataset answers 404 (an unpublished draft). */
  canSeeMetadata: boolean;
  /** Neurons, connections, morphologies, assets, downloads and everything computed from them. */
  canReadData: boolean;
  /** Edit metadata, upload and remove files, publish, declare lineage, decide access requests. */
  canModify: boolean;
  /** Delete the dataset, change its maintainers. */
  canAdminister: boolean;
}

export interface AccessSubject {
  ownerId: string;
  maintainerIds: readonly string[];
  visibility: Visibility;
  status: DatasetStatus;
}

/**
 * The one decision of who may see what of a dataset, for every route of every subgraph (docs/neurodata.md, "Who may
 * see what"). The caller holds the Academic class already (every neurodata route requires it).
 * - owner and SuperUser: everything; maintainers: everything but deleting the dataset and changing maintainers;
 * - a draft never published is invisible to everyone else (404, so its existence does not leak);
 * - a published public dataset: metadata and data to every Academic caller;
 * - a published restricted dataset: metadata to every Academic caller (so access can be requested), data only
 *   after the owner or a maintainer approved the caller's request.
 */
export function decideAccess(viewer: { id: string; superuser: boolean }, d: AccessSubject, requestStatus: string | null): DatasetAccess {
  const full = (role: DatasetRole, canAdminister: boolean): DatasetAccess => ({ role, canSeeMetadata: true, canReadData: true, canModify: true, canAdminister });
  if (d.ownerId === viewer.id) return full('owner', true);
  if (viewer.superuser) return full('superuser', true);
  if (d.maintainerIds.includes(viewer.id)) return full('maintainer', false);
  const none: DatasetAccess = { role: 'none', canSeeMetadata: false, canReadData: false, canModify: false, canAdminister: false };
  if (d.status !== 'published') return none;
  if (d.visibility === 'public') return { ...none, role: 'reader', canSeeMetadata: true, canReadData: true };
  if (requestStatus === 'approved') return { ...none, role: 'granted', canSeeMetadata: true, canReadData: true };
  return { ...none, canSeeMetadata: true };
}

/** The message of the 403 a restricted dataset's data answers with: what to do about it. */
export function restrictedMessage(datasetId: string, requestStatus: string | null): string {
  const how = `request access with POST /v1/neurodata/datasets/${datasetId}/access/request; the owner or a maintainer decides`;
  if (requestStatus === 'pending') return `this dataset is restricted: your access request is pending; GET /v1/neurodata/datasets/${datasetId}/access shows its status`;
  if (requestStatus === 'denied') return `this dataset is restricted and your access request was denied; you may ${how.replace('request access', 'ask again')}`;
  return `this dataset is restricted: ${how}`;
}

/** What a `dataset@version` reference asks for. */
export type VersionSelector = { kind: 'latest' } | { kind: 'draft' } | { kind: 'number'; version: number };

const MAX_REF = 300;

/**
 * Parses `dataset[@version]`: the dataset by id or slug, the version as `latest` (the default), `draft`, `v3` or `3`.
 * A separate `version` argument may give the version instead; giving both is an error unless they agree.
 */
export function parseDatasetRef(ref: string, version?: string | number | null): { dataset: string; selector: VersionSelector } {
  if (typeof ref !== 'string' || !ref.trim()) throw new BadInput('dataset: expected a dataset id or slug, optionally with @version');
  if (ref.length > MAX_REF) throw new BadInput(`dataset: at most ${MAX_REF} characters`);
  const at = ref.lastIndexOf('@');
  const dataset = (at >= 0 ? ref.slice(0, at) : ref).trim();
  const inRef = at >= 0 ? ref.slice(at + 1).trim() : null;
  if (!dataset) throw new BadInput(`dataset: ${JSON.stringify(ref)} names no dataset before the @`);
  const given = version === undefined || version === null || version === '' ? null : String(version).trim();
  if (inRef !== null && given !== null && parseSelector(inRef, ref).kind !== parseSelector(given, ref).kind) {
    throw new BadInput(`version: ${JSON.stringify(given)} contradicts the version in ${JSON.stringify(ref)}`);
  }
  return { dataset, selector: parseSelector(given ?? inRef ?? 'latest', ref) };
}

function parseSelector(text: string, ref: string): VersionSelector {
  const t = text.toLowerCase();
  if (t === 'latest' || t === '') return { kind: 'latest' };
  if (t === 'draft') return { kind: 'draft' };
  const m = /^v?(\d{1,9})$/.exec(t);
  if (m && Number(m[1]) >= 1) return { kind: 'number', version: Number(m[1]) };
  throw new BadInput(`version: ${JSON.stringify(text)} in ${JSON.stringify(ref)} is not a version; use latest, draft, v1, v2, ... (or 1, 2, ...)`);
}

export const SLUG = /^[a-z0-9][a-z0-9_-]{1,62}[a-z0-9]$/;

/** A slug from a title: lower case, words joined by _, at most 64 characters. */
export function slugFromTitle(title: string): string {
  const base = title
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '')
    .slice(0, 56)
    .replace(/_+$/, '');
  return base.length >= 3 ? base : `dataset_${base}`.replace(/_+$/, '');
}
