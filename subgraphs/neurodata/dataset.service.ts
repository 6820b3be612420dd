import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../../lib/clock.js';
import { BadInput, Conflict, Forbidden, NotFound } from '../../lib/errors.js';
import { newId } from '../../lib/ids.js';
import type { DataRead } from '../../lib/objects/signed-url.js';
import type { DataTable } from './store/clickhouse/columns.js';
import type { DatasetListFilter, DatasetStore, StoredDataset } from './store/dataset.store.js';
import type { AccessRequestStore } from './store/access-request.store.js';
import type { DatasetMetadata, RowCounts, TermValue, VersionRecord, Visibility } from './dataset.model.js';
import { decideAccess, parseDatasetRef, restrictedMessage, slugFromTitle, SLUG, type DatasetAccess } from './dataset-access.rules.js';
import {
  LIMITS,
  REQUIRED_FOR_PUBLICATION,
  checkCoordinates,
  checkCreators,
  checkDoi,
  type Coordinates,
  checkKeywords,
  checkLicense,
  checkPublication,
  checkText,
  checkTitle,
} from './dataset-metadata.rules.js';

import type { Actor } from '../../lib/access.js';
export type { Actor };

/** The ontology check of metadata terms (the ontology subgraph's exported function). */
export type TermChecker = (values: {
  species?: readonly string[];
  brain_region?: readonly string[];
  microscopy?: readonly string[];
  neurotransmitter?: readonly string[];
}) => Promise<Partial<Record<'species' | 'brain_region' | 'microscopy' | 'neurotransmitter', Array<{ id: string; vocabulary: string; code: string; label: string; uri?: string | null }>>>>;

/** What the service needs of the column store (store/data.store.ts). */
export interface VersionData {
  dropVersion(datasetId: string, version: number): Promise<void>;
  dropTableVersion(table: DataTable, datasetId: string, version: number): Promise<void>;
  copyVersion(datasetId: string, from: number, to: number): Promise<void>;
  rowCounts(datasetId: string, version: number): Promise<RowCounts>;
}

/** What the service needs of object storage. */
export interface DatasetObjects {
  deletePrefix(prefix: string): Promise<number>;
}

export interface MetadataInput {
  title?: string | null;
  description?: string | null;
  species?: readonly string[] | null;
  brain_regions?: readonly string[] | null;
  microscopy?: readonly string[] | null;
  neurotransmitters?: readonly string[] | null;
  keywords?: readonly string[] | null;
  license?: string | null;
  creators?: ReadonlyArray<{ name?: string | null; kind?: string | null; orcid?: string | null; affiliation?: string | null }> | null;
  related_publication?: { doi?: string | null; citation?: string | null; url?: string | null; year?: number | null } | null;
  doi?: string | null;
  coordinate_unit?: string | null;
  voxel_size?: readonly number[] | null;
  bounds?: { min?: readonly number[] | null; max?: readonly number[] | null } | null;
}

export interface CreateInput extends MetadataInput {
  title: string;
  slug?: string | null;
  visibility?: Visibility | null;
  maintainer_ids?: readonly string[] | null;
}

export interface UpdateInput extends MetadataInput {
  slug?: string | null;
  visibility?: Visibility | null;
  maintainer_ids?: readonly string[] | null;
}

/** A dataset as one viewer sees it. */
export interface ViewedDataset {
  dataset: StoredDataset;
  access: DatasetAccess;
  requestStatus: string | null;
}

/** The version a read resolved to. */
export interface ResolvedVersion extends ViewedDataset {
  version: number;
  isDraft: boolean;
}

const PAGE_MAX = 200;

export function page(limit?: number | null, offset?: number | null): { limit: number; offset: number } {
  const l = limit ?? 50;
  const o = offset ?? 0;
  if (!Number.isInteger(l) || l < 1 || l > PAGE_MAX) throw new BadInput(`limit: 1..${PAGE_MAX} (got ${l})`);
  if (!Number.isInteger(o) || o < 0 || o > 1_000_000) throw new BadInput(`offset: 0..1000000 (got ${o})`);
  return { limit: l, offset: o };
}

function toTermValues(list: Array<{ id: string; vocabulary: string; code: string; label: string; uri?: string | null }> | undefined): TermValue[] {
  return (list ?? []).map((t) => ({ termId: t.id, vocabulary: t.vocabulary, code: t.code, label: t.label, uri: t.uri ?? null }));
}

