"""The client: one object per service, with the catalogue, the data as DataFrames, SyQL, jobs and analyses."""

from __future__ import annotations

import contextlib
import hashlib
import os
import warnings
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import pandas as pd
import pyarrow as pa

from ._frames import decoded_metadata, provenance, records_frame, rows_to_table, to_frame
from ._http import Session
from ._routes import path as route_path
from ._routes import route
from .datasets import Dataset, version_reference
from .errors import ChecksumMismatch, NeurodataError, TruncatedResultWarning
from .graphs import build_graph
from .jobs import Job

DatasetRef = str | Dataset
PathLike = str | os.PathLike[str]

# The most rows one interactive SyQL answer holds (the service's bound on max_rows); larger reads go through a job.
EXEC_MAX_ROWS = 10_000
# Characters of list filters sent in a URL; longer lists are applied to the rows here (the service reads at most
# 1000 values per list, and a request line of at most 16 KiB).
_URL_LIST_CHARS = 6_000
_LIST_MAX = 1000


@dataclass
class SearchResults:
    """One page of search hits (`hits`, one row per dataset) with the facets of every match beside them."""

    hits: pd.DataFrame
    facets: dict[str, pd.DataFrame]
    total: int
    corrected_query: str | None = None
    interpreted: list[Any] = field(default_factory=list)

    def __len__(self) -> int:
        return len(self.hits)


