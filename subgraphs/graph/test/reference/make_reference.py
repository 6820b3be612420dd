#!/usr/bin/python3
"""Reference values for the graph engine (docs/graph.md), computed with NetworkX and python-igraph.

What it computes
----------------
For each of the 11 shipped connectomes in seed/connectomes/<folder>/ (neurons.csv, connections.csv) and for
each of four graphs

  chemical               DiGraph: one arc pre -> post per chemical row, weight = the row's weight
  electrical             Graph:   one edge per electrical row (stored once, pre <= post)
  all                    DiGraph: the chemical arcs plus a -> b and b -> a for every electrical pair {a, b}
                                  (one loop when a = b); an arc present in both has the summed weight
  chemical_min_weight_3  the chemical graph built from the rows with weight >= 3

(nodes = every neuron_id of neurons.csv, isolated cells included; self-loops kept) it records:

  * nodes, edges and every field of the "Metrics" table of docs/graph.md, computed with NetworkX and, where
    igraph has the same quantity (density, reciprocity, dyad census, components, transitivity, average local
    clustering, degrees, strengths), with igraph too; the two are asserted equal (floats within 1e-12
    relative). Where they differ by convention the docs/graph.md convention is used (see CONVENTIONS below).
  * triadic_census (16 Holland-Leinhardt classes, standard order) with self-loops removed first,
    nx.triadic_census == igraph triad_census asserted; the electrical graph is censused as G.to_directed().
  * per_node census for 5 sample cells (chemical and electrical): census(G) - census(G - v), also asserted
    equal to nx.triadic_census(G, nodelist=[v]) and to igraph.
  * shortest paths for 10 sample (source, target) pairs of the chemical and electrical graphs, for
    weighted = none / distance (weight) / inverse (1 / weight): length, hops, the lexicographically smallest
    shortest path (code-point order of neuron_id) and number_of_shortest_paths. NetworkX's own predecessor
    lists (nx.predecessor / nx.dijkstra_predecessor_and_distance, exactly what nx.all_shortest_paths walks)
    are used; the count is a dynamic programme over that predecessor DAG and is asserted equal to
    len(list(nx.all_shortest_paths(...))) whenever it is at most 100,000; the path is a greedy walk over the
    same DAG, asserted equal to min(nx.all_shortest_paths(...)) when that list is small. For "inverse" the
    float ties are also checked against exact rational arithmetic (fractions.Fraction).
    For the chemical graph also max_hops = 2 unweighted (length null when the distance exceeds 2).
  * reachability (max_hops 3) from one single source and from a set of 3 sources: per hop the newly reached
    non-source cells (count and sorted ids) and the cumulative count.
  * the reachability curve, k = 1..6: mean over every cell v as the sole source of
    |{u != v : dist(v, u) <= k}| (nx.single_source_shortest_path_length(G, v, cutoff=k)).
  * the degree distribution: in, out, total histograms [[degree, count], ...] with mean, median, max.

Regenerate (from the repository root; needs Debian's python3 with networkx 2.8.8 and python-igraph 0.10.2):

    /usr/bin/python3 subgraphs/graph/test/reference/make_reference.py

It writes subgraphs/graph/test/reference/connectomes.json (deterministic: same inputs, same bytes).
"""

import csv
import json
import math
import os
import statistics
import sys
import time
from fractions import Fraction

import igraph as ig
import networkx as nx
import scipy

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", "..", "..", ".."))
DATA = os.path.join(ROOT, "seed", "connectomes")
OUT = os.path.join(HERE, "connectomes.json")

TRIADS = ["003", "012", "102", "021D", "021U", "021C", "111D", "111U",
          "030T", "030C", "201", "120D", "120U", "120C", "210", "300"]
REL = 1e-12
LIST_LIMIT = 100_000          # list nx.all_shortest_paths only when the DP count is at most this
MIN_LIMIT = 20_000            # ... and take min() over them when at most this
CURVE_K = 6
REACH_HOPS = 3