/** Datasets read per statement when the whole visible catalogue is summarised. */
const CATALOGUE_PAGE = 500;

/** An ingest whose heartbeat is older than this belongs to a process that stopped (table-ingest.service.ts renews it). */
export const INGEST_STALE_MS = 2 * 60_000;

/** A published dataset as the analytics catalogue summarises it. */
export interface CatalogueEntry {
  datasetId: string;
  slug: string;
  title: string;
  visibility: Visibility;
  version: number;
  metadata: DatasetMetadata;
  rowCounts: RowCounts | null;
}

const isUuidText = (s: string) => /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(s);

/**
 * Datasets: the record, its lifecycle (draft -> published versions), who may see and change it. Every other
 * service of this subgraph, and every other subgraph through index.ts, reaches a dataset through `view`/`resolve`
 * here, so the access decision is made in one place.
 */
export class DatasetService {
  constructor(
    private readonly store: DatasetStore,
    private readonly requests: AccessRequestStore,
    private readonly data: VersionData,
    private readonly objects: DatasetObjects,
    private readonly checkTerms: TermChecker,
    private readonly accountsExist: (ids: string[]) => Promise<Set<string>>,
    private readonly clock: Clock,
    private readonly log: FastifyBaseLogger,
    /** Told after a commit changed what search shows of a dataset (an external search engine mirrors it). */
    private readonly searchChanged: (datasetId: string) => void = () => {},
  ) {}

  /** The dataset by id or slug with the viewer's access; NotFound when absent or not visible to the viewer. */
  async view(actor: Actor, idOrSlug: string): Promise<ViewedDataset> {
    const key = String(idOrSlug ?? '').trim();
    if (!key || key.length > 200) throw new BadInput('dataset_id: expected a dataset id or slug');
    const dataset = await this.store.find(key);
    if (!dataset) throw new NotFound(`dataset ${JSON.stringify(key)} not found`);
    const [viewed] = await this.present(actor, [dataset]);
    if (!viewed) throw new NotFound(`dataset ${JSON.stringify(key)} not found`);
    return viewed;
  }

  /**
   * Datasets as this viewer sees them: owners, maintainers and SuperUsers see the open draft's metadata; everyone
   * else sees the metadata of the latest published version, so unpublished edits never leak. Drafts the viewer may
   * not see are left out.
   */
  async present(actor: Actor, list: StoredDataset[]): Promise<ViewedDataset[]> {
    const restricted = list.filter((d) => d.visibility === 'restricted' && d.ownerId !== actor.id).map((d) => d.id);
    const statuses = await this.requests.statusesFor(restricted, actor.id);
    const decided = list.map((dataset) => {
      const requestStatus = statuses.get(dataset.id) ?? null;
      return { dataset, access: decideAccess(actor, dataset, requestStatus), requestStatus };
    });
    const visible = decided.filter((v) => v.access.canSeeMetadata);
    const stale = visible.filter((v) => !v.access.canModify && v.dataset.draftVersion !== null && v.dataset.latestVersion !== null).map((v) => v.dataset.id);
    const published = await this.store.latestMetadata(stale);
    return visible.map((v) => {
      const m = published.get(v.dataset.id);
      const dataset = v.access.canModify ? v.dataset : { ...v.dataset, ...(m ?? {}), draftVersion: null };
      return { ...v, dataset };
    });
  }

  /** Like `view`, and the viewer must be allowed to read the data (403 with how to request access otherwise). */
  async viewData(actor: Actor, idOrSlug: string): Promise<ViewedDataset> {
    const v = await this.view(actor, idOrSlug);
    if (!v.access.canReadData) throw new Forbidden(restrictedMessage(v.dataset.id, v.requestStatus));
    return v;
  }

  /** Like `view`, and the viewer must be the owner, a maintainer or a SuperUser. */
  async viewForChange(actor: Actor, idOrSlug: string): Promise<ViewedDataset> {
    const v = await this.view(actor, idOrSlug);
    if (!v.access.canModify) throw new Forbidden('only the dataset\'s owner, its maintainers and SuperUsers may change it');
    return v;
  }

