"""Graph analyses of one dataset version (`/v1/graph/...`, docs/graph.md), and the same graph in networkx."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import pandas as pd

from .._frames import records_frame
from .._http import Session
from .._routes import route
from ..graphs import build_graph
from ._area import Area, dataset_path
from ._arguments import DatasetRef, PathLike, dataset_name, listed, scalars, split_reference
from .data import Data


class Graph(Area):
    """`client.graph`: metrics, motifs, paths, reachability, ego networks and comparisons, as the service
    computes them; `to_networkx` builds the graph it analyses from `client.data`'s rows.

    Every call takes a dataset and the options `version`, `synapse_type` (chemical, electrical, all) and
    `min_weight`."""

    def __init__(self, session: Session, data: Data) -> None:
        super().__init__(session)
        self._data = data

    def metrics(self, /, dataset: DatasetRef, **options: Any) -> dict[str, Any]:
        """Density, reciprocity, dyads, components, clustering, degrees and the top cells. Options: version,
        synapse_type (chemical, electrical, all), min_weight, top."""
        params = dict(options)
        path = dataset_path("graph_metrics", dataset, params)
        answer: dict[str, Any] = self._session.json("GET", path, params=params)
        return answer

    def motifs(
        self,
        /,
        dataset: DatasetRef,
        *,
        per_node: bool | Sequence[str] | None = None,
        null_model: int | Mapping[str, Any] | None = None,
        **options: Any,
    ) -> dict[str, Any]:
        """The exact triad census (`triadic_census`, the 16 classes). `per_node` (True or cells) adds each cell's
        census as a DataFrame; `null_model` (samples, or {samples, seed, ...}) adds z-scores."""
        body = {**options, "per_node": list(per_node) if isinstance(per_node, list | tuple) else per_node}
        if null_model is not None:
            body["null_model"] = _null_model(null_model)
        answer = self._post(dataset, "graph_motifs", body)
        if answer.get("per_node"):
            answer["per_node"] = pd.DataFrame(
                [{"neuron_id": r["neuron_id"], "name": r.get("name"), **r["census"]} for r in answer["per_node"]]
            ).set_index("neuron_id")
        return answer

    def compare_synapse_types(
        self, /, dataset: DatasetRef, *, null_model: int | Mapping[str, Any] | None = None, **options: Any
    ) -> dict[str, Any]:
        """The chemical and the electrical triad census side by side, each with its null model."""
        body = dict(options)
        if null_model is not None:
            body["null_model"] = _null_model(null_model)
        return self._post(dataset, "graph_compare_synapse_types", body)

    def shortest_path(self, /, dataset: DatasetRef, source: str, target: str, **options: Any) -> dict[str, Any]:
        """Length, one path and the number of shortest paths between two cells (by id or name). Options:
        weighted (None, "inverse", ...), max_hops, version, synapse_type, min_weight."""
        return self._post(dataset, "graph_shortest_path", {"source": source, "target": target, **options})

    def reachability(self, /, dataset: DatasetRef, sources: str | Sequence[str], **options: Any) -> dict[str, Any]:
        """Cells reachable from the sources within max_hops (default 3); `per_hop` as a DataFrame."""
        answer = self._post(dataset, "graph_reachability", {"sources": listed(sources), **options})
        answer["per_hop"] = records_frame(answer.get("per_hop") or [], index="hop")
        return answer

    def reachability_curve(
        self,
        /,
        dataset: DatasetRef,
        sources: str | Sequence[str] | None = None,
        *,
        svg: PathLike | None = None,
        **options: Any,
    ) -> dict[str, Any]:
        """Cells reachable within k hops, k = 1..max_hops (default 10); `svg=path` also saves the plot there."""
        body = {"sources": listed(sources), **options}
        if svg is not None:
            self._save_svg("POST", dataset_path("graph_reachability_curve", dataset, body), svg, body=body)
        return self._post(dataset, "graph_reachability_curve", body)

    def neighbourhood(
        self, /, dataset: DatasetRef, neuron: str, *, svg: PathLike | None = None, **options: Any
    ) -> dict[str, Any]:
        """A cell's ego network (Cytoscape.js JSON with a layout). Options: hops (1..3), direction, max_nodes."""
        params = {"neuron": neuron, **options}
        path = dataset_path("graph_neighbourhood", dataset, params)
        if svg is not None:
            self._save_svg("GET", path, svg, params=params)
        answer: dict[str, Any] = self._session.json("GET", path, params=params)
        return answer

    def compare(self, /, datasets: Sequence[DatasetRef], **options: Any) -> dict[str, pd.DataFrame]:
        """Graph metrics of 2..20 datasets side by side: `metrics` (one row per dataset, by slug) and
        `difference` (each from the first dataset)."""
        names = [dataset_name(d) for d in datasets]
        answer = self._session.json(*route("graph_compare"), body={"datasets": names, **options}, idempotent=True)
        metrics = [scalars(item.get("metrics") or {}) for item in answer.get("items", [])]
        differences = [
            {"slug": m.get("slug"), **scalars(item.get("difference") or {})}
            for m, item in zip(metrics, answer.get("items", []), strict=True)
        ]
        return {"metrics": records_frame(metrics, index="slug"), "difference": records_frame(differences, index="slug")}

    def to_networkx(
        self,
        dataset: DatasetRef,
        synapse_type: str = "chemical",
        min_weight: float | None = None,
        *,
        version: str | int = "latest",
    ) -> Any:
        """The dataset version's graph as the service analyses it: a networkx DiGraph (chemical, or all) or Graph
        (electrical), every cell a node with its neurons.csv columns, `weight` on each edge, self-loops kept."""
        name, version = split_reference(dataset, version)
        kind = None if synapse_type == "all" else synapse_type
        connections = self._data.connections(name, version=version, synapse_type=kind, min_weight=min_weight)
        pinned = connections.attrs.get("version") or version
        neurons = self._data.neurons(name, version=pinned)
        return build_graph(neurons, connections, synapse_type)

    def _post(self, dataset: DatasetRef, route_name: str, body: Mapping[str, Any]) -> dict[str, Any]:
        """A POST analysis: it changes nothing, so it is retried as a GET is."""
        args = {k: v for k, v in body.items() if v is not None}
        path = dataset_path(route_name, dataset, args)
        answer: dict[str, Any] = self._session.json("POST", path, body=args, idempotent=True)
        return answer


def _null_model(null_model: int | Mapping[str, Any]) -> dict[str, Any]:
    return {"samples": null_model} if isinstance(null_model, int) else dict(null_model)
