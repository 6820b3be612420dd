/** Compressed sparse rows: row v is `nbr[start[v] .. start[v + 1])`, with a weight per entry. */
export interface Csr {
  start: Int32Array;
  nbr: Int32Array;
  w: Float64Array;
}

/**
 * Rows sorted ascending from an unsorted arc list, in O(n + m): a stable counting sort by head, then one by tail
 * (least significant key first, as in a radix sort). Only the first `count` arcs are read.
 */
export function csrFromArcs(n: number, from: Int32Array, to: Int32Array, w: Float64Array, count: number): Csr {
  const byHead = countingOrder(n, to, count);
  const start = new Int32Array(n + 1);
  for (let i = 0; i < count; i++) start[from[i] + 1]++;
  for (let v = 0; v < n; v++) start[v + 1] += start[v];
  const next = start.slice(0, n);
  const nbr = new Int32Array(count);
  const weight = new Float64Array(count);
  for (let k = 0; k < count; k++) {
    const i = byHead[k];
    const p = next[from[i]]++;
    nbr[p] = to[i];
    weight[p] = w[i];
  }
  return { start, nbr, w: weight };
}

/** The arcs' indices ordered by `key` (stable). */
function countingOrder(n: number, key: Int32Array, count: number): Int32Array {
  const pos = new Int32Array(n + 1);
  for (let i = 0; i < count; i++) pos[key[i] + 1]++;
  for (let v = 0; v < n; v++) pos[v + 1] += pos[v];
  const order = new Int32Array(count);
  for (let i = 0; i < count; i++) order[pos[key[i]]++] = i;
  return order;
}

/** The transpose of a CSR; its rows come out sorted because the rows of `out` are visited in order. */
export function transpose(n: number, out: Csr): Csr {
  const m = out.nbr.length;
  const start = new Int32Array(n + 1);
  for (let e = 0; e < m; e++) start[out.nbr[e] + 1]++;
  for (let v = 0; v < n; v++) start[v + 1] += start[v];
  const next = start.slice(0, n);
  const nbr = new Int32Array(m);
  const w = new Float64Array(m);
  for (let u = 0; u < n; u++) {
    for (let e = out.start[u]; e < out.start[u + 1]; e++) {
      const p = next[out.nbr[e]]++;
      nbr[p] = u;
      w[p] = out.w[e];
    }
  }
  return { start, nbr, w };
}

/** Merges equal neighbours within each (sorted) row, summing their weights. */
export function mergeDuplicates(n: number, csr: Csr): Csr {
  const { start, nbr, w } = csr;
  const outStart = new Int32Array(n + 1);
  let k = 0;
  for (let v = 0; v < n; v++) {
    const end = start[v + 1];
    for (let e = start[v]; e < end; e++) {
      if (k > outStart[v] && nbr[k - 1] === nbr[e]) {
        w[k - 1] += w[e];
      } else {
        nbr[k] = nbr[e];
        w[k] = w[e];
        k++;
      }
    }
    outStart[v + 1] = k;
  }
  return { start: outStart, nbr: nbr.slice(0, k), w: w.slice(0, k) };
}
