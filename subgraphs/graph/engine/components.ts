import type { Graph } from './graph.js';
import type { SimpleGraph } from './simple.js';

export interface ComponentSizes {
  count: number;
  largest: number;
}

/** Connected components of the simple graph (weak components of a directed graph); an isolated node is one. */
export function connectedComponents(s: SimpleGraph): ComponentSizes {
  const seen = new Uint8Array(s.n);
  const queue = new Int32Array(s.n);
  let count = 0;
  let largest = 0;
  for (let root = 0; root < s.n; root++) {
    if (seen[root]) continue;
    count++;
    let head = 0;
    let tail = 0;
    queue[tail++] = root;
    seen[root] = 1;
    while (head < tail) {
      const v = queue[head++];
      for (let e = s.start[v]; e < s.start[v + 1]; e++) {
        const w = s.nbr[e];
        if (!seen[w]) {
          seen[w] = 1;
          queue[tail++] = w;
        }
      }
    }
    if (tail > largest) largest = tail;
  }
  return { count, largest };
}

/** Strongly connected components by Tarjan's algorithm, with explicit stacks (no recursion). */
export function stronglyConnectedComponents(g: Graph): ComponentSizes {
  const { n, outStart, outNbr } = g;
  const index = new Int32Array(n).fill(-1);
  const low = new Int32Array(n);
  const onStack = new Uint8Array(n);
  const stack = new Int32Array(n);
  const calls = new Int32Array(n);
  const nextEdge = new Int32Array(n);
  let sp = 0;
  let counter = 0;
  let count = 0;
  let largest = 0;
  let cp = 0;
  const enter = (v: number) => {
    index[v] = low[v] = counter++;
    stack[sp++] = v;
    onStack[v] = 1;
    calls[cp++] = v;
    nextEdge[v] = outStart[v];
  };
  for (let root = 0; root < n; root++) {
    if (index[root] >= 0) continue;
    enter(root);
    while (cp > 0) {
      const v = calls[cp - 1];
      if (nextEdge[v] < outStart[v + 1]) {
        const w = outNbr[nextEdge[v]++];
        if (index[w] < 0) enter(w);
        else if (onStack[w] && index[w] < low[v]) low[v] = index[w];
        continue;
      }
      cp--;
      if (low[v] === index[v]) {
        let size = 0;
        let w: number;
        do {
          w = stack[--sp];
          onStack[w] = 0;
          size++;
        } while (w !== v);
        count++;
        if (size > largest) largest = size;
      }
      if (cp > 0) {
        const parent = calls[cp - 1];
        if (low[v] < low[parent]) low[parent] = low[v];
      }
    }
  }
  return { count, largest };
}
