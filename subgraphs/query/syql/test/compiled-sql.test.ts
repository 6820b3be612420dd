import { describe, it, expect } from 'vitest';
import { NotFound } from '../../../../lib/errors.js';
import { compileCount, compileQuery } from '../compile.js';
import { parseSyql } from '../parser.js';
import type { Parameters, PlannerEnv, ResolvedDataset } from '../plan.js';
import { datasetRefText, planQuery } from '../planner.js';

/**
 * The SQL each query of a corpus compiles to, kept in test/__sql__/corpus.sql so that a change to what the
 * compiler writes is seen in review (`vitest -u` rewrites the file). What the SQL answers is
 * compile-engine.test.ts's to check, on both engines; this holds its text. The datasets have fixed ids and sizes
 * (the sizes steer the join order), and the region hierarchy is made up.
 */
const dataset = (slug: string, id: number, version: number, rowCounts: ResolvedDataset['rowCounts']): ResolvedDataset => ({
  ref: '',
  datasetId: `00000000-0000-4000-8000-${String(id).padStart(12, '0')}`,
  slug,
  version,
  isDraft: false,
  label: `${slug}@v${version}`,
  rowCounts,
});
const DATASETS: Record<string, ResolvedDataset> = {
  male: dataset('male', 1, 1, { neurons: 575, connections: 5000, morphologies: 0 }),
  varshney: dataset('varshney', 2, 2, { neurons: 279, connections: 6400, morphologies: 0 }),
  tiny: dataset('tiny', 3, 1, { neurons: 8, connections: 12, morphologies: 6 }),
  flywire: dataset('flywire', 4, 1, { neurons: 139_255, connections: 16_800_000, morphologies: 0 }),
};
const REGIONS: Record<string, string[]> = { R: ['R', 'R:S', 'R:S1', 'R:S2', 'R:I', 'R:M'], 'R:S': ['R:S', 'R:S1', 'R:S2'] };

const env: PlannerEnv = {
  async resolveDataset(ref) {
    const d = DATASETS[ref.dataset];
    if (!d) throw new NotFound(`dataset ${ref.dataset} not found`);
    return { ...d, ref: datasetRefText(ref) };
  },
  async regionCodesWithin(code) {
    return REGIONS[code] ?? null;
  },
};

