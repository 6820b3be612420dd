"""neuprint-python's calls, under the names its users know, answered by this service (docs/python-neuprint.md).

    from neurodata.neuprint import Client, NeuronCriteria as NC, fetch_neurons

    c = Client("https://data.example.org", dataset="hemibrain_v1_2", token="...")
    neurons, roi_counts = fetch_neurons(NC(type="DA1_lPN", inputRois=["AL(R)"], min_roi_inputs=100))

The columns are neuprint-python's (`bodyId`, `instance`, `type`, `pre`, `post`, `upstream`, `downstream`, ... and
`bodyId, roi, pre, post, downstream, upstream` for the ROI counts), `bodyId` as int64 when every id is a number
(FlyWire's root ids exceed 2**53 and stay exact), and nothing is cut: every match comes whole.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import pandas as pd

from .client import Client as _ServiceClient

__all__ = [
    "Client",
    "NeuronCriteria",
    "default_client",
    "fetch_adjacencies",
    "fetch_common_connectivity",
    "fetch_neurons",
    "fetch_simple_connections",
    "set_default_client",
]

# neuprint's property names where this service's annotation fields are named otherwise.
_FIELD_NAMES = {"somaSide": "side", "class_": "class", "superclass": "super_class", "subclass": "sub_class"}
_NEURON_COLUMNS = ["bodyId", "instance", "type", "class", "super_class", "sub_class", "hemilineage", "side", "status"]


class Client(_ServiceClient):
    """A service client that remembers one dataset, as neuprint-python's `Client(server, dataset=...)` does; the
    first one made is the default of the `fetch_*` calls (`set_default_client` chooses another)."""

    def __init__(
        self, url: str | None = None, dataset: str | None = None, token: str | None = None, **options: Any
    ) -> None:
        super().__init__(url, token=token, **options)
        # `dataset` is the client's call for one dataset's record: the remembered name has a name of its own.
        self.default_dataset = dataset
        global _DEFAULT
        if _DEFAULT is None:
            _DEFAULT = self


_DEFAULT: Client | None = None


def set_default_client(client: Client) -> None:
    """The client the `fetch_*` calls use when they are given none."""
    global _DEFAULT
    _DEFAULT = client


def default_client() -> Client:
    if _DEFAULT is None:
        raise RuntimeError("no default client: make a neurodata.neuprint.Client(url, dataset=..., token=...) first")
    return _DEFAULT


class NeuronCriteria:
    """Which neurons, as neuprint-python's NeuronCriteria: every condition given must hold.

    `bodyId` one id or a list; `type`, `instance`, `status` and any other annotation as keyword arguments (a value
    or a list of values; with `regex=True` a string value is a regular expression the whole value matches);
    `rois` (a synapse there), `inputRois`/`outputRois` with `min_roi_inputs`/`min_roi_outputs`, `roi_req`
    ("all" or "any"); `min_pre`, `min_post`; `soma_bbox` (x0, y0, z0, x1, y1, z1) with `unit` (voxel, nm, um)."""

    def __init__(
        self,
        *,
        bodyId: int | str | Iterable[int | str] | None = None,
        type: str | Sequence[str] | None = None,
        instance: str | Sequence[str] | None = None,
        status: str | Sequence[str] | None = None,
        regex: bool = False,
        rois: str | Sequence[str] | None = None,
        inputRois: str | Sequence[str] | None = None,
        outputRois: str | Sequence[str] | None = None,
        min_roi_inputs: int = 1,
        min_roi_outputs: int = 1,
        roi_req: str = "all",
        min_pre: int = 0,
        min_post: int = 0,
        soma_bbox: Sequence[float] | None = None,
        unit: str | None = None,
        **properties: str | Sequence[str],
    ) -> None:
        if roi_req not in ("all", "any"):
            raise ValueError(f"roi_req: 'all' or 'any' (got {roi_req!r})")
        if (soma_bbox is None) != (unit is None):
            raise ValueError("soma_bbox and unit: give both (unit is voxel, nm or um) or neither")
        self.bodyId = bodyId
        self.type = type
        self.instance = instance
        self.status = status
        self.regex = regex
        self.rois = rois
        self.inputRois = inputRois
        self.outputRois = outputRois
        self.min_roi_inputs = min_roi_inputs
        self.min_roi_outputs = min_roi_outputs
        self.roi_req = roi_req
        self.min_pre = min_pre
        self.min_post = min_post
        self.soma_bbox = soma_bbox
        self.unit = unit
        self.properties = dict(properties)

    def __repr__(self) -> str:
        return f"NeuronCriteria({self.to_json()!r})"

    def to_json(self) -> dict[str, Any]:
        """The service's criteria object (docs/neurodata.md, "Neurons by criteria")."""
        out: dict[str, Any] = {}
        if self.bodyId is not None:
            ids: list[int | str] = [self.bodyId] if isinstance(self.bodyId, (int, str)) else list(self.bodyId)
            out["ids"] = [str(int(i)) if not isinstance(i, str) else i for i in ids]
        where: list[dict[str, Any]] = []
        named: list[tuple[str, str | Sequence[str] | None]] = [
            ("type", self.type),
            ("instance", self.instance),
            ("status", self.status),
        ]
        for name, value in [*named, *self.properties.items()]:
            if value is None:
                continue
            target = _FIELD_NAMES.get(name, name)
            if self.regex and isinstance(value, str):
                where.append({"field": target, "regex": value})
            else:
                where.append(
                    {"field": target, "values": [str(v) for v in ([value] if isinstance(value, str) else value)]}
                )
        if where:
            out["where"] = where
        for name, key in [("rois", "rois"), ("inputRois", "input_rois"), ("outputRois", "output_rois")]:
            value = getattr(self, name)
            if value is not None:
                out[key] = [value] if isinstance(value, str) else list(value)
        if self.inputRois is not None:
            out["min_roi_inputs"] = int(self.min_roi_inputs)
        if self.outputRois is not None:
            out["min_roi_outputs"] = int(self.min_roi_outputs)
        if self.roi_req != "all":
            out["roi_req"] = self.roi_req
        if self.min_pre:
            out["min_pre"] = int(self.min_pre)
        if self.min_post:
            out["min_post"] = int(self.min_post)
        if self.soma_bbox is not None:
            out["soma_bbox"] = ",".join(repr(float(v)) for v in self.soma_bbox)
            out["unit"] = self.unit
        return out


