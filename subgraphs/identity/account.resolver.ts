import { Arg, Ctx, Int, Mutation, Query, Resolver } from 'type-graphql';
import { Access, AccessClass } from '../../lib/access.js';
import type { RequestContext } from '../../lib/context.js';
import type { AccountService, Account as AccountRecord } from './account.service.js';
import type { AuthService } from './auth.service.js';
import type { ProfileService } from './profile.service.js';
import type { AccountVerificationService, AccountVerification as VerificationRecord, ManagedAccount as ManagedRecord, VerificationChange } from './account-verification.service.js';
import type { VerificationKeys } from './token.keys.js';
import {
  Account,
  AccountTypeValue,
  AccountVerification,
  AccountVerificationChange,
  ManagedAccount,
  ManagedAccountPage,
  VerificationMethodValue,
  LogoutResult,
  Profile,
  PublicProfile,
  ScientistTag,
  TokenKeySet,
  TokenPair,
  UpdateProfileInput,
} from './account.types.js';
import { rootLookup } from '../../lib/root-lookup.js';

export const toAccount = (a: AccountRecord): Account => ({
  id: a.id,
  email: a.email,
  display_name: a.displayName,
  account_type: a.accountType as AccountTypeValue,
  verified: a.verified,
  created_at: a.createdAt,
});

export const toVerification = (v: VerificationRecord | null): AccountVerification | null =>
  v && {
    method: v.method === 'superuser' ? VerificationMethodValue.SUPERUSER : VerificationMethodValue.INSTITUTIONAL,
    verified_by: v.verifiedBy,
    verified_at: v.verifiedAt,
    reason: v.reason,
    institution: v.institution,
  };

const toManaged = (m: ManagedRecord): ManagedAccount => ({ ...toAccount(m.account), deactivated_at: m.account.deactivatedAt, verification: toVerification(m.verification) });
const toChange = (c: VerificationChange): AccountVerificationChange => ({ account: toManaged(c), changed: c.changed, message: c.message });

export const toProfile = (a: AccountRecord, verification: VerificationRecord | null): Profile => ({
  ...toAccount(a),
  affiliation: a.affiliation,
  orcid: a.orcid,
  bio: a.bio,
  links: a.links,
  scientist_tag: a.scientistTag,
  updated_at: a.updatedAt,
  verification: toVerification(verification),
});

export const toPublicProfile = (a: AccountRecord): PublicProfile => ({
  id: a.id,
  display_name: a.displayName,
  account_type: a.accountType as AccountTypeValue,
  verified: a.verified,
  affiliation: a.affiliation,
  orcid: a.orcid,
  bio: a.bio,
  links: a.links,
  scientist_tag: a.scientistTag,
});

/** Registration, login, refresh, logout and the published verification keys (spec 4.1, 5). */
@Resolver()
export class AuthResolver {
  constructor(
    private readonly accounts: AccountService,
    private readonly auth: AuthService,
    private readonly keys: () => Promise<VerificationKeys>,
  ) {}

  @Mutation(() => Account, { description: 'Registers a Regular account.' })
  @Access(AccessClass.Public)
  async registerAccount(
    @Arg('email', () => String) email: string,
    @Arg('password', () => String) password: string,
    @Arg('display_name', () => String) display_name: string,
    @Ctx() ctx: RequestContext,
  ): Promise<Account> {
    return toAccount(await this.accounts.register({ email, password, display_name }, ctx.clientIp));
  }

  @Mutation(() => Account, { description: 'Registers a verified Service account; needs the server’s service secret (REST: header X-Service-Secret).' })
  @Access(AccessClass.Public)
  async registerServiceAccount(
    @Arg('email', () => String) email: string,
    @Arg('password', () => String) password: string,
    @Arg('service_secret', () => String, { nullable: true }) service_secret: string | null | undefined,
    @Arg('display_name', () => String, { nullable: true }) display_name: string | null | undefined,
    @Ctx() ctx: RequestContext,
  ): Promise<Account> {
    return toAccount(await this.accounts.registerService({ email, password, display_name, service_secret }, ctx.clientIp));
  }

  @Mutation(() => TokenPair, { description: 'Exchanges email and password for an access and a refresh token.' })
  @Access(AccessClass.Public)
  async login(@Arg('email', () => String) email: string, @Arg('password', () => String) password: string, @Ctx() ctx: RequestContext): Promise<TokenPair> {
    return this.auth.login(email, password, ctx.clientIp);
  }

  @Mutation(() => TokenPair, { description: 'Rotates a refresh token: returns a new pair; the old refresh token is used up.' })
  @Access(AccessClass.Public)
  async refreshSession(@Arg('refresh_token', () => String) refresh_token: string): Promise<TokenPair> {
    return this.auth.refresh(refresh_token);
  }

  @Mutation(() => LogoutResult, { description: 'Revokes the refresh token and every token of its login.' })
  @Access(AccessClass.Public)
  async logout(@Arg('refresh_token', () => String) refresh_token: string): Promise<LogoutResult> {
    await this.auth.logout(refresh_token);
    return { revoked: true };
  }