  /**
   * `dataset@version` for reading data: the latest published version by default, a given published version, or
   * `draft` (owner, maintainers, SuperUsers). Throws NotFound, Forbidden (restricted) or Conflict (nothing published).
   */
  async resolve(actor: Actor, ref: string, version?: string | number | null): Promise<ResolvedVersion> {
    const { dataset: key, selector } = parseDatasetRef(ref, version);
    const v = await this.viewData(actor, key);
    const d = v.dataset;
    if (selector.kind === 'draft') {
      if (!v.access.canModify) throw new NotFound(`dataset ${JSON.stringify(key)} has no draft you may read; published versions: ${d.latestVersion ? `v1..v${d.latestVersion}` : 'none'}`);
      if (d.draftVersion === null) throw new NotFound(`dataset ${JSON.stringify(key)} has no open draft: nothing changed since v${d.latestVersion}`);
      if ((await this.store.derivations.staleVersion(d.id)) === d.draftVersion) {
        throw new Conflict(
          `the draft of ${d.slug} has more synapses than are summarised after each upload: its per-ROI connections, counts and connections are computed when it is published; read it then, or read the published version`,
        );
      }
      return { ...v, version: d.draftVersion, isDraft: true };
    }
    if (d.latestVersion === null) {
      throw new Conflict(`dataset ${JSON.stringify(key)} has no published version yet; publish it (POST /v1/neurodata/datasets/${d.id}/publish) or address its draft as ${d.slug}@draft`);
    }
    if (selector.kind === 'latest') return { ...v, version: d.latestVersion, isDraft: false };
    if (selector.version > d.latestVersion) throw new NotFound(`dataset ${JSON.stringify(key)} has no version v${selector.version}; the latest is v${d.latestVersion}`);
    return { ...v, version: selector.version, isDraft: false };
  }

  /**
   * The coordinate declaration (unit, voxel size, bounds) of one version of a dataset: a published version's as
   * frozen at publication, the open draft's as it stands. No access check: for the ingest of a draft and for reads
   * already resolved. Throws NotFound when the version does not exist.
   */
  async versionCoordinates(datasetId: string, version: number): Promise<Coordinates> {
    const d = await this.store.find(datasetId);
    if (!d) throw new NotFound(`dataset ${JSON.stringify(datasetId)} not found`);
    if (d.draftVersion === version) return coordinatesOf(d);
    const v = await this.store.version(d.id, version);
    if (!v) throw new NotFound(`dataset ${JSON.stringify(datasetId)} has no version v${version}`);
    return coordinatesOf(v.metadata);
  }

  /**
   * Whether the actor may still read the data of dataset versions read earlier (by a job, for a download URL), by
   * the decision as it stands now: throws NotFound (the dataset is gone or invisible to them, or a draft they may no
   * longer change) or Forbidden with how to ask for access (restricted), as reading the data directly would.
   */
  async checkStillReadable(actor: Actor, reads: readonly DataRead[]): Promise<void> {
    for (const r of reads) {
      const v = await this.viewData(actor, r.datasetId);
      if (r.draft && !v.access.canModify) throw new NotFound(`dataset ${JSON.stringify(r.datasetId)} has no draft you may read`);
    }
  }

  async create(actor: Actor, input: CreateInput): Promise<StoredDataset> {
    const metadata = await this.buildMetadata(null, input, true);
    const slug = input.slug?.trim() ? this.checkSlug(input.slug) : await this.freeSlug(slugFromTitle(metadata.title));
    const maintainerIds = await this.checkMaintainers(input.maintainer_ids, actor.id);
    const now = this.clock.now();
    const dataset = await this.store.transaction(async (tx) => {
      const d = await tx.insert({ id: newId(), slug, metadata, ownerId: actor.id, maintainerIds, visibility: this.checkVisibility(input.visibility) ?? 'public', now });
      await tx.addEvent({ id: newId(), datasetId: d.id, activity: 'create', agentId: actor.id, version: 1, details: { title: d.title, slug: d.slug }, at: now });
      return d;
    });
    this.log.info({ datasetId: dataset.id, slug }, 'dataset created');
    return dataset;
  }

