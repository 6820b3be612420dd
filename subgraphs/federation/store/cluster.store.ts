import { sql, type SQL } from 'drizzle-orm';
import { z } from 'zod';
import type { Db } from '../../../lib/db/relational.js';
import { isUniqueViolation } from '../../../lib/db/driver-errors.js';
import { namedQuery } from '../../../lib/db/named-query.js';
import { col, queryRow, queryRows, rowOf } from '../../../lib/db/rows.js';
import { newId } from '../../../lib/ids.js';
import { clusterEvents, clusterKeys, clusters, schemaChecks } from './tables.js';

/** The values of the clusters table's state, origin and health (its check constraints). */
const CLUSTER_STATES = ['pending', 'active', 'inactive'] as const;
const CLUSTER_ORIGINS = ['register', 'admin'] as const;
const CLUSTER_HEALTHS = ['up', 'down', 'unknown'] as const;
export type ClusterState = (typeof CLUSTER_STATES)[number];
export type ClusterOrigin = (typeof CLUSTER_ORIGINS)[number];
export type ClusterHealth = (typeof CLUSTER_HEALTHS)[number];

/** Another deployment as recorded (tables.ts `clusters`). */
export interface ClusterRow {
  id: string;
  name: string;
  baseUrl: string;
  contact: string;
  state: ClusterState;
  origin: ClusterOrigin;
  health: ClusterHealth;
  lastContactAt: Date | null;
  lastLatencyMs: number | null;
  lastError: string | null;
  version: string | null;
  schemaHash: string | null;
  compatible: boolean | null;
  checkClaimedAt: Date | null;
  createdAt: Date;
  verifiedAt: Date | null;
  deactivatedAt: Date | null;
}

export interface ClusterKeyRow {
  kid: string;
  clusterId: string;
  paserk: string;
  addedAt: Date;
}

export interface ClusterEventRow {
  id: string;
  clusterId: string;
  at: Date;
  kind: string;
  message: string;
  actorId: string | null;
}

export interface SchemaChange {
  type: string;
  criticality: string;
  message: string;
  path: string | null;
}

export interface SchemaCheckRow {
  id: string;
  clusterId: string;
  checkedAt: Date;
  theirHash: string;
  ourHash: string;
  compatible: boolean;
  sdl: string;
  changes: SchemaChange[];
}

