"""networkx graphs of a dataset version, built as the service builds its own (docs/graph.md)."""

from __future__ import annotations

from typing import Any

import networkx as nx
import pandas as pd


def build_graph(neurons: pd.DataFrame, connections: pd.DataFrame, synapse_type: str) -> Any:
    """`chemical`: a DiGraph, one arc per chemical row. `electrical`: a Graph, one edge per gap-junction pair.
    `all`: a DiGraph of the chemical arcs plus both arcs of every electrical pair, weights summed where both exist.
    Every cell is a node (isolated ones too), self-loops are kept, node attributes are the neurons' columns."""
    if synapse_type not in {"chemical", "electrical", "all"}:
        raise ValueError(f"synapse_type: {synapse_type!r} is not chemical, electrical or all")
    graph: Any = nx.Graph() if synapse_type == "electrical" else nx.DiGraph()
    attributes = neurons.drop(columns=["neuron_id"]).to_dict("records") if len(neurons.columns) > 1 else None
    for index, neuron_id in enumerate(neurons["neuron_id"]):
        graph.add_node(neuron_id, **({k: _plain(v) for k, v in attributes[index].items()} if attributes else {}))
    for pre, post, kind, weight in connections[["pre", "post", "synapse_type", "weight"]].itertuples(index=False):
        if synapse_type != "all" and kind != synapse_type:
            continue
        arcs = [(pre, post)] if kind == "chemical" or synapse_type == "electrical" else _both(pre, post)
        for u, v in arcs:
            if graph.has_edge(u, v):
                graph[u][v]["weight"] += float(weight)
            else:
                graph.add_edge(u, v, weight=float(weight))
    graph.graph.update({k: v for k, v in connections.attrs.items() if k in {"dataset", "dataset_id", "version"}})
    graph.graph["synapse_type"] = synapse_type
    return graph


def _both(a: str, b: str) -> list[tuple[str, str]]:
    return [(a, b)] if a == b else [(a, b), (b, a)]


def _plain(value: Any) -> Any:
    """pandas' missing values as None, so the graph's attributes are plain Python values."""
    return None if value is pd.NA or (isinstance(value, float) and value != value) else value