class Client:
    """A connection to one Neuroscience Data Service.

    `url` and `token` default to the environment's NEURODATA_URL and NEURODATA_TOKEN. A token is a personal API
    token (`ndt_...`, made on the service's /tokens page) or an access token. Service accounts may log in with
    `email` and `password` instead; the client then renews its access token as it expires.

    Calls wait and try again when the service says it is busy (429, with its Retry-After), and, for calls that
    change nothing, when it is briefly unavailable (503); at most `max_retries` times. `timeout` bounds each
    request in seconds. `progress` shows progress bars for jobs, downloads and uploads.
    """

    def __init__(
        self,
        url: str | None = None,
        token: str | None = None,
        *,
        email: str | None = None,
        password: str | None = None,
        timeout: float = 120.0,
        max_retries: int = 5,
        progress: bool = True,
        transport: httpx.BaseTransport | None = None,
    ) -> None:
        base = url or os.environ.get("NEURODATA_URL")
        if not base:
            raise ValueError("url: give the service's address, or set NEURODATA_URL (e.g. http://127.0.0.1:8080)")
        if token is None and email is None:
            token = os.environ.get("NEURODATA_TOKEN") or None
        self._session = Session(base, token, timeout=timeout, max_retries=max_retries, transport=transport)
        self.progress = progress
        # neurons() and connections() read up to this many rows within one request, and larger reads as a job.
        self.exec_max_rows = EXEC_MAX_ROWS
        self._service_version: str | None = None
        if email is not None:
            if password is None:
                raise ValueError("password: logging in with an email needs its password")
            self._session.login(email, password)

    def __repr__(self) -> str:
        return f"<neurodata.Client {self.url}>"

    def __enter__(self) -> Client:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        self._session.close()

    @property
    def url(self) -> str:
        return self._session.base_url

    @property
    def service_version(self) -> str | None:
        """The service's version, as results record it (None when the service does not say)."""
        if self._service_version is None:
            try:
                self._service_version = str(self._session.json(*route("ping"), auth=False)["version"])
            except (NeurodataError, KeyError):
                return None
        return self._service_version

    def health(self) -> dict[str, Any]:
        answer: dict[str, Any] = self._session.json(*route("health"), auth=False)
        return answer

    def whoami(self) -> dict[str, Any]:
        """The caller's profile: email, account type (REGULAR, ACADEMIC, SERVICE, SUPERUSER), verified."""
        answer: dict[str, Any] = self._session.json(*route("profile"))
        return answer

    # --- the catalogue ---

    def search(
        self,
        q: str | None = None,
        *,
        species: str | Sequence[str] | None = None,
        brain_region: str | Sequence[str] | None = None,
        microscopy: str | Sequence[str] | None = None,
        neurotransmitter: str | Sequence[str] | None = None,
        license: str | Sequence[str] | None = None,
        year: int | str | None = None,
        visibility: str | None = None,
        federation: bool = False,
        limit: int = 20,
        offset: int = 0,
    ) -> SearchResults:
        """Search the published datasets (public, no token needed). Filters take ontology codes or labels
        (`species="worm"`); `year` is 2019 or a range "2015-2020"; `federation=True` searches every cluster."""
        answer = self._session.json(
            *route("search"),
            params={
                "q": q,
                "species": _listed(species),
                "brain_region": _listed(brain_region),
                "microscopy": _listed(microscopy),
                "neurotransmitter": _listed(neurotransmitter),
                "license": _listed(license),
                "year": year,
                "visibility": visibility,
                "scope": "federation" if federation else None,
                "limit": limit,
                "offset": offset,
            },
        )
        hits = records_frame(
            [
                {
                    "slug": item.get("slug"),
                    "title": item.get("title"),
                    "version": item.get("version"),
                    "year": item.get("year"),
                    "license": item.get("license"),
                    "visibility": item.get("visibility"),
                    "species": [t.get("label") for t in item.get("species") or []],
                    "brain_regions": [t.get("label") for t in item.get("brain_regions") or []],
                    "score": item.get("score"),
                    "cluster": (item.get("cluster") or {}).get("name"),
                    "dataset_id": item.get("dataset_id"),
                    "url": item.get("url"),
                }
                for item in answer.get("items", [])
            ]
        )
        facets = {name: records_frame(values, index="value") for name, values in (answer.get("facets") or {}).items()}
        hits.attrs.update({"query": q, "total": answer.get("total")})
        return SearchResults(
            hits=hits,
            facets=facets,
            total=int(answer.get("total") or 0),
            corrected_query=answer.get("corrected_query"),
            interpreted=list(answer.get("interpreted") or []),
        )

    def datasets(self) -> pd.DataFrame:
        """The datasets you may see: published ones (restricted ones with metadata only) and your drafts."""
        items = list(self._session.pages(route_path("datasets")))
        columns = ["id", "slug", "title", "status", "visibility", "latest_version", "license", "published_at"]
        return records_frame([{k: item.get(k) for k in columns} for item in items])

    def dataset(self, dataset: DatasetRef, version: str | int = "latest") -> Dataset:
        """A dataset by slug or id (`slug@v2` names a version too) at a version: latest, vN or N, or draft."""
        name, version = _split_reference(dataset, version)
        record = self._session.json(*route("dataset", dataset_id=name))
        return Dataset(self, record, version_reference(version))

    def create_dataset(self, title: str, **metadata: Any) -> Dataset:
        """Create a draft (docs/neurodata.md, "Metadata"): species, brain_regions, microscopy by code or label,
        license (SPDX), creators [{name, kind? (person | organization), orcid?, affiliation?}], description,
        keywords, slug, visibility."""
        record = self._session.json(*route("create_dataset"), body={"title": title, **metadata})
        return Dataset(self, record, "draft")

    # --- the data, complete ---

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
        name, version = _split_reference(dataset, version)
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
        name, version = _split_reference(dataset, version)
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
        name, version = _split_reference(dataset, version)
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
        name, version = _split_reference(dataset, version)
        answer = self._session.json(*route("rois", dataset_id=name), params={"version": _version_param(version)})
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
        name, version = _split_reference(dataset, version)
        path = route_path("neuron", dataset_id=name, neuron_id=neuron_id)
        answer: dict[str, Any] = self._session.json("GET", path, params={"version": _version_param(version)})
        rois = pd.DataFrame(answer.get("rois") or [], columns=["roi", "pre", "post", "upstream", "downstream"])
        for column in ("pre", "post", "upstream", "downstream"):
            rois[column] = rois[column].astype("Int64")
        answer["rois"] = rois.set_index("roi")
        return answer

    def _rows(
        self,
        name: str,
        version: str | int,
        table: str,
        lists: Mapping[str, str | Sequence[str] | None],
        single: Mapping[str, Any],
    ) -> pd.DataFrame:
        """Every row of the neurons, connections or synapses route that passes the filters, read whole as Arrow."""
        params: dict[str, Any] = {"version": _version_param(version)}
        params.update({k: _query_value(v) for k, v in single.items() if v is not None})
        given = {k: _in_list(v) for k, v in lists.items() if v is not None}
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
        path = route_path(f"{table}_arrow", dataset_id=name)
        with self._session.streamed("GET", path, params=params, headers={"Accept": "*/*"}) as response:
            data = response.read()
            expected = response.headers.get("x-checksum-sha256")
        actual = hashlib.sha256(data).hexdigest()
        if expected and actual != expected:
            raise ChecksumMismatch(f"{path} answered bytes with SHA-256 {actual}, the service sent {expected}")
        arrow = pa.ipc.open_stream(data).read_all()
        attrs = decoded_metadata(arrow)
        with contextlib.suppress(KeyError, TypeError, ValueError):
            attrs["version"] = int(attrs["version"])
        attrs.setdefault("service_version", self.service_version)
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

    def syql(self, query: str, parameters: Mapping[str, Any] | None = None, *, max_rows: int = 1000) -> pd.DataFrame:
        """Run a SyQL query within the request: up to `max_rows` rows (at most 10,000) as a DataFrame.

        When the query yields more, a TruncatedResultWarning says how many; `syql_job` returns every row."""
        params = dict(parameters or {})
        answer = self._exec(query, params, max_rows)
        if answer.get("truncated"):
            warnings.warn(
                TruncatedResultWarning(
                    f"the query yields {answer.get('total')} rows and this answer holds {len(answer['rows'])}: "
                    "raise max_rows (up to 10,000), or use syql_job() for every row"
                ),
                stacklevel=2,
            )
        return self._exec_frame(answer, params)

    def _exec(self, query: str, parameters: Mapping[str, Any], max_rows: int) -> dict[str, Any]:
        answer: dict[str, Any] = self._session.json(
            *route("syql_exec"),
            body={"query": query, "parameters": dict(parameters), "max_rows": max_rows},
            idempotent=True,
        )
        return answer

    def _exec_frame(self, answer: Mapping[str, Any], parameters: Mapping[str, Any]) -> pd.DataFrame:
        table = rows_to_table(answer["columns"], answer["rows"])
        attrs = provenance(answer.get("datasets") or [], answer.get("normalised", ""), parameters, self.service_version)
        attrs.update({"total": answer.get("total"), "truncated": bool(answer.get("truncated"))})
        return to_frame(table, attrs)

    def syql_job(
        self,
        query: str | None = None,
        parameters: Mapping[str, Any] | None = None,
        *,
        saved_query_id: str | None = None,
    ) -> Job:
        """Queue a SyQL query as a job (every row, as Apache Arrow). Dataset versions are pinned now.
        `job.to_pandas()` or `job.result()` waits for it with a progress bar."""
        body: dict[str, Any] = (
            {"saved_query_id": saved_query_id}
            if saved_query_id
            else {"query": query, "parameters": dict(parameters or {})}
        )
        return Job(self._session, self._session.json(*route("submit_job"), body=body))

    def plan(self, query: str, parameters: Mapping[str, Any] | None = None) -> dict[str, Any]:
        """Check a query without running it: canonical text, dataset versions, result columns."""
        answer: dict[str, Any] = self._session.json(
            *route("syql_plan"), body={"query": query, "parameters": dict(parameters or {})}, idempotent=True
        )
        return answer

    # --- saved queries (docs/jobs.md, "Saved queries") ---

    def saved_queries(self) -> pd.DataFrame:
        """Your saved queries: id, name, description, query, parameters, last_run_at, last job's id and status."""
        rows = [
            {
                **{k: item.get(k) for k in ("id", "name", "description", "query", "parameters", "last_run_at")},
                "last_job_id": (item.get("last_job") or {}).get("job_id"),
                "last_job_status": (item.get("last_job") or {}).get("status"),
            }
            for item in self._session.pages(route_path("saved_queries"))
        ]
        return records_frame(rows, index="id")

    def save_query(
        self,
        name: str,
        query: str,
        parameters: Mapping[str, Any] | None = None,
        *,
        description: str | None = None,
    ) -> dict[str, Any]:
        """Plan a query (everything checked) and save its canonical text under a name unique among yours."""
        body = {"name": name, "query": query, "parameters": dict(parameters or {}), "description": description}
        answer: dict[str, Any] = self._session.json(*route("save_query"), body=body)
        saved: dict[str, Any] = answer["saved_query"]
        return saved

    def run_saved_query(self, query_id: str, *, refresh: bool = False) -> Job:
        """Run a saved query as a job on the versions it names. `refresh=True` resolves `@latest` again first
        (the job's `record["versions"]` then says which references changed)."""
        if not refresh:
            return Job(self._session, self._session.json(*route("run_query", id=query_id)))
        answer = self._session.json(*route("refresh_query", id=query_id))
        job = Job(self._session, answer["job"])
        job.record["versions"] = answer.get("versions")
        return job

    def delete_saved_query(self, query_id: str) -> None:
        """Delete a saved query (its jobs and their results stay until deleted)."""
        self._session.json(*route("delete_query", id=query_id))

    # --- jobs ---

    def job(self, job_id: str) -> Job:
        return Job(self._session, self._session.json(*route("job", job_id=job_id)))

    def jobs(self, status: str | Sequence[str] | None = None, *, limit: int = 20) -> list[Job]:
        """Your jobs, newest first; `status` filters (queued, running, succeeded, failed, cancelled)."""
        answer = self._session.json(
            *route("jobs"), params={"status": ",".join(_listed(status) or []) or None, "limit": limit}
        )
        return [Job(self._session, item) for item in answer.get("items", [])]

    # --- graph analyses (docs/graph.md) ---

    def graph_metrics(self, dataset: DatasetRef, **options: Any) -> dict[str, Any]:
        """Density, reciprocity, dyads, components, clustering, degrees and the top cells. Options: version,
        synapse_type (chemical, electrical, all), min_weight, top."""
        return self._graph_get(dataset, "graph_metrics", options)

    def motifs(
        self,
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
            body["null_model"] = {"samples": null_model} if isinstance(null_model, int) else dict(null_model)
        answer = self._graph_post(dataset, "graph_motifs", body)
        if answer.get("per_node"):
            answer["per_node"] = pd.DataFrame(
                [{"neuron_id": r["neuron_id"], "name": r.get("name"), **r["census"]} for r in answer["per_node"]]
            ).set_index("neuron_id")
        return answer

    def compare_synapse_types(
        self, dataset: DatasetRef, *, null_model: int | Mapping[str, Any] | None = None, **options: Any
    ) -> dict[str, Any]:
        """The chemical and the electrical triad census side by side, each with its null model."""
        body = dict(options)
        if null_model is not None:
            body["null_model"] = {"samples": null_model} if isinstance(null_model, int) else dict(null_model)
        return self._graph_post(dataset, "graph_compare_synapse_types", body)

    def shortest_path(self, dataset: DatasetRef, source: str, target: str, **options: Any) -> dict[str, Any]:
        """Length, one path and the number of shortest paths between two cells (by id or name). Options:
        weighted (None, "inverse", ...), max_hops, version, synapse_type, min_weight."""
        return self._graph_post(dataset, "graph_shortest_path", {"source": source, "target": target, **options})

    def reachability(self, dataset: DatasetRef, sources: str | Sequence[str], **options: Any) -> dict[str, Any]:
        """Cells reachable from the sources within max_hops (default 3); `per_hop` as a DataFrame."""
        answer = self._graph_post(dataset, "graph_reachability", {"sources": _listed(sources), **options})
        answer["per_hop"] = records_frame(answer.get("per_hop") or [], index="hop")
        return answer

    def reachability_curve(
        self,
        dataset: DatasetRef,
        sources: str | Sequence[str] | None = None,
        *,
        svg: PathLike | None = None,
        **options: Any,
    ) -> dict[str, Any]:
        """Cells reachable within k hops, k = 1..max_hops (default 10); `svg=path` also saves the plot there."""
        body = {"sources": _listed(sources), **options}
        if svg is not None:
            self._save_svg("POST", self._graph_path(dataset, "graph_reachability_curve", body), svg, body=body)
        return self._graph_post(dataset, "graph_reachability_curve", body)

    def degree_distribution(
        self, dataset: DatasetRef, *, svg: PathLike | None = None, **options: Any
    ) -> dict[str, pd.DataFrame]:
        """In-, out- and total degree histograms as DataFrames (degree, count); `svg=path` saves the plot."""
        params = dict(options)
        path = self._graph_path(dataset, "degree_distribution", params)
        if svg is not None:
            self._save_svg("GET", path, svg, params=params)
        answer = self._session.json("GET", path, params=params)
        frames: dict[str, pd.DataFrame] = {}
        for key in ("in", "out", "total"):
            part = answer.get(key)
            if isinstance(part, dict) and "bins" in part:
                frames[key] = records_frame(part["bins"])
        return frames

    def neighbourhood(
        self, dataset: DatasetRef, neuron: str, *, svg: PathLike | None = None, **options: Any
    ) -> dict[str, Any]:
        """A cell's ego network (Cytoscape.js JSON with a layout). Options: hops (1..3), direction, max_nodes."""
        params = {"neuron": neuron, **options}
        path = self._graph_path(dataset, "graph_neighbourhood", params)
        if svg is not None:
            self._save_svg("GET", path, svg, params=params)
        answer: dict[str, Any] = self._session.json("GET", path, params=params)
        return answer

    def compare(self, datasets: Sequence[DatasetRef], **options: Any) -> dict[str, pd.DataFrame]:
        """Graph metrics of 2..20 datasets side by side: `metrics` (one row per dataset, by slug) and
        `difference` (each from the first dataset)."""
        names = [_split_reference(d, "latest")[0] for d in datasets]
        answer = self._session.json(*route("graph_compare"), body={"datasets": names, **options}, idempotent=True)
        metrics = [_scalars(item.get("metrics") or {}) for item in answer.get("items", [])]
        differences = [
            {"slug": m.get("slug"), **_scalars(item.get("difference") or {})}
            for m, item in zip(metrics, answer.get("items", []), strict=True)
        ]
        return {"metrics": records_frame(metrics, index="slug"), "difference": records_frame(differences, index="slug")}

    def graph_job(self, dataset: DatasetRef, **options: Any) -> Job:
        """Queue a whole-connectome analysis (every analysis of full-analysis) as a job; `job.analysis` has it."""
        name, version = _split_reference(dataset, options.pop("version", "latest"))
        body = {"dataset_id": name, "version": _version_param(version), **options}
        return Job(self._session, self._session.json(*route("submit_graph_job"), body=body))

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
        name, version = _split_reference(dataset, version)
        kind = None if synapse_type == "all" else synapse_type
        connections = self.connections(name, version=version, synapse_type=kind, min_weight=min_weight)
        pinned = connections.attrs.get("version") or version
        neurons = self.neurons(name, version=pinned)
        return build_graph(neurons, connections, synapse_type)

    # --- analytics (docs/analytics.md, docs/morphometrics.md) ---

    def summary(self, dataset: DatasetRef, version: str | int = "latest") -> dict[str, Any]:
        """A dataset's summary: cells by class and type, connections, weights."""
        name, version = _split_reference(dataset, version)
        answer: dict[str, Any] = self._session.json(
            *route("summary"), params={"dataset_id": name, "version": _version_param(version)}
        )
        return answer

    def zscore_comparison(
        self, dataset: DatasetRef, reference: Sequence[DatasetRef], metrics: Sequence[str] | None = None
    ) -> pd.DataFrame:
        """The dataset's summary metrics as z-scores against reference datasets, one row per metric."""
        answer = self._session.json(
            *route("zscore_comparison"),
            params={
                "dataset_id": _split_reference(dataset, "latest")[0],
                "reference": ",".join(_split_reference(d, "latest")[0] for d in reference),
                "metrics": ",".join(metrics) if metrics else None,
            },
        )
        return records_frame(answer.get("rows") or [], index="metric")

    def morphometrics(
        self, dataset: DatasetRef, neuron: str | None = None, *, version: str | int = "latest", **options: Any
    ) -> pd.DataFrame:
        """Morphometrics of every SWC file of a dataset (or of one neuron's): one row per file with its scalar
        measures (n_tips, total_length, strahler_order, ...); the full answer per file is in `attrs["files"]`."""
        name, version = _split_reference(dataset, version)
        params = {"dataset_id": name, "version": _version_param(version), "neuron": neuron, **options}
        files = list(self._session.pages(route_path("morphometrics"), params, items="files", total="total_files"))
        rows = [
            {
                "file": f.get("file"),
                "neuron": f.get("neuron"),
                "error": f.get("error"),
                **_scalars(f.get("morphometrics") or {}),
            }
            for f in files
        ]
        frame = records_frame(rows, index="file")
        frame.attrs["files"] = files
        return frame

    # --- meta-analysis (docs/meta-analysis.md) ---

    def meta_analysis(
        self,
        studies: pd.DataFrame | Sequence[Mapping[str, Any]] | None = None,
        *,
        svg: PathLike | None = None,
        **options: Any,
    ) -> dict[str, Any]:
        """Random- or fixed-effects meta-analysis, as R's metafor computes it. `studies` are rows of effect
        sizes (yi, vi), 2x2 counts (ai, bi, ci, di) or group summaries, with a label; or give `datasets` and
        `metric` to pool a metric across datasets. Options: measure, method (REML, DL, ...), knapp_hartung,
        level. `svg=path` saves the forest plot. The answer's `studies` is a DataFrame."""
        body = dict(options)
        if studies is not None:
            rows = studies.to_dict("records") if isinstance(studies, pd.DataFrame) else [dict(s) for s in studies]
            body["studies"] = rows
        if "datasets" in body:
            body["datasets"] = [_split_reference(d, "latest")[0] for d in body["datasets"]]
        if svg is not None:
            self._save_svg(*route("meta_analysis"), svg, body=body)
        answer: dict[str, Any] = self._session.json(*route("meta_analysis"), body=body, idempotent=True)
        if isinstance(answer.get("studies"), list):
            answer["studies"] = records_frame(answer["studies"])
        return answer

    def atlas_compare(self, dataset: DatasetRef, reference: DatasetRef, **options: Any) -> dict[str, Any]:
        """A dataset compared with a reference dataset region by region through the brain-region hierarchy.
        Options: level (how deep in the hierarchy), version, reference_version."""
        answer: dict[str, Any] = self._session.json(
            *route("atlas_compare"),
            params={
                "dataset_id": _split_reference(dataset, "latest")[0],
                "reference_id": _split_reference(reference, "latest")[0],
                **options,
            },
        )
        return answer

    # --- shared by the analyses ---

    def _graph_path(self, dataset: DatasetRef, route_name: str, args: dict[str, Any]) -> str:
        name, version = _split_reference(dataset, args.pop("version", "latest"))
        args["version"] = _version_param(version)
        return route_path(route_name, dataset_id=name)

    def _graph_get(self, dataset: DatasetRef, route_name: str, options: Mapping[str, Any]) -> dict[str, Any]:
        params = dict(options)
        path = self._graph_path(dataset, route_name, params)
        answer: dict[str, Any] = self._session.json("GET", path, params=params)
        return answer

    def _graph_post(self, dataset: DatasetRef, route_name: str, body: Mapping[str, Any]) -> dict[str, Any]:
        args = {k: v for k, v in body.items() if v is not None}
        path = self._graph_path(dataset, route_name, args)
        answer: dict[str, Any] = self._session.json("POST", path, body=args, idempotent=True)
        return answer

    def _save_svg(
        self,
        method: str,
        path: str,
        dest: PathLike,
        *,
        params: Mapping[str, Any] | None = None,
        body: Mapping[str, Any] | None = None,
    ) -> Path:
        # Every plot has its own route, the JSON route's path + ".svg", answering image/svg+xml only.
        response = self._session.send(
            method,
            f"{path}.svg",
            params=dict(params) if params else None,
            body=dict(body) if body is not None else None,
            headers={"Accept": "image/svg+xml"},
            idempotent=True,
        )
        target = Path(dest)
        target.write_bytes(response.content)
        return target


def _listed(value: str | Sequence[str] | None) -> list[str] | None:
    if value is None:
        return None
    return [value] if isinstance(value, str) else list(value)


def _in_list(values: str | Sequence[str]) -> list[str]:
    return [values] if isinstance(values, str) else [str(v) for v in values]


def _query_value(value: Any) -> str:
    """A query parameter as the service reads it: booleans as true/false."""
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def _split_reference(dataset: DatasetRef, version: str | int) -> tuple[str, str | int]:
    """`slug@v2` names its version; a Dataset object its own; otherwise `version` applies."""
    if isinstance(dataset, Dataset):
        return dataset.slug, dataset.version_label
    if "@" in dataset:
        name, _, named = dataset.rpartition("@")
        return name, named
    return dataset, version


def _version_param(version: str | int) -> str:
    reference = version_reference(version)
    return reference[1:] if reference.startswith("v") else reference


def _scalars(record: Mapping[str, Any]) -> dict[str, Any]:
    """The numbers and strings of a record (nested ones left out), for one row of a DataFrame."""
    return {k: v for k, v in record.items() if v is None or isinstance(v, str | int | float | bool)}
