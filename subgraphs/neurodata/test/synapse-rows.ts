import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import { packagePath } from '../../../lib/package-root.js';

/**
 * Synapse rows for the store's tests, and what the derived tables must hold, computed here from the rows alone
 * (plain loops over the input, nothing shared with the store's SQL).
 */

/** The shipped hemibrain synapse files (seed/synapse-level/hemibrain_da1_lpn: licence and citation in its README). */
const FIXTURES = packagePath('seed', 'synapse-level', 'hemibrain_da1_lpn');

/** The two hemibrain neurons of the fixtures (file name = bodyId). */
export const HEMIBRAIN_BODIES = ['722817260', '754534424'] as const;

export interface TestSynapse {
  pre: string;
  post: string;
  synapseId: string;
  x: number;
  y: number;
  z: number;
  roi: string;
  confidence: number | null;
  transmitter: string;
}

/** A neuPrint per-neuron synapse file as rows: the body is `pre` of its T-bars and `post` of its densities. */
export function hemibrainSynapses(body: string): TestSynapse[] {
  const file = `${body}.csv`;
  const records = parse(readFileSync(path.join(FIXTURES, file)), { columns: true }) as Record<string, string>[];
  return records.map((r, i) => ({
    pre: r.type === 'pre' ? body : '',
    post: r.type === 'post' ? body : '',
    synapseId: `${file}:${i + 1}`,
    x: Number(r.x),
    y: Number(r.y),
    z: Number(r.z),
    roi: r.roi,
    confidence: r.confidence === '' ? null : Number(r.confidence),
    transmitter: '',
  }));
}

/** A FlyWire root id: beyond 2^53, so any trip through a JS number would change it. */
export const FLYWIRE_ID = '720575940621039145';

/**
 * Hand-made synapses with both partners between the two bodies and a FlyWire-sized id that is no neuron of the
 * version, with transmitters that make a clear winner, a tie (gaba and glut once each in CA(R): gaba, first in byte
 * order) and pairs with none.
 */
export function pairedSynapses(): TestSynapse[] {
  const [a, b] = HEMIBRAIN_BODIES;
  const c = FLYWIRE_ID;
  const rows: [string, string, string, string][] = [
    [a, b, 'LH(R)', 'ach'],
    [a, b, 'LH(R)', 'ach'],
    [a, b, 'LH(R)', 'gaba'],
    [a, b, 'LH(R)', ''],
    [a, b, 'CA(R)', 'glut'],
    [a, b, 'CA(R)', 'gaba'],
    [a, b, '', ''],
    [b, c, 'AL(R)', 'ach'],
    [b, c, 'AL(R)', ''],
    [c, a, 'LH(R)', ''],
    [c, a, 'LH(R)', ''],
    [c, b, 'SCL(R)', 'da'],
  ];
  return rows.map(([pre, post, roi, transmitter], i) => ({ pre, post, synapseId: `pairs.csv:${i + 1}`, x: i, y: 2 * i, z: 3 * i, roi, confidence: 0.5, transmitter }));
}

/** The rows in SYNAPSE_COLUMNS order, for the suite's TSV encoder. */
export function synapseTsvRows(datasetId: string, version: number, rows: readonly TestSynapse[]): unknown[][] {
  return rows.map((s) => [datasetId, version, s.pre, s.post, s.synapseId, s.x, s.y, s.z, s.roi, s.confidence, null, null, null, s.transmitter, null, null, null, null, null, null]);
}

export interface ExpectedRoiConnection {
  pre: string;
  post: string;
  roi: string;
  weight: number;
  transmitter: string;
}

export interface ExpectedNeuronRoi {
  neuronId: string;
  roi: string;
  pre: number;
  post: number;
  upstream: number;
  downstream: number | null;
}

const byKey = <T>(rows: T[], key: (r: T) => string) => rows.sort((x, y) => (key(x) < key(y) ? -1 : key(x) > key(y) ? 1 : 0));

/**
 * Per (pre, post, ROI) over the rows whose two partners are both `neurons` of the version: the count and the most
 * frequent non-empty transmitter.
 */