  /** Metadata edits go into the open draft (opened from the latest version when there is none). */
  async update(actor: Actor, idOrSlug: string, input: UpdateInput): Promise<StoredDataset> {
    const { dataset, access } = await this.viewForChange(actor, idOrSlug);
    if (input.maintainer_ids && !access.canAdminister) throw new Forbidden('only the owner or a SuperUser may change the maintainers');
    const metadata = await this.buildMetadata(dataset, input, false);
    const slug = input.slug?.trim() ? this.checkSlug(input.slug) : undefined;
    const maintainerIds = input.maintainer_ids ? await this.checkMaintainers(input.maintainer_ids, dataset.ownerId) : undefined;
    const visibility = this.checkVisibility(input.visibility);
    const now = this.clock.now();
    const updated = await this.store.transaction(async (tx) => {
      const locked = (await tx.find(dataset.id, { forUpdate: true }))!;
      const draftVersion = await this.openDraft(tx, locked);
      const d = await tx.update(dataset.id, { metadata, slug, maintainerIds, visibility }, now);
      const changed = Object.keys(input).filter((k) => (input as Record<string, unknown>)[k] !== undefined);
      await tx.addEvent({ id: newId(), datasetId: d.id, activity: 'update', agentId: actor.id, version: draftVersion, details: { fields: changed }, at: now });
      // Search shows the published metadata, but visibility and slug change at once.
      await tx.syncSearch(d.id);
      return d;
    });
    this.searchChanged(updated.id);
    return updated;
  }

  /**
   * Opens the draft that edits go into: nothing to do when one is open; after a publication, version N+1 starts
   * as a copy of version N (its files and its rows in the column store). Call inside a transaction holding the
   * dataset's row lock. Returns the draft's version number.
   */
  async openDraft(tx: DatasetStore, d: StoredDataset): Promise<number> {
    if (d.draftVersion !== null) return d.draftVersion;
    const from = d.latestVersion!;
    const to = from + 1;
    // The copy drops whatever a failed earlier attempt left under the new number first.
    await this.data.copyVersion(d.id, from, to);
    await tx.copyAssets(d.id, from, to, (n) => Array.from({ length: n }, () => newId()));
    await tx.update(d.id, { draftVersion: to }, this.clock.now());
    return to;
  }

  async list(actor: Actor, filter: DatasetListFilter['kind'], p: { limit: number; offset: number }, visibility?: Visibility | null) {
    const f: DatasetListFilter =
      filter === 'visible'
        ? { kind: 'visible', userId: actor.id, superuser: actor.superuser, visibility: this.checkVisibility(visibility) }
        : filter === 'modifiable'
          ? { kind: 'modifiable', userId: actor.id, superuser: actor.superuser }
          : { kind: filter, userId: actor.id };
    return this.store.list(f, p);
  }

  /**
   * Every published dataset the viewer may see, with its newest published version's metadata, and that version's
   * row counts when the viewer may read its data (null otherwise: counts are data, as in a version's view).
   */
  async catalogue(actor: Actor): Promise<CatalogueEntry[]> {
    const out: CatalogueEntry[] = [];
    for (let offset = 0; ; offset += CATALOGUE_PAGE) {
      const page = await this.store.list({ kind: 'visible', userId: actor.id, superuser: actor.superuser }, { limit: CATALOGUE_PAGE, offset });
      const viewed = (await this.present(actor, page.items)).filter((v) => v.dataset.latestVersion !== null);
      const versions = await this.store.latestVersions(viewed.map((v) => v.dataset.id));
      for (const v of viewed) {
        const latest = versions.get(v.dataset.id);
        if (!latest) continue;
        out.push({
          datasetId: v.dataset.id,
          slug: v.dataset.slug,
          title: latest.metadata.title,
          visibility: v.dataset.visibility,
          version: latest.version,
          metadata: latest.metadata,
          rowCounts: v.access.canReadData ? latest.rowCounts : null,
        });
      }
      if (page.items.length < CATALOGUE_PAGE) return out;
    }
  }

  /** The caller's datasets with an open draft that cannot be published yet, each with what it lacks. */
  async incomplete(actor: Actor, p: { limit: number; offset: number }): Promise<{ items: Array<{ dataset: StoredDataset; missing: string[] }>; total: number }> {
    const out: Array<{ dataset: StoredDataset; missing: string[] }> = [];
    // Completeness needs the column store's counts, so it is decided here over the caller's open drafts.
    let offset = 0;
    for (;;) {
      const batch = await this.store.list({ kind: 'incomplete', userId: actor.id }, { limit: PAGE_MAX, offset });
      for (const d of batch.items) {
        const missing = await this.missingForPublication(d);
        if (missing.length) out.push({ dataset: d, missing });
      }
      offset += batch.items.length;
      if (!batch.items.length || offset >= batch.total) break;
    }
    return { items: out.slice(p.offset, p.offset + p.limit), total: out.length };
  }

