import { Arg, Args, Ctx, ID, Mutation, Query, Resolver } from 'type-graphql';
import { Access, AccessClass } from '../../lib/access.js';
import type { RequestContext } from '../../lib/context.js';
import type { ApiTokenRecord, ApiTokenService } from './api-token.service.js';
import { ApiToken, ApiTokenListArgs, ApiTokenPage, ApiTokenScopeValue, CreateApiTokenInput, CreatedApiToken } from './api-token.types.js';

export const toApiToken = (r: ApiTokenRecord): ApiToken => ({
  id: r.id,
  account_id: r.accountId,
  name: r.name,
  scope: r.scope as ApiTokenScopeValue,
  prefix: r.prefix,
  created_at: r.createdAt,
  expires_at: r.expiresAt,
  last_used_at: r.lastUsedAt,
  last_used_ip: r.lastUsedIp,
  revoked_at: r.revokedAt,
  revoked_reason: r.revokedReason,
});

/** Personal API tokens; only a signed-in person manages them (an API token is refused on every field here). */
@Resolver()
export class ApiTokenResolver {
  constructor(private readonly tokens: ApiTokenService) {}

  @Query(() => ApiTokenPage, { description: "The caller's API tokens, newest first (a SuperUser may name another account)." })
  @Access(AccessClass.User, { token: 'login', remoteCallers: false })
  async apiTokens(@Ctx() ctx: RequestContext, @Args(() => ApiTokenListArgs) args: ApiTokenListArgs): Promise<ApiTokenPage> {
    const page = await this.tokens.list(ctx.viewer!, args);
    return { ...page, items: page.items.map(toApiToken) };
  }

  @Mutation(() => CreatedApiToken, { description: 'Makes a personal API token for scripts; the token is in this answer only.' })
  @Access(AccessClass.User, { token: 'login' })
  async createApiToken(@Ctx() ctx: RequestContext, @Arg('input', () => CreateApiTokenInput) input: CreateApiTokenInput): Promise<CreatedApiToken> {
    const { token, record } = await this.tokens.create(ctx.viewer!, input);
    return { token, api_token: toApiToken(record) };
  }

  @Mutation(() => ApiToken, { description: 'Revokes an API token at once (its owner, or a SuperUser); revoking it again answers it unchanged.' })
  @Access(AccessClass.User, { token: 'login' })
  async revokeApiToken(@Ctx() ctx: RequestContext, @Arg('token_id', () => ID) tokenId: string): Promise<ApiToken> {
    return toApiToken(await this.tokens.revoke(ctx.viewer!, tokenId));
  }
}