export interface NewCluster {
  name: string;
  baseUrl: string;
  contact: string;
  origin: ClusterOrigin;
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

const CLUSTER = rowOf(
  {
    id: col.text,
    name: col.text,
    base_url: col.text,
    contact: col.text,
    state: col.oneOf(CLUSTER_STATES),
    origin: col.oneOf(CLUSTER_ORIGINS),
    health: col.oneOf(CLUSTER_HEALTHS),
    last_contact_at: col.timestamp.nullable(),
    last_latency_ms: col.float.nullable(),
    last_error: col.text.nullable(),
    version: col.text.nullable(),
    schema_hash: col.text.nullable(),
    compatible: col.bool.nullable(),
    check_claimed_at: col.timestamp.nullable(),
    created_at: col.timestamp,
    verified_at: col.timestamp.nullable(),
    deactivated_at: col.timestamp.nullable(),
  },
  (r): ClusterRow => ({
    id: r.id,
    name: r.name,
    baseUrl: r.base_url,
    contact: r.contact,
    state: r.state,
    origin: r.origin,
    health: r.health,
    lastContactAt: r.last_contact_at,
    lastLatencyMs: r.last_latency_ms,
    lastError: r.last_error,
    version: r.version,
    schemaHash: r.schema_hash,
    compatible: r.compatible,
    checkClaimedAt: r.check_claimed_at,
    createdAt: r.created_at,
    verifiedAt: r.verified_at,
    deactivatedAt: r.deactivated_at,
  }),
);

const CLUSTER_KEY = rowOf(
  { kid: col.text, cluster_id: col.text, paserk: col.text, added_at: col.timestamp },
  (r): ClusterKeyRow => ({ kid: r.kid, clusterId: r.cluster_id, paserk: r.paserk, addedAt: r.added_at }),
);

const CLUSTER_EVENT = rowOf(
  { id: col.text, cluster_id: col.text, at: col.timestamp, kind: col.text, message: col.text, actor_id: col.text.nullable() },
  (r): ClusterEventRow => ({ id: r.id, clusterId: r.cluster_id, at: r.at, kind: r.kind, message: r.message, actorId: r.actor_id }),
);

const SCHEMA_CHECK = rowOf(
  {
    id: col.text,
    cluster_id: col.text,
    checked_at: col.timestamp,
    their_hash: col.text,
    our_hash: col.text,
    compatible: col.bool,
    sdl: col.text,
    changes: col.json(z.array(z.object({ type: z.string(), criticality: z.string(), message: z.string(), path: z.string().nullable() }))),
  },
  (r): SchemaCheckRow => ({
    id: r.id,
    clusterId: r.cluster_id,
    checkedAt: r.checked_at,
    theirHash: r.their_hash,
    ourHash: r.our_hash,
    compatible: r.compatible,
    sdl: r.sdl,
    changes: r.changes,
  }),
);

const ACTIVE_KEY = rowOf({ paserk: col.text, cluster_id: col.text, cluster_name: col.text }, (r) => ({ paserk: r.paserk, clusterId: r.cluster_id, clusterName: r.cluster_name }));
const CONTACTED = rowOf({ health: col.oneOf(CLUSTER_HEALTHS), name: col.text });
const KEY_ID = rowOf({ kid: col.text });

/** `(v1, v2, ...)` for `in`, every value a parameter; `(null)`, which matches nothing, for none. */
const listOf = (values: readonly string[]): SQL => (values.length ? sql`(${sql.join(values.map((v) => sql`${v}`), sql`, `)})` : sql`(null)`);

/** The federation's tables. */
export class ClusterStore {
  constructor(private readonly db: Db) {}

  /** Inserts a pending cluster with its keys and first event; null when its name, base URL or a key is taken. */
  async create(c: NewCluster): Promise<ClusterRow | null> {
    try {
      return await this.db.transaction(async (tx) => {
        const db = tx as unknown as Db;
        const row = await queryRow(
          db,
          'ClusterStore.create',
          sql`insert into ${clusters} (id, name, base_url, contact, state, origin, created_at)
            values (${newId()}, ${c.name}, ${c.baseUrl}, ${c.contact}, 'pending', ${c.origin}, ${c.at.toISOString()})
            returning ${CLUSTER.columns()}`,
          CLUSTER,
        );
        if (c.keys.length) {
          const keys = c.keys.map((k) => sql`(${k.kid}, ${k.paserk}, ${row!.id}, ${c.at.toISOString()})`);
          await namedQuery(db, 'ClusterStore.addKeys', sql`insert into ${clusterKeys} (kid, paserk, cluster_id, added_at) values ${sql.join(keys, sql`, `)}`);
        }
        const message = c.origin === 'register' ? `registered itself with ${c.keys.length} key(s)` : `added by a SuperUser with ${c.keys.length} key(s)`;
        await insertEvent(db, row!.id, c.at, c.origin === 'register' ? 'registered' : 'added', message, c.actorId);
        return row!;
      });
    } catch (e) {
      if (isUniqueViolation(e)) return null;
      throw e;
    }
  }