  /** What a draft lacks before it can be published: metadata fields by name, then data. Empty when complete. */
  async missingForPublication(d: StoredDataset): Promise<string[]> {
    const missing: string[] = [];
    const has: Record<(typeof REQUIRED_FOR_PUBLICATION)[number], boolean> = {
      title: Boolean(d.title),
      description: d.description.trim().length >= 20,
      species: d.species.length > 0,
      brain_regions: d.brainRegions.length > 0,
      microscopy: d.microscopy.length > 0,
      license: Boolean(d.license),
      creators: d.creators.length > 0,
    };
    const why: Record<string, string> = {
      description: 'description: at least 20 characters',
      species: 'species: at least one term',
      brain_regions: 'brain_regions: at least one term',
      microscopy: 'microscopy: at least one technique',
      license: 'license: an SPDX identifier',
      creators: 'creators: at least one',
    };
    for (const f of REQUIRED_FOR_PUBLICATION) if (!has[f]) missing.push(why[f] ?? f);
    if (d.draftVersion !== null) {
      const counts = await this.data.rowCounts(d.id, d.draftVersion);
      const synapseLevel = counts.synapses > 0 || counts.roiConnections > 0;
      if (synapseLevel && counts.neuronAnnotations === 0) {
        missing.push('data: a neuron table (neurons*, classification*: the neurons the synapses connect, with their annotations)');
      } else if (counts.neurons === 0 && counts.morphologies === 0) missing.push('data: upload neurons.csv and connections.csv, or SWC morphologies');
      else if (counts.neuronAnnotations > 0 && !synapseLevel && counts.morphologies === 0) missing.push('data: synapses* or per-ROI connections* (the neurons are annotated, their connections are not uploaded)');
      else if (counts.neurons > 0 && counts.connections === 0 && counts.morphologies === 0 && !synapseLevel) missing.push('data: connections.csv (neurons are uploaded, connections are not)');
    }
    return missing;
  }

  /** Work a publication waits for before its transaction: the derived tables a large synapse-level draft put off. */
  private beforePublish: (actor: Actor, d: StoredDataset) => Promise<void> = async () => undefined;

  onBeforePublish(fn: (actor: Actor, d: StoredDataset) => Promise<void>): void {
    this.beforePublish = fn;
  }

  /** Freezes the open draft as the next immutable version. */
  async publish(actor: Actor, idOrSlug: string, note?: string | null): Promise<VersionRecord & { note: string | null }> {
    const { dataset } = await this.viewForChange(actor, idOrSlug);
    // Outside the transaction: rebuilding a large draft's derived tables takes minutes.
    if (dataset.draftVersion !== null && (await this.missingForPublication(dataset)).length === 0) await this.beforePublish(actor, dataset);
    const noteText = checkText('note', note, LIMITS.text) || null;
    const now = this.clock.now();
    const published = await this.store.transaction(async (tx) => {
      const d = (await tx.find(dataset.id, { forUpdate: true }))!;
      if (d.draftVersion === null) throw new Conflict(`nothing to publish: no change since v${d.latestVersion}; edit the dataset or upload files to open a draft`);
      const ingest = await tx.currentIngest(d.id);
      if (ingest) {
        const stale = this.clock.now().getTime() - ingest.heartbeatAt.getTime() > INGEST_STALE_MS;
        throw new Conflict(
          stale
            ? `the ingest of ${ingest.filename} stopped before it finished; upload a file again (it rebuilds the draft's tables first), then publish`
            : `the draft is ingesting ${ingest.filename}; publish when it has finished`,
        );
      }
      const missing = await this.missingForPublication(d);
      if (missing.length) throw new Conflict(`the draft cannot be published yet; missing: ${missing.join('; ')}`);
      if ((await tx.derivations.staleVersion(d.id)) === d.draftVersion) throw new Conflict('a file was uploaded while the draft was being prepared for publication; publish again');
      const assets = (await tx.assets(d.id, d.draftVersion)).map(({ version: _v, summary: _s, ...a }) => a);
      const rowCounts = await this.data.rowCounts(d.id, d.draftVersion);
      const metadata: DatasetMetadata = pickMetadata(d);
      const v = { datasetId: d.id, version: d.draftVersion, metadata, assets, rowCounts, note: noteText, publishedAt: now, publishedBy: actor.id };
      await tx.insertVersion(v);
      await tx.addEvent({ id: newId(), datasetId: d.id, activity: 'publish', agentId: actor.id, version: v.version, details: { row_counts: rowCounts, assets: assets.length }, at: now });
      await tx.syncSearch(d.id);
      return v;
    });
    this.searchChanged(dataset.id);
    this.log.info({ datasetId: dataset.id, version: published.version }, 'dataset version published');
    return published;
  }