CONVENTIONS = {
    "graphs": "Nodes: every neuron_id of neurons.csv in code-point order. Self-loops kept. 'all' = chemical arcs "
              "plus both arcs of each electrical pair (one loop for a == b), weights summed on coinciding arcs. "
              "min_weight keeps rows with weight >= min_weight (applied to the chemical rows here).",
    "density": "nx.density: m / (n (n - 1)) directed, 2m / (n (n - 1)) undirected, self-loops counted in m. "
               "igraph density(loops=False) gives the same value (m includes loops there too).",
    "reciprocity": "nx.reciprocity: self-loops are arcs that are not reciprocated (in the denominator, never in "
                   "the numerator). igraph reciprocity(ignore_loops=False) instead counts every self-loop as "
                   "reciprocated: nx = igraph(ignore_loops=False) - loops / m (asserted). "
                   "reciprocity_excluding_self_loops = igraph reciprocity(ignore_loops=True) = nx.reciprocity "
                   "of the graph without its self-loops (asserted). Both null for the undirected graph and when "
                   "there are no (non-loop) arcs.",
    "dyads": "Over unordered pairs of distinct cells; self-loops do not enter. Equals igraph dyad_census() "
             "(igraph 0.10.2 already ignores loops). Undirected: mutual = linked pairs, asymmetric = 0.",
    "components": "weakly/strongly connected components (connected components for the undirected graph); an "
                  "isolated cell is a component of one; 'largest' = cells in the largest.",
    "clustering": "average_clustering_undirected = nx.average_clustering(G.to_undirected()) over all n cells "
                  "(fewer than 2 neighbours -> 0; self-loops ignored) = igraph "
                  "transitivity_avglocal_undirected(mode='zero') on the simple undirected graph. "
                  "transitivity_undirected = nx.transitivity(G.to_undirected()) = igraph "
                  "transitivity_undirected(); when there is no connected triple nx gives 0 and igraph NaN: "
                  "the reference takes 0.",
    "degrees": "Directed: a self-loop counts once in the in-degree and once in the out-degree (total = in + "
               "out). Undirected: the NetworkX degree, a self-loop counting twice (igraph degree(loops=True) "
               "agrees); in the undirected graph 'in', 'out' and 'total' are all that degree. Strengths "
               "(top lists) follow the same rule with weights.",
    "top_strength": "10 cells with the largest weighted in-/out-degree, ties by neuron_id in code-point order.",
    "triadic_census": "Self-loops removed first (nx 2.8.8 triadic_census and igraph 0.10.2 triad_census both "
                      "ignore loops anyway; checked). Electrical: census of G.to_directed(). Order: " +
                      ", ".join(TRIADS) + ".",
    "per_node": "census(G) - census(G - v), self-loops removed; each row sums to (n-1)(n-2)/2.",
    "shortest_paths": "length: number of arcs (none), sum of weights (distance) or of 1/weight (inverse, "
                      "floats, summed from the source along the path as NetworkX's Dijkstra does). "
                      "number_of_shortest_paths = len(list(nx.all_shortest_paths(G, s, t, weight))) "
                      "(0 when there is no path, 1 when s == t). path = lexicographically smallest (neuron_id "
                      "code-point order) of those paths, [] when none; hops = len(path) - 1 (of that path). "
                      "Electrical: edges are followed both ways. max_hops_2: unweighted, length null when the "
                      "distance exceeds 2.",
    "reachability": "Cells at distance 1..max_hops from the nearest source (arcs followed forwards), sources "
                    "excluded; per hop the newly reached cells and the cumulative count.",
    "reachability_curve": "k = 1..6: total = sum over every cell v of |{u != v : dist(v, u) <= k}|, mean = "
                          "total / n, fraction = mean / (n - 1).",
    "degree_distribution": "Histograms over all n cells (isolated included) of arc counts (not weights); "
                           "median = statistics.median (mean of the two middle values for even n).",
}


