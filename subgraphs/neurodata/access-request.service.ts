import type { Clock } from '../../lib/clock.js';
import { BadInput, Conflict, NotFound } from '../../lib/errors.js';
import { newId } from '../../lib/ids.js';
import type { AccessRequestRecord, AccessRequestStore } from './store/access-request.store.js';
import type { DatasetStore } from './store/dataset.store.js';
import type { Actor, DatasetService } from './dataset.service.js';
import type { DatasetAccess } from './dataset-access.rules.js';
import { checkText, LIMITS } from './dataset-metadata.rules.js';

export interface AccessView {
  datasetId: string;
  visibility: string;
  access: DatasetAccess;
  /** The caller's own request, if any. */
  request: AccessRequestRecord | null;
  /** Every request, for the owner, maintainers and SuperUsers; empty for others. */
  requests: AccessRequestRecord[];
}

/** Requests to read a restricted dataset's data, and the owner's or a maintainer's decision on them. */
export class AccessRequestService {
  constructor(
    private readonly datasets: DatasetService,
    private readonly store: AccessRequestStore,
    private readonly events: DatasetStore,
    private readonly clock: Clock,
  ) {}

  async request(actor: Actor, datasetId: string, message?: string | null): Promise<AccessRequestRecord> {
    const { dataset, access } = await this.datasets.view(actor, datasetId);
    if (access.canModify) throw new Conflict('you already have full access to this dataset (owner, maintainer or SuperUser)');
    if (dataset.visibility === 'public') throw new Conflict('this dataset is public: its data is open to every academic account, no request is needed');
    const text = checkText('message', message, LIMITS.text) || null;
    const now = this.clock.now();
    const r = await this.store.upsert({ id: newId(), datasetId: dataset.id, requesterId: actor.id, message: text, now });
    if (r.createdAt.getTime() === now.getTime() || r.updatedAt.getTime() === now.getTime()) {
      await this.events.addEvent({ id: newId(), datasetId: dataset.id, activity: 'access_request', agentId: actor.id, version: null, details: { request_id: r.id }, at: now });
    }
    return r;
  }

  async view(actor: Actor, datasetId: string): Promise<AccessView> {
    const { dataset, access } = await this.datasets.view(actor, datasetId);
    const own = (await this.store.forRequester(dataset.id, actor.id)) ?? null;
    return { datasetId: dataset.id, visibility: dataset.visibility, access, request: own, requests: access.canModify ? await this.store.forDataset(dataset.id) : [] };
  }

  async decide(actor: Actor, datasetId: string, requestId: string, status: 'approved' | 'denied', message?: string | null): Promise<AccessRequestRecord> {
    const { dataset } = await this.datasets.viewForChange(actor, datasetId);
    if (!/^[0-9a-f-]{36}$/i.test(String(requestId))) throw new BadInput('request_id: expected an access request id');
    const r = await this.store.find(dataset.id, requestId);
    if (!r) throw new NotFound(`access request ${requestId} not found for this dataset`);
    const now = this.clock.now();
    const decided = await this.store.decide(r.id, { status, decidedBy: actor.id, responseMessage: checkText('message', message, LIMITS.text) || null, now });
    await this.events.addEvent({
      id: newId(),
      datasetId: dataset.id,
      activity: 'access_decision',
      agentId: actor.id,
      version: null,
      details: { request_id: r.id, requester_id: r.requesterId, status },
      at: now,
    });
    return decided;
  }
}