  /** Which of these names, base URLs or key ids are taken already, for a clear conflict message. */
  async conflicts(c: Pick<NewCluster, 'name' | 'baseUrl' | 'keys'>): Promise<string[]> {
    const out: string[] = [];
    const byName = await namedQuery(this.db, 'ClusterStore.nameTaken', sql`select id from ${clusters} where lower(name) = lower(${c.name})`);
    if (byName.length) out.push(`a cluster named ${c.name} is registered already`);
    const byUrl = await namedQuery(this.db, 'ClusterStore.baseUrlTaken', sql`select id from ${clusters} where base_url = ${c.baseUrl}`);
    if (byUrl.length) out.push(`a cluster at ${c.baseUrl} is registered already`);
    if (c.keys.length) {
      const byKey = await queryRows(this.db, 'ClusterStore.keysTaken', sql`select kid from ${clusterKeys} where kid in ${listOf(c.keys.map((k) => k.kid))}`, KEY_ID);
      if (byKey.length) out.push(`key ${byKey[0].kid} belongs to a registered cluster already`);
    }
    return out;
  }

  async get(id: string): Promise<ClusterRow | null> {
    return (await queryRow(this.db, 'ClusterStore.get', sql`select ${CLUSTER.columns()} from ${clusters} where id = ${id}`, CLUSTER)) ?? null;
  }

  async list(state?: ClusterState): Promise<ClusterRow[]> {
    const where = state ? sql` where state = ${state}` : sql``;
    return queryRows(this.db, 'ClusterStore.list', sql`select ${CLUSTER.columns()} from ${clusters}${where} order by name`, CLUSTER);
  }

  async keysOf(clusterIds: readonly string[]): Promise<ClusterKeyRow[]> {
    if (!clusterIds.length) return [];
    return queryRows(
      this.db,
      'ClusterStore.keysOf',
      sql`select ${CLUSTER_KEY.columns()} from ${clusterKeys} where cluster_id in ${listOf(clusterIds)} order by added_at`,
      CLUSTER_KEY,
    );
  }

  /** The key with this id and its cluster, when the cluster is active: the one question token checks ask. */
  async activeKey(kid: string): Promise<{ paserk: string; clusterId: string; clusterName: string } | null> {
    const row = await queryRow(
      this.db,
      'ClusterStore.activeKey',
      sql`select k.paserk, c.id as cluster_id, c.name as cluster_name
        from ${clusterKeys} k join ${clusters} c on c.id = k.cluster_id
        where k.kid = ${kid} and c.state = 'active'`,
      ACTIVE_KEY,
    );
    return row ?? null;
  }

  /** The latest `perCluster` events of each cluster, newest first. */
  async events(clusterIds: readonly string[], perCluster: number): Promise<ClusterEventRow[]> {
    if (!clusterIds.length) return [];
    return queryRows(
      this.db,
      'ClusterStore.events',
      sql`select ${CLUSTER_EVENT.columns('e')} from ${clusterEvents} e
        join (
          select r.id, row_number() over (partition by r.cluster_id order by r.at desc, r.id desc) as rank
          from ${clusterEvents} r where r.cluster_id in ${listOf(clusterIds)}
        ) ranked on ranked.id = e.id
        where ranked.rank <= ${perCluster}
        order by e.at desc, e.id desc`,
      CLUSTER_EVENT,
    );
  }

  async addEvent(clusterId: string, at: Date, kind: string, message: string, actorId?: string): Promise<void> {
    await insertEvent(this.db, clusterId, at, kind, message, actorId);
  }

  /** Changes the state when it is `from`; false when another request changed it first. */
  async setState(id: string, from: ClusterState[], to: ClusterState, at: Date, event: { kind: string; message: string; actorId?: string }): Promise<boolean> {
    return this.db.transaction(async (tx) => {
      const db = tx as unknown as Db;
      const stamp = to === 'active' ? sql`, verified_at = ${at.toISOString()}` : to === 'inactive' ? sql`, deactivated_at = ${at.toISOString()}` : sql``;
      const updated = await namedQuery(
        db,
        'ClusterStore.setState',
        sql`update ${clusters} set state = ${to}${stamp} where id = ${id} and state in ${listOf(from)} returning id`,
      );
      if (!updated.length) return false;
      await insertEvent(db, id, at, event.kind, event.message, event.actorId);
      return true;
    });
  }

