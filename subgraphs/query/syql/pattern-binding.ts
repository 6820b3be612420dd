import { MAX_PATH_HOPS, type NodeLabel, type NodePattern, type Pattern, type Pos, type RelPattern } from './ast.js';
import { LABEL_NAMES, LABELS, REL_TYPES, SYNAPSE_KINDS } from './catalog.js';
import { slotId, type Kind, type NodeVar, type Owner, type RelVar } from './analysis.js';
import { syqlError } from './syntax-error.js';

/** The variables of a MATCH pattern, each with its label or relationship kind, and how their properties are keyed. */
export interface BoundPattern {
  /** Node and relationship variables by name. */
  scope: Map<string, Owner>;
  nodes: NodeVar[];
  rels: RelVar[];
  /** The node variable of each node of the pattern, in order. */
  occurrences: NodeVar[];
  /** The class (a representative slot id, `v0.id`) of a slot: HAS_MORPHOLOGY makes a morphology's neuron the neuron's id. */
  slotClass(slot: string): string;
  /** The slot classes of a node's key properties. */
  keySlots(v: NodeVar): string[];
}

/**
 * Binds the pattern's variables: a name used twice is one variable, labels and relationship types must exist, a
 * node gets one label (written, or implied by HAS_MORPHOLOGY; Neuron otherwise), and synapses join neurons only.
 */
export function bindPattern(pattern: Pattern): BoundPattern {
  const scope = new Map<string, Owner>();
  const labels = new Labels();
  const { nodes, occurrences } = bindNodes(pattern.nodes, scope, labels);
  const rels: RelVar[] = [];
  pattern.rels.forEach((r, i) => {
    const rel = bindRel(r, rels.length, occurrences[i], occurrences[i + 1], scope);
    rels.push(rel);
    if (r.variable !== null) scope.set(r.variable, rel);
  });
  const morphologyEnds = orientMorphologies(rels, labels);
  for (const v of nodes) v.label = labels.of(v) ?? 'Neuron';
  for (const rel of rels) {
    if (rel.kind === 'morphology') continue;
    for (const end of [rel.left, rel.right]) {
      if (end.label !== 'Neuron') {
        throw syqlError(rel.pos, `synapses join neurons, and ${end.name ?? 'this node'} is a ${end.label}: a Morphology is reached with (n)-[:HAS_MORPHOLOGY]->(m)`);
      }
    }
  }
  const slotClass = slotClasses(morphologyEnds);
  return { scope, nodes, rels, occurrences, slotClass, keySlots: (v) => LABELS[v.label].key.map((k) => slotClass(slotId(v, k))) };
}

/** The labels nodes were given, by `:Label` or by HAS_MORPHOLOGY; a node given two different ones is refused. */
class Labels {
  private readonly given = new Map<NodeVar, { label: NodeLabel; pos: Pos; why: string }>();

  of(v: NodeVar): NodeLabel | undefined {
    return this.given.get(v)?.label;
  }

  set(v: NodeVar, label: NodeLabel, pos: Pos, why: string): void {
    const had = this.given.get(v);
    if (had && had.label !== label) {
      throw syqlError(pos, `${v.name ?? 'this node'} is a ${had.label} (${had.why}) and cannot also be a ${label} (${why})`);
    }
    if (!had) this.given.set(v, { label, pos, why });
  }
}

function bindNodes(patterns: readonly NodePattern[], scope: Map<string, Owner>, labels: Labels): { nodes: NodeVar[]; occurrences: NodeVar[] } {
  const nodes: NodeVar[] = [];
  const occurrences: NodeVar[] = [];
  for (const n of patterns) {
    let v: NodeVar | undefined;
    if (n.variable !== null) {
      const known = scope.get(n.variable);
      if (known && known.owner === 'rel') throw syqlError(n.pos, `'${n.variable}' is already a relationship variable`);
      v = known as NodeVar | undefined;
    }
    if (!v) {
      v = { owner: 'node', index: nodes.length, name: n.variable, label: 'Neuron', pos: n.pos };
      nodes.push(v);
      if (n.variable !== null) scope.set(n.variable, v);
    }
    if (n.label !== null) {
      if (!(LABEL_NAMES as string[]).includes(n.label)) {
        throw syqlError(n.pos, `unknown label '${n.label}': SyQL knows ${LABEL_NAMES.join(' and ')}`, { candidates: LABEL_NAMES });
      }
      labels.set(v, n.label as NodeLabel, n.pos, `:${n.label}`);
    }
    occurrences.push(v);
  }
  return { nodes, occurrences };
}

