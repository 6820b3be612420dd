import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { parse } from 'csv-parse/sync';
import { startTestApp, call, gql } from '../../../test/kit/app.js';
import { eventually } from '../../../test/kit/eventually.js';
import { ch } from '../../../lib/column/sql.js';
import { createUser, type TestUser } from '../../../test/kit/users.js';
import { connectomeFile, createTinyDataset } from '../../../test/kit/datasets.js';

const COOK = 'celegans_cook_2019_male';

describe('SyQL routes: plan, explain, exec, cancel, access and abuse', () => {
  let t: Awaited<ReturnType<typeof startTestApp>>;
  let academic: TestUser;
  let other: TestUser;
  let regular: TestUser;
  let superuser: TestUser;
  let restricted: { id: string; slug: string };
  const syql = (path: string, body: unknown, token = academic.accessToken) => call(t.url, 'POST', `/v1/syql/${path}`, { token, body });

  beforeAll(async () => {
    // The cancel test's query goes beyond the planner's default estimate (docs/syql.md, Limits): allowed here.
    t = await startTestApp({ SEED_DATASETS: 'true', SYQL_MAX_ESTIMATED_ROWS: '1000000000000' });
    [academic, other, regular, superuser] = await Promise.all([
      createUser(t, { accountType: 'ACADEMIC' }),
      createUser(t, { accountType: 'ACADEMIC' }),
      createUser(t, { accountType: 'REGULAR' }),
      createUser(t, { accountType: 'SUPERUSER' }),
    ]);
    restricted = await createTinyDataset(t, academic, { visibility: 'restricted' });
  });
  afterAll(async () => t?.close());

  it('runs the example query and agrees with the published connection table', async () => {
    const query = `MATCH (a:Neuron)-[c:Chemical]->(b:Neuron)
IN "${COOK}"@latest
WHERE a.name STARTS WITH 'AVA' AND c.weight >= $min
RETURN a.name AS pre, b.name AS post, c.weight
ORDER BY c.weight DESC, pre, post
LIMIT 100`;
    const res = await syql('exec', { query, parameters: { min: 5 } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.columns.map((c: { name: string }) => c.name)).toEqual(['pre', 'post', 'c.weight']);
    const neurons = parse(await connectomeFile(COOK, 'neurons.csv'), { columns: true }) as Record<string, string>[];
    const name = new Map(neurons.map((n) => [n.neuron_id, n.name || n.neuron_id]));
    const rows = (parse(await connectomeFile(COOK, 'connections.csv'), { columns: true }) as Record<string, string>[])
      .filter((r) => r.synapse_type === 'chemical' && (name.get(r.pre) ?? '').startsWith('AVA') && Number(r.weight) >= 5)
      .map((r) => [name.get(r.pre), name.get(r.post), Number(r.weight)] as [string, string, number])
      .sort((x, y) => y[2] - x[2] || (x[0] < y[0] ? -1 : x[0] > y[0] ? 1 : x[1] < y[1] ? -1 : x[1] > y[1] ? 1 : 0));
    expect(res.body.total).toBe(Math.min(100, rows.length));
    expect(res.body.rows).toEqual(rows.slice(0, 100));
    expect(res.body.truncated).toBe(false);
    expect(res.body.datasets[0]).toMatchObject({ slug: COOK, version: 1, label: `${COOK}@v1` });
  });

  it('plans and explains with every value bound', async () => {
    const plan = await syql('plan', { query: `match (a:Neuron) in "${COOK}" where a.class = 'AVA' return a.name, count(*) as n` });
    expect(plan.status, JSON.stringify(plan.body)).toBe(200);
    expect(plan.body.columns).toEqual([
      { name: 'a.name', type: 'string', nullable: false, clickhouse_type: 'String' },
      { name: 'n', type: 'integer', nullable: false, clickhouse_type: 'Int64' },
    ]);
    const explain = await syql('explain', { query: `MATCH (a:Neuron) IN "${COOK}" WHERE a.class = 'AVA' RETURN a.name` });
    expect(explain.status, JSON.stringify(explain.body)).toBe(200);
    expect(explain.body.sql).not.toContain("'AVA'");
    expect(explain.body.bound_parameters.map((p: { value: unknown }) => p.value)).toContain('AVA');
  });

  it('answers total and truncated beyond max_rows', async () => {
    const res = await syql('exec', { query: `MATCH (a:Neuron) IN "${COOK}" RETURN a.id`, max_rows: 10 });
    expect(res.status).toBe(200);
    expect(res.body.rows).toHaveLength(10);
    expect(res.body.total).toBeGreaterThan(10);
    expect(res.body.truncated).toBe(true);
  });

  it('refuses injection attempts, unknown names and other users’ restricted data at plan time', async () => {
    const bad: Array<[string, number, RegExp]> = [
      [`MATCH (a:Neuron) IN "${COOK}" WHERE a.name = 'x'' OR 1=1 --' RETURN a.name`, 400, /SyQL/],
      [`MATCH (a:Neuron) IN "${COOK}" RETURN file('/etc/passwd')`, 400, /SyQL/],
      [`MATCH (a:Neuron) IN "${COOK}"; DROP TABLE neurons`, 400, /SyQL/],
      [`MATCH (a:Neuron) IN system.tables RETURN a.name`, 400, /SyQL/],
      [`MATCH (a:tables) IN "${COOK}" RETURN a.name`, 400, /label/i],
      [`MATCH (a:Neuron) IN "${COOK}" RETURN a.nmae`, 400, /did you mean name/],
      [`MACTH (a:Neuron) IN "${COOK}" RETURN a.name`, 400, /did you mean MATCH/],
      [`MATCH (a:Neuron) IN "${restricted.slug}" RETURN a.name`, 200, /./],
    ];
    for (const [query, status, message] of bad) {
      const res = await syql('plan', { query });
      expect(res.status, query).toBe(status);
      if (status !== 200) expect(res.body.error, query).toMatch(message);
    }
    const denied = await syql('exec', { query: `MATCH (a:Neuron) IN "${restricted.slug}" RETURN a.name` }, other.accessToken);
    expect(denied.status).toBe(403);
    expect(JSON.stringify(denied.body)).not.toMatch(/A1|B1/);
    expect((await syql('exec', { query: `MATCH (a:Neuron) IN "${COOK}" RETURN a.name` }, regular.accessToken)).status).toBe(403);
    expect((await syql('plan', { query: `MATCH (a:Neuron) IN "no_such_dataset" RETURN a.name` })).status).toBe(404);
  });

  it('cancels a running query: the waiting exec gets 409, only the owner or a SuperUser may cancel', async () => {
    // Tens of millions of paths to count: seconds of work, long enough to be stopped in the middle.
    const query = `MATCH (a)-[:Synapse*1..3]->(b)-[:Synapse*1..3]->(c)-[:Synapse*1..3]->(d) IN "${COOK}" RETURN count(*)`;
    const started = Date.now();
    const running = syql('exec', { query, query_id: 'long-one' });
    // Another user's cancel answers 404 until the query runs, then 403: it never stops it.
    const foreign = await eventually(
      async () => {
        const r = await syql('cancel', { query_id: 'long-one' }, other.accessToken);
        return r.status === 404 ? undefined : r;
      },
      { timeoutMs: 30_000, what: 'the long query running' },
    );
    // The service registers the query before the engine has it; on a busy machine the engine may start it later.
    await eventually(
      async () => {
        const [row] = await t.app.stores.column.query<{ n: number }>(
          ch`SELECT count() AS n FROM system.processes WHERE (position(query_id, 'long-one') > 0 OR position(query, 'long-one') > 0) AND position(query, 'system.processes') = 0`,
          { name: 'test.longQueryRunning' },
        );
        return Number(row?.n) > 0 || undefined;
      },
      { timeoutMs: 30_000, what: 'the engine running the long query' },
    );
    const mine = await syql('cancel', { query_id: 'long-one' });
    const done = await running;
    expect(foreign.status).toBe(403);
    expect(mine.status, JSON.stringify(mine.body)).toBe(200);
    expect(done.status).toBe(409);
    expect(done.body.error).toMatch(/cancelled/);
    expect(mine.body.engine_stopped).toBe(true);
    // The engine is free again at once: a new query answers without waiting for the old one.
    expect((await syql('exec', { query: `MATCH (a:Neuron) IN "${COOK}" RETURN count(*)` })).status).toBe(200);
    expect(Date.now() - started).toBeLessThan(30_000);
    expect((await syql('cancel', { query_id: 'long-one' }, superuser.accessToken)).status).toBe(404);
  });

  it('answers through GraphQL too', async () => {
    const r = await gql(t.url, 'mutation($q: String!) { syqlExec(query: $q) { total rows columns { name type } } }', { q: `MATCH (a:Neuron) IN "${COOK}" RETURN count(*) AS n` }, academic.accessToken);
    expect(r.body.errors).toBeUndefined();
    expect(r.body.data.syqlExec.total).toBe(1);
  });
});
