import { ArgsType, Field, ID, InputType, Int, ObjectType, registerEnumType } from 'type-graphql';
import { PageOf } from '../../schema/page.types.js';
import { API_TOKEN_DEFAULT_DAYS, API_TOKEN_MAX_DAYS } from './api-token.rules.js';

/** The scopes of lib/access.ts TokenScope, as GraphQL enum values. */
export enum ApiTokenScopeValue {
  read = 'read',
  compute = 'compute',
  write = 'write',
}
registerEnumType(ApiTokenScopeValue, {
  name: 'ApiTokenScope',
  description:
    'read: records, data, search and downloads; compute: read plus SyQL, jobs, graph, analytics and meta-analysis; write: compute plus creating and changing datasets and collections',
});

@ObjectType({ description: 'A personal API token, as listed: never the token itself, which is shown once when it is made.' })
export class ApiToken {
  @Field(() => ID)
  id!: string;

  @Field(() => ID, { description: 'the account the token acts for' })
  account_id!: string;

  @Field(() => String)
  name!: string;

  @Field(() => ApiTokenScopeValue)
  scope!: ApiTokenScopeValue;

  @Field(() => String, { description: 'the first characters of the token (ndt_ and six more), to tell tokens apart' })
  prefix!: string;

  @Field(() => Date)
  created_at!: Date;

  @Field(() => Date)
  expires_at!: Date;

  @Field(() => Date, { nullable: true, description: 'last use, to the minute; null when never used' })
  last_used_at!: Date | null;

  @Field(() => String, { nullable: true, description: 'the client address of the last use' })
  last_used_ip!: string | null;

  @Field(() => Date, { nullable: true })
  revoked_at!: Date | null;

  @Field(() => String, { nullable: true, description: 'owner | superuser | credentials_changed | account_deactivated' })
  revoked_reason!: string | null;
}

@ObjectType()
export class ApiTokenPage extends PageOf(ApiToken) {}

@ObjectType({ description: 'A new API token: `token` is shown this once and cannot be read again.' })
export class CreatedApiToken {
  @Field(() => String, { description: 'send as Authorization: Bearer <token>' })
  token!: string;

  @Field(() => ApiToken)
  api_token!: ApiToken;
}

@InputType({ description: 'A personal API token to make.' })
export class CreateApiTokenInput {
  @Field(() => String, { description: 'what it is for, 1..100 characters' })
  name!: string;

  @Field(() => ApiTokenScopeValue, { nullable: true, defaultValue: ApiTokenScopeValue.read })
  scope?: ApiTokenScopeValue;

  @Field(() => Int, { nullable: true, defaultValue: API_TOKEN_DEFAULT_DAYS, description: `1..${API_TOKEN_MAX_DAYS} (default ${API_TOKEN_DEFAULT_DAYS})` })
  expires_in_days?: number;
}

@ArgsType()
export class ApiTokenListArgs {
  @Field(() => ID, { nullable: true, description: "another account's tokens (SuperUser only); default the caller's" })
  user_id?: string | null;

  @Field(() => Boolean, { nullable: true, defaultValue: false, description: 'also the revoked and expired ones' })
  include_revoked?: boolean;

  @Field(() => Int, { nullable: true, description: '1..100 (default 50)' })
  limit?: number | null;

  @Field(() => Int, { nullable: true })
  offset?: number | null;
}
