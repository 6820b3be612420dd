import { and, desc, eq, inArray, isNull, lt, or, sql } from 'drizzle-orm';
import type { Db } from '../../../lib/db/relational.js';
import { isUniqueViolation } from '../../../lib/db/driver-errors.js';
import { newId } from '../../../lib/ids.js';
import { clusterEvents, clusterKeys, clusters, schemaChecks } from './tables.js';

export type ClusterRow = typeof clusters.$inferSelect;
export type ClusterKeyRow = typeof clusterKeys.$inferSelect;
export type ClusterEventRow = typeof clusterEvents.$inferSelect;
export type SchemaCheckRow = typeof schemaChecks.$inferSelect;
export type ClusterState = 'pending' | 'active' | 'inactive';
export type ClusterHealth = 'up' | 'down' | 'unknown';

export interface NewCluster {
  name: string;
  baseUrl: string;
  contact: string;
  origin: 'register' | 'admin';
  keys: { kid: string; paserk: string }[];
  at: Date;
  actorId?: string;
}

/** What one contact with a cluster found out. */
export interface ContactOutcome {
  at: Date;
  health: 'up' | 'down';
  latencyMs?: number | null;
  error?: string | null;
  version?: string | null;
  schemaHash?: string | null;
}

/** The federation's tables. */
export class ClusterStore {
  constructor(private readonly db: Db) {}

  /** Inserts a pending cluster with its keys and first event; null when its name, base URL or a key is taken. */
  async create(c: NewCluster): Promise<ClusterRow | null> {
    try {
      return await this.db.transaction(async (tx) => {
        const [row] = await tx
          .insert(clusters)
          .values({ id: newId(), name: c.name, baseUrl: c.baseUrl, contact: c.contact, state: 'pending', origin: c.origin, createdAt: c.at })
          .returning();
        if (c.keys.length) await tx.insert(clusterKeys).values(c.keys.map((k) => ({ kid: k.kid, paserk: k.paserk, clusterId: row.id, addedAt: c.at })));
        await tx.insert(clusterEvents).values({
          id: newId(),
          clusterId: row.id,
          at: c.at,
          kind: c.origin === 'register' ? 'registered' : 'added',
          message: c.origin === 'register' ? `registered itself with ${c.keys.length} key(s)` : `added by a SuperUser with ${c.keys.length} key(s)`,
          actorId: c.actorId ?? null,
        });
        return row;
      });
    } catch (e) {
      if (isUniqueViolation(e)) return null;
      throw e;
    }
  }

  /** Which of these names, base URLs or key ids are taken already, for a clear conflict message. */
  async conflicts(c: Pick<NewCluster, 'name' | 'baseUrl' | 'keys'>): Promise<string[]> {
    const out: string[] = [];
    const byName = await this.db.select({ id: clusters.id }).from(clusters).where(sql`lower(${clusters.name}) = lower(${c.name})`);
    if (byName.length) out.push(`a cluster named ${c.name} is registered already`);
    const byUrl = await this.db.select({ id: clusters.id }).from(clusters).where(eq(clusters.baseUrl, c.baseUrl));
    if (byUrl.length) out.push(`a cluster at ${c.baseUrl} is registered already`);
    if (c.keys.length) {
      const byKey = await this.db.select({ kid: clusterKeys.kid }).from(clusterKeys).where(inArray(clusterKeys.kid, c.keys.map((k) => k.kid)));
      if (byKey.length) out.push(`key ${byKey[0].kid} belongs to a registered cluster already`);
    }
    return out;
  }

  async get(id: string): Promise<ClusterRow | null> {
    const [row] = await this.db.select().from(clusters).where(eq(clusters.id, id));
    return row ?? null;
  }

  async list(state?: ClusterState): Promise<ClusterRow[]> {
    return this.db
      .select()
      .from(clusters)
      .where(state ? eq(clusters.state, state) : undefined)
      .orderBy(clusters.name);
  }

  async keysOf(clusterIds: readonly string[]): Promise<ClusterKeyRow[]> {
    if (!clusterIds.length) return [];
    return this.db.select().from(clusterKeys).where(inArray(clusterKeys.clusterId, [...clusterIds])).orderBy(clusterKeys.addedAt);
  }

  /** The key with this id and its cluster, when the cluster is active: the one question token checks ask. */
  async activeKey(kid: string): Promise<{ paserk: string; clusterId: string; clusterName: string } | null> {
    const [row] = await this.db
      .select({ paserk: clusterKeys.paserk, clusterId: clusters.id, clusterName: clusters.name })
      .from(clusterKeys)
      .innerJoin(clusters, eq(clusters.id, clusterKeys.clusterId))
      .where(and(eq(clusterKeys.kid, kid), eq(clusters.state, 'active')));
    return row ?? null;
  }