/** The relationship between `left` and `right`: HAS_MORPHOLOGY, one synapse, or a path of 1 to MAX_PATH_HOPS synapses. */
function bindRel(r: RelPattern, index: number, left: NodeVar, right: NodeVar, scope: Map<string, Owner>): RelVar {
  if (r.variable !== null && scope.has(r.variable)) {
    const known = scope.get(r.variable)!;
    throw syqlError(r.pos, `'${r.variable}' is already ${known.owner === 'node' ? 'a node' : 'a relationship'} variable: a relationship variable names one relationship`);
  }
  const names = r.types.map((t) => {
    if (!(REL_TYPES as string[]).includes(t.name)) {
      throw syqlError(t.pos, `unknown relationship type '${t.name}': SyQL knows ${REL_TYPES.join(', ')}`, { candidates: [...REL_TYPES] });
    }
    return t.name as (typeof REL_TYPES)[number];
  });
  if (names.includes('HAS_MORPHOLOGY')) {
    if (names.length > 1) throw syqlError(r.types[0].pos, 'HAS_MORPHOLOGY cannot be combined with other relationship types');
    if (r.hops) throw syqlError(r.hops.pos, 'HAS_MORPHOLOGY is a single hop: a neuron to one of its morphologies; remove the *');
    return { owner: 'rel', index, name: r.variable, pos: r.pos, kind: 'morphology', kinds: [], direction: r.direction, hops: null, left, right };
  }
  const kinds = new Set<Kind>();
  for (const n of names.length ? names : (['Synapse'] as const)) for (const k of SYNAPSE_KINDS[n as keyof typeof SYNAPSE_KINDS]) kinds.add(k);
  let hops: RelVar['hops'] = null;
  if (r.hops) {
    const { min, max, pos } = r.hops;
    if (!Number.isInteger(min) || min < 1) throw syqlError(pos, `a variable-length relationship spans at least 1 hop (got ${min})`);
    if (!Number.isInteger(max) || max > MAX_PATH_HOPS) throw syqlError(pos, `a variable-length relationship spans at most ${MAX_PATH_HOPS} hops (got ${max})`);
    if (min > max) throw syqlError(pos, `the fewest hops (${min}) exceed the most (${max})`);
    hops = { min, max };
  }
  return {
    owner: 'rel',
    index,
    name: r.variable,
    pos: r.pos,
    kind: hops ? 'path' : 'synapse',
    kinds: (['chemical', 'electrical'] as const).filter((k) => kinds.has(k)),
    direction: r.direction,
    hops,
    left,
    right,
  };
}

type MorphologyEnds = Map<RelVar, { neuron: NodeVar; morphology: NodeVar }>;

/** HAS_MORPHOLOGY fixes which end is the neuron and which the morphology, by its direction or the ends' labels. */
function orientMorphologies(rels: readonly RelVar[], labels: Labels): MorphologyEnds {
  const ends: MorphologyEnds = new Map();
  for (const rel of rels) {
    if (rel.kind !== 'morphology') continue;
    let neuron: NodeVar;
    let morphology: NodeVar;
    if (rel.direction === 'right') [neuron, morphology] = [rel.left, rel.right];
    else if (rel.direction === 'left') [neuron, morphology] = [rel.right, rel.left];
    else {
      const l = labels.of(rel.left);
      const r = labels.of(rel.right);
      if (r === 'Morphology' || l === 'Neuron') [neuron, morphology] = [rel.left, rel.right];
      else if (l === 'Morphology' || r === 'Neuron') [neuron, morphology] = [rel.right, rel.left];
      else throw syqlError(rel.pos, 'HAS_MORPHOLOGY goes from a Neuron to a Morphology: write (n)-[:HAS_MORPHOLOGY]->(m)');
    }
    if (neuron === morphology) throw syqlError(rel.pos, 'HAS_MORPHOLOGY joins a Neuron to a Morphology, not a node to itself');
    labels.set(neuron, 'Neuron', rel.pos, 'the start of HAS_MORPHOLOGY');
    labels.set(morphology, 'Morphology', rel.pos, 'the end of HAS_MORPHOLOGY');
    ends.set(rel, { neuron, morphology });
  }
  return ends;
}

/** Slot classes: HAS_MORPHOLOGY makes the morphology's `neuron` the neuron's `id`. */
function slotClasses(morphologyEnds: MorphologyEnds): (slot: string) => string {
  const parent = new Map<string, string>();
  const find = (s: string): string => {
    let r = s;
    while (parent.has(r)) r = parent.get(r)!;
    return r;
  };
  for (const { neuron, morphology } of morphologyEnds.values()) {
    const a = find(slotId(neuron, 'id'));
    const b = find(slotId(morphology, 'neuron'));
    if (a !== b) parent.set(b, a);
  }
  return find;
}
