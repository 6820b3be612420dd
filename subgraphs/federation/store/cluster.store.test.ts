import { describe, it, expect } from 'vitest';
import { sqlRecorder, snapshotText } from '../../../test/kit/sql-recorder.js';
import { ClusterStore } from './cluster.store.js';

const CLUSTER = '0190f3a4-5b6c-7d8e-9f00-112233445566';
const OTHER = '0190f3a4-5b6c-7d8e-9f00-112233445567';
const ADMIN = '0190f3a4-5b6c-7d8e-9f00-aabbccddeeff';
const AT = new Date('2026-01-01T00:00:00Z');

/**
 * A cluster row as node-postgres returns it (timestamps as text), with the columns of its keys, events and schema
 * checks that other statements return: a health of `unknown` makes a contact write its change to the history.
 */
const ROW = {
  id: CLUSTER,
  name: 'Janelia',
  base_url: 'https://neurodata.janelia.example',
  contact: 'ops@janelia.example',
  state: 'active',
  origin: 'admin',
  health: 'unknown',
  last_contact_at: null,
  last_latency_ms: null,
  last_error: null,
  version: '1.4.0',
  schema_hash: 'abc123',
  compatible: true,
  check_claimed_at: null,
  created_at: '2026-01-01 00:00:00+00',
  verified_at: '2026-01-01 00:00:00+00',
  deactivated_at: null,
  kid: 'k1',
  paserk: 'k4.public.AAAA',
  cluster_id: CLUSTER,
  cluster_name: 'Janelia',
  added_at: '2026-01-01 00:00:00+00',
  at: '2026-01-01 00:00:00+00',
  kind: 'added',
  message: 'added by a SuperUser with 1 key(s)',
  actor_id: ADMIN,
  checked_at: '2026-01-01 00:00:00+00',
  their_hash: 'abc123',
  our_hash: 'abc123',
  sdl: 'type Query { ping: String }',
  changes: [],
};

function recorder() {
  const { db, statements } = sqlRecorder([ROW]);
  return { store: new ClusterStore(db), statements };
}

const NEW_CLUSTER = {
  name: 'Janelia', baseUrl: 'https://neurodata.janelia.example', contact: 'ops@janelia.example', origin: 'admin' as const,
  keys: [{ kid: 'k1', paserk: 'k4.public.AAAA' }, { kid: 'k2', paserk: 'k4.public.BBBB' }], at: AT, actorId: ADMIN,
};

describe(ClusterStore.name, () => {
  it('keeps the SQL of its important queries as reviewed (store/__sql__/cluster.store.sql; vitest -u rewrites it)', async () => {
    const { store, statements } = recorder();
    await store.create(NEW_CLUSTER);
    await store.conflicts(NEW_CLUSTER);
    await store.list('active');
    await store.list();
    await store.keysOf([CLUSTER, OTHER]);
    await store.activeKey('k1');
    await store.events([CLUSTER, OTHER], 5);
    await store.setState(CLUSTER, ['pending', 'inactive'], 'active', AT, { kind: 'verified', message: 'verified by a SuperUser', actorId: ADMIN });
    await store.setState(CLUSTER, ['active'], 'inactive', AT, { kind: 'deactivated', message: 'deactivated by a SuperUser', actorId: ADMIN });
    await store.recordContact(CLUSTER, { at: AT, health: 'up', latencyMs: 12.5, version: '1.4.0', schemaHash: 'abc123' });
    await store.claimDuePings(AT, 60_000);
    await store.saveSchemaCheck({ clusterId: CLUSTER, checkedAt: AT, theirHash: 'abc123', ourHash: 'abc123', compatible: true, sdl: 'type Query { ping: String }', changes: [] });
    await store.latestSchemaChecks();
    await expect(snapshotText(statements)).toMatchFileSnapshot('./__sql__/cluster.store.sql');
  });

  it('names every statement after its method', async () => {
    const { store, statements } = recorder();
    await store.get(CLUSTER);
    await store.addEvent(CLUSTER, AT, 'note', 'moved to a new host', ADMIN);
    expect(statements.map((s) => s.match(/^\/\* (ClusterStore\.\w+) \*\//)?.[1])).toEqual(['ClusterStore.get', 'ClusterStore.addEvent']);
  });
});