  async events(clusterIds: readonly string[], perCluster: number): Promise<ClusterEventRow[]> {
    if (!clusterIds.length) return [];
    const ranked = this.db
      .select({
        id: clusterEvents.id,
        rank: sql<number>`row_number() over (partition by ${clusterEvents.clusterId} order by ${clusterEvents.at} desc, ${clusterEvents.id} desc)`.as('rank'),
      })
      .from(clusterEvents)
      .where(inArray(clusterEvents.clusterId, [...clusterIds]))
      .as('ranked');
    return this.db
      .select({ id: clusterEvents.id, clusterId: clusterEvents.clusterId, at: clusterEvents.at, kind: clusterEvents.kind, message: clusterEvents.message, actorId: clusterEvents.actorId })
      .from(clusterEvents)
      .innerJoin(ranked, eq(ranked.id, clusterEvents.id))
      .where(sql`${ranked.rank} <= ${perCluster}`)
      .orderBy(desc(clusterEvents.at), desc(clusterEvents.id));
  }

  async addEvent(clusterId: string, at: Date, kind: string, message: string, actorId?: string): Promise<void> {
    await this.db.insert(clusterEvents).values({ id: newId(), clusterId, at, kind, message, actorId: actorId ?? null });
  }

  /** Changes the state when it is `from`; false when another request changed it first. */
  async setState(id: string, from: ClusterState[], to: ClusterState, at: Date, event: { kind: string; message: string; actorId?: string }): Promise<boolean> {
    return this.db.transaction(async (tx) => {
      const stamp = to === 'active' ? { verifiedAt: at } : to === 'inactive' ? { deactivatedAt: at } : {};
      const updated = await tx
        .update(clusters)
        .set({ state: to, ...stamp })
        .where(and(eq(clusters.id, id), inArray(clusters.state, from)))
        .returning({ id: clusters.id });
      if (!updated.length) return false;
      await tx.insert(clusterEvents).values({ id: newId(), clusterId: id, at, kind: event.kind, message: event.message, actorId: event.actorId ?? null });
      return true;
    });
  }

  /**
   * Records a contact. Returns the health before it, so that the caller can log a change; the change of health is
   * written to the history in the same statement's transaction.
   */
  async recordContact(id: string, o: ContactOutcome): Promise<{ before: ClusterHealth; name: string } | null> {
    return this.db.transaction(async (tx) => {
      const [before] = await tx.select({ health: clusters.health, name: clusters.name }).from(clusters).where(eq(clusters.id, id)).for('update');
      if (!before) return null;
      await tx
        .update(clusters)
        .set({
          health: o.health,
          lastContactAt: o.at,
          lastLatencyMs: o.latencyMs ?? null,
          lastError: o.health === 'up' ? null : (o.error ?? null),
          ...(o.version ? { version: o.version } : {}),
          ...(o.schemaHash ? { schemaHash: o.schemaHash } : {}),
        })
        .where(eq(clusters.id, id));
      if (before.health !== o.health) {
        const message = o.health === 'up' ? `answers again (${Math.round(o.latencyMs ?? 0)} ms)` : `stopped answering: ${o.error ?? 'no answer'}`;
        await tx.insert(clusterEvents).values({ id: newId(), clusterId: id, at: o.at, kind: o.health, message, actorId: null });
      }
      return { before: before.health as ClusterHealth, name: before.name };
    });
  }

  /**
   * Claims the scheduled ping of every active cluster not pinged within `intervalMs`, so that replicas sharing
   * one database ping each cluster once per interval.
   */
  async claimDuePings(now: Date, intervalMs: number): Promise<ClusterRow[]> {
    const due = new Date(now.getTime() - intervalMs * 0.9);
    return this.db
      .update(clusters)
      .set({ checkClaimedAt: now })
      .where(and(eq(clusters.state, 'active'), or(isNull(clusters.checkClaimedAt), lt(clusters.checkClaimedAt, due))))
      .returning();
  }

  async saveSchemaCheck(c: Omit<SchemaCheckRow, 'id'>): Promise<void> {
    await this.db.transaction(async (tx) => {
      await tx.insert(schemaChecks).values({ id: newId(), ...c });
      await tx.update(clusters).set({ compatible: c.compatible, schemaHash: c.theirHash }).where(eq(clusters.id, c.clusterId));
    });
  }

  /** The latest schema check of each cluster. */
  async latestSchemaChecks(): Promise<SchemaCheckRow[]> {
    return this.db
      .selectDistinctOn([schemaChecks.clusterId])
      .from(schemaChecks)
      .orderBy(schemaChecks.clusterId, desc(schemaChecks.checkedAt));
  }
}
