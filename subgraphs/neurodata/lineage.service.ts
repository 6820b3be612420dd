import type { Clock } from '../../lib/clock.js';
import { BadInput, Conflict } from '../../lib/errors.js';
import { newId } from '../../lib/ids.js';
import type { LineageLinkRecord, LineageStore } from './store/lineage.store.js';
import type { DatasetStore, ProvenanceEvent, StoredDataset } from './store/dataset.store.js';
import type { Actor, DatasetService } from './dataset.service.js';
import { decideAccess } from './dataset-access.rules.js';
import { checkText, LIMITS } from './dataset-metadata.rules.js';

/** The relations a derived dataset may declare to its source (PROV: all are specialisations of wasDerivedFrom). */
export const LINEAGE_RELATIONS = ['derived_from', 'subset_of', 'reanalysis_of', 'merged_from', 'proofread_from', 'converted_from'] as const;

export interface LineageEntry {
  link: LineageLinkRecord;
  /** The dataset at the other end, or null when it was deleted. */
  other: StoredDataset | null;
  otherId: string;
  otherVersion: number | null;
}

/** Lineage between dataset versions, and the provenance record of a dataset. */
export class LineageService {
  constructor(
    private readonly datasets: DatasetService,
    private readonly store: LineageStore,
    private readonly events: DatasetStore,
    private readonly clock: Clock,
  ) {}

  async lineage(actor: Actor, datasetId: string): Promise<{ dataset: StoredDataset; upstream: LineageEntry[]; downstream: LineageEntry[] }> {
    const { dataset } = await this.datasets.view(actor, datasetId);
    const up = await this.store.upstream(dataset.id);
    const down = await this.store.downstream(dataset.id);
    const others = new Map((await this.datasets.findMany([...up.map((l) => l.sourceDatasetId), ...down.map((l) => l.datasetId)])).map((d) => [d.id, d]));
    const upstream = up.map((link) => ({ link, other: others.get(link.sourceDatasetId) ?? null, otherId: link.sourceDatasetId, otherVersion: link.sourceVersion }));
    // A derived dataset still in its first draft is its owners' business: it shows only to those who may see it.
    const downstream = down
      .filter((link) => {
        const d = others.get(link.datasetId);
        return d && decideAccess(actor, d, null).canSeeMetadata;
      })
      .map((link) => ({ link, other: others.get(link.datasetId)!, otherId: link.datasetId, otherVersion: others.get(link.datasetId)!.latestVersion }));
    return { dataset, upstream, downstream };
  }

  /** Declares that `datasetId` was derived from `source`@version; a link that would close a cycle is refused. */
  async declare(
    actor: Actor,
    datasetId: string,
    input: { derived_from: string; version?: string | null; relation?: string | null; description?: string | null },
  ): Promise<LineageLinkRecord> {
    const { dataset } = await this.datasets.viewForChange(actor, datasetId);
    const relation = input.relation?.trim() || 'derived_from';
    if (!(LINEAGE_RELATIONS as readonly string[]).includes(relation)) throw new BadInput(`relation: ${JSON.stringify(relation)}; expected one of ${LINEAGE_RELATIONS.join(', ')}`);
    if (!input.derived_from?.trim()) throw new BadInput('derived_from: the source dataset id or slug');
    const source = await this.datasets.resolve(actor, input.derived_from.trim(), input.version ?? null).catch((e) => {
      // Lineage names a source; it does not read its data: a restricted source may be named without access to it.
      if ((e as { extensions?: { code?: string } }).extensions?.code === 'FORBIDDEN') return null;
      throw e;
    });
    const src = source ? { id: source.dataset.id, title: source.dataset.title, version: source.version, isDraft: source.isDraft } : await this.restrictedSource(actor, input);
    if (src.isDraft) throw new BadInput('version: lineage points at a published version of the source, not its draft');
    if (src.id === dataset.id) throw new Conflict('a dataset cannot be derived from itself');
    if (await this.store.reaches(src.id, dataset.id)) throw new Conflict(`this link would close a cycle: ${src.title} is already derived, directly or not, from this dataset`);
    const now = this.clock.now();
    const link = await this.store.insert({
      id: newId(),
      datasetId: dataset.id,
      sourceDatasetId: src.id,
      sourceVersion: src.version,
      sourceTitle: src.title,
      relation,
      description: checkText('description', input.description, LIMITS.text) || null,
      createdBy: actor.id,
      createdAt: now,
    });
    await this.events.addEvent({
      id: newId(),
      datasetId: dataset.id,
      activity: 'derive',
      agentId: actor.id,
      version: dataset.draftVersion ?? dataset.latestVersion,
      details: { source_dataset_id: src.id, source_version: src.version, relation },
      at: now,
    });
    return link;
  }

