import { describe, expect, it } from 'vitest';
import { BadInput, Forbidden, NotFound } from '../../../../lib/errors.js';
import { compileCount, compileQuery, resultColumnKey } from '../compile.js';
import { parseSyql } from '../parser.js';
import type { Parameters, PlannerEnv, ResolvedDataset } from '../plan.js';
import { datasetRefText, MAX_SKIP_LIMIT, planQuery } from '../planner.js';
import { printQuery } from '../print.js';
import { SyqlError } from '../syntax-error.js';

/** Datasets by slug: `a` (versions 1..3, latest 3), `b`, `secret` (Forbidden). */
function fakeEnv(): PlannerEnv & { calls: { ref: string; pinned?: number }[] } {
  const calls: { ref: string; pinned?: number }[] = [];
  return {
    calls,
    async resolveDataset(ref, pinned) {
      calls.push({ ref: datasetRefText(ref), pinned });
      if (ref.dataset === 'secret') throw new Forbidden('dataset secret is restricted: request access');
      if (ref.dataset !== 'a' && ref.dataset !== 'b') throw new NotFound(`dataset ${ref.dataset} not found`);
      const version = pinned ?? (ref.selector.kind === 'number' ? ref.selector.version : 3);
      const d: ResolvedDataset = {
        ref: datasetRefText(ref),
        datasetId: ref.dataset === 'a' ? '11111111-1111-1111-1111-111111111111' : '22222222-2222-2222-2222-222222222222',
        slug: ref.dataset,
        version,
        isDraft: ref.selector.kind === 'draft',
        label: `${ref.dataset}@${ref.selector.kind === 'draft' ? 'draft' : `v${version}`}`,
        // FlyWire's size: the compiler orders joins by these.
        rowCounts: { neurons: 139_000, connections: 15_000_000, morphologies: 1000 },
      };
      return d;
    },
    async regionCodesWithin(code) {
      return code === 'MBA:1080' ? ['MBA:1080', 'MBA:1081', 'MBA:1082'] : code === 'MBA:1' ? ['MBA:1'] : null;
    },
  };
}

const plan = (text: string, parameters?: Parameters, opts?: { pins?: Record<string, number> }, env = fakeEnv()) => planQuery(parseSyql(text), parameters, env, opts);

async function refusal(text: string, parameters?: Parameters): Promise<BadInput> {
  try {
    await plan(text, parameters);
  } catch (e) {
    if (e instanceof BadInput) return e;
    throw e;
  }
  throw new Error(`expected a refusal of: ${text}`);
}

const EXAMPLE = `MATCH (a:Neuron)-[c:Chemical]->(b:Neuron)
IN "a"@latest
WHERE a.name STARTS WITH 'AVA' AND c.weight >= 5
RETURN a.name AS pre, b.name AS post, c.weight
ORDER BY c.weight DESC
LIMIT 100`;