def _client_and_dataset(client: _ServiceClient | None, dataset: str | None) -> tuple[_ServiceClient, str]:
    c = client or default_client()
    name = dataset or getattr(c, "default_dataset", None)
    if not name:
        raise ValueError("dataset: give one, or make the client with Client(url, dataset=...)")
    return c, name


def _body_ids(ids: pd.Series) -> pd.Series:
    """Ids as int64 when every one is a whole number (neuPrint's bodyId dtype), as text otherwise."""
    text = ids.astype(str)
    if len(text) and text.str.fullmatch(r"\d{1,18}").all():
        return text.astype("int64")
    return text


def fetch_neurons(
    criteria: NeuronCriteria | Mapping[str, Any] | None = None,
    *,
    client: _ServiceClient | None = None,
    dataset: str | None = None,
    version: str | int = "latest",
) -> tuple[pd.DataFrame, pd.DataFrame]:
    """The neurons that match `criteria` and their per-ROI counts, `(neurons, roi_counts)` as neuprint-python's
    `fetch_neurons` returns them: `neurons` one row per neuron (bodyId, instance, type, ..., pre, post, upstream,
    downstream, the source's other columns), `roi_counts` one per neuron and ROI (bodyId, roi, pre, post,
    downstream, upstream; the synapses outside every ROI have the roi ""). Every match, never cut."""
    c, name = _client_and_dataset(client, dataset)
    body = criteria.to_json() if isinstance(criteria, NeuronCriteria) else dict(criteria or {})
    neurons, rois = c.data.neurons_by_criteria(name, body, version=version)
    roi_counts = rois.rename(columns={"neuron_id": "bodyId"})[
        ["bodyId", "roi", "pre", "post", "downstream", "upstream"]
    ]
    roi_counts["bodyId"] = _body_ids(roi_counts["bodyId"])
    frame = neurons.rename(columns={"neuron_id": "bodyId"})
    if "extra" in frame.columns:
        extra = pd.DataFrame([json.loads(e) if e else {} for e in frame.pop("extra")], index=frame.index)
        frame = pd.concat([frame, extra[[col for col in extra.columns if col not in frame.columns]]], axis=1)
    totals = rois.groupby("neuron_id")[["upstream", "downstream"]].sum(min_count=1)
    frame["upstream"] = frame["bodyId"].map(totals["upstream"]).fillna(0).astype("Int64")
    frame["downstream"] = frame["bodyId"].map(totals["downstream"]).astype("Int64")
    frame["bodyId"] = _body_ids(frame["bodyId"])
    first = [col for col in _NEURON_COLUMNS if col in frame.columns]
    frame = frame[first + [col for col in frame.columns if col not in first]]
    for out in (frame, roi_counts):
        out.attrs.update(neurons.attrs)
        out.attrs["criteria"] = body
    return frame.reset_index(drop=True), roi_counts.reset_index(drop=True)


