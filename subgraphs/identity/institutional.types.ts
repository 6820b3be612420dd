import { ArgsType, Field, ObjectType } from 'type-graphql';
import { AccountTypeValue } from './account.types.js';
import type { CallbackParams } from './login-flow.service.js';

/**
 * What a login provider's callback carries (RFC 6749 4.1.2, RFC 9207 `iss`), and the browser-binding value the
 * flow was started with (the callback route reads it from the login_binding cookie). Declared in the order the
 * published schema lists the arguments.
 */
@ArgsType()
export class ProviderCallbackArgs implements CallbackParams {
  @Field(() => String, { nullable: true })
  browser_binding!: string | null;

  @Field(() => String, { nullable: true })
  error_description!: string | null;

  @Field(() => String, { nullable: true })
  error!: string | null;

  @Field(() => String, { nullable: true })
  iss!: string | null;

  @Field(() => String, { nullable: true })
  code!: string | null;

  @Field(() => String)
  state!: string;
}

@ObjectType({ description: 'Where to send the browser to continue at the login provider.' })
export class AuthorizationRedirect {
  @Field(() => String, { description: 'the provider URL with client id, redirect URI, scope, state, nonce and the S256 PKCE challenge' })
  authorization_url!: string;

  @Field(() => Date, { description: 'after this time the callback is refused and the request must be started again' })
  expires_at!: Date;
}

@ObjectType({ description: 'The academic standing of the current account and the institutional login that established it.' })
export class InstitutionalVerification {
  @Field(() => Boolean, { description: 'whether the account is verified (institution-verified, or a Service account)' })
  verified!: boolean;

  @Field(() => AccountTypeValue, { description: 'as stored now; an access token issued earlier may carry an older value' })
  account_type!: AccountTypeValue;

  @Field(() => String, { nullable: true, description: 'issuer URL of the institutional provider' })
  issuer?: string | null;

  @Field(() => String, { nullable: true, description: 'institution name, or its domain when the provider gives no name' })
  institution?: string | null;

  @Field(() => String, { nullable: true, description: 'email address the institution asserted' })
  email?: string | null;

  @Field(() => String, { nullable: true })
  email_domain?: string | null;

  @Field(() => [String], { description: 'eduPersonScopedAffiliation values, e.g. faculty@example.edu' })
  affiliations!: string[];

  @Field(() => Date, { nullable: true })
  verified_at?: Date | null;
}

@ObjectType({ description: 'Result of completing an institutional login.' })
export class InstitutionalVerificationResult extends InstitutionalVerification {
  @Field(() => Boolean, { description: 'true when tokens issued before this call carry an outdated account type or verified claim (this service re-reads the account, so they work here at once; a refresh updates the claims for other clusters)' })
  refresh_required!: boolean;

  @Field(() => String, { description: 'what to do next' })
  message!: string;
}

@ObjectType({ description: 'The ORCID iD linked to the current account.' })
export class OrcidLink {
  @Field(() => Boolean)
  linked!: boolean;

  @Field(() => String, { nullable: true, description: 'the ORCID iD, e.g. 0000-0002-1825-0097' })
  orcid?: string | null;

  @Field(() => String, { nullable: true, description: 'https://orcid.org/<iD>' })
  orcid_url?: string | null;

  @Field(() => String, { nullable: true, description: 'name the researcher-ID provider returned' })
  name?: string | null;

  @Field(() => Date, { nullable: true })
  linked_at?: Date | null;
}