# ---------------------------------------------------------------------------------------------- helpers

def close(a, b, what):
    if a is None or b is None:
        assert a is None and b is None, (what, a, b)
        return
    if isinstance(a, float) and math.isnan(a) or isinstance(b, float) and math.isnan(b):
        raise AssertionError((what, a, b))
    if a == b:
        return
    assert abs(a - b) <= REL * max(abs(a), abs(b)), (what, a, b)


def num(text):
    x = float(text)
    return int(x) if x.is_integer() and "." not in text and "e" not in text.lower() else x


def read_dataset(folder):
    d = os.path.join(DATA, folder)
    with open(os.path.join(d, "neurons.csv"), newline="", encoding="utf-8") as f:
        ids = [r["neuron_id"] for r in csv.DictReader(f)]
    assert len(ids) == len(set(ids)), folder
    ids.sort()
    idset = set(ids)
    chem, elec = [], []
    seen = set()
    with open(os.path.join(d, "connections.csv"), newline="", encoding="utf-8") as f:
        for r in csv.DictReader(f):
            a, b, t, w = r["pre"], r["post"], r["synapse_type"], num(r["weight"])
            assert a in idset and b in idset, (folder, r)
            assert w > 0, (folder, r)
            key = (a, b, t)
            assert key not in seen, (folder, "duplicate row", r)
            seen.add(key)
            if t == "chemical":
                chem.append((a, b, w))
            elif t == "electrical":
                assert a <= b, (folder, "electrical pre > post", r)
                elec.append((a, b, w))
            else:
                raise AssertionError((folder, r))
    return ids, chem, elec


def build(ids, chem, elec, kind, min_weight=None):
    keep = (lambda w: True) if min_weight is None else (lambda w: w >= min_weight)
    if kind == "electrical":
        G = nx.Graph()
        G.add_nodes_from(ids)
        for a, b, w in elec:
            if keep(w):
                G.add_edge(a, b, weight=w)
        return G
    G = nx.DiGraph()
    G.add_nodes_from(ids)
    arcs = {}
    for a, b, w in chem:
        if keep(w):
            arcs[(a, b)] = arcs.get((a, b), 0) + w
    if kind == "all":
        for a, b, w in elec:
            if keep(w):
                for arc in {(a, b), (b, a)}:           # one loop when a == b
                    arcs[arc] = arcs.get(arc, 0) + w
    for (a, b), w in arcs.items():
        G.add_edge(a, b, weight=w)
    return G


def to_igraph(G, ids):
    index = {v: i for i, v in enumerate(ids)}
    edges = [(index[u], index[v]) for u, v in G.edges()]
    H = ig.Graph(n=len(ids), edges=edges, directed=G.is_directed())
    H.es["weight"] = [d["weight"] for _, _, d in G.edges(data=True)]
    H.vs["name"] = ids
    return H


def top10(pairs):
    return [{"neuron_id": v, "value": x} for v, x in sorted(pairs, key=lambda p: (-p[1], p[0]))[:10]]


def without_loops(G):
    H = G.copy()
    H.remove_edges_from(list(nx.selfloop_edges(H)))
    return H


def census_nx(G):
    """Triad census (list in TRIADS order) of G without self-loops; G undirected -> G.to_directed()."""
    D = G.to_directed() if not G.is_directed() else G
    D = without_loops(D)
    c = nx.triadic_census(D)
    return [c[k] for k in TRIADS]


def census_ig(G, ids):
    D = G.to_directed() if not G.is_directed() else G
    D = without_loops(D)
    H = to_igraph(D, [v for v in ids if v in D])
    return list(H.triad_census())


# ---------------------------------------------------------------------------------------------- metrics