def _criteria_json(criteria: NeuronCriteria | Mapping[str, Any] | None) -> dict[str, Any] | None:
    if criteria is None:
        return None
    return criteria.to_json() if isinstance(criteria, NeuronCriteria) else dict(criteria)


def _adjacency(
    c: _ServiceClient,
    name: str,
    sources: NeuronCriteria | Mapping[str, Any] | None,
    targets: NeuronCriteria | Mapping[str, Any] | None,
    rois: str | Sequence[str] | None,
    version: str | int,
    **options: Any,
) -> pd.DataFrame:
    chosen = [rois] if isinstance(rois, str) else None if rois is None else list(rois)
    return c.data.adjacency(
        name, _criteria_json(sources), _criteria_json(targets), version=version, rois=chosen, **options
    )


def _neurons_by_id(c: _ServiceClient, name: str, ids: Sequence[str], version: str | int) -> pd.DataFrame:
    """The neurons of these ids (fetch_neurons' columns), indexed by the id as text, for merging into edge tables."""
    neurons, _ = fetch_neurons(NeuronCriteria(bodyId=list(ids)), client=c, dataset=name, version=version)
    return neurons.assign(key=neurons["bodyId"].astype(str)).set_index("key")


def _whole_weights(weights: pd.Series) -> pd.Series:
    """Synapse counts as int64 (neuPrint's dtype) when every weight is whole; a source's other weights as they are."""
    return weights.astype("int64") if len(weights) and (weights % 1 == 0).all() else weights


def fetch_adjacencies(
    sources: NeuronCriteria | Mapping[str, Any] | None = None,
    targets: NeuronCriteria | Mapping[str, Any] | None = None,
    rois: str | Sequence[str] | None = None,
    min_roi_weight: float = 1,
    min_total_weight: float = 1,
    *,
    client: _ServiceClient | None = None,
    dataset: str | None = None,
    version: str | int = "latest",
) -> tuple[pd.DataFrame, pd.DataFrame]:
    """The connections from `sources` to `targets` per ROI, `(neurons, roi_connections)` as neuprint-python's
    `fetch_adjacencies` returns them: `neurons` the neurons on either side (bodyId, instance, type, ...),
    `roi_connections` one row per pair and primary ROI (bodyId_pre, bodyId_post, roi, weight), where roi "" holds
    the synapses outside every primary ROI (neuPrint's "NotPrimary"), so a pair's rows add up to its weight.
    Every row, never cut."""
    c, name = _client_and_dataset(client, dataset)
    rows = _adjacency(
        c, name, sources, targets, rois, version, min_roi_weight=min_roi_weight, min_total_weight=min_total_weight
    )
    connections = rows.rename(columns={"pre": "bodyId_pre", "post": "bodyId_post"})
    ids = sorted(set(connections["bodyId_pre"]) | set(connections["bodyId_post"]))
    neurons, _ = fetch_neurons(NeuronCriteria(bodyId=ids), client=c, dataset=name, version=version)
    for column in ("bodyId_pre", "bodyId_post"):
        connections[column] = _body_ids(connections[column])
    connections["weight"] = _whole_weights(connections["weight"])
    connections.attrs.update(rows.attrs)
    return neurons, connections.reset_index(drop=True)


