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
