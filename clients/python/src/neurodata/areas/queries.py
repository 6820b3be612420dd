"""SyQL queries (`/v1/syql/...`) run within the request or only planned, and saved queries (`/v1/queries`)."""

from __future__ import annotations

import os
import sys
import warnings
from collections.abc import Mapping
from typing import Any

import pandas as pd

from .._frames import provenance, records_frame, rows_to_table, to_frame
from .._http import Session
from .._routes import path as route_path
from .._routes import route
from ..errors import TruncatedResultWarning
from ..jobs import Job
from ._area import Area
from .service import Service

# The most rows one answer of `run` may hold: the service's bound on max_rows (a larger one is refused with a
# BadRequest naming max_rows). Every row of a larger result comes from a job.
EXEC_MAX_ROWS = 10_000

_PACKAGE = os.path.dirname(os.path.dirname(os.path.abspath(__file__))) + os.sep


class Queries(Area):
    """`client.queries`: SyQL within one request (`run`, `plan`) and the queries you saved (`save`, `saved`,
    `run_saved`, `delete_saved`). A query with every row as Arrow is a job: `client.jobs.syql`.

    The service's version, which `df.attrs` records, comes from `client.service`."""

    def __init__(self, session: Session, service: Service) -> None:
        super().__init__(session)
        self._service = service

    def run(self, query: str, parameters: Mapping[str, Any] | None = None, *, max_rows: int = 1000) -> pd.DataFrame:
        """Run a SyQL query within the request: up to `max_rows` rows (at most 10,000) as a DataFrame.

        When the query yields more, a TruncatedResultWarning says how many; `client.jobs.syql` returns every row."""
        params = dict(parameters or {})
        answer: dict[str, Any] = self._session.json(
            *route("syql_exec"),
            body={"query": query, "parameters": params, "max_rows": max_rows},
            idempotent=True,
        )
        if answer.get("truncated"):
            warnings.warn(
                TruncatedResultWarning(_truncation_message(answer, max_rows)),
                stacklevel=_first_caller_outside_the_package(),
            )
        table = rows_to_table(answer["columns"], answer["rows"])
        attrs = provenance(answer.get("datasets") or [], answer.get("normalised", ""), params, self._service.version)
        attrs.update({"total": answer.get("total"), "truncated": bool(answer.get("truncated"))})
        return to_frame(table, attrs)

    def plan(self, query: str, parameters: Mapping[str, Any] | None = None) -> dict[str, Any]:
        """Check a query without running it: canonical text, dataset versions, result columns."""
        answer: dict[str, Any] = self._session.json(
            *route("syql_plan"), body={"query": query, "parameters": dict(parameters or {})}, idempotent=True
        )
        return answer

    def saved(self) -> pd.DataFrame:
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

    def save(
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

    def run_saved(self, query_id: str, *, refresh: bool = False) -> Job:
        """Run a saved query as a job on the versions it names. `refresh=True` resolves `@latest` again first
        (the job's `record["versions"]` then says which references changed)."""
        if not refresh:
            return Job(self._session, self._session.json(*route("run_query", id=query_id)))
        answer = self._session.json(*route("refresh_query", id=query_id))
        job = Job(self._session, answer["job"])
        job.record["versions"] = answer.get("versions")
        return job

    def delete_saved(self, query_id: str) -> None:
        """Delete a saved query (its jobs and their results stay until deleted)."""
        self._session.json(*route("delete_query", id=query_id))


def _truncation_message(answer: Mapping[str, Any], max_rows: int) -> str:
    """What was cut, and what gives every row: a larger max_rows while the service allows one, a job beyond."""
    cut = f"the query yields {answer.get('total')} rows and this answer holds {len(answer['rows'])}"
    if max_rows < EXEC_MAX_ROWS:
        return f"{cut}: raise max_rows (up to {EXEC_MAX_ROWS:,}), or use syql_job() for every row"
    return f"{cut}, the most one answer may hold ({EXEC_MAX_ROWS:,}): use syql_job() for every row"


def _first_caller_outside_the_package() -> int:
    """The warning's stack level that names the caller's line, whether it called this area or a Client shortcut."""
    frame = sys._getframe(1)
    level = 1
    while frame.f_back is not None and frame.f_code.co_filename.startswith(_PACKAGE):
        frame = frame.f_back
        level += 1
    return level