  /** The published versions; their files and row counts are the data's, shown only to those who may read it. */
  async versions(actor: Actor, idOrSlug: string) {
    const { dataset, access } = await this.view(actor, idOrSlug);
    return { dataset, access, versions: await this.store.versions(dataset.id) };
  }

  /** One published version, by `dataset@version` or a separate version (default latest). */
  async version(actor: Actor, ref: string, versionText?: string | null) {
    const { dataset: idOrSlug, selector } = parseDatasetRef(ref, versionText);
    if (selector.kind === 'draft') throw new BadInput('version: a published version (v1, v2, ... or latest); the draft is not a version yet');
    const { dataset, access } = await this.view(actor, idOrSlug);
    const version = selector.kind === 'number' ? selector.version : dataset.latestVersion;
    if (version === null) throw new NotFound(`dataset ${JSON.stringify(idOrSlug)} has no published version yet`);
    const v = await this.store.version(dataset.id, version);
    if (!v) throw new NotFound(`dataset ${JSON.stringify(idOrSlug)} has no version v${version}${dataset.latestVersion ? `; the latest is v${dataset.latestVersion}` : ''}`);
    return { dataset, access, version: v };
  }

  /**
   * Renames a dataset whose slug a release corrected (a shipped dataset): `from` becomes a former slug that still
   * resolves to it, and its id, versions, files and grants stay. Returns false, changing nothing, unless `from` is
   * a dataset's own slug and `to` nobody's.
   */
  async renameSlug(from: string, to: string): Promise<boolean> {
    const target = this.checkSlug(to);
    const renamed = await this.store.transaction(async (tx) => {
      const d = await tx.find(from, { forUpdate: true });
      if (!d || d.slug !== from || (await tx.find(target))) return undefined;
      await tx.renameSlug(d.id, from, target, this.clock.now());
      await tx.syncSearch(d.id);
      return d;
    });
    if (!renamed) return false;
    this.searchChanged(renamed.id);
    this.log.info({ datasetId: renamed.id, from, to: target }, 'dataset renamed');
    return true;
  }

  /** Deletes the dataset with its versions, data and objects; every route answers 404 for it afterwards. */
  async delete(actor: Actor, idOrSlug: string): Promise<{ id: string; slug: string }> {
    const { dataset, access } = await this.view(actor, idOrSlug);
    if (!access.canAdminister) throw new Forbidden('only the dataset\'s owner or a SuperUser may delete it');
    // The search catalogue row goes with the record (a cascade), in the same statement.
    await this.store.delete(dataset.id);
    this.searchChanged(dataset.id);
    // The record is gone first, so nothing can read half-deleted data; the rest is cleaned up after.
    const last = Math.max(dataset.latestVersion ?? 0, dataset.draftVersion ?? 0);
    for (let v = 1; v <= last; v++) await this.data.dropVersion(dataset.id, v);
    await this.objects.deletePrefix(`datasets/${dataset.id}/`);
    this.log.info({ datasetId: dataset.id }, 'dataset deleted');
    return { id: dataset.id, slug: dataset.slug };
  }

  /** The published datasets among ids, for batch loading (entity references). */
  async findMany(ids: readonly string[]): Promise<StoredDataset[]> {
    return this.store.findMany(ids.filter(isUuidText));
  }