def metrics(G, ids):
    n = G.number_of_nodes()
    m = G.number_of_edges()
    directed = G.is_directed()
    H = to_igraph(G, ids)
    loops = nx.number_of_selfloops(G)
    assert loops == sum(1 for e in H.es if e.is_loop())
    out = {"self_loops": loops, "total_weight": G.size(weight="weight")}
    assert out["total_weight"] == sum(H.es["weight"])

    dens = nx.density(G)
    close(dens, H.density(loops=False) if n >= 2 else 0.0, "density")
    out["density"] = dens

    if directed:
        if m == 0:
            rec = None
        else:
            rec = nx.reciprocity(G)
            ig_f = H.reciprocity(ignore_loops=False)
            close(rec, ig_f - loops / m, "reciprocity vs igraph(ignore_loops=False) - loops/m")
        G0 = without_loops(G)
        if G0.number_of_edges() == 0:
            rec0 = None
        else:
            rec0 = nx.reciprocity(G0)
            close(rec0, H.reciprocity(ignore_loops=True), "reciprocity_excluding_self_loops")
        out["reciprocity"] = rec
        out["reciprocity_excluding_self_loops"] = rec0
        mutual = sum(1 for u, v in G.edges() if u < v and G.has_edge(v, u))
        asym = sum(1 for u, v in G.edges() if u != v and not G.has_edge(v, u))
    else:
        out["reciprocity"] = None
        out["reciprocity_excluding_self_loops"] = None
        mutual = m - loops
        asym = 0
    nulld = n * (n - 1) // 2 - mutual - asym
    dc = tuple(H.dyad_census())
    assert dc == (mutual, asym, nulld), ("dyad census", dc, (mutual, asym, nulld))
    out["dyads"] = {"mutual": mutual, "asymmetric": asym, "null": nulld}

    if directed:
        wcc = [len(c) for c in nx.weakly_connected_components(G)]
        scc = [len(c) for c in nx.strongly_connected_components(G)]
        assert len(wcc) == nx.number_weakly_connected_components(G)
        assert len(scc) == nx.number_strongly_connected_components(G)
        iw = H.connected_components(mode="weak").sizes()
        is_ = H.connected_components(mode="strong").sizes()
    else:
        wcc = scc = [len(c) for c in nx.connected_components(G)]
        assert len(wcc) == nx.number_connected_components(G)
        iw = is_ = H.connected_components().sizes()
    assert sorted(wcc) == sorted(iw) and sorted(scc) == sorted(is_), "components"
    out["weakly_connected_components"] = {"count": len(wcc), "largest": max(wcc)}
    out["strongly_connected_components"] = {"count": len(scc), "largest": max(scc)}

    U = G.to_undirected() if directed else G
    ac = nx.average_clustering(U)
    HU = to_igraph(without_loops(U), ids)
    HU.simplify()
    close(ac, HU.transitivity_avglocal_undirected(mode="zero"), "average_clustering")
    out["average_clustering_undirected"] = ac
    tr = nx.transitivity(U)
    itr = H.transitivity_undirected()
    if math.isnan(itr):
        assert tr == 0, tr            # no connected triple: nx 0, igraph NaN
    else:
        close(tr, itr, "transitivity")
    out["transitivity_undirected"] = tr

    if directed:
        indeg = [G.in_degree(v) for v in ids]
        outdeg = [G.out_degree(v) for v in ids]
        assert indeg == H.indegree() and outdeg == H.outdegree()
        assert [a + b for a, b in zip(indeg, outdeg)] == H.degree(loops=True)
        ins = [(v, G.in_degree(v, weight="weight")) for v in ids]
        outs = [(v, G.out_degree(v, weight="weight")) for v in ids]
        assert [x for _, x in ins] == H.strength(mode="in", weights="weight", loops=True)
        assert [x for _, x in outs] == H.strength(mode="out", weights="weight", loops=True)
    else:
        indeg = outdeg = [G.degree(v) for v in ids]
        assert indeg == H.degree(loops=True)
        ins = outs = [(v, G.degree(v, weight="weight")) for v in ids]
        assert [x for _, x in ins] == H.strength(weights="weight", loops=True)
    out["max_in_degree"] = max(indeg)
    out["max_out_degree"] = max(outdeg)
    out["top_in_strength"] = top10(ins)
    out["top_out_strength"] = top10(outs)
    return out