/** One of each thing the compiler writes differently: node and relationship filters, shapes, paths, aggregates, order, datasets. */
const CORPUS: { name: string; query: string; parameters?: Parameters; maxRows?: number }[] = [
  { name: 'every neuron', query: 'MATCH (a:Neuron) IN "male"@v1 RETURN a.id, a.name' },
  { name: 'property map and comparisons', query: `MATCH (a {class: 'AVA'}) IN "male"@v1 WHERE a.x > 10 AND a.name STARTS WITH 'AV' AND a.type <> 'motor' RETURN a` },
  { name: 'null tests and a condition as a column', query: 'MATCH (a) IN "tiny"@v1 WHERE a.x IS NOT NULL OR a.y IS NULL RETURN a.id, a.x > 10 AS far' },
  { name: 'NOT, CONTAINS, ENDS WITH', query: `MATCH (a) IN "male"@v1 WHERE NOT (a.name CONTAINS 'L' OR a.name ENDS WITH 'R') RETURN a.id` },
  { name: 'a region and the regions below it', query: `MATCH (a) IN "male"@v1 WHERE a.region WITHIN 'R:S' RETURN a.id` },
  { name: 'parameters: a list, numbers, a boolean, SKIP and LIMIT', query: 'MATCH (a)-[c:Chemical]->(b) IN "male"@v1 WHERE a.name IN $names AND c.weight >= $w AND b.is_neuron = $neuron RETURN a.name, b.name, c.weight ORDER BY c.weight DESC, b.name SKIP $s LIMIT $n', parameters: { names: ['AVAL', 'AVAR'], w: 2, neuron: true, s: 1, n: 10 } },
  { name: 'NOT IN a list', query: 'MATCH (a) IN "tiny"@v1 WHERE a.name NOT IN $names RETURN a.id', parameters: { names: ['alpha', 'beta'] } },
  { name: 'chemical, outgoing', query: 'MATCH (a)-[c:Chemical]->(b) IN "male"@v1 WHERE c.weight > 3 RETURN a.id, b.id, c.weight' },
  { name: 'chemical, incoming', query: 'MATCH (a)<-[c:Chemical]-(b) IN "male"@v1 RETURN a.id, b.id, c.weight' },
  { name: 'electrical, either way', query: 'MATCH (a)-[e:Electrical]-(b) IN "tiny"@v1 RETURN a.id, b.id, e.weight' },
  { name: 'any kind, a self-pair', query: 'MATCH (a)-[e]-(a) IN "tiny"@v1 RETURN a.id, e.type' },
  { name: 'filtered ends not returned (semijoins)', query: `MATCH (a {type: 'sensory'})-[c:Chemical]->(b) IN "male"@v1 WHERE b.class STARTS WITH 'AV' RETURN c.weight` },
  { name: 'two relationships', query: `MATCH (a {name: 'AVAL'})-[:Chemical]->(b)-[c2:Chemical]->(c) IN "male"@v1 RETURN b.name, c.id, c2.weight` },
  { name: 'a cycle of three', query: 'MATCH (a)-->(b)-->(c)-->(a) IN "tiny"@v1 RETURN a.id, b.id, c.id' },
  { name: 'morphologies', query: 'MATCH (n:Neuron)-[:HAS_MORPHOLOGY]->(m:Morphology) IN "tiny"@v1 WHERE m.n_points > 10 RETURN n.name, m.file, m.soma_x' },
  { name: 'a variable-length path', query: `MATCH (a {name: 'AVAL'})-[p:Chemical*1..3]->(b) IN "male"@v1 WHERE p.hops >= 2 RETURN a.id, b.id, p` },
  { name: 'a path closing a cycle', query: 'MATCH (a)-[p:Chemical*1..3]->(a) IN "tiny"@v1 RETURN a.id, p.hops' },
  { name: 'aggregates with grouping keys', query: `MATCH (a)-[c:Chemical]->(b) IN "male"@v1 WHERE b.class = 'AVA' RETURN a, count(*) AS n, sum(c.weight) AS w, avg(DISTINCT c.weight), min(b.name)` },
  { name: 'aggregates without grouping keys', query: 'MATCH (m:Morphology) IN "tiny"@v1 RETURN count(*), sum(m.n_points), min(m.soma_x)' },
  { name: 'count DISTINCT of a node', query: `MATCH (a {class: 'AVA'})-[:Chemical*1..2]->(b) IN "male"@v1 RETURN count(*) AS pairs, count(DISTINCT b) AS targets` },
  { name: 'DISTINCT', query: `MATCH (a)-[:Chemical]->(b {type: 'motor'}) IN "male"@v1 RETURN DISTINCT a.class, b.type` },
  { name: 'ORDER BY with the unfiltered lookups after it', query: 'MATCH (a)-[:Chemical]->(b) IN "male"@v1 RETURN a.id, count(*) AS n ORDER BY n DESC, a.id LIMIT 5' },
  { name: 'ORDER BY nulls last, SKIP', query: 'MATCH (a) IN "tiny"@v1 RETURN a.id, a.x ORDER BY a.x DESC, a.id SKIP 2' },
  { name: 'several datasets', query: `MATCH (a {name: 'AVAL'})-[c:Chemical]->(b) IN "male"@v1, "varshney"@v2 RETURN b.name, c.weight ORDER BY c.weight DESC` },
  { name: 'aggregates per dataset', query: `MATCH (a)-[c:Electrical]->(b) IN "male"@v1, "tiny"@v1 WHERE a.class = 'AVA' RETURN count(*) AS n, sum(c.weight) AS w ORDER BY dataset` },
  { name: 'a large connectome: the join order follows the sizes', query: `MATCH (a {type: 'sensory'})-[c:Chemical]->(b)-[d:Chemical]->(e) IN "flywire"@v1 WHERE e.class = 'MBON' RETURN a.id, e.id, c.weight, d.weight` },
  { name: 'capped by maxRows', query: 'MATCH (a) IN "male"@v1 RETURN a.id', maxRows: 100 },
];

describe('the SQL SyQL compiles to', () => {
  it('is the SQL kept in test/__sql__/corpus.sql for every query of the corpus (vitest -u rewrites it)', async () => {
    const parts: string[] = [];
    for (const c of CORPUS) {
      const plan = await planQuery(parseSyql(c.query), c.parameters, env);
      const q = compileQuery(plan, { maxRows: c.maxRows });
      const count = compileCount(plan);
      const params = (p: Record<string, { value: unknown; type: string }>) =>
        Object.entries(p).map(([name, { value, type }]) => `\n--   ${name} ${type} = ${JSON.stringify(value)}`).join('');
      // The count is the query counted, unless it differs (SKIP, LIMIT or a row cap).
      const countText = count.sql === `SELECT toInt64(count()) AS count FROM (${q.sql})` ? '' : `\n-- its count:\n${count.sql};${params(count.params as never)}`;
      parts.push(`-- ${c.name}\n-- ${c.query}${c.parameters ? `\n-- with ${JSON.stringify(c.parameters)}` : ''}\n${q.sql};${params(q.params as never)}${countText}`);
    }
    await expect(`${parts.join('\n\n')}\n`).toMatchFileSnapshot('./__sql__/corpus.sql');
  });
});