  private async buildMetadata(current: StoredDataset | null, input: MetadataInput, creating: boolean): Promise<DatasetMetadata> {
    const base: DatasetMetadata = current
      ? pickMetadata(current)
      : { title: '', description: '', species: [], brainRegions: [], microscopy: [], neurotransmitters: [], keywords: [], license: null, creators: [], relatedPublication: null, doi: null };
    const m: DatasetMetadata = { ...base };
    if (creating || input.title !== undefined) m.title = checkTitle(input.title);
    if (input.description !== undefined) m.description = checkText('description', input.description, LIMITS.description);
    if (input.keywords !== undefined) m.keywords = checkKeywords(input.keywords);
    if (input.license !== undefined) m.license = checkLicense(input.license);
    if (input.creators !== undefined) m.creators = checkCreators(input.creators);
    if (input.related_publication !== undefined) m.relatedPublication = checkPublication(input.related_publication);
    if (input.doi !== undefined) m.doi = checkDoi('doi', input.doi);
    Object.assign(m, checkCoordinates(coordinatesOf(m), input));
    const termInput: Parameters<TermChecker>[0] = {};
    const lists = { species: input.species, brain_region: input.brain_regions, microscopy: input.microscopy, neurotransmitter: input.neurotransmitters };
    for (const [field, list] of Object.entries(lists) as Array<[keyof typeof lists, readonly string[] | null | undefined]>) {
      if (list === undefined) continue;
      const values = [...new Set((list ?? []).map((s) => String(s).trim()).filter(Boolean))];
      if (values.length > LIMITS.terms) throw new BadInput(`${field === 'brain_region' ? 'brain_regions' : field}: at most ${LIMITS.terms} terms`);
      termInput[field] = values;
    }
    if (Object.keys(termInput).length) {
      const terms = await this.checkTerms(termInput);
      if (termInput.species) m.species = toTermValues(terms.species);
      if (termInput.brain_region) m.brainRegions = toTermValues(terms.brain_region);
      if (termInput.microscopy) m.microscopy = toTermValues(terms.microscopy);
      if (termInput.neurotransmitter) m.neurotransmitters = toTermValues(terms.neurotransmitter);
    }
    return m;
  }

  private checkSlug(slug: string): string {
    const s = slug.trim();
    if (!SLUG.test(s)) throw new BadInput(`slug: ${JSON.stringify(s)}: 3 to 64 characters, lower-case letters, digits, _ and -, starting and ending with a letter or digit`);
    if (isUuidText(s)) throw new BadInput('slug: must not look like a dataset id');
    return s;
  }

  private async freeSlug(base: string): Promise<string> {
    for (let i = 1; i < 100; i++) {
      const candidate = i === 1 ? base : `${base}_${i}`;
      if (!(await this.store.find(candidate))) return candidate;
    }
    return `${base}_${newId().slice(-8)}`;
  }

  private checkVisibility(v: string | null | undefined): Visibility | undefined {
    if (v === null || v === undefined) return undefined;
    if (v !== 'public' && v !== 'restricted') throw new BadInput(`visibility: ${JSON.stringify(v)}; expected public or restricted`);
    return v;
  }

  private async checkMaintainers(ids: readonly string[] | null | undefined, ownerId: string): Promise<string[]> {
    const list = [...new Set((ids ?? []).map(String))].filter((id) => id !== ownerId);
    if (list.length > 50) throw new BadInput('maintainer_ids: at most 50');
    const bad = list.find((id) => !isUuidText(id));
    if (bad) throw new BadInput(`maintainer_ids: ${JSON.stringify(bad)} is not an account id`);
    if (list.length) {
      const known = await this.accountsExist(list);
      const unknown = list.filter((id) => !known.has(id));
      if (unknown.length) throw new BadInput(`maintainer_ids: no account ${unknown.join(', ')}`);
    }
    return list;
  }
}

export function pickMetadata(d: DatasetMetadata): DatasetMetadata {
  return {
    title: d.title,
    description: d.description,
    species: d.species,
    brainRegions: d.brainRegions,
    microscopy: d.microscopy,
    neurotransmitters: d.neurotransmitters,
    keywords: d.keywords,
    license: d.license,
    creators: d.creators,
    relatedPublication: d.relatedPublication,
    doi: d.doi,
    ...coordinatesOf(d),
  };
}

/** The coordinate declaration of metadata (null where not declared, also in metadata older than these fields). */
export function coordinatesOf(m: DatasetMetadata): Coordinates {
  return { coordinateUnit: m.coordinateUnit ?? null, voxelSize: m.voxelSize ?? null, bounds: m.bounds ?? null };
}