def fetch_simple_connections(
    upstream_criteria: NeuronCriteria | Mapping[str, Any] | None = None,
    downstream_criteria: NeuronCriteria | Mapping[str, Any] | None = None,
    rois: str | Sequence[str] | None = None,
    min_weight: float = 1,
    properties: Sequence[str] = ("type", "instance"),
    *,
    client: _ServiceClient | None = None,
    dataset: str | None = None,
    version: str | int = "latest",
) -> pd.DataFrame:
    """The connections from upstream to downstream neurons, one row per pair (bodyId_pre, bodyId_post, weight,
    and each of `properties` of both partners as `<property>_pre` and `<property>_post`), strongest first, as
    neuprint-python's `fetch_simple_connections`: the partners' annotations come merged in. With `rois`, the
    weight counts only those ROIs. Every row, never cut."""
    c, name = _client_and_dataset(client, dataset)
    rows = _adjacency(c, name, upstream_criteria, downstream_criteria, rois, version, group_by_roi=False)
    rows = rows[rows["weight"] >= min_weight]
    frame = rows.rename(columns={"pre": "bodyId_pre", "post": "bodyId_post"})[["bodyId_pre", "bodyId_post", "weight"]]
    ids = sorted(set(frame["bodyId_pre"]) | set(frame["bodyId_post"]))
    by_id = _neurons_by_id(c, name, ids, version)
    for prop in properties:
        values = by_id[prop] if prop in by_id.columns else pd.Series(dtype=object)
        frame[f"{prop}_pre"] = frame["bodyId_pre"].map(values)
        frame[f"{prop}_post"] = frame["bodyId_post"].map(values)
    for column in ("bodyId_pre", "bodyId_post"):
        frame[column] = _body_ids(frame[column])
    frame["weight"] = _whole_weights(frame["weight"])
    frame = frame.sort_values(["weight", "bodyId_pre", "bodyId_post"], ascending=[False, True, True])
    frame = frame.reset_index(drop=True)
    frame.attrs.update(rows.attrs)
    return frame


def fetch_common_connectivity(
    criteria: NeuronCriteria | Mapping[str, Any] | None,
    search_direction: str = "upstream",
    min_weight: float = 1,
    properties: Sequence[str] = ("type", "instance"),
    *,
    client: _ServiceClient | None = None,
    dataset: str | None = None,
    version: str | int = "latest",
) -> pd.DataFrame:
    """The partners common to every neuron `criteria` matches, as neuprint-python's `fetch_common_connectivity`:
    one row per partner (bodyId and its `properties`) with one column per neuron of the set holding the partner's
    weight to (downstream) or from (upstream) it. Every partner, never cut."""
    c, name = _client_and_dataset(client, dataset)
    body = _criteria_json(criteria) or {}
    partners = c.data.common_partners(name, body, version=version, direction=search_direction, min_weight=min_weight)
    ids = list(partners["neuron_id"])
    columns = ["bodyId", *properties]
    if not ids:
        return pd.DataFrame(columns=columns)
    sides = (
        {"sources": {"ids": ids}, "targets": body}
        if search_direction == "upstream"
        else {"sources": body, "targets": {"ids": ids}}
    )
    edges = c.data.adjacency(name, sides["sources"], sides["targets"], version=version, group_by_roi=False)
    edges = edges[edges["weight"] >= min_weight]
    partner, member = ("pre", "post") if search_direction == "upstream" else ("post", "pre")
    wide = edges.pivot_table(index=partner, columns=member, values="weight", aggfunc="sum", fill_value=0)
    by_id = _neurons_by_id(c, name, ids, version)
    frame = pd.DataFrame({"bodyId": ids})
    for prop in properties:
        frame[prop] = frame["bodyId"].map(by_id[prop]) if prop in by_id.columns else None
    for m in wide.columns:
        frame[str(m)] = _whole_weights(frame["bodyId"].map(wide[m]).fillna(0))
    frame["bodyId"] = _body_ids(frame["bodyId"])
    frame.attrs.update(partners.attrs)
    return frame
