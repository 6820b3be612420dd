"""A dataset version's rows (`/v1/neurodata/datasets/{id}/neurons.arrow`, ...): cells, connections, synapses and
ROIs as DataFrames, every row at once as Apache Arrow."""

from __future__ import annotations

import contextlib
import hashlib
from collections.abc import Mapping, Sequence
from typing import Any

import pandas as pd
import pyarrow as pa

from .._frames import decoded_metadata, to_frame
from .._http import Session
from .._routes import path as route_path
from .._routes import route
from ..errors import ChecksumMismatch
from ._area import Area
from ._arguments import DatasetRef, in_list, query_value, split_reference, version_param
from .service import Service

# Characters of list filters sent in a URL; longer lists are applied to the rows here (the service reads at most
# 1000 values per list, and a request line of at most 16 KiB).
_URL_LIST_CHARS = 6_000
_LIST_MAX = 1000
# Ids of one neurons search: the service takes at most 20,000 list values per request (GRAPHQL_MAX_LIST_VALUES), so
# longer id lists are asked for in parts and the answers joined.
_CRITERIA_IDS = 10_000


class Data(Area):
    """`client.data`: the rows of a dataset version, complete and labelled (`df.attrs`) with where they came from.

    The service's version, which `df.attrs` records, comes from `client.service`."""

    def __init__(self, session: Session, service: Service) -> None:
        super().__init__(session)
        self._service = service

    def neurons(
        self,
        dataset: DatasetRef,
        *,
        version: str | int = "latest",
        neuron_ids: Sequence[str] | None = None,
        names: Sequence[str] | None = None,
        cell_class: str | Sequence[str] | None = None,
        cell_type: str | Sequence[str] | None = None,
        is_neuron: bool | None = None,
    ) -> pd.DataFrame:
        """Every cell of a dataset version (the columns of its neurons.csv), one row each, ordered by neuron_id.

        Never truncated: every row comes at once as Apache Arrow (`GET .../neurons.arrow`), ids exactly as stored.
        `df.attrs` holds the dataset, version, query and service version."""
        name, version = split_reference(dataset, version)
        filters = {"neuron_ids": neuron_ids, "names": names, "cell_class": cell_class, "cell_type": cell_type}
        return self._rows(name, version, "neurons", filters, {"is_neuron": is_neuron})

    def connections(
        self,
        dataset: DatasetRef,
        *,
        version: str | int = "latest",
        synapse_type: str | None = None,
        min_weight: float | None = None,
        neuron_ids: Sequence[str] | None = None,
        pre: Sequence[str] | None = None,
        post: Sequence[str] | None = None,
    ) -> pd.DataFrame:
        """The connection rows of a dataset version (pre, post, synapse_type, weight), as stored: one per chemical
        pair and direction, one per electrical (gap junction) pair with pre <= post. `synapse_type` is chemical,
        electrical or None for both; `min_weight` keeps rows of at least that weight; `neuron_ids` keeps rows whose
        pre or post is one of them; `pre`/`post` are neuron ids.

        Never truncated (every row comes at once as Apache Arrow); `df.attrs` holds the dataset, version, query,
        service version."""
        if synapse_type not in (None, "chemical", "electrical"):
            raise ValueError(f"synapse_type: {synapse_type!r} is not chemical, electrical or None (both)")
        if min_weight is not None and not float(min_weight) >= 0:
            raise ValueError(f"min_weight: {min_weight!r} is not a number of at least 0")
        name, version = split_reference(dataset, version)
        filters = {"neuron_ids": neuron_ids, "pre": pre, "post": post}
        single = {"synapse_type": synapse_type, "min_weight": None if min_weight is None else float(min_weight)}
        return self._rows(name, version, "connections", filters, single)

    def synapses(
        self,
        dataset: DatasetRef,
        *,
        version: str | int = "latest",
        neuron: str | Sequence[str] | None = None,
        pre: str | Sequence[str] | None = None,
        post: str | Sequence[str] | None = None,
        roi: str | None = None,
        bbox: Sequence[float] | None = None,
        unit: str | None = None,
        min_confidence: float | None = None,
        min_cleft_score: float | None = None,
        min_connection_score: float | None = None,
        transmitter: str | Sequence[str] | None = None,
        numeric_ids: bool = False,
    ) -> pd.DataFrame:
        """Every synapse of a synapse-level dataset version that passes the filters, ordered by pre, post and
        synapse_id: synapse_id, pre, post (missing when the source does not say), x, y, z (in the dataset's
        coordinate_unit), roi (missing outside every ROI), confidence, cleft_score, connection_score, size,
        transmitter and the six transmitter probabilities.

        `neuron` keeps synapses with one of these neurons on either side; `roi` an ROI name (its primary
        descendants count; "none" is outside every ROI); `bbox` (x0, y0, z0, x1, y1, z1) needs `unit` (voxel, nm
        or um). Never truncated (every row comes at once as Apache Arrow). Ids are text, exact; `numeric_ids=True`
        turns pre and post into nullable UInt64 (exact: FlyWire's root ids exceed 2**53, never floats).
        `df.attrs` holds the dataset, version, query and service version."""
        if (bbox is None) != (unit is None):
            raise ValueError("bbox and unit: give both (unit is voxel, nm or um) or neither")
        if unit is not None and unit not in ("voxel", "nm", "um"):
            raise ValueError(f"unit: {unit!r} is not voxel, nm or um")
        box = None
        if bbox is not None:
            values = [float(v) for v in bbox]
            if len(values) != 6:
                raise ValueError(f"bbox: six numbers x0, y0, z0, x1, y1, z1 (got {len(values)})")
            box = ",".join(repr(v) for v in values)
        name, version = split_reference(dataset, version)
        lists = {"neuron": neuron, "pre": pre, "post": post, "transmitter": transmitter}
        scores = {
            "min_confidence": min_confidence,
            "min_cleft_score": min_cleft_score,
            "min_connection_score": min_connection_score,
        }
        single = {
            "roi": roi,
            "bbox": box,
            "unit": unit,
            **{k: None if v is None else float(v) for k, v in scores.items()},
        }
        frame = self._rows(name, version, "synapses", lists, single)
        if numeric_ids:
            for column in ("pre", "post"):
                frame[column] = pd.array(
                    [None if v is None or v is pd.NA else int(v) for v in frame[column]], dtype="UInt64"
                )
        return frame

    def rois(self, dataset: DatasetRef, *, version: str | int = "latest") -> pd.DataFrame:
        """The ROI hierarchy of a dataset version, indexed by roi: parent, primary, description, term and the
        pre/post synapse counts (a non-primary ROI: the sum over its primary descendants). The synapses outside
        every ROI are in `df.attrs["outside_rois"]` ({pre, post})."""
        name, version = split_reference(dataset, version)
        answer = self._session.json(*route("rois", dataset_id=name), params={"version": version_param(version)})
        columns = ["roi", "parent", "primary", "description", "term", "pre", "post"]
        frame = pd.DataFrame(answer["items"], columns=columns).set_index("roi")
        frame["pre"] = frame["pre"].astype("Int64")
        frame["post"] = frame["post"].astype("Int64")
        frame.attrs.update({"dataset_id": answer["dataset_id"], "version": answer["version"], "draft": answer["draft"]})
        frame.attrs["outside_rois"] = answer["outside_rois"]
        return frame

    def neuron(self, dataset: DatasetRef, neuron_id: str | int, *, version: str | int = "latest") -> dict[str, Any]:
        """One neuron of a dataset version: its neurons row, annotations (instance, type, class, super_class,
        sub_class, hemilineage, side, status, transmitter, transmitter_confidence, soma), `extra` (the source's
        other columns) and `rois`, its synapse counts per primary ROI as a DataFrame indexed by roi. Raises
        NotFound for an unknown neuron."""
        name, version = split_reference(dataset, version)
        path = route_path("neuron", dataset_id=name, neuron_id=neuron_id)
        answer: dict[str, Any] = self._session.json("GET", path, params={"version": version_param(version)})
        rois = pd.DataFrame(answer.get("rois") or [], columns=["roi", "pre", "post", "upstream", "downstream"])
        for column in ("pre", "post", "upstream", "downstream"):
            rois[column] = rois[column].astype("Int64")
        answer["rois"] = rois.set_index("roi")
        return answer

    def neuron_fields(self, dataset: DatasetRef, *, version: str | int = "latest") -> pd.DataFrame:
        """The fields a dataset version's neurons can be searched by, indexed by field: source (annotation, extra or
        cell), neurons (how many have a value), distinct (how many values) and top (the 20 commonest values with
        their counts). `df.attrs["roi_counts"]` says whether ROI criteria apply."""
        name, version = split_reference(dataset, version)
        answer = self._session.json(
            *route("neuron_fields", dataset_id=name), params={"version": version_param(version)}
        )
        frame = pd.DataFrame(answer["items"], columns=["field", "source", "neurons", "distinct", "top"]).set_index(
            "field"
        )
        frame["neurons"] = frame["neurons"].astype("int64")
        frame["distinct"] = frame["distinct"].astype("int64")
        frame.attrs.update({k: answer[k] for k in ("dataset_id", "version", "draft", "annotated", "roi_counts")})
        return frame

    def neurons_by_criteria(
        self, dataset: DatasetRef, criteria: Mapping[str, Any] | None = None, *, version: str | int = "latest"
    ) -> tuple[pd.DataFrame, pd.DataFrame]:
        """The neurons of a dataset version that match `criteria` (the service's criteria object: ids, where,
        rois, input_rois, output_rois, roi_req, min_roi_inputs, min_roi_outputs, min_pre, min_post, soma_bbox and
        unit; docs/neurodata.md, "Neurons by criteria"), and their per-ROI counts: `(neurons, roi_counts)`.

        `neurons` has one row per neuron in neuron_id order: neuron_id, the searched fields, pre and post;
        `roi_counts` one row per neuron and ROI: neuron_id, roi, pre, post, upstream, downstream. Never truncated:
        both come whole as Apache Arrow. An id list longer than one request takes is asked for in parts."""
        name, version = split_reference(dataset, version)
        given = dict(criteria or {})
        parts = [self._criteria_arrow(name, version, chunk or {}) for chunk in self._id_parts(given)]
        neurons = self._joined([p[0] for p in parts], "neurons")
        rois = self._joined([p[1] for p in parts], "roi_counts")
        for frame in (neurons, rois):
            frame.attrs["criteria"] = given
        return neurons, rois

    def adjacency(
        self,
        dataset: DatasetRef,
        sources: Mapping[str, Any] | None = None,
        targets: Mapping[str, Any] | None = None,
        *,
        version: str | int = "latest",
        rois: Sequence[str] | None = None,
        min_roi_weight: float | None = None,
        min_total_weight: float | None = None,
        transmitter: str | Sequence[str] | None = None,
        group_by_roi: bool = True,
    ) -> pd.DataFrame:
        """The connections from the neurons `sources` match to those `targets` match (criteria objects as for
        `neurons_by_criteria`; None: any neuron): pre, post, roi, weight, one row per pair and primary ROI with roi
        "" for the synapses outside every primary ROI (so a pair's rows add up to its weight), or with
        `group_by_roi=False` one row per pair summed over the ROIs kept. Never truncated (Apache Arrow); id lists
        longer than one request takes are asked for in parts."""
        name, version = split_reference(dataset, version)
        body: dict[str, Any] = {"version": version_param(version), "group_by_roi": group_by_roi}
        if rois is not None:
            body["rois"] = list(rois)
        if min_roi_weight is not None:
            body["min_roi_weight"] = float(min_roi_weight)
        if min_total_weight is not None:
            body["min_total_weight"] = float(min_total_weight)
        if transmitter is not None:
            body["transmitter"] = in_list(transmitter)
        path = route_path("adjacency_arrow", dataset_id=name)
        tables = []
        for s in self._id_parts(sources):
            for t in self._id_parts(targets):
                sides = {**({"sources": s} if s is not None else {}), **({"targets": t} if t is not None else {})}
                tables.append(self._arrow("POST", path, {}, {**body, **sides}))
        frame = self._joined(tables, "adjacency")
        frame.attrs["criteria"] = {"sources": sources, "targets": targets}
        return frame

    def common_partners(
        self,
        dataset: DatasetRef,
        criteria: Mapping[str, Any] | None = None,
        *,
        version: str | int = "latest",
        direction: str = "upstream",
        rois: Sequence[str] | None = None,
        min_weight: float = 1,
    ) -> pd.DataFrame:
        """The neurons connected with every neuron `criteria` matches: their common inputs (`direction="upstream"`)
        or outputs, each pair at least `min_weight`: neuron_id and weight (to or from the whole set), by neuron_id.
        `df.attrs["members"]` is the size of the set. Every partner: the pages are read to the end."""
        if direction not in ("upstream", "downstream"):
            raise ValueError(f"direction: 'upstream' or 'downstream' (got {direction!r})")
        name, version = split_reference(dataset, version)
        body: dict[str, Any] = {
            "version": version_param(version),
            "criteria": dict(criteria or {}),
            "direction": direction,
        }
        body.update({"min_weight": float(min_weight), "limit": 1000})
        if rois is not None:
            body["rois"] = list(rois)
        items: list[dict[str, Any]] = []
        after: str | None = None
        while True:
            page = self._session.json(
                *route("common_partners", dataset_id=name), body={**body, **({"after": after} if after else {})}
            )
            items.extend(page["items"])
            after = page["next"]
            if not after:
                break
        frame = pd.DataFrame(items, columns=["neuron_id", "weight"])
        frame.attrs.update({k: page[k] for k in ("dataset_id", "version", "draft", "members")})
        frame.attrs.update(
            {"criteria": body["criteria"], "direction": direction, "total": len(frame), "truncated": False}
        )
        return frame

    def connectivity_by_field(
        self,
        dataset: DatasetRef,
        row_field: str = "type",
        column_field: str | None = None,
        *,
        version: str | int = "latest",
        sources: Mapping[str, Any] | None = None,
        targets: Mapping[str, Any] | None = None,
        rois: Sequence[str] | None = None,
        min_total_weight: float | None = None,
    ) -> pd.DataFrame:
        """Connectivity aggregated by a field of the neurons on each side (type x type by default): pre_value,
        post_value, weight and pairs (connected pairs of neurons), one row per pair of values, over the pairs of the
        adjacency `sources`, `targets`, `rois` and `min_total_weight` choose. `frame.pivot(index="pre_value",
        columns="post_value", values="weight")` is the matrix. Every row: the pages are read to the end."""
        name, version = split_reference(dataset, version)
        body: dict[str, Any] = {"version": version_param(version), "row_field": row_field, "limit": 1000}
        for key, value in (("column_field", column_field), ("sources", sources), ("targets", targets)):
            if value is not None:
                body[key] = value
        if rois is not None:
            body["rois"] = list(rois)
        if min_total_weight is not None:
            body["min_total_weight"] = float(min_total_weight)
        items: list[dict[str, Any]] = []
        after: str | None = None
        while True:
            path = route("connectivity_by_field", dataset_id=name)
            page = self._session.json(*path, body={**body, **({"after": after} if after else {})})
            items.extend(page["items"])
            after = page["next"]
            if not after:
                break
        frame = pd.DataFrame(items, columns=["pre_value", "post_value", "weight", "pairs"])
        frame["pairs"] = frame["pairs"].astype("int64")
        frame.attrs.update({k: page[k] for k in ("dataset_id", "version", "draft", "row_field", "column_field")})
        frame.attrs.update({"total": len(frame), "truncated": False})
        return frame

    @staticmethod
    def _id_parts(criteria: Mapping[str, Any] | None) -> list[dict[str, Any] | None]:
        """The criteria as requests of at most _CRITERIA_IDS ids each (one request when they list none)."""
        if criteria is None:
            return [None]
        given = dict(criteria)
        if given.get("ids") is None:
            return [given]
        listed = [str(i) for i in given["ids"]]
        parts: list[dict[str, Any] | None] = [
            {**given, "ids": listed[i : i + _CRITERIA_IDS]} for i in range(0, len(listed), _CRITERIA_IDS)
        ]
        return parts or [{**given, "ids": []}]

    def _criteria_arrow(self, name: str, version: str | int, criteria: Mapping[str, Any]) -> tuple[pa.Table, pa.Table]:
        path = route_path("neuron_search_arrow", dataset_id=name)
        body = {"version": version_param(version), "criteria": dict(criteria)}
        return (
            self._arrow("POST", path, {"part": "neurons"}, body),
            self._arrow("POST", path, {"part": "roi_counts"}, body),
        )

    def _joined(self, tables: Sequence[pa.Table], part: str) -> pd.DataFrame:
        table = pa.concat_tables(tables) if len(tables) > 1 else tables[0]
        if len(tables) > 1:
            keys = {"roi_counts": ["neuron_id", "roi"], "adjacency": ["pre", "post", "roi"]}.get(part, ["neuron_id"])
            table = table.sort_by([(k, "ascending") for k in keys])
        attrs = decoded_metadata(tables[0])
        with contextlib.suppress(KeyError, TypeError, ValueError):
            attrs["version"] = int(attrs["version"])
        attrs.setdefault("service_version", self._service.version)
        attrs.update({"total": table.num_rows, "truncated": False})
        return to_frame(table, attrs)

    def _arrow(
        self, method: str, path: str, params: Mapping[str, Any], body: Mapping[str, Any] | None = None
    ) -> pa.Table:
        """An Arrow answer read whole, its SHA-256 checked against the one the service sent."""
        with self._session.streamed(
            method, path, params=dict(params), body=body, headers={"Accept": "*/*"}
        ) as response:
            data = response.read()
            expected = response.headers.get("x-checksum-sha256")
        actual = hashlib.sha256(data).hexdigest()
        if expected and actual != expected:
            raise ChecksumMismatch(f"{path} answered bytes with SHA-256 {actual}, the service sent {expected}")
        return pa.ipc.open_stream(data).read_all()

    def _rows(
        self,
        name: str,
        version: str | int,
        table: str,
        lists: Mapping[str, str | Sequence[str] | None],
        single: Mapping[str, Any],
    ) -> pd.DataFrame:
        """Every row of the neurons, connections or synapses route that passes the filters, read whole as Arrow."""
        params: dict[str, Any] = {"version": version_param(version)}
        params.update({k: query_value(v) for k, v in single.items() if v is not None})
        given = {k: in_list(v) for k, v in lists.items() if v is not None}
        # Lists travel in the URL: a long one (or an empty one, or a value with a comma, the service's list
        # separator) is applied here instead, to every row.
        local = (
            sum(len(v) for values in given.values() for v in values) > _URL_LIST_CHARS
            or any(len(values) > _LIST_MAX for values in given.values())
            or any("," in v for values in given.values() for v in values)
            or any(not values for values in given.values())
        )
        if not local:
            params.update({k: ",".join(v) for k, v in given.items()})
        arrow = self._arrow("GET", route_path(f"{table}_arrow", dataset_id=name), params)
        attrs = decoded_metadata(arrow)
        with contextlib.suppress(KeyError, TypeError, ValueError):
            attrs["version"] = int(attrs["version"])
        attrs.setdefault("service_version", self._service.version)
        attrs.update({"total": arrow.num_rows, "truncated": False})
        frame = to_frame(arrow, attrs)
        if local and given:
            columns = {"neuron_ids": "neuron_id", "names": "name"}
            keep = pd.Series(True, index=frame.index)
            for key, values in given.items():
                if (table == "connections" and key == "neuron_ids") or (table == "synapses" and key == "neuron"):
                    keep &= frame["pre"].isin(values) | frame["post"].isin(values)
                else:
                    keep &= frame[columns.get(key, key)].isin(values)
            frame = frame[keep].reset_index(drop=True)
            frame.attrs.update(attrs)
            frame.attrs["parameters"] = {**dict(attrs.get("parameters") or {}), **given}
            frame.attrs["total"] = len(frame)
        return frame