  /**
   * Records a contact. Returns the health before it, so that the caller can log a change; the change of health is
   * written to the history in the same statement's transaction.
   */
  async recordContact(id: string, o: ContactOutcome): Promise<{ before: ClusterHealth; name: string } | null> {
    return this.db.transaction(async (tx) => {
      const db = tx as unknown as Db;
      const before = await queryRow(db, 'ClusterStore.lockForContact', sql`select health, name from ${clusters} where id = ${id} for update`, CONTACTED);
      if (!before) return null;
      const version = o.version ? sql`, version = ${o.version}` : sql``;
      const schemaHash = o.schemaHash ? sql`, schema_hash = ${o.schemaHash}` : sql``;
      await namedQuery(
        db,
        'ClusterStore.recordContact',
        sql`update ${clusters}
          set health = ${o.health}, last_contact_at = ${o.at.toISOString()}, last_latency_ms = ${o.latencyMs ?? null},
              last_error = ${o.health === 'up' ? null : (o.error ?? null)}${version}${schemaHash}
          where id = ${id}`,
      );
      if (before.health !== o.health) {
        const message = o.health === 'up' ? `answers again (${Math.round(o.latencyMs ?? 0)} ms)` : `stopped answering: ${o.error ?? 'no answer'}`;
        await insertEvent(db, id, o.at, o.health, message);
      }
      return { before: before.health, name: before.name };
    });
  }

  /**
   * Claims the scheduled ping of every active cluster not pinged within `intervalMs`, so that replicas sharing
   * one database ping each cluster once per interval.
   */
  async claimDuePings(now: Date, intervalMs: number): Promise<ClusterRow[]> {
    const due = new Date(now.getTime() - intervalMs * 0.9);
    return queryRows(
      this.db,
      'ClusterStore.claimDuePings',
      sql`update ${clusters} set check_claimed_at = ${now.toISOString()}
        where state = 'active' and (check_claimed_at is null or check_claimed_at < ${due.toISOString()})
        returning ${CLUSTER.columns()}`,
      CLUSTER,
    );
  }

  async saveSchemaCheck(c: Omit<SchemaCheckRow, 'id'>): Promise<void> {
    await this.db.transaction(async (tx) => {
      const db = tx as unknown as Db;
      await namedQuery(
        db,
        'ClusterStore.saveSchemaCheck',
        sql`insert into ${schemaChecks} (id, cluster_id, checked_at, their_hash, our_hash, compatible, sdl, changes)
          values (${newId()}, ${c.clusterId}, ${c.checkedAt.toISOString()}, ${c.theirHash}, ${c.ourHash}, ${c.compatible}, ${c.sdl}, ${JSON.stringify(c.changes)}::jsonb)`,
      );
      await namedQuery(db, 'ClusterStore.setCompatible', sql`update ${clusters} set compatible = ${c.compatible}, schema_hash = ${c.theirHash} where id = ${c.clusterId}`);
    });
  }

  /** The latest schema check of each cluster. */
  async latestSchemaChecks(): Promise<SchemaCheckRow[]> {
    return queryRows(
      this.db,
      'ClusterStore.latestSchemaChecks',
      sql`select distinct on (cluster_id) ${SCHEMA_CHECK.columns()} from ${schemaChecks} order by cluster_id, checked_at desc`,
      SCHEMA_CHECK,
    );
  }
}

/** One line of a cluster's history; `actorId` is the SuperUser who acted, when one did. */
async function insertEvent(db: Db, clusterId: string, at: Date, kind: string, message: string, actorId?: string): Promise<void> {
  await namedQuery(
    db,
    'ClusterStore.addEvent',
    sql`insert into ${clusterEvents} (id, cluster_id, at, kind, message, actor_id) values (${newId()}, ${clusterId}, ${at.toISOString()}, ${kind}, ${message}, ${actorId ?? null})`,
  );
}