export function expectedRoiConnections(rows: readonly TestSynapse[], neurons: ReadonlySet<string>): ExpectedRoiConnection[] {
  const groups = new Map<string, { pre: string; post: string; roi: string; n: number; tx: Map<string, number> }>();
  for (const s of rows) {
    if (!s.pre || !s.post || !neurons.has(s.pre) || !neurons.has(s.post)) continue;
    const k = JSON.stringify([s.pre, s.post, s.roi]);
    const g = groups.get(k) ?? { pre: s.pre, post: s.post, roi: s.roi, n: 0, tx: new Map() };
    g.n++;
    if (s.transmitter) g.tx.set(s.transmitter, (g.tx.get(s.transmitter) ?? 0) + 1);
    groups.set(k, g);
  }
  const out = [...groups.values()].map((g) => {
    let best = '';
    let most = 0;
    for (const [t, n] of g.tx) if (n > most || (n === most && t < best)) [best, most] = [t, n];
    return { pre: g.pre, post: g.post, roi: g.roi, weight: g.n, transmitter: best };
  });
  return byKey(out, (r) => `${r.pre}\u0000${r.post}\u0000${r.roi}`);
}

/** One chemical connection per pair of `neurons`: the sum over ROIs of the pair's per-ROI weights. */
export function expectedConnections(perRoi: readonly { pre: string; post: string; weight: number }[], neurons: ReadonlySet<string>): { pre: string; post: string; weight: number }[] {
  const sums = new Map<string, { pre: string; post: string; weight: number }>();
  for (const r of perRoi) {
    if (!neurons.has(r.pre) || !neurons.has(r.post)) continue;
    const k = `${r.pre}\u0000${r.post}`;
    const s = sums.get(k) ?? { pre: r.pre, post: r.post, weight: 0 };
    s.weight += r.weight;
    sums.set(k, s);
  }
  return byKey([...sums.values()], (r) => `${r.pre}\u0000${r.post}`);
}

/**
 * Per neuron (of `neurons`) and ROI from synapse rows, every synapse of the neuron counted whatever its partner;
 * downstream null for a neuron with a pre row without a partner.
 */
export function expectedNeuronRois(rows: readonly TestSynapse[], neurons: ReadonlySet<string>): ExpectedNeuronRoi[] {
  const counts = new Map<string, ExpectedNeuronRoi>();
  const incomplete = new Set<string>();
  const at = (neuronId: string, roi: string) => {
    const k = `${neuronId}\u0000${roi}`;
    const c = counts.get(k) ?? { neuronId, roi, pre: 0, post: 0, upstream: 0, downstream: 0 };
    counts.set(k, c);
    return c;
  };
  for (const s of rows) {
    if (s.pre && neurons.has(s.pre)) {
      const c = at(s.pre, s.roi);
      c.pre++;
      if (s.post) c.downstream!++;
      else incomplete.add(s.pre);
    }
    if (s.post && neurons.has(s.post)) {
      const c = at(s.post, s.roi);
      c.post++;
      c.upstream++;
    }
  }
  const out = [...counts.values()].map((c) => (incomplete.has(c.neuronId) ? { ...c, downstream: null } : c));
  return byKey(out, (r) => `${r.neuronId}\u0000${r.roi}`);
}

/** Per neuron and ROI from per-ROI connections: outgoing weight as pre and downstream, incoming as post and upstream. */
export function expectedNeuronRoisFromConnections(perRoi: readonly { pre: string; post: string; roi: string; weight: number }[], neurons: ReadonlySet<string>): ExpectedNeuronRoi[] {
  const counts = new Map<string, ExpectedNeuronRoi>();
  const at = (neuronId: string, roi: string) => {
    const k = `${neuronId}\u0000${roi}`;
    const c = counts.get(k) ?? { neuronId, roi, pre: 0, post: 0, upstream: 0, downstream: 0 };
    counts.set(k, c);
    return c;
  };
  for (const r of perRoi) {
    if (neurons.has(r.pre)) {
      const out = at(r.pre, r.roi);
      out.pre += r.weight;
      out.downstream! += r.weight;
    }
    if (neurons.has(r.post)) {
      const into = at(r.post, r.roi);
      into.post += r.weight;
      into.upstream += r.weight;
    }
  }
  return byKey([...counts.values()], (r) => `${r.neuronId}\u0000${r.roi}`);
}
