import { SOMA_TYPE, type SwcTree } from '../../../domain/morphology/swc.js';

/**
 * The samples of an SWC forest directed away from the soma. A file's parent links need not point towards the soma:
 * in a skeleton traced from an arbitrary root (the hemibrain file) the soma sits inside a neurite. Each tree is
 * therefore re-rooted at its *origin*: the soma sample nearest the file's root (fewest parent links; the earliest
 * in the file on a tie), or the root itself when the tree has no soma sample. Because the origin is the shallowest
 * soma sample, the path reversed by re-rooting holds no other soma sample, and a tree whose soma samples are linked
 * to each other gets the same directions whichever of them is chosen.
 *
 * Everything is iterative over typed arrays: a 100k-sample chain would overflow the stack of a recursive walk.
 */
export interface OrientedTree {
  /** 1 for a soma sample (type 1). */
  isSoma: Uint8Array;
  /** The neighbour towards the origin of the sample's tree; -1 for an origin. */
  up: Int32Array;
  /** Every sample once, each after its `up` (a pre-order walk from each origin, trees in root order). */
  order: Int32Array;
  /** Position in `tree.roots` of each sample's tree. */
  treeOf: Int32Array;
  /** Per tree (as `tree.roots`): its origin sample, and whether that is a soma sample. */
  origins: Int32Array;
  hasSoma: Uint8Array;
}

/** Children lists in compressed form: the children of i are `list[start[i]] .. list[start[i + 1] - 1]`. */
interface Children {
  start: Int32Array;
  list: Int32Array;
}

function childrenOf(links: Int32Array): Children {
  const n = links.length;
  const start = new Int32Array(n + 1);
  for (let i = 0; i < n; i++) if (links[i] >= 0) start[links[i] + 1]++;
  for (let i = 0; i < n; i++) start[i + 1] += start[i];
  const fill = start.slice(0, n);
  const list = new Int32Array(start[n]);
  for (let i = 0; i < n; i++) if (links[i] >= 0) list[fill[links[i]]++] = i;
  return { start, list };
}

/** Pre-order walk from `from`, appending to `order` at `at`; returns the next free position. */
function walk(children: Children, from: number, order: Int32Array, at: number, stack: Int32Array, visit?: (i: number) => void): number {
  let top = 0;
  stack[top++] = from;
  while (top > 0) {
    const i = stack[--top];
    order[at++] = i;
    visit?.(i);
    for (let k = children.start[i + 1] - 1; k >= children.start[i]; k--) stack[top++] = children.list[k];
  }
  return at;
}

export function orient(tree: SwcTree): OrientedTree {
  const n = tree.count;
  const isSoma = new Uint8Array(n);
  for (let i = 0; i < n; i++) if (tree.types[i] === SOMA_TYPE) isSoma[i] = 1;

  const stack = new Int32Array(n);
  const order = new Int32Array(n);
  const treeOf = new Int32Array(n);
  const depth = new Int32Array(n);
  const fileChildren = childrenOf(tree.parent);
  let at = 0;
  tree.roots.forEach((root, t) => {
    at = walk(fileChildren, root, order, at, stack, (i) => {
      treeOf[i] = t;
      if (i !== root) depth[i] = depth[tree.parent[i]] + 1;
    });
  });

  const origins = Int32Array.from(tree.roots);
  const hasSoma = new Uint8Array(tree.roots.length);
  for (let i = 0; i < n; i++) {
    if (!isSoma[i]) continue;
    const t = treeOf[i];
    if (!hasSoma[t] || depth[i] < depth[origins[t]]) origins[t] = i;
    hasSoma[t] = 1;
  }

  const up = tree.parent.slice();
  for (let t = 0; t < origins.length; t++) {
    let prev = -1;
    let cur = origins[t];
    while (cur >= 0) {
      const next = tree.parent[cur];
      up[cur] = prev;
      prev = cur;
      cur = next;
    }
  }

  const oriented = childrenOf(up);
  at = 0;
  for (let t = 0; t < origins.length; t++) at = walk(oriented, origins[t], order, at, stack);
  return { isSoma, up, order, treeOf, origins, hasSoma };
}
