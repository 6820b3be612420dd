"""The client: one object per service, its calls grouped by the areas of the service's API (`client.catalogue`,
`client.datasets`, `client.data`, `client.queries`, `client.jobs`, `client.graph`, `client.analytics`,
`client.meta`, `client.account`, `client.service`), with the calls of every area also as shortcuts on it."""

from __future__ import annotations

import os
from collections.abc import Callable
from types import MethodType
from typing import Any, Concatenate, Generic, ParamSpec, TypeVar, overload

import httpx

from ._http import Session
from .areas import (
    Account,
    Analytics,
    Catalogue,
    Data,
    Datasets,
    Graph,
    Jobs,
    MetaAnalysis,
    Queries,
    SearchResults,
    Service,
)
from .areas._area import Area
from .areas.queries import EXEC_MAX_ROWS

__all__ = ["EXEC_MAX_ROWS", "Client", "SearchResults"]

P = ParamSpec("P")
R = TypeVar("R")
A = TypeVar("A", bound=Area)


class _Shortcut(Generic[A, P, R]):
    """A client attribute that is one of its areas' methods: `client.search` is `client.catalogue.search`, with its
    signature, type hints and docstring, so a shortcut cannot drift from the call it stands for."""

    def __init__(self, area: str, method: Callable[Concatenate[A, P], R]) -> None:
        self._area = area
        self._method = method

    @overload
    def __get__(self, client: None, owner: type[Any]) -> Callable[Concatenate[A, P], R]: ...

    @overload
    def __get__(self, client: Client, owner: type[Any]) -> Callable[P, R]: ...

    def __get__(self, client: Client | None, owner: type[Any]) -> Callable[Concatenate[A, P], R] | Callable[P, R]:
        if client is None:
            return self._method
        bound: Callable[P, R] = MethodType(self._method, getattr(client, self._area))
        return bound


class Client:
    """A connection to one Neuroscience Data Service.

    `url` and `token` default to the environment's NEURODATA_URL and NEURODATA_TOKEN. A token is a personal API
    token (`ndt_...`, made on the service's /tokens page) or an access token. Service accounts may log in with
    `email` and `password` instead; the client then renews its access token as it expires.

    Calls wait and try again when the service says it is busy (429, with its Retry-After), and, for calls that
    change nothing, when it is briefly unavailable (503); at most `max_retries` times. `timeout` bounds each
    request in seconds. `progress` shows progress bars for jobs, downloads and uploads (a call given `progress=`
    decides for itself).

    The calls are grouped as the service's API groups its routes, each area sharing this client's session:
    `catalogue` (search), `datasets` (records, drafts), `data` (neurons, connections, synapses, ROIs),
    `queries` (SyQL, saved queries), `jobs`, `graph` (graph analyses, networkx), `analytics`, `meta`
    (meta-analysis, atlas comparison), `account` and `service`. The methods of the client itself are shortcuts
    to them, one line each: `client.search(...)` is `client.catalogue.search(...)`.
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
        self._session = Session(
            base, token, timeout=timeout, max_retries=max_retries, progress=progress, transport=transport
        )
        self.service = Service(self._session)
        self.account = Account(self._session)
        self.catalogue = Catalogue(self._session)
        self.data = Data(self._session, self.service)
        self.datasets = Datasets(self._session, self.data)
        self.queries = Queries(self._session, self.service)
        self.jobs = Jobs(self._session)
        self.graph = Graph(self._session, self.data)
        self.analytics = Analytics(self._session)
        self.meta = MetaAnalysis(self._session)
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
        """Close the connections of the client's session (every area shares it)."""
        self._session.close()

    @property
    def url(self) -> str:
        """The service's address."""
        return self._session.base_url

    @property
    def progress(self) -> bool:
        """Whether jobs, downloads and uploads show progress bars. The session holds it, so setting it here changes
        it for every area, dataset and job of this client, those already made too."""
        return self._session.progress

    @progress.setter
    def progress(self, shown: bool) -> None:
        self._session.progress = shown

    @property
    def service_version(self) -> str | None:
        """The service's version, as results record it (None when it does not say): `client.service.version`."""
        return self.service.version

    # Shortcuts, one per call of an area, under the names the client has always had. `client.datasets()` and
    # `client.jobs(...)` are the areas themselves, called.
    health = _Shortcut("service", Service.health)
    whoami = _Shortcut("account", Account.profile)
    search = _Shortcut("catalogue", Catalogue.search)
    dataset = _Shortcut("datasets", Datasets.get)
    create_dataset = _Shortcut("datasets", Datasets.create)
    neurons = _Shortcut("data", Data.neurons)
    connections = _Shortcut("data", Data.connections)
    synapses = _Shortcut("data", Data.synapses)
    rois = _Shortcut("data", Data.rois)
    neuron = _Shortcut("data", Data.neuron)
    syql = _Shortcut("queries", Queries.run)
    plan = _Shortcut("queries", Queries.plan)
    saved_queries = _Shortcut("queries", Queries.saved)
    save_query = _Shortcut("queries", Queries.save)
    run_saved_query = _Shortcut("queries", Queries.run_saved)
    delete_saved_query = _Shortcut("queries", Queries.delete_saved)
    syql_job = _Shortcut("jobs", Jobs.syql)
    graph_job = _Shortcut("jobs", Jobs.graph)
    job = _Shortcut("jobs", Jobs.get)
    graph_metrics = _Shortcut("graph", Graph.metrics)
    motifs = _Shortcut("graph", Graph.motifs)
    compare_synapse_types = _Shortcut("graph", Graph.compare_synapse_types)
    shortest_path = _Shortcut("graph", Graph.shortest_path)
    reachability = _Shortcut("graph", Graph.reachability)
    reachability_curve = _Shortcut("graph", Graph.reachability_curve)
    neighbourhood = _Shortcut("graph", Graph.neighbourhood)
    compare = _Shortcut("graph", Graph.compare)
    to_networkx = _Shortcut("graph", Graph.to_networkx)
    degree_distribution = _Shortcut("analytics", Analytics.degree_distribution)
    summary = _Shortcut("analytics", Analytics.summary)
    zscore_comparison = _Shortcut("analytics", Analytics.zscore_comparison)
    morphometrics = _Shortcut("analytics", Analytics.morphometrics)
    meta_analysis = _Shortcut("meta", MetaAnalysis.analysis)
    atlas_compare = _Shortcut("meta", MetaAnalysis.atlas_compare)
