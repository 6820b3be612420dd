import { Directive, Field, ID, InputType, Int, ObjectType, registerEnumType } from 'type-graphql';

/** Spec 3 account types, as GraphQL enum values (the same strings as lib/auth/viewer.ts AccountType). */
export enum AccountTypeValue {
  REGULAR = 'REGULAR',
  ACADEMIC = 'ACADEMIC',
  SERVICE = 'SERVICE',
  SUPERUSER = 'SUPERUSER',
}
registerEnumType(AccountTypeValue, {
  name: 'AccountType',
  description: 'Regular (registered), Academic (institution-verified), Service (registered with the service secret), SuperUser',
});

export enum VerificationMethodValue {
  INSTITUTIONAL = 'INSTITUTIONAL',
  SUPERUSER = 'SUPERUSER',
}
registerEnumType(VerificationMethodValue, {
  name: 'VerificationMethod',
  description: 'How an account became Academic: INSTITUTIONAL (a login at its institution) or SUPERUSER (a SuperUser of this service, or its operator, verified it)',
});

@ObjectType({ description: 'How and when an account became Academic.' })
export class AccountVerification {
  @Field(() => VerificationMethodValue)
  method!: VerificationMethodValue;

  @Field(() => ID, { nullable: true, description: 'the SuperUser who verified the account; null for an institutional login and for the operator’s command line (npm run admin)' })
  verified_by!: string | null;

  @Field(() => Date)
  verified_at!: Date;

  @Field(() => String, { nullable: true, description: 'why a SuperUser verified the account; null for an institutional login' })
  reason!: string | null;

  @Field(() => String, { nullable: true, description: 'the institution of an institutional login' })
  institution!: string | null;
}

@ObjectType({ description: 'A newly registered or promoted account.' })
export class Account {
  @Field(() => ID)
  id!: string;

  @Field(() => String)
  email!: string;

  @Field(() => String)
  display_name!: string;

  @Field(() => AccountTypeValue)
  account_type!: AccountTypeValue;

  @Field(() => Boolean, { description: 'institution-verified Academic account, Service account or SuperUser' })
  verified!: boolean;

  @Field(() => Date)
  created_at!: Date;
}

@ObjectType({ description: "The caller's own profile, with the fields only its owner sees." })
export class Profile extends Account {
  @Field(() => String, { nullable: true })
  affiliation!: string | null;

  @Field(() => String, { nullable: true, description: 'ORCID iD, e.g. 0000-0002-1825-0097' })
  orcid!: string | null;

  @Field(() => String, { nullable: true })
  bio!: string | null;

  @Field(() => [String], { description: 'http(s) URLs' })
  links!: string[];

  @Field(() => String, { nullable: true, description: 'set by POST /v1/user/profile/scientist-tag' })
  scientist_tag!: string | null;

  @Field(() => Date)
  updated_at!: Date;

  @Field(() => AccountVerification, { nullable: true, description: 'how the account became Academic; null for a Regular account and for Service and SuperUser accounts never verified' })
  verification!: AccountVerification | null;
}

@ObjectType({ description: 'An account as a SuperUser administers it.' })
export class ManagedAccount extends Account {
  @Field(() => Date, { nullable: true, description: 'set when an operator deactivated the account' })
  deactivated_at!: Date | null;

  @Field(() => AccountVerification, { nullable: true, description: 'how the account became Academic; null for a Regular account' })
  verification!: AccountVerification | null;
}

@ObjectType({ description: 'A page of accounts, newest first.' })
export class ManagedAccountPage {
  @Field(() => [ManagedAccount])
  items!: ManagedAccount[];

  @Field(() => Int, { description: 'how many accounts match in all' })
  total!: number;
}

@ObjectType({ description: 'What a verification call did to an account.' })
export class AccountVerificationChange {
  @Field(() => ManagedAccount)
  account!: ManagedAccount;

  @Field(() => Boolean, { description: 'false when the account already was in the state asked for (the call is idempotent)' })
  changed!: boolean;

  @Field(() => String)
  message!: string;
}

@ObjectType({ description: 'What anyone signed in may see of an account: never its email.' })
@Directive('@key(fields: "id")')
export class PublicProfile {
  @Field(() => ID)
  id!: string;

  @Field(() => String)
  display_name!: string;

  @Field(() => AccountTypeValue)
  account_type!: AccountTypeValue;

  @Field(() => Boolean)
  verified!: boolean;

  @Field(() => String, { nullable: true })
  affiliation!: string | null;

  @Field(() => String, { nullable: true })
  orcid!: string | null;

  @Field(() => String, { nullable: true })
  bio!: string | null;

  @Field(() => [String])
  links!: string[];

  @Field(() => String, { nullable: true })
  scientist_tag!: string | null;
}

@ObjectType()
export class ScientistTag {
  @Field(() => String, { description: 'e.g. santiago-ramon-cajal-7f3k; stable once generated' })
  scientist_tag!: string;
}

@ObjectType({ description: 'Spec 5.2: a PASETO v4.public access token (15 minutes) and refresh token (30 days).' })
export class TokenPair {
  @Field(() => String)
  access_token!: string;

  @Field(() => String, { description: 'single use: each refresh returns a new one' })
  refresh_token!: string;

  @Field(() => String, { description: 'always "Bearer"' })
  token_type!: string;

  @Field(() => Int, { description: 'access token lifetime in seconds (900)' })
  expires_in!: number;

  @Field(() => Int, { description: 'refresh token lifetime in seconds (2592000)' })
  refresh_expires_in!: number;
}

@ObjectType()
export class LogoutResult {
  @Field(() => Boolean)
  revoked!: boolean;
}

@ObjectType({ description: 'A public key that verifies this service’s tokens.' })
export class TokenKey {
  @Field(() => String, { description: 'PASERK k4.pid; token footers carry it as {"kid": ...}' })
  kid!: string;

  @Field(() => String, { description: 'PASERK k4.public' })
  public_key!: string;

  @Field(() => Boolean, { description: 'true for the key new tokens are signed with' })
  signing!: boolean;
}

@ObjectType()
export class TokenKeySet {
  @Field(() => [TokenKey])
  keys!: TokenKey[];
}

@InputType({ description: 'Profile changes: an absent field stays as it is, null clears an optional one.' })
export class UpdateProfileInput {
  @Field(() => String, { nullable: true })
  display_name?: string | null;

  @Field(() => String, { nullable: true })
  affiliation?: string | null;

  @Field(() => String, { nullable: true, description: 'ORCID iD (checked with its ISO 7064 MOD 11-2 check character)' })
  orcid?: string | null;

  @Field(() => String, { nullable: true })
  bio?: string | null;

  @Field(() => [String], { nullable: true, description: 'at most 10 http(s) URLs' })
  links?: string[] | null;

  @Field(() => String, { nullable: true, description: 'a new email; needs current_password' })
  email?: string | null;

  @Field(() => String, { nullable: true })
  current_password?: string | null;
}
