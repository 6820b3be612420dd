#!/usr/bin/python3
"""Baselines of bench/graph.bench.ts: the same graph computations with python-igraph and NetworkX.

Run by the benchmark as `/usr/bin/python3 bench/graph_baseline.py EDGES_FILE PAIRS_FILE LIBRARY TIMEOUT_S`
(Debian's python3-igraph and python3-networkx). EDGES_FILE: first line `n`, then `u v w` per arc (0-based cells);
PAIRS_FILE: `s t` per line. Prints one JSON object: seconds per operation (loading excluded), or null when an
operation did not finish within TIMEOUT_S seconds. Operations:
  census  - the triad census
  metrics - density, reciprocity (with and without self-loops), dyad census, weak and strong components,
            transitivity and average clustering of the undirected graph, max in/out degree, top 10 by strength
  paths   - one shortest path (unweighted) for each pair
"""
import json
import signal
import sys
import time


class TimedOut(Exception):
    pass


def on_alarm(signum, frame):
    raise TimedOut()


def read(edges_path, pairs_path):
    with open(edges_path) as f:
        n = int(f.readline())
        arcs = []
        for line in f:
            u, v, w = line.split()
            arcs.append((int(u), int(v), float(w)))
    with open(pairs_path) as f:
        pairs = [tuple(int(x) for x in line.split()) for line in f if line.strip()]
    return n, arcs, pairs


def igraph_ops(n, arcs, pairs):
    import igraph as ig
    g = ig.Graph(n=n, edges=[(u, v) for u, v, _ in arcs], directed=True)
    g.es["weight"] = [w for _, _, w in arcs]

    def metrics():
        g.density(loops=False)
        g.reciprocity(ignore_loops=False)
        g.reciprocity(ignore_loops=True)
        g.dyad_census()
        max(g.components(mode="weak").sizes())
        max(g.components(mode="strong").sizes())
        g.transitivity_undirected()
        g.transitivity_avglocal_undirected(mode="zero")
        g.maxdegree(mode="in")
        g.maxdegree(mode="out")
        sorted(g.strength(mode="in", weights="weight"), reverse=True)[:10]
        sorted(g.strength(mode="out", weights="weight"), reverse=True)[:10]

    return {
        "census": lambda: g.triad_census(),
        "metrics": metrics,
        "paths": lambda: [g.get_shortest_paths(s, to=t, output="vpath") for s, t in pairs],
    }


def networkx_ops(n, arcs, pairs):
    import networkx as nx
    G = nx.DiGraph()
    G.add_nodes_from(range(n))
    G.add_weighted_edges_from(arcs)

    def metrics():
        nx.density(G)
        nx.reciprocity(G)
        nx.number_weakly_connected_components(G)
        max(len(c) for c in nx.strongly_connected_components(G))
        U = G.to_undirected()
        nx.transitivity(U)
        nx.average_clustering(U)
        max(d for _, d in G.in_degree())
        max(d for _, d in G.out_degree())
        sorted((d for _, d in G.in_degree(weight="weight")), reverse=True)[:10]

    def paths():
        for s, t in pairs:
            try:
                nx.shortest_path(G, s, t)
            except nx.NetworkXNoPath:
                pass

    return {"census": lambda: nx.triadic_census(G), "metrics": metrics, "paths": paths}


def main():
    edges_path, pairs_path, library, timeout = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
    n, arcs, pairs = read(edges_path, pairs_path)
    ops = (igraph_ops if library == "igraph" else networkx_ops)(n, arcs, pairs)
    signal.signal(signal.SIGALRM, on_alarm)
    out = {}
    for name in sys.argv[5:] or ["census", "metrics", "paths"]:
        signal.alarm(timeout)
        started = time.perf_counter()
        try:
            ops[name]()
            out[name] = time.perf_counter() - started
        except TimedOut:
            out[name] = None
        finally:
            signal.alarm(0)
    print(json.dumps(out))


if __name__ == "__main__":
    main()