# ---------------------------------------------------------------------------------------------- census

def triad_census(G, ids):
    c = census_nx(G)
    # loops do not change either library's census (checked, then removed anyway)
    D = G.to_directed() if not G.is_directed() else G
    craw = nx.triadic_census(D)
    assert [craw[k] for k in TRIADS] == c, "nx triadic_census changes with self-loops"
    assert census_ig(G, ids) == c, ("igraph triad census", census_ig(G, ids), c)
    assert list(to_igraph(D, ids).triad_census()) == c, "igraph triad census changes with self-loops"
    n = len(ids)
    assert sum(c) == n * (n - 1) * (n - 2) // 6
    if not G.is_directed():
        assert all(x == 0 for k, x in zip(TRIADS, c) if k not in ("003", "102", "201", "300"))
    return c


def pick_distinct(ids, start_positions, taken, ok=lambda v: True):
    out = []
    for p in start_positions:
        i = p
        while ids[i % len(ids)] in taken or not ok(ids[i % len(ids)]):
            i += 1
            assert i < p + len(ids)
        v = ids[i % len(ids)]
        taken.add(v)
        out.append((v, p))
    return out


def per_node(G, ids, full):
    n = len(ids)
    deg = {v: (G.in_degree(v) + G.out_degree(v)) if G.is_directed() else G.degree(v) for v in ids}
    big = min(ids, key=lambda v: (-deg[v], v))
    small = min(ids, key=lambda v: (deg[v], v))
    taken = {big, small}
    sel = [(big, "largest total degree (ties: smallest neuron_id)"),
           (small, "smallest total degree (ties: smallest neuron_id)")]
    for v, p in pick_distinct(ids, [n // 4, n // 2, (3 * n) // 4], taken):
        sel.append((v, f"sorted neuron_id position {p} (0-based; next unused position if taken)"))
    D = without_loops(G.to_directed() if not G.is_directed() else G)
    rows = []
    for v, why in sel:
        Gm = G.copy()
        Gm.remove_node(v)
        cm = census_nx(Gm)
        assert census_ig(Gm, [u for u in ids if u != v]) == cm
        c = [a - b for a, b in zip(full, cm)]
        assert sum(c) == (n - 1) * (n - 2) // 2
        cn = nx.triadic_census(D, nodelist=[v])
        assert [cn[k] for k in TRIADS] == c, ("nx nodelist census", v)
        rows.append({"neuron_id": v, "selected_as": why, "census": c})
    return rows


# ---------------------------------------------------------------------------------------------- paths

def exact_inverse_count(G, s, t):
    """Dijkstra in exact rationals with weight 1/w: (length, count) or (None, 0)."""
    import heapq
    dist = {s: Fraction(0)}
    cnt = {s: 1}
    done = set()
    heap = [(Fraction(0), s)]
    while heap:
        d, u = heapq.heappop(heap)
        if u in done:
            continue
        done.add(u)
        for v, data in G.adj[u].items():
            nd = d + Fraction(1, 1) / Fraction(data["weight"])
            if v not in dist or nd < dist[v]:
                dist[v] = nd
                cnt[v] = cnt[u]
                heapq.heappush(heap, (nd, v))
            elif nd == dist[v] and v not in done:
                cnt[v] += cnt[u]
    if t not in done:
        return None, 0
    return dist[t], cnt[t]


def one_path_query(G, s, t, weight, notes, label):
    if weight is None:
        pred = nx.predecessor(G, s)
        dist = nx.single_source_shortest_path_length(G, s)
    else:
        pred, dist = nx.dijkstra_predecessor_and_distance(G, s, weight=weight)
    if t not in pred:
        try:
            next(nx.all_shortest_paths(G, s, t, weight=weight))
            raise AssertionError("expected NetworkXNoPath")
        except nx.NetworkXNoPath:
            pass
        return {"length": None, "hops": None, "path": [], "number_of_shortest_paths": 0}
    # nodes on a shortest s-t path = those reachable backwards from t through pred
    on = {t}
    stack = [t]
    while stack:
        x = stack.pop()
        for p in pred[x]:
            if p not in on:
                on.add(p)
                stack.append(p)
    assert s in on
    succ = {x: [] for x in on}
    for x in on:
        for p in pred[x]:
            succ[p].append(x)
    order = sorted(on, key=lambda x: dist[x])
    cnt = {s: 1}
    for x in order:
        if x != s:
            cnt[x] = sum(cnt[p] for p in pred[x])   # pred of x all lie on the DAG (reach t via x)
    count = cnt[t]
    path = [s]
    while path[-1] != t:
        path.append(min(succ[path[-1]]))
    if count <= LIST_LIMIT:
        paths = list(nx.all_shortest_paths(G, s, t, weight=weight))
        assert len(paths) == count, (label, len(paths), count)
        if count <= MIN_LIMIT:
            assert min(paths) == path, (label, min(paths), path)
    else:
        notes.append(f"{label}: {count} shortest paths, counted by DP over nx's predecessor DAG, not listed")
    assert count < 2 ** 53, label
    length = dist[t]
    if weight is None:
        assert length == len(path) - 1
    else:
        assert length == nx.path_weight(G, path, weight) or s == t, label
    return {"length": length, "hops": len(path) - 1, "path": path, "number_of_shortest_paths": count}


def sample_pairs(G, ids):
    n = len(ids)
    directed = G.is_directed()
    outd = {v: G.out_degree(v) if directed else G.degree(v) for v in ids}
    ind = {v: G.in_degree(v) if directed else G.degree(v) for v in ids}
    pairs = []
    hub_out = min(ids, key=lambda v: (-outd[v], v))
    hub_in = min((v for v in ids if v != hub_out), key=lambda v: (-ind[v], v))
    pairs.append((hub_out, hub_in, "largest out-degree -> largest in-degree (other cell), ties by neuron_id"))
    mid = ids[n // 2]
    pairs.append((mid, mid, f"source == target: sorted position {n // 2}"))
    # no path: first (source, target) in sorted order with outdeg(source) > 0 and target unreachable
    nopath = None
    for s in ids:
        if outd[s] == 0:
            continue
        reach = nx.descendants(G, s) if directed else nx.node_connected_component(G, s)
        cand = [t for t in ids if t != s and t not in reach and ind[t] > 0]
        if not cand:
            cand = [t for t in ids if t != s and t not in reach]
        if cand:
            nopath = (s, cand[0])
            break
    assert nopath is not None
    pairs.append((nopath[0], nopath[1], "no path: first source (sorted, out-degree > 0) with an unreachable "
                                        "target; first such target with in-degree > 0 if any"))
    # distance exactly 2 with the most shortest paths (ties: smallest (source, target))
    best = None
    for s in ids:
        pred, seen = nx.predecessor(G, s, cutoff=2, return_seen=True)
        for t, dd in seen.items():
            if dd == 2:
                c = len(pred[t])              # every predecessor is at distance 1: one path each
                key = (-c, s, t)
                if best is None or key < best:
                    best = key
    if best is not None:
        pairs.append((best[1], best[2], "distance 2 with the most unweighted shortest paths, ties by (source, "
                                        "target)"))
    k = 0
    while len(pairs) < 10:
        s = ids[(k * 37 + 5) % n]
        t = ids[(k * 91 + n // 3) % n]
        k += 1
        if s == t or any(p[0] == s and p[1] == t for p in pairs) or outd[s] == 0:
            continue
        pairs.append((s, t, f"sorted positions ({ids.index(s)}, {ids.index(t)}) from the fixed sequence "
                            f"(37k + 5, 91k + n // 3) mod n, skipping s == t, repeats and out-degree 0"))
    return pairs


def shortest_paths(G, ids, notes, name):
    GI = G.copy()
    for u, v, d in GI.edges(data=True):
        d["inv"] = 1 / d["weight"]
    rows = []
    for s, t, why in sample_pairs(G, ids):
        row = {"source": s, "target": t, "selected_as": why}
        row["none"] = one_path_query(G, s, t, None, notes, f"{name} {s}->{t} none")
        row["distance"] = one_path_query(G, s, t, "weight", notes, f"{name} {s}->{t} distance")
        row["inverse"] = one_path_query(GI, s, t, "inv", notes, f"{name} {s}->{t} inverse")
        el, ec = exact_inverse_count(G, s, t)
        fl = row["inverse"]
        if el is None:
            assert fl["length"] is None
        else:
            if ec != fl["number_of_shortest_paths"]:
                notes.append(f"{name} {s}->{t} inverse: float ties give {fl['number_of_shortest_paths']} "
                             f"shortest paths, exact rationals {ec} (reference keeps NetworkX's float value)")
            if float(el) != fl["length"]:
                notes.append(f"{name} {s}->{t} inverse: float length {fl['length']!r} vs exact "
                             f"{float(el)!r} (reference keeps NetworkX's float sum)")
        if G.is_directed():
            r = row["none"]
            if r["length"] is not None and r["length"] <= 2:
                row["max_hops_2"] = dict(r)
            else:
                row["max_hops_2"] = {"length": None, "hops": None, "path": [], "number_of_shortest_paths": 0}
        rows.append(row)
    return rows


# ---------------------------------------------------------------------------------------------- reach

def reach_sources(G, ids):
    n = len(ids)
    outd = {v: G.out_degree(v) if G.is_directed() else G.degree(v) for v in ids}
    ok = lambda v: outd[v] > 0
    if not any(outd.values()):
        ok = lambda v: True
    single = [v for v, _ in pick_distinct(ids, [n // 3], set(), ok)]
    three = [v for v, _ in pick_distinct(ids, [n // 5, n // 2, (4 * n) // 5], set(), ok)]
    return [(single, f"sorted position {n // 3} (0-based), moved forward to the first cell with out-degree > 0"),
            (three, f"sorted positions {n // 5}, {n // 2}, {(4 * n) // 5}, each moved forward to the first "
                    f"unused cell with out-degree > 0")]


def reachability(G, ids):
    rows = []
    for sources, why in reach_sources(G, ids):
        best = {}
        for s in sources:
            for u, d in nx.single_source_shortest_path_length(G, s, cutoff=REACH_HOPS).items():
                if u not in best or d < best[u]:
                    best[u] = d
        src = set(sources)
        per_hop = []
        cum = 0
        for k in range(1, REACH_HOPS + 1):
            new = sorted(u for u, d in best.items() if d == k and u not in src)
            cum += len(new)
            per_hop.append({"hop": k, "new": len(new), "cumulative": cum, "reached": new})
        rows.append({"sources": sources, "selected_as": why, "max_hops": REACH_HOPS, "per_hop": per_hop})
    return rows


def reachability_curve(G, ids):
    n = len(ids)
    totals = [0] * (CURVE_K + 1)
    for v in ids:
        d = nx.single_source_shortest_path_length(G, v, cutoff=CURVE_K)
        for u, k in d.items():
            if u != v:
                totals[k] += 1
    out = []
    cum = 0
    for k in range(1, CURVE_K + 1):
        cum += totals[k]
        mean = cum / n
        out.append({"k": k, "total": cum, "mean": mean, "fraction": mean / (n - 1)})
    # spot check against the literal definition with cutoff=k
    for k in (1, CURVE_K):
        lit = sum(len(nx.single_source_shortest_path_length(G, v, cutoff=k)) - 1 for v in ids)
        assert lit == out[k - 1]["total"]
    return out


def degree_distribution(G, ids):
    if G.is_directed():
        seqs = {"in": [G.in_degree(v) for v in ids], "out": [G.out_degree(v) for v in ids]}
        seqs["total"] = [a + b for a, b in zip(seqs["in"], seqs["out"])]
    else:
        d = [G.degree(v) for v in ids]
        seqs = {"in": d, "out": d, "total": d}
    out = {}
    for k, seq in seqs.items():
        hist = {}
        for x in seq:
            hist[x] = hist.get(x, 0) + 1
        out[k] = {"histogram": [[x, hist[x]] for x in sorted(hist)], "mean": sum(seq) / len(seq),
                  "median": statistics.median(seq), "max": max(seq)}
    return out


# ---------------------------------------------------------------------------------------------- main

GRAPHS = [("chemical", "chemical", None), ("electrical", "electrical", None), ("all", "all", None),
          ("chemical_min_weight_3", "chemical", 3)]


def dump(obj, depth=0, expand=4):
    """JSON with objects indented down to `expand` levels, everything deeper on one line."""
    if depth >= expand or not isinstance(obj, (dict, list)) or not obj:
        return json.dumps(obj, ensure_ascii=False, allow_nan=False, separators=(",", ":"))
    pad = " " * (depth + 1)
    if isinstance(obj, dict):
        items = [f"{pad}{json.dumps(k)}: {dump(v, depth + 1, expand)}" for k, v in obj.items()]
        return "{\n" + ",\n".join(items) + "\n" + " " * depth + "}"
    if all(not isinstance(x, (dict, list)) for x in obj):
        return json.dumps(obj, ensure_ascii=False, allow_nan=False, separators=(",", ":"))
    items = [f"{pad}{dump(v, depth + 1, expand)}" for v in obj]
    return "[\n" + ",\n".join(items) + "\n" + " " * depth + "]"


def main():
    t0 = time.time()
    folders = sorted(f for f in os.listdir(DATA) if os.path.isfile(os.path.join(DATA, f, "connections.csv")))
    assert len(folders) == 11, folders
    notes = []
    datasets = {}
    for folder in folders:
        t1 = time.time()
        ids, chem, elec = read_dataset(folder)
        graphs = {}
        for key, kind, mw in GRAPHS:
            G = build(ids, chem, elec, kind, mw)
            name = f"{folder}/{key}"
            g = {"synapse_type": kind, "min_weight": mw, "directed": G.is_directed(),
                 "nodes": G.number_of_nodes(), "edges": G.number_of_edges()}
            g["metrics"] = metrics(G, ids)
            full = triad_census(G, ids)
            g["triadic_census"] = full
            if key in ("chemical", "electrical"):
                g["per_node_census"] = per_node(G, ids, full)
                g["shortest_paths"] = shortest_paths(G, ids, notes, name)
            g["reachability"] = reachability(G, ids)
            g["reachability_curve"] = reachability_curve(G, ids)
            g["degree_distribution"] = degree_distribution(G, ids)
            graphs[key] = g
        datasets[folder] = {"cells": len(ids), "graphs": graphs}
        print(f"{folder}: {time.time() - t1:.1f}s", file=sys.stderr)
    doc = {
        "generated_by": "subgraphs/graph/test/reference/make_reference.py",
        "command": "/usr/bin/python3 subgraphs/graph/test/reference/make_reference.py",
        "input": "seed/connectomes/<folder>/{neurons,connections}.csv",
        "versions": {"python": sys.version.split()[0], "networkx": nx.__version__, "igraph": ig.__version__,
                     "scipy": scipy.__version__},
        "triad_codes": TRIADS,
        "conventions": CONVENTIONS,
        "notes": notes,
        "datasets": datasets,
    }
    text = dump(doc) + "\n"
    json.loads(text)
    with open(OUT, "w", encoding="utf-8", newline="\n") as f:
        f.write(text)
    print(f"wrote {OUT} ({len(text.encode())} bytes) in {time.time() - t0:.1f}s", file=sys.stderr)


if __name__ == "__main__":
    main()