describe('planQuery', () => {
  it('plans the documented example: columns, datasets, canonical text', async () => {
    const p = await plan(EXAMPLE);
    expect(p.columns).toEqual([
      { name: 'pre', type: 'string', nullable: false, chType: 'String' },
      { name: 'post', type: 'string', nullable: false, chType: 'String' },
      { name: 'c.weight', type: 'float', nullable: false, chType: 'Float64' },
    ]);
    expect(p.datasets.map((d) => [d.label, d.version])).toEqual([['a@v3', 3]]);
    expect(p.normalised).toBe(printQuery(p.query));
    expect(p.parameters).toEqual({});
    expect(p.regions).toEqual({});
  });

  it('names and types columns: expressions, aggregates, RETURN of whole variables', async () => {
    const p = await plan(`MATCH (a)-[c:Chemical]->(b)-[:HAS_MORPHOLOGY]->(m) IN "a"
RETURN a.type, count(*), count(DISTINCT b), sum(m.n_points), sum(c.weight), avg(m.n_points) AS mean, min(a.x), max(b.name), a.x > 1 AS far, c`);
    expect(p.columns.map((c) => `${c.name}:${c.chType}`)).toEqual([
      'a.type:String',
      'count(*):Int64',
      'count(DISTINCT b):Int64',
      'sum(m.n_points):Int64',
      'sum(c.weight):Float64',
      // grouped by a.type: every group has rows, so only a nullable argument makes them nullable
      'mean:Float64',
      'min(a.x):Nullable(Float64)',
      'max(b.name):String',
      'far:Nullable(UInt8)',
      'c.weight:Float64',
      'c.type:String',
    ]);
    const global = await plan(`MATCH (a) IN "a" RETURN count(a), avg(a.y), max(a.name), sum(a.x)`);
    // without grouping keys the rows may be none: avg, min and max are then null, count and sum 0
    expect(global.columns.map((c) => `${c.name}:${c.chType}`)).toEqual(['count(a):Int64', 'avg(a.y):Nullable(Float64)', 'max(a.name):Nullable(String)', 'sum(a.x):Float64']);
    const path = await plan(`MATCH (a)-[p:Electrical*..2]-(b) IN "a" RETURN p, b.is_neuron`);
    expect(path.columns.map((c) => `${c.name}:${c.chType}`)).toEqual(['p.hops:Int64', 'b.is_neuron:UInt8']);
    const aliased = await plan(`MATCH (x) IN "a" RETURN x AS n ORDER BY n.name`);
    expect(aliased.columns.map((c) => c.name)).toEqual(['n.id', 'n.name', 'n.class', 'n.type', 'n.neurotransmitter', 'n.region', 'n.is_neuron', 'n.x', 'n.y', 'n.z']);
  });

  describe('datasets', () => {
    it('adds a first `dataset` column for several datasets, and resolves each through the environment', async () => {
      const env = fakeEnv();
      const p = await plan(`MATCH (a) IN "a"@v1, "b"@latest, "a"@draft RETURN a.id`, undefined, undefined, env);
      expect(p.columns[0]).toEqual({ name: 'dataset', type: 'string', nullable: false, chType: 'String' });
      expect(p.datasets.map((d) => d.label)).toEqual(['a@v1', 'b@v3', 'a@draft']);
      expect(env.calls.map((c) => c.ref)).toEqual(['"a"@v1', '"b"@latest', '"a"@draft']);
    });

    it('uses pins, keyed by the reference text or by position', async () => {
      const env = fakeEnv();
      const p = await plan(`MATCH (a) IN "a"@latest, "b" RETURN a.id`, undefined, { pins: { '"a"@latest': 2, '1': 1 } }, env);
      expect(env.calls).toEqual([
        { ref: '"a"@latest', pinned: 2 },
        { ref: '"b"@latest', pinned: 1 },
      ]);
      expect(p.datasets.map((d) => d.version)).toEqual([2, 1]);
    });

    it('refuses the same dataset version twice, and passes the environment errors through', async () => {
      const e = await refusal(`MATCH (a) IN "a"@v3, "b", "a"@latest RETURN a.id`);
      expect(e).toBeInstanceOf(SyqlError);
      expect(e.message).toMatch(/^SyQL error at line 1, column 27: "a"@latest is the same dataset version as "a"@v3 \(a@v3\)/);
      await expect(plan(`MATCH (a) IN "nope" RETURN a.id`)).rejects.toBeInstanceOf(NotFound);
      await expect(plan(`MATCH (a) IN "secret" RETURN a.id`)).rejects.toBeInstanceOf(Forbidden);
      await expect(plan(`MATCH (a) IN "a"@v1, "a"@v2 RETURN a.id`)).resolves.toBeTruthy();
    });
  });

  describe('refusals name the place and suggest the closest name', () => {
    const cases: [string, string, RegExp][] = [
      ['unknown label', `MATCH (a:Nueron) IN "a" RETURN a.id`, /line 1, column 7: unknown label 'Nueron'.*; did you mean Neuron\?$/],
      ['unknown property', `MATCH (a) IN "a"\nRETURN a.nmae`, /line 2, column 8: unknown property 'nmae' of a: Neuron has id, name, .*; did you mean name\?$/],
      ['unknown property of a Morphology', `MATCH (n)-[:HAS_MORPHOLOGY]->(m) IN "a" RETURN m.n_point`, /unknown property 'n_point' of m: Morphology has .*; did you mean n_points\?$/],
      ['unknown property of a synapse', `MATCH (a)-[c]->(b) IN "a" WHERE c.wieght > 1 RETURN b.id`, /unknown property 'wieght' of c: a synapse has weight, type; did you mean weight\?$/],
      ['unknown property of a path', `MATCH (a)-[p*2]->(b) IN "a" RETURN p.weight`, /unknown property 'weight' of p: a variable-length relationship has hops$/],
      ['unknown inline property', `MATCH (a {nmae: 'x'}) IN "a" RETURN a.id`, /unknown property 'nmae' of a: .*did you mean name\?$/],
      ['unknown variable', `MATCH (alpha) IN "a" RETURN alpah.name`, /unknown variable 'alpah'; did you mean alpha\?$/],
      ['unknown relationship type', `MATCH (a)-[:Chemcal]->(b) IN "a" RETURN a.id`, /line 1, column 13: unknown relationship type 'Chemcal'.*; did you mean Chemical\?$/],
      ['a path of HAS_MORPHOLOGY', `MATCH (n)-[:HAS_MORPHOLOGY*1..2]->(m) IN "a" RETURN m.file`, /HAS_MORPHOLOGY is a single hop/],
      ['HAS_MORPHOLOGY with another type', `MATCH (n)-[:HAS_MORPHOLOGY|Chemical]->(m) IN "a" RETURN m.file`, /HAS_MORPHOLOGY cannot be combined/],
      ['HAS_MORPHOLOGY without a direction', `MATCH (n)-[:HAS_MORPHOLOGY]-(m) IN "a" RETURN m.file`, /HAS_MORPHOLOGY goes from a Neuron to a Morphology/],
      ['HAS_MORPHOLOGY from a Morphology', `MATCH (n:Morphology)-[:HAS_MORPHOLOGY]->(m) IN "a" RETURN m.file`, /n is a Morphology .* and cannot also be a Neuron/],
      ['a property of HAS_MORPHOLOGY', `MATCH (n)-[h:HAS_MORPHOLOGY]->(m) IN "a" RETURN h.weight`, /unknown property 'weight' of h: HAS_MORPHOLOGY has no properties/],
      ['returning HAS_MORPHOLOGY', `MATCH (n)-[h:HAS_MORPHOLOGY]->(m) IN "a" RETURN h`, /'h' \(HAS_MORPHOLOGY\) has no properties to return/],
      ['a synapse of a Morphology', `MATCH (n)-[:HAS_MORPHOLOGY]->(m)-[:Chemical]->(b) IN "a" RETURN b.id`, /synapses join neurons, and m is a Morphology/],
      ['aggregates in WHERE', `MATCH (a) IN "a" WHERE count(*) > 1 RETURN a.id`, /aggregates such as count\(\) are not allowed in WHERE/],
      ['nested aggregates', `MATCH (a) IN "a" RETURN max(count(*))`, /aggregates cannot be nested/],
      ['an aggregate beside a property in one item', `MATCH (a) IN "a" RETURN a.x IS NULL OR count(*) > 1`, /mixes an aggregate with a property/],
      ['sum of strings', `MATCH (a) IN "a" RETURN sum(a.name)`, /sum takes a number, and a.name is a string/],
      ['count(DISTINCT r)', `MATCH (a)-[r]->(b) IN "a" RETURN count(DISTINCT r)`, /count\(DISTINCT r\) is not supported for relationships/],
      ['comparing a string with a number', `MATCH (a) IN "a" WHERE a.name = 5 RETURN a.id`, /cannot compare a.name \(string\) with 5 \(integer\)/],
      ['a string test of a number', `MATCH (a) IN "a" WHERE a.x STARTS WITH 'A' RETURN a.id`, /STARTS WITH compares strings, and a.x is a float/],
      ['a list of the wrong type', `MATCH (a) IN "a" WHERE a.name IN ['A', 2] RETURN a.id`, /a.name \(string\) cannot be IN a list holding 2 \(integer\)/],
      ['a condition that is a value', `MATCH (a) IN "a" WHERE a.name RETURN a.id`, /a.name is a string, not a condition/],
      ['a bare variable in WHERE', `MATCH (a) IN "a" WHERE a = 'x' RETURN a.id`, /'a' is a node: name one of its properties/],
      ['a variable used as node and relationship', `MATCH (a)-[a]->(b) IN "a" RETURN b.id`, /'a' is already a node variable/],
      ['one relationship variable twice', `MATCH (a)-[r]->(b)-[r]->(c) IN "a" RETURN b.id`, /'r' is already a relationship variable/],
      ['duplicate column names', `MATCH (a) IN "a" RETURN a.name, a.id AS \`a.name\``, /duplicate column name 'a.name'/],
      ['a column named like the dataset column', `MATCH (a) IN "a", "b" RETURN a.name AS dataset`, /duplicate column name 'dataset'/],
      ['ORDER BY what is not returned', `MATCH (a) IN "a" RETURN a.name ORDER BY a.class`, /ORDER BY a.class: only returned columns can order the result/],
      ['ORDER BY an unknown name', `MATCH (a) IN "a" RETURN a.name AS label ORDER BY lable`, /unknown column 'lable' in ORDER BY; did you mean label\?$/],
      ['ORDER BY an aggregate not returned', `MATCH (a) IN "a" RETURN a.type ORDER BY count(*)`, /ORDER BY count\(\*\): only returned columns/],
      ['an unknown region', `MATCH (a) IN "a" WHERE a.region WITHIN 'MBA:9' RETURN a.id`, /unknown region 'MBA:9'/],
      ['WITHIN of a number', `MATCH (a) IN "a" WHERE a.x WITHIN 'MBA:1' RETURN a.id`, /WITHIN takes a region code, and a.x is a float/],
      ['a null column', `MATCH (a) IN "a" RETURN null AS nothing`, /the column 'nothing' is always null/],
    ];
    it.each(cases)('%s', async (_label, text, message) => {
      const e = await refusal(text);
      expect(e).toBeInstanceOf(SyqlError);
      expect(e.message).toMatch(/^SyQL error at line \d+, column \d+: /);
      expect(e.message).toMatch(message);
      expect(e.status).toBe(400);
    });

    it('gives the suggestion and what was expected in the error details', async () => {
      const e = (await refusal(`MATCH (a) IN "a" RETURN a.clas`)) as SyqlError;
      expect(e.suggestion).toBe('class');
      expect(e.expected).toContain('class');
      expect([e.line, e.column]).toEqual([1, 25]);
    });
  });

  describe('parameters', () => {
    it('binds values where they fit', async () => {
      const p = await plan(`MATCH (a) IN "a" WHERE a.name IN $names AND a.x > $x AND a.is_neuron = $n AND a.region WITHIN $r RETURN a.id SKIP $s LIMIT $l`, {
        names: ['AVAL', null],
        x: 1.5,
        n: true,
        r: 'MBA:1080',
        s: 0,
        l: 10,
      });
      expect(p.regions).toEqual({ 'MBA:1080': ['MBA:1080', 'MBA:1081', 'MBA:1082'] });
      expect(p.parameters).toMatchObject({ x: 1.5 });
    });

    const cases: [string, string, Parameters | undefined, RegExp][] = [
      ['a missing parameter, with the closest given', `MATCH (a) IN "a" WHERE a.name = $nme RETURN a.id`, { name: 'x' }, /parameter '\$nme' is not given.*; did you mean \$name\?$/],
      ['no parameters at all', `MATCH (a) IN "a" WHERE a.name = $name RETURN a.id`, undefined, /parameter '\$name' is not given/],
      ['an unused parameter', `MATCH (a) IN "a" RETURN a.id`, { extra: 1, more: 'x' }, /parameters \$extra, \$more are not used by the query/],
      ['a value of the wrong type', `MATCH (a) IN "a" WHERE a.name = $n RETURN a.id`, { n: 5 }, /cannot compare a.name \(string\) with \$n \(integer\)/],
      ['an inline property of the wrong type', `MATCH (a {x: $v}) IN "a" RETURN a.id`, { v: 'far' }, /a.x is a float and cannot equal \$v \(string\)/],
      ['a list where a value goes', `MATCH (a) IN "a" WHERE a.name = $n RETURN a.id`, { n: ['x'] }, /parameter \$n is a list: only IN takes a list/],
      ['a value where a list goes', `MATCH (a) IN "a" WHERE a.name IN $n RETURN a.id`, { n: 'x' }, /IN \$n needs a list, and \$n is string/],
      ['a list of the wrong type', `MATCH (a) IN "a" WHERE a.x IN $n RETURN a.id`, { n: [1, 'two'] }, /a.x \(float\) cannot be IN a list holding \$n\[1\] \(string\)/],
      ['a region that is not a string', `MATCH (a) IN "a" WHERE a.region WITHIN $r RETURN a.id`, { r: 5 }, /WITHIN takes a region code \(a string\), got \$r = 5/],
      ['a negative SKIP', `MATCH (a) IN "a" RETURN a.id SKIP $s`, { s: -1 }, /SKIP takes a non-negative integer, got \$s \(-1\)/],
      ['a fractional LIMIT', `MATCH (a) IN "a" RETURN a.id LIMIT $l`, { l: 2.5 }, /LIMIT takes a non-negative integer, got \$l \(2.5\)/],
      ['a LIMIT beyond the bound', `MATCH (a) IN "a" RETURN a.id LIMIT $l`, { l: MAX_SKIP_LIMIT + 1 }, /LIMIT is at most/],
    ];
    it.each(cases)('refuses %s', async (_label, text, params, message) => {
      const e = await refusal(text, params);
      expect(e.message).toMatch(message);
    });

    it('refuses values SyQL has no use for before anything else', async () => {
      await expect(plan(`MATCH (a) IN "a" RETURN a.id`, { o: { a: 1 } })).rejects.toThrow(/parameter \$o: expected a string, a finite number, a boolean, null or a list of those, got an object/);
      await expect(plan(`MATCH (a) IN "a" WHERE a.name IN $l RETURN a.id`, { l: [['x']] })).rejects.toThrow(/parameter \$l: a list may hold only/);
      await expect(plan(`MATCH (a) IN "a" WHERE a.x > $x RETURN a.id`, { x: Number.POSITIVE_INFINITY })).rejects.toThrow(/parameter \$x/);
    });
  });

  it('infers labels: Neuron by default, Morphology at the end of HAS_MORPHOLOGY, one label per variable', async () => {
    await expect(plan(`MATCH (m)<-[:HAS_MORPHOLOGY]-(n) IN "a" RETURN m.file, n.name`)).resolves.toBeTruthy();
    await expect(plan(`MATCH (n)-[:HAS_MORPHOLOGY]-(m:Morphology) IN "a" RETURN m.file`)).resolves.toBeTruthy();
    await expect(plan(`MATCH (a:Neuron)-[:HAS_MORPHOLOGY]->(a) IN "a" RETURN a.id`)).rejects.toThrow(/HAS_MORPHOLOGY joins a Neuron to a Morphology, not a node to itself/);
    await expect(plan(`MATCH (a:Neuron)-->(b)-[:HAS_MORPHOLOGY]->(a) IN "a" RETURN a.id`)).rejects.toThrow(/a is a Neuron \(:Neuron\) and cannot also be a Morphology/);
  });
});