  /** A restricted source the caller may not read: named by its published version, from its metadata alone. */
  private async restrictedSource(actor: Actor, input: { derived_from: string; version?: string | null }) {
    const { version } = await this.datasets.version(actor, input.derived_from.trim(), input.version);
    const { dataset } = await this.datasets.view(actor, version.datasetId);
    return { id: dataset.id, title: dataset.title, version: version.version, isDraft: false };
  }

  /** The dataset's provenance: the events as recorded, and a W3C PROV-JSON document built from them. */
  async provenance(actor: Actor, datasetId: string, baseUrl: string): Promise<{ dataset: StoredDataset; events: ProvenanceEvent[]; prov: Record<string, unknown> }> {
    const { dataset, access } = await this.datasets.view(actor, datasetId);
    const events = visibleEvents(await this.events.events(dataset.id), access);
    const upstream = await this.store.upstream(dataset.id);
    return { dataset, events, prov: provDocument(dataset, events, upstream, baseUrl) };
  }
}

/**
 * What of the record a viewer may see: file events (names, checksums, row counts) only with access to the data;
 * access requests and decisions (who asked) only for those who decide them; publications without row counts for
 * those who may not read the data.
 */
export function visibleEvents(events: ProvenanceEvent[], access: { canReadData: boolean; canModify: boolean }): ProvenanceEvent[] {
  return events
    .filter((e) => access.canModify || !e.activity.startsWith('access_'))
    .filter((e) => access.canReadData || (e.activity !== 'upload' && e.activity !== 'remove_asset'))
    .map((e) => (access.canReadData || e.activity !== 'publish' ? e : { ...e, details: {} }));
}

/**
 * PROV-JSON (https://www.w3.org/submissions/prov-json/): the dataset and each version are entities, each recorded
 * event an activity associated with its agent (an account), versions generated by their publication, and
 * declared lineage as wasDerivedFrom between versions.
 */
export function provDocument(d: StoredDataset, events: ProvenanceEvent[], upstream: LineageLinkRecord[], baseUrl: string): Record<string, unknown> {
  const ds = `nd:datasets/${d.id}`;
  const ver = (id: string, v: number) => `nd:datasets/${id}@v${v}`;
  const entity: Record<string, unknown> = { [ds]: { 'prov:type': 'nd:Dataset', 'prov:label': d.title, 'nd:slug': d.slug } };
  const activity: Record<string, unknown> = {};
  const agent: Record<string, unknown> = {};
  const wasGeneratedBy: Record<string, unknown> = {};
  const wasAssociatedWith: Record<string, unknown> = {};
  const wasAttributedTo: Record<string, unknown> = { [`_:attr-${d.id}`]: { 'prov:entity': ds, 'prov:agent': `nd:users/${d.ownerId}` } };
  const wasDerivedFrom: Record<string, unknown> = {};
  const specializationOf: Record<string, unknown> = {};
  agent[`nd:users/${d.ownerId}`] = { 'prov:type': 'prov:Person', 'nd:role': 'owner' };
  for (const e of events) {
    const a = `nd:activities/${e.id}`;
    activity[a] = { 'prov:type': `nd:${e.activity}`, 'prov:startTime': e.at.toISOString(), 'prov:endTime': e.at.toISOString(), ...(e.version ? { 'nd:version': e.version } : {}) };
    agent[`nd:users/${e.agentId}`] ??= { 'prov:type': 'prov:Person' };
    wasAssociatedWith[`_:assoc-${e.id}`] = { 'prov:activity': a, 'prov:agent': `nd:users/${e.agentId}` };
    if (e.activity === 'publish' && e.version) {
      entity[ver(d.id, e.version)] = { 'prov:type': 'nd:DatasetVersion', 'nd:version': e.version };
      wasGeneratedBy[`_:gen-${e.id}`] = { 'prov:entity': ver(d.id, e.version), 'prov:activity': a, 'prov:time': e.at.toISOString() };
      specializationOf[`_:spec-${e.id}`] = { 'prov:specificEntity': ver(d.id, e.version), 'prov:generalEntity': ds };
    }
    if (e.activity === 'create') wasGeneratedBy[`_:gen-${e.id}`] = { 'prov:entity': ds, 'prov:activity': a, 'prov:time': e.at.toISOString() };
  }
  for (const l of upstream) {
    entity[ver(l.sourceDatasetId, l.sourceVersion)] ??= { 'prov:type': 'nd:DatasetVersion', 'prov:label': l.sourceTitle };
    wasDerivedFrom[`_:der-${l.id}`] = { 'prov:generatedEntity': ds, 'prov:usedEntity': ver(l.sourceDatasetId, l.sourceVersion), 'nd:relation': l.relation };
  }
  return {
    prefix: { nd: `${baseUrl.replace(/\/+$/, '')}/v1/neurodata/`, prov: 'http://www.w3.org/ns/prov#' },
    entity,
    activity,
    agent,
    wasGeneratedBy,
    wasAssociatedWith,
    wasAttributedTo,
    wasDerivedFrom,
    specializationOf,
  };
}
