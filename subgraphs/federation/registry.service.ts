import { randomBytes } from 'node:crypto';
import { secretMatches } from '../../lib/auth/secret-match.js';
import type { FastifyBaseLogger } from 'fastify';
import type { Viewer } from '../../lib/auth/viewer.js';
import type { Clock } from '../../lib/clock.js';
import type { FederationConfig } from '../../lib/config.js';
import { Conflict, Forbidden, NotFound, RateLimited, Unauthenticated } from '../../lib/errors.js';
import { isUuid } from '../../lib/ids.js';
import type { BackoffPolicy, Limits } from '../../lib/limits/limits.js';
import { challengeProblem } from '../identity/index.js';
import { checkClusterDetails } from './cluster.rules.js';
import type { UrlPolicy } from './outbound/url-policy.js';
import { callProblem, type RemoteCluster } from './remote.js';
import type { ClusterRow, ClusterState, ClusterStore } from './store/cluster.store.js';

export interface ClusterInput {
  name: string;
  base_url: string;
  contact: string;
  public_keys: string[];
}

export interface VerificationCheck {
  name: string;
  ok: boolean;
  detail: string;
}

/** Failed registrations per client address: from the 5th the address waits 15 s, doubling up to 15 minutes. */
const REGISTER_FAILURES: BackoffPolicy = { threshold: 5, quietMs: 60 * 60 * 1000, baseLockMs: 15 * 1000, maxLockMs: 15 * 60 * 1000 };

/**
 * The clusters this one knows (spec 4.4): self-registration with the federation password, additions by a
 * SuperUser, deactivation, and verification that the registrant controls its base URL and its key.
 */
export class ClusterRegistry {
  constructor(
    private readonly store: ClusterStore,
    private readonly remote: RemoteCluster,
    private readonly config: FederationConfig,
    private readonly policy: UrlPolicy,
    private readonly limits: Limits,
    private readonly clock: Clock,
    private readonly log: FastifyBaseLogger,
  ) {}

  /**
   * Self-registration. Every attempt takes a token of the address's budget (FEDERATION_REGISTER_BURST, one more a
   * minute) and wrong passwords lock the address with growing delays, like logins. The password is never logged.
   */
  async register(input: ClusterInput & { password: string }, clientIp: string | undefined): Promise<ClusterRow> {
    if (!this.config.password) throw new Forbidden('this cluster accepts no registrations (no federation password is set)');
    const ip = clientIp ?? 'unknown';
    const now = () => this.clock.now().getTime();
    const failures = `federation-register-failures:${ip}`;
    const locked = await this.limits.lockedFor(failures, now());
    if (locked > 0) throw new RateLimited(`too many failed registrations from your address: try again in ${locked} s`, locked);
    const budget = await this.limits.take(`federation-register:${ip}`, { burst: this.config.registerBurst, refillPerSec: 1 / 60 }, now());
    if (!budget.allowed) throw new RateLimited(`too many registrations from your address: try again in ${budget.retryAfterSec} s`, budget.retryAfterSec);
    if (!secretMatches(input.password, this.config.password)) {
      const r = await this.limits.reserve(failures, REGISTER_FAILURES, now());
      this.log.warn({ clientIp: ip, failures: r.count }, 'cluster registration with a wrong federation password');
      throw new Unauthenticated('wrong federation password');
    }
    await this.limits.reset(failures);
    const row = await this.create(input, 'register');
    this.log.info({ clusterId: row.id, name: row.name, baseUrl: row.baseUrl }, 'cluster registered, pending verification');
    return row;
  }

  /** A SuperUser adds a cluster directly; it still starts pending until verified. */
  async add(actor: Viewer, input: ClusterInput): Promise<ClusterRow> {
    const row = await this.create(input, 'admin', actor.id);
    this.log.info({ clusterId: row.id, name: row.name, baseUrl: row.baseUrl, actorId: actor.id }, 'cluster added, pending verification');
    return row;
  }

  private async create(input: ClusterInput, origin: 'register' | 'admin', actorId?: string): Promise<ClusterRow> {
    const details = await checkClusterDetails(input, this.policy);
    const conflicts = await this.store.conflicts(details);
    if (conflicts.length) throw new Conflict(conflicts.join('; '));
    const row = await this.store.create({ ...details, origin, at: this.clock.now(), actorId });
    if (!row) throw new Conflict('a cluster with this name, base URL or key was registered at the same time');
    return row;
  }

