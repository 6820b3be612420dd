import type { Clock } from '../../lib/clock.js';
import { BadInput, Forbidden, NotFound } from '../../lib/errors.js';
import { newId } from '../../lib/ids.js';
import type { CollectionRecord, CollectionStore } from './store/collection.store.js';
import type { StoredDataset } from './store/dataset.store.js';
import type { Actor, DatasetService } from './dataset.service.js';
import { decideAccess } from './dataset-access.rules.js';
import { checkText, checkTitle, LIMITS } from './dataset-metadata.rules.js';

export interface CollectionView {
  collection: CollectionRecord;
  /** The datasets of the collection the viewer may see (an unpublished draft of someone else's stays hidden). */
  datasets: StoredDataset[];
}

const isUuidText = (s: string) => /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(s);

/** Named sets of datasets: private to their owner or public to every academic account. */
export class CollectionService {
  constructor(
    private readonly store: CollectionStore,
    private readonly datasets: DatasetService,
    private readonly clock: Clock,
  ) {}

  async list(actor: Actor, p: { limit: number; offset: number }): Promise<{ items: CollectionView[]; total: number }> {
    const { items, total } = await this.store.list(actor.id, actor.superuser, p);
    return { items: await this.withDatasets(actor, items), total };
  }

  async get(actor: Actor, id: string): Promise<CollectionView> {
    return (await this.withDatasets(actor, [await this.find(actor, id)]))[0];
  }

  async create(actor: Actor, input: { title: string; description?: string | null; visibility?: string | null; dataset_ids?: readonly string[] | null }): Promise<CollectionView> {
    const visibility = input.visibility ?? 'private';
    if (visibility !== 'public' && visibility !== 'private') throw new BadInput(`visibility: ${JSON.stringify(visibility)}; expected public or private`);
    const ids = [...new Set(input.dataset_ids ?? [])];
    if (ids.length > 1000) throw new BadInput('dataset_ids: at most 1000');
    const resolved = [];
    for (const d of ids) resolved.push((await this.datasets.view(actor, d)).dataset.id);
    const now = this.clock.now();
    const c = await this.store.insert({
      id: newId(),
      ownerId: actor.id,
      title: checkTitle(input.title),
      description: checkText('description', input.description, LIMITS.description),
      visibility,
      createdAt: now,
    });
    for (const d of resolved) await this.store.addItem(c.id, d, actor.id, now);
    return this.get(actor, c.id);
  }

  async delete(actor: Actor, id: string): Promise<CollectionRecord> {
    const c = await this.findOwned(actor, id);
    await this.store.delete(c.id);
    return c;
  }

  async addDataset(actor: Actor, id: string, datasetId: string): Promise<CollectionView> {
    const c = await this.findOwned(actor, id);
    const { dataset } = await this.datasets.view(actor, datasetId);
    await this.store.addItem(c.id, dataset.id, actor.id, this.clock.now());
    return this.get(actor, c.id);
  }

  async removeDataset(actor: Actor, id: string, datasetId: string): Promise<CollectionView> {
    const c = await this.findOwned(actor, id);
    const { dataset } = await this.datasets.view(actor, datasetId);
    if (!(await this.store.removeItem(c.id, dataset.id, this.clock.now()))) throw new NotFound('that dataset is not in this collection');
    return this.get(actor, c.id);
  }

  private async find(actor: Actor, id: string): Promise<CollectionRecord> {
    if (!isUuidText(String(id))) throw new NotFound(`collection ${JSON.stringify(id)} not found`);
    const c = await this.store.find(id);
    if (!c || (c.visibility === 'private' && c.ownerId !== actor.id && !actor.superuser)) throw new NotFound(`collection ${JSON.stringify(id)} not found`);
    return c;
  }

  private async findOwned(actor: Actor, id: string): Promise<CollectionRecord> {
    const c = await this.find(actor, id);
    if (c.ownerId !== actor.id && !actor.superuser) throw new Forbidden('only the collection\'s owner or a SuperUser may change it');
    return c;
  }

  private async withDatasets(actor: Actor, list: CollectionRecord[]): Promise<CollectionView[]> {
    const all = new Map((await this.datasets.findMany([...new Set(list.flatMap((c) => c.datasetIds))])).map((d) => [d.id, d]));
    return list.map((collection) => ({
      collection,
      datasets: collection.datasetIds.map((id) => all.get(id)).filter((d): d is StoredDataset => Boolean(d && decideAccess(actor, d, null).canSeeMetadata)),
    }));
  }
}
