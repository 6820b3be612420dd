"""Jobs (`/v1/jobs`): SyQL queries with every row and whole-connectome analyses, run by the service's workers."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from .._routes import route
from ..jobs import Job
from ._area import Area
from ._arguments import DatasetRef, listed, split_reference, version_param


class Jobs(Area):
    """`client.jobs`: `client.jobs()` lists yours, `get` finds one again, `syql` and `graph` submit one."""

    def __call__(self, status: str | Sequence[str] | None = None, *, limit: int = 20) -> list[Job]:
        """Your jobs, newest first; `status` filters (queued, running, succeeded, failed, cancelled)."""
        answer = self._session.json(
            *route("jobs"), params={"status": ",".join(listed(status) or []) or None, "limit": limit}
        )
        return [Job(self._session, item) for item in answer.get("items", [])]

    def get(self, job_id: str) -> Job:
        """One of your jobs by id, as the service has it now."""
        return Job(self._session, self._session.json(*route("job", job_id=job_id)))

    def syql(
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

    def graph(self, /, dataset: DatasetRef, **options: Any) -> Job:
        """Queue a whole-connectome analysis (every analysis of full-analysis) as a job; `job.analysis` has it."""
        name, version = split_reference(dataset, options.pop("version", "latest"))
        body = {"dataset_id": name, "version": version_param(version), **options}
        return Job(self._session, self._session.json(*route("submit_graph_job"), body=body))