  async get(id: string): Promise<ClusterRow> {
    const row = isUuid(id) ? await this.store.get(id) : null;
    if (!row) throw new NotFound(`no cluster ${id}`);
    return row;
  }

  /** A cluster that must be active for what is asked (tests, benchmarks): 409 while pending or inactive. */
  async active(id: string, what: string): Promise<ClusterRow> {
    const row = await this.get(id);
    if (row.state !== 'active') {
      throw new Conflict(`the cluster ${row.name} is ${row.state}: ${row.state === 'pending' ? 'verify it first' : 'it was deactivated; verify it again to reactivate it'} (${what} runs on active clusters only)`);
    }
    return row;
  }

  list(state?: ClusterState): Promise<ClusterRow[]> {
    return this.store.list(state);
  }

  /** Deactivates: its tokens stop being accepted and it is no longer called; the record and history stay. */
  async deactivate(actor: Viewer, id: string): Promise<ClusterRow> {
    const row = await this.get(id);
    if (row.state !== 'inactive') {
      await this.store.setState(id, ['pending', 'active'], 'inactive', this.clock.now(), { kind: 'deactivated', message: 'deactivated by a SuperUser', actorId: actor.id });
      this.log.warn({ clusterId: id, name: row.name, actorId: actor.id }, 'cluster deactivated: its tokens are no longer accepted');
    }
    return this.get(id);
  }

  /**
   * Proves the registrant controls the base URL and the keys: its ping answers with the registered name, the keys
   * it publishes include every registered key, and it signs a fresh random challenge (bound to this cluster's base
   * URL) with one of them. Then the cluster is active. A pending or deactivated cluster may be verified.
   */
  async verify(actor: Viewer, id: string, ourBaseUrl: string, signal?: AbortSignal): Promise<{ cluster: ClusterRow; verified: boolean; checks: VerificationCheck[] }> {
    const row = await this.get(id);
    const registered = (await this.store.keysOf([id])).map((k) => k.paserk);
    const checks: VerificationCheck[] = [];
    const step = async (name: string, run: () => Promise<string>) => {
      if (checks.some((c) => !c.ok)) return;
      try {
        checks.push({ name, ok: true, detail: await run() });
      } catch (e) {
        signal?.throwIfAborted();
        checks.push({ name, ok: false, detail: callProblem(e).message });
      }
    };
    await step('ping', async () => {
      const { ping } = await this.remote.ping(row.baseUrl, { signal });
      if (ping.name.toLowerCase() !== row.name.toLowerCase()) throw new Error(`${row.baseUrl} answers as ${ping.name}, not ${row.name}`);
      return `${ping.name} ${ping.version} answers at ${row.baseUrl}`;
    });
    await step('keys', async () => {
      const published = new Set(await this.remote.keys(row.baseUrl, { signal }));
      const missing = registered.filter((k) => !published.has(k));
      if (missing.length) throw new Error(`${missing.length} registered key(s) are not published at ${row.baseUrl}/v1/user/auth/keys`);
      return `all ${registered.length} registered key(s) are published by the cluster`;
    });
    await step('challenge', async () => {
      const nonce = randomBytes(32).toString('base64url');
      const token = await this.remote.challenge(row.baseUrl, nonce, ourBaseUrl, { signal });
      const problem = await challengeProblem(token, registered, this.clock, { nonce, audience: ourBaseUrl });
      if (problem) throw new Error(problem);
      return 'the cluster signed a fresh challenge with a registered key';
    });
    const verified = checks.every((c) => c.ok);
    const now = this.clock.now();
    if (verified) {
      await this.store.setState(id, ['pending', 'inactive', 'active'], 'active', now, { kind: 'verified', message: 'verified: base URL and key control proven', actorId: actor.id });
      await this.store.recordContact(id, { at: now, health: 'up' });
      this.log.info({ clusterId: id, name: row.name, actorId: actor.id }, 'cluster verified and active');
    } else {
      const failed = checks.find((c) => !c.ok)!;
      await this.store.addEvent(id, now, 'verification_failed', `${failed.name}: ${failed.detail}`, actor.id);
      this.log.warn({ clusterId: id, name: row.name, check: failed.name, detail: failed.detail }, 'cluster verification failed');
    }
    return { cluster: await this.get(id), verified, checks };
  }
}
