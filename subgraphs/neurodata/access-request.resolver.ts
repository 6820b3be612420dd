import { Arg, Ctx, Mutation, Query, Resolver } from 'type-graphql';
import { Access, AccessClass } from '../../lib/access.js';
import type { RequestContext } from '../../lib/context.js';
import type { AccessRequestService } from './access-request.service.js';
import { AccessRequest, DatasetAccessView } from './access-request.types.js';
import { actorOf, toAccessRequest } from './dataset.mappers.js';

/** Access to restricted datasets: requests and the owner's or a maintainer's decisions. */
@Resolver()
export class AccessRequestResolver {
  constructor(private readonly service: AccessRequestService) {}

  @Query(() => DatasetAccessView, { description: 'Your access to a dataset and the status of your request; owners and maintainers also see every request.' })
  @Access(AccessClass.Academic)
  async datasetAccess(@Ctx() ctx: RequestContext, @Arg('dataset_id', () => String) datasetId: string): Promise<DatasetAccessView> {
    const v = await this.service.view(actorOf(ctx), datasetId);
    return {
      dataset_id: v.datasetId,
      visibility: v.visibility,
      access: {
        role: v.access.role,
        can_read_data: v.access.canReadData,
        can_modify: v.access.canModify,
        can_administer: v.access.canAdminister,
        request_status: v.request?.status ?? null,
      },
      request: v.request ? toAccessRequest(v.request) : null,
      requests: v.requests.map(toAccessRequest),
    };
  }

  @Mutation(() => AccessRequest, { description: "Asks for access to a restricted dataset's data; asking again after a denial re-opens the request." })
  @Access(AccessClass.Academic)
  async requestDatasetAccess(
    @Ctx() ctx: RequestContext,
    @Arg('dataset_id', () => String) datasetId: string,
    @Arg('message', () => String, { nullable: true, description: 'why you need it; shown to the owner and maintainers' }) message?: string,
  ): Promise<AccessRequest> {
    return toAccessRequest(await this.service.request(actorOf(ctx), datasetId, message));
  }

  @Mutation(() => AccessRequest, { description: 'Approves an access request (owner, maintainers, SuperUsers).' })
  @Access(AccessClass.Academic)
  async approveAccessRequest(
    @Ctx() ctx: RequestContext,
    @Arg('dataset_id', () => String) datasetId: string,
    @Arg('request_id', () => String) requestId: string,
    @Arg('message', () => String, { nullable: true }) message?: string,
  ): Promise<AccessRequest> {
    return toAccessRequest(await this.service.decide(actorOf(ctx), datasetId, requestId, 'approved', message));
  }

  @Mutation(() => AccessRequest, { description: 'Denies an access request (owner, maintainers, SuperUsers); an approved request denied later revokes the access.' })
  @Access(AccessClass.Academic)
  async denyAccessRequest(
    @Ctx() ctx: RequestContext,
    @Arg('dataset_id', () => String) datasetId: string,
    @Arg('request_id', () => String) requestId: string,
    @Arg('message', () => String, { nullable: true }) message?: string,
  ): Promise<AccessRequest> {
    return toAccessRequest(await this.service.decide(actorOf(ctx), datasetId, requestId, 'denied', message));
  }
}