  @Query(() => TokenKeySet, { description: 'Public keys (PASERK k4.public) that verify this service’s tokens.' })
  @Access(AccessClass.Public)
  async tokenKeys(): Promise<TokenKeySet> {
    const keys = [...(await this.keys()).values()];
    return { keys: keys.map((k) => ({ kid: k.kid, public_key: k.paserk, signing: k.signing })) };
  }

  @Mutation(() => Account, { description: 'Promotes a Regular or Academic account to SuperUser.' })
  @Access(AccessClass.SuperUser, { token: 'login' })
  async promoteToSuperUser(@Arg('user_id', () => String) user_id: string): Promise<Account> {
    return toAccount(await this.accounts.promote(user_id));
  }
}

/** The caller's profile and public profiles (spec 4.2). */
@Resolver()
export class ProfileResolver {
  constructor(
    private readonly profiles: ProfileService,
    private readonly verifications: AccountVerificationService,
  ) {}

  private async toProfile(a: AccountRecord): Promise<Profile> {
    return toProfile(a, await this.verifications.verificationOf(a));
  }

  @Query(() => Profile, { description: "The caller's profile." })
  @Access(AccessClass.User, { remoteCallers: false })
  async profile(@Ctx() ctx: RequestContext): Promise<Profile> {
    return this.toProfile(await this.profiles.own(ctx.viewer!.id));
  }

  @Mutation(() => Profile, { description: 'Updates the caller’s profile; absent fields stay, null clears; a new email needs current_password.' })
  @Access(AccessClass.User, { token: 'login' })
  async updateProfile(@Ctx() ctx: RequestContext, @Arg('input', () => UpdateProfileInput) input: UpdateProfileInput): Promise<Profile> {
    return this.toProfile(await this.profiles.update(ctx.viewer!.id, { ...input }, { clientIp: ctx.clientIp, sessionId: ctx.viewer!.sessionId }));
  }

  @Mutation(() => Profile, { description: 'Sets the caller’s password: the first one needs only the token (accounts created by a social sign-in have none); replacing one needs current_password.' })
  @Access(AccessClass.User, { token: 'login' })
  async setPassword(
    @Ctx() ctx: RequestContext,
    @Arg('new_password', () => String) new_password: string,
    @Arg('current_password', () => String, { nullable: true }) current_password?: string | null,
  ): Promise<Profile> {
    return this.toProfile(await this.profiles.setPassword(ctx.viewer!.id, new_password, current_password, { clientIp: ctx.clientIp, sessionId: ctx.viewer!.sessionId }));
  }

  @Mutation(() => ScientistTag, { description: 'Generates the caller’s scientist tag, or returns the one already generated.' })
  @Access(AccessClass.User)
  async generateScientistTag(@Ctx() ctx: RequestContext): Promise<ScientistTag> {
    return { scientist_tag: await this.profiles.scientistTag(ctx.viewer!.id) };
  }

  @Query(() => PublicProfile, rootLookup('Public fields of any account.'))
  @Access(AccessClass.User)
  async publicProfile(@Arg('user_id', () => String) user_id: string): Promise<PublicProfile> {
    return toPublicProfile(await this.profiles.publicProfile(user_id));
  }
}

/**
 * SuperUsers' administration of accounts: the list, and verification by hand (the second way to Academic beside an
 * institutional login; docs/identity.md). Only a signed-in person may change an account's standing, never an API token.
 */
@Resolver()
export class AccountAdminResolver {
  constructor(private readonly verifications: AccountVerificationService) {}

  @Query(() => ManagedAccountPage, { description: 'Accounts, newest first, with their verification; `email` keeps those whose address contains it. SuperUser only.' })
  @Access(AccessClass.SuperUser)
  async accounts(
    @Arg('email', () => String, { nullable: true }) email?: string | null,
    @Arg('limit', () => Int, { nullable: true, description: '1 to 100 (50)' }) limit?: number | null,
    @Arg('offset', () => Int, { nullable: true }) offset?: number | null,
  ): Promise<ManagedAccountPage> {
    const page = await this.verifications.list({ email, limit, offset });
    return { items: page.items.map(toManaged), total: page.total };
  }

  @Mutation(() => AccountVerificationChange, {
    description: 'Makes a Regular account a verified Academic one, recording the SuperUser, the time and the reason (required, at most 500 characters). An Academic account is left as it is (changed: false).',
  })
  @Access(AccessClass.SuperUser, { token: 'login' })
  async verifyAccount(
    @Arg('user_id', () => String) user_id: string,
    @Arg('reason', () => String, { description: 'why the account is verified: 1 to 500 characters, kept with the verification' }) reason: string,
    @Ctx() ctx: RequestContext,
  ): Promise<AccountVerificationChange> {
    return toChange(await this.verifications.verify(user_id, reason, ctx.viewer!.id));
  }

  @Mutation(() => AccountVerificationChange, {
    description: 'Takes an account’s verification back: Academic becomes Regular, at once for its tokens too. A Regular account is left as it is (changed: false).',
  })
  @Access(AccessClass.SuperUser, { token: 'login' })
  async unverifyAccount(@Arg('user_id', () => String) user_id: string): Promise<AccountVerificationChange> {
    return toChange(await this.verifications.unverify(user_id));
  }
}
