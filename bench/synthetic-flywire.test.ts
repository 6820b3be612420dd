import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { parse } from 'csv-parse/sync';
import { tableFromIPC, Type, type Table } from 'apache-arrow';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FLYWIRE_NEUROPILS, FLYWIRE_SEED_DIR, generateSyntheticFlyWire, type GenerateResult } from './synthetic-flywire.js';

const SYNAPSES = 20_000;
const PROBABILITIES = ['gaba', 'ach', 'glut', 'oct', 'ser', 'da'] as const;
const NT_TYPES: Record<string, string> = { GABA: 'gaba', ACH: 'ach', GLUT: 'glut', OCT: 'oct', SER: 'ser', DA: 'da' };

const read = async (file: string): Promise<Table> => tableFromIPC(await readFile(file));
const col = (t: Table, name: string): unknown[] => t.getChild(name)!.toArray() as unknown as unknown[];
/** The rows of several part files as one list of one column's values. */
const concat = async (files: string[], name: string): Promise<unknown[]> => (await Promise.all(files.map(read))).flatMap((t) => Array.from(col(t, name)));

describe('bench/synthetic-flywire: a FlyWire-shaped release on the real v783 neurons', () => {
  let dir: string;
  let one: GenerateResult;
  let synapses: Table[];
  let connections: Table;

  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'synthetic-flywire-'));
    one = await generateSyntheticFlyWire({ synapses: SYNAPSES, out: path.join(dir, 'a'), seed: 7, parts: 3 });
    synapses = await Promise.all(one.parts.map(read));
    connections = await read(one.connectionsFile);
  });
  afterAll(async () => rm(dir, { recursive: true, force: true }));

  it('writes the published layout: Feather part files of the synapse columns, the connections, annotations and neuropils', async () => {
    expect(one.parts.map((p) => path.basename(p))).toEqual(['synapses_part_00.feather', 'synapses_part_01.feather', 'synapses_part_02.feather']);
    const t = synapses[0];
    expect(t.schema.fields.map((f) => f.name)).toEqual([
      'id', 'pre_pt_root_id', 'post_pt_root_id', 'connection_score', 'cleft_score', ...PROBABILITIES,
      'pre_x', 'pre_y', 'pre_z', 'post_x', 'post_y', 'post_z', 'neuropil',
    ]);
    expect(t.schema.fields.slice(0, 3).map((f) => f.type.typeId)).toEqual([Type.Int, Type.Int, Type.Int]);
    expect(t.schema.fields[3].type.typeId).toBe(Type.Float);
    expect(t.schema.fields[17].type.typeId).toBe(Type.Dictionary);
    expect(connections.schema.fields.map((f) => f.name)).toEqual(['pre_pt_root_id', 'post_pt_root_id', 'neuropil', 'syn_count', ...PROBABILITIES.map((p) => `${p}_avg`)]);
    expect(synapses.reduce((s, p) => s + p.numRows, 0)).toBe(SYNAPSES);
    // Buffer.equals: a deep comparison of megabytes byte by byte takes vitest tens of seconds.
    for (const f of ['classification.csv.gz', 'neurons.csv.gz']) expect((await readFile(path.join(dir, 'a', f))).equals(await readFile(path.join(FLYWIRE_SEED_DIR, f)))).toBe(true);
    expect((await readFile(path.join(dir, 'a', 'rois.csv'))).equals(await readFile(FLYWIRE_NEUROPILS))).toBe(true);
  });

  it('gives the same bytes for the same seed, and the same rows in the same order whatever the part count', async () => {
    const again = await generateSyntheticFlyWire({ synapses: SYNAPSES, out: path.join(dir, 'b'), seed: 7, parts: 3 });
    for (const [i, p] of again.parts.entries()) expect((await readFile(p)).equals(await readFile(one.parts[i]))).toBe(true);
    const single = await generateSyntheticFlyWire({ synapses: SYNAPSES, out: path.join(dir, 'c'), seed: 7, parts: 1 });
    expect(single.parts).toHaveLength(1);
    for (const name of ['id', 'pre_pt_root_id', 'post_pt_root_id', 'ach', 'post_x', 'neuropil']) expect(await concat(single.parts, name)).toEqual(await concat(one.parts, name));
    const other = await generateSyntheticFlyWire({ synapses: SYNAPSES, out: path.join(dir, 'd'), seed: 8, parts: 1 });
    expect(await concat(other.parts, 'post_pt_root_id')).not.toEqual(await concat(one.parts, 'post_pt_root_id'));
  });

  it('uses the real root ids exactly (beyond 2^53), rows ordered by pre then post, ids 1..N in that order', async () => {
    const classification = parse(gunzipSync(await readFile(path.join(FLYWIRE_SEED_DIR, 'classification.csv.gz'))), { columns: true }) as { root_id: string }[];
    const real = new Set(classification.map((r) => r.root_id));
    expect(real.size).toBe(139_255);
    const ids = (await concat(one.parts, 'id')) as bigint[];
    const pre = (await concat(one.parts, 'pre_pt_root_id')) as bigint[];
    const post = (await concat(one.parts, 'post_pt_root_id')) as bigint[];
    expect(ids[0]).toBe(1n);
    for (let i = 0; i < pre.length; i++) {
      if (i > 0) {
        expect(ids[i]).toBe(ids[i - 1] + 1n);
        expect(pre[i] > pre[i - 1] || (pre[i] === pre[i - 1] && post[i] >= post[i - 1])).toBe(true);
      }
      if (!real.has(String(pre[i])) || !real.has(String(post[i])) || pre[i] === post[i]) throw new Error(`row ${i}: ${pre[i]} -> ${post[i]}`);
    }
    expect(pre.some((p) => p > 2n ** 53n)).toBe(true);
  });

  it('puts each synapse inside its neuropil box, with probabilities summing to 1 and the neuron’s transmitter largest', async () => {
    const neurons = parse(gunzipSync(await readFile(path.join(FLYWIRE_SEED_DIR, 'neurons.csv.gz'))), { columns: true }) as { root_id: string; nt_type: string }[];
    const nt = new Map(neurons.map((r) => [r.root_id, NT_TYPES[r.nt_type]]));
    const boxes = new Map(one.neuropils.map((p) => [p.name, p.box]));
    const neuropils = new Set<string>();
    for (const t of synapses) {
      const cols = Object.fromEntries(t.schema.fields.map((f) => [f.name, col(t, f.name)]));
      for (let i = 0; i < t.numRows; i++) {
        const np = cols.neuropil[i] as string;
        neuropils.add(np);
        const box = boxes.get(np)!;
        (['x', 'y', 'z'] as const).forEach((axis, d) => {
          for (const side of ['pre', 'post']) {
            const v = cols[`${side}_${axis}`][i] as number;
            if (!(Number.isInteger(v) && v >= box.min[d] && v <= box.max[d])) throw new Error(`row ${i}: ${side}_${axis} ${v} outside ${np}`);
          }
        });
        const p = PROBABILITIES.map((k) => cols[k][i] as number);
        expect(Math.abs(p.reduce((a, b) => a + b, 0) - 1)).toBeLessThan(1e-5);
        const want = nt.get(String(cols.pre_pt_root_id[i]));
        if (want) expect(PROBABILITIES[p.indexOf(Math.max(...p))]).toBe(want);
        const cleft = cols.cleft_score[i] as number;
        if (!(cleft >= 50 && cleft < 200)) throw new Error(`row ${i}: cleft_score ${cleft}`);
      }
    }
    expect(neuropils.has('UNASGD')).toBe(true);
    expect(neuropils.size).toBeGreaterThan(40);
    expect(Object.values(one.perNeuropil).reduce((a, b) => a + b, 0)).toBe(SYNAPSES);
  });

  it('writes per-neuropil connections that are the synapses counted and averaged per (pre, post, neuropil)', async () => {
    const groups = new Map<string, { n: number; ach: number; gaba: number }>();
    for (const t of synapses) {
      const [pre, post, np, ach, gaba] = ['pre_pt_root_id', 'post_pt_root_id', 'neuropil', 'ach', 'gaba'].map((n) => col(t, n));
      for (let i = 0; i < t.numRows; i++) {
        const key = `${pre[i]} ${post[i]} ${np[i]}`;
        const g = groups.get(key) ?? { n: 0, ach: 0, gaba: 0 };
        g.n++;
        g.ach += ach[i] as number;
        g.gaba += gaba[i] as number;
        groups.set(key, g);
      }
    }
    expect(connections.numRows).toBe(groups.size);
    expect(one.connections).toBe(groups.size);
    const [pre, post, np, count, ach, gaba] = ['pre_pt_root_id', 'post_pt_root_id', 'neuropil', 'syn_count', 'ach_avg', 'gaba_avg'].map((n) => col(connections, n));
    for (let i = 0; i < connections.numRows; i++) {
      const g = groups.get(`${pre[i]} ${post[i]} ${np[i]}`);
      if (!g || g.n !== count[i]) throw new Error(`connection ${i}: ${count[i]} synapses, counted ${g?.n}`);
      expect(ach[i]).toBeCloseTo(g.ach / g.n, 5);
      expect(gaba[i]).toBeCloseTo(g.gaba / g.n, 5);
    }
    // Heavy tails: most pairs have few synapses, some many.
    const counts = (Array.from(count) as number[]).sort((a, b) => a - b);
    expect(counts[counts.length >> 1]).toBeLessThanOrEqual(3);
    expect(counts[counts.length - 1]).toBeGreaterThan(10);
  });
});