describe('compileQuery', () => {
  it('writes no value of the query into the SQL text: every one is a bound parameter', async () => {
    const p = await plan(`MATCH (a {name: 'x\\'); DROP TABLE neurons; --'})-[c]->(b) IN "a" WHERE b.class IN $c AND c.weight > 2.5 RETURN a.name AS \`odd "name"\`, count(*) LIMIT 7`, { c: ['AVA', 'evil`name'] });
    const q = compileQuery(p);
    expect(q.sql).not.toMatch(/DROP|AVA|evil|odd|2\.5/);
    expect(Object.values(q.params).map((x) => x.value)).toEqual(expect.arrayContaining(["x'); DROP TABLE neurons; --", 'AVA', 'evil`name', 2.5]));
    expect(q.sql).toMatch(/ LIMIT 7$/);
    expect(q.sql).toContain(`AS ${resultColumnKey(0)}`);
  });

  it('filters every read on the dataset version, with both as parameters', async () => {
    const p = await plan(`MATCH (a)-[c:Electrical]->(b)-[:HAS_MORPHOLOGY]->(m) IN "a"@v2 WHERE b.x > 0 RETURN a.name, m.file`);
    const q = compileQuery(p);
    const reads = q.sql.match(/FROM (neurons|connections|morphologies) WHERE/g) ?? [];
    expect(reads.length).toBeGreaterThanOrEqual(4);
    const filters = q.sql.match(/FROM (neurons|connections|morphologies) WHERE dataset_id = \{p\d+:String\} AND version = \{p\d+:UInt32\}/g) ?? [];
    expect(filters.length).toBe(reads.length);
    expect(Object.values(q.params).filter((x) => x.type === 'UInt32').every((x) => x.value === 2)).toBe(true);
  });

  it('caps the rows at maxRows and keeps SKIP; compileCount ignores maxRows', async () => {
    const p = await plan(`MATCH (a) IN "a" RETURN a.id ORDER BY a.id SKIP 5 LIMIT 100`);
    expect(compileQuery(p, { maxRows: 11 }).sql).toMatch(/ ORDER BY c0 ASC LIMIT 5, 11$/);
    expect(compileQuery(p, { maxRows: 1000 }).sql).toMatch(/ LIMIT 5, 100$/);
    expect(compileCount(p).sql).toBe(
      'SELECT least(toInt64(100), greatest(toInt64(0), toInt64(count()) - toInt64(5))) AS count FROM (SELECT neuron_id AS c0 FROM neurons WHERE dataset_id = {p0:String} AND version = {p1:UInt32})',
    );
    const unlimited = await plan(`MATCH (a) IN "a" RETURN a.id SKIP 3`);
    expect(compileQuery(unlimited).sql).toMatch(/ LIMIT 3, 1000000000000000$/);
    expect(() => compileQuery(unlimited, { maxRows: -1 })).toThrow(/maxRows/);
  });

  it('compiles the documented example into joins of filtered subqueries, the neurons narrowing the synapse scan', async () => {
    const q = compileQuery(await plan(EXAMPLE));
    // The post cells (no filter) are looked up for the top 100 rows only, sorted and cut again after the join.
    expect(q.sql.replace(/\{p\d+:(\w+)\}/g, '?')).toBe(
      'SELECT v0_name AS c0, v1_name AS c1, e0_weight AS c2 FROM (SELECT neuron_id AS v1_id, name AS v1_name FROM neurons WHERE dataset_id = ? AND version = ?) AS t2 ' +
        'ALL INNER JOIN (SELECT v0_name, v1_id, e0_weight FROM ' +
        "(SELECT pre AS v0_id, post AS v1_id, weight AS e0_weight FROM connections WHERE dataset_id = ? AND version = ? AND synapse_type = 'chemical' AND (weight >= ?) " +
        'AND pre IN (SELECT neuron_id FROM neurons WHERE dataset_id = ? AND version = ? AND startsWith(name, ?))) AS t0 ' +
        'ALL INNER JOIN (SELECT neuron_id AS v0_id, name AS v0_name FROM neurons WHERE dataset_id = ? AND version = ? AND startsWith(name, ?)) AS t1 USING (v0_id) ' +
        'ORDER BY e0_weight DESC LIMIT 100) AS t3 USING (v1_id) ' +
        'ORDER BY c2 DESC LIMIT 100',
    );
  });

  it('looks up unfiltered neurons after ORDER BY and LIMIT only when that is exact', async () => {
    const sql = async (text: string) => compileQuery(await plan(text)).sql.replace(/\{p\d+:(\w+)\}/g, '?');
    // SKIP: the first skip + limit rows are kept below the lookups (here both ends).
    expect(await sql(`MATCH (a)-[c:Chemical]->(b) IN "a" RETURN a.name, b.name, c.weight ORDER BY c.weight DESC SKIP 5 LIMIT 10`)).toMatch(
      /synapse_type = 'chemical' ORDER BY e0_weight DESC LIMIT 15\) AS t\d+ USING \(v0_id\)\) AS t\d+ USING \(v1_id\) ORDER BY c2 DESC LIMIT 5, 10$/,
    );
    // A node whose property orders the rows is joined before the cut.
    expect(await sql(`MATCH (a)-[c:Chemical]->(b) IN "a" RETURN a.name, b.name, c.weight ORDER BY b.name LIMIT 10`)).toMatch(
      /USING \(v1_id\) ORDER BY v1_name ASC LIMIT 10\) AS t\d+ USING \(v0_id\) ORDER BY c1 ASC LIMIT 10$/,
    );
    // Not a node a filter reads, nor one that ends a variable-length path; nothing in a DISTINCT query.
    const cases: [string, RegExp][] = [
      [`MATCH (a)-[c:Chemical]->(b) IN "a" WHERE b.class = 'X' RETURN a.name, b.name, c.weight ORDER BY c.weight LIMIT 10`, /LIMIT 10\) AS t\d+ USING \(v1_id\)/],
      [`MATCH (a)-[c:Chemical]->(b) IN "a" WHERE a.name < b.name RETURN a.name, b.name, c.weight ORDER BY c.weight LIMIT 10`, / LIMIT \d+\) AS t/],
      [`MATCH (a)-[c:Chemical]->(b) IN "a" RETURN DISTINCT a.name, b.name, c.weight ORDER BY c.weight LIMIT 10`, / LIMIT \d+\) AS t/],
      [`MATCH (a)-[p:Chemical*1..2]->(b) IN "a" RETURN a.name, b.name, p.hops ORDER BY p.hops LIMIT 10`, / LIMIT \d+\) AS t/],
    ];
    for (const [text, pushed] of cases) expect(await sql(text), text).not.toMatch(pushed);
  });

  it('reads only connections when the neurons are neither returned nor compared: ids on the key columns, the rest by semijoin', async () => {
    const q = compileQuery(await plan(`MATCH (a {id: 'X'})-[c:Chemical]->(b {class: 'AVA'}) IN "a" RETURN a.id, b.id, sum(c.weight)`));
    expect(q.sql.replace(/\{p\d+:(\w+)\}/g, '?')).toBe(
      "SELECT pre AS c0, post AS c1, sum(weight) AS c2 FROM connections WHERE dataset_id = ? AND version = ? AND synapse_type = 'chemical' " +
        'AND (pre = ?) AND post IN (SELECT neuron_id FROM neurons WHERE dataset_id = ? AND version = ? AND (cell_class = ?)) GROUP BY c0, c1',
    );
  });
});
