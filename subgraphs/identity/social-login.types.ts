import { Field, ID, ObjectType } from 'type-graphql';
import { SOCIAL_PROVIDERS } from '../../lib/config.js';
import { TokenPair } from './account.types.js';

@ObjectType({ description: 'An external identity linked to the account: a social or code-hosting login, or an ORCID iD.' })
export class LinkedIdentity {
  @Field(() => String, { description: `${SOCIAL_PROVIDERS.join(', ')} or orcid` })
  provider!: string;

  @Field(() => String, { description: 'issuer URL of the provider (for GitHub-style providers, its API URL)' })
  issuer!: string;

  @Field(() => String, { description: "the provider's stable id of the person (OpenID sub, or the numeric code-hosting user id)" })
  subject!: string;

  @Field(() => String, { nullable: true, description: 'login or preferred username at the provider' })
  username?: string | null;

  @Field(() => String, { nullable: true })
  name?: string | null;

  @Field(() => String, { nullable: true, description: 'the verified email the provider asserted when the identity was linked' })
  email?: string | null;

  @Field(() => Date)
  linked_at!: Date;
}

@ObjectType({ description: 'How the current account can log in.' })
export class LoginMethods {
  @Field(() => Boolean, { description: 'false for an account created by a social sign-in until a password is set (POST /v1/user/auth/password)' })
  has_password!: boolean;

  @Field(() => [LinkedIdentity])
  identities!: LinkedIdentity[];
}

@ObjectType({ description: 'A session started by a social sign-in: the usual token pair and the account it opens.' })
export class SocialSession extends TokenPair {
  @Field(() => ID)
  account_id!: string;

  @Field(() => Boolean, { description: 'true when this sign-in created the account' })
  account_created!: boolean;

  @Field(() => String)
  provider!: string;
}

@ObjectType({ description: "The outcome of a social login provider's callback." })
export class SocialLoginCallback {
  @Field(() => String, { description: 'login (a sign-in) or link (an identity linked to the account that started it)' })
  purpose!: string;

  @Field(() => String)
  provider!: string;

  @Field(() => ID)
  account_id!: string;

  @Field(() => Boolean, { description: 'true when the sign-in created the account' })
  account_created!: boolean;

  @Field(() => SocialSession, { nullable: true, description: 'a sign-in started with mode=json: the new session' })
  session?: SocialSession | null;

  @Field(() => String, { nullable: true, description: 'a sign-in started with mode=redirect: LOGIN_RETURN_URL with login_code and provider' })
  redirect_url?: string | null;

  @Field(() => String, { nullable: true, description: 'a sign-in started with mode=redirect: exchange it once, within a minute, at POST /v1/user/auth/exchange' })
  login_code?: string | null;

  @Field(() => Date, { nullable: true })
  login_code_expires_at?: Date | null;

  @Field(() => LinkedIdentity, { nullable: true, description: 'a link: the identity now linked' })
  identity?: LinkedIdentity | null;
}
