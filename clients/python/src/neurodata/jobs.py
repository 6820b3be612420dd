"""Jobs: long reads and analyses run by the service's workers, followed here until their Arrow result is ready."""

from __future__ import annotations

import hashlib
import time
from typing import TYPE_CHECKING, Any

import pandas as pd
import pyarrow as pa

from ._frames import decoded_metadata, to_frame
from ._routes import route
from .errors import ChecksumMismatch, DeadlineExceeded, JobCancelled, JobFailed

if TYPE_CHECKING:
    from ._http import Session

FINISHED = frozenset({"succeeded", "failed", "cancelled"})


class Job:
    """One job of the caller's. `record` is the service's answer for it (status, progress, result_meta, ...)."""

    def __init__(self, session: Session, record: dict[str, Any]) -> None:
        self._session = session
        self.record = record
        self._table: pa.Table | None = None

    def __repr__(self) -> str:
        return f"<Job {self.id} {self.kind} {self.status} {self.progress:.0%}>"

    @property
    def id(self) -> str:
        return str(self.record["job_id"])

    @property
    def kind(self) -> str:
        return str(self.record.get("kind"))

    @property
    def status(self) -> str:
        return str(self.record["status"])

    @property
    def progress(self) -> float:
        return float(self.record.get("progress") or 0.0)

    @property
    def done(self) -> bool:
        return self.status in FINISHED

    def refresh(self) -> Job:
        self.record = self._session.json(*route("job", job_id=self.id))
        return self

    def wait(self, *, timeout: float | None = None, poll: float = 0.5, progress: bool | None = None) -> Job:
        """Until the job ends, with a progress bar (shown as the client's `progress` says, unless `progress` is
        given). Raises JobFailed, JobCancelled, or DeadlineExceeded on timeout."""
        deadline = None if timeout is None else time.monotonic() + timeout
        bar = self._session.progress_bar(progress, total=1.0, desc=f"job {self.id[:8]}", unit="", bar_format=_BAR)
        try:
            interval = min(poll, 0.2)
            while True:
                bar.n = round(self.progress, 4)
                message = self.record.get("progress_message")
                bar.set_postfix_str(str(message) if message else self.status, refresh=False)
                bar.refresh()
                if self.done:
                    break
                if deadline is not None and time.monotonic() > deadline:
                    raise DeadlineExceeded(f"job {self.id} still {self.status} after {timeout} s (it keeps running)")
                time.sleep(interval)
                interval = min(interval * 1.5, poll)
                self.refresh()
        finally:
            bar.close()
        if self.status == "failed":
            raise JobFailed(f"job {self.id} failed: {self.record.get('error')}", job=self.record)
        if self.status == "cancelled":
            raise JobCancelled(f"job {self.id} was cancelled", job=self.record)
        return self

    def cancel(self) -> Job:
        """Cancel a queued or running job. The service deletes a job that has already finished, with its result."""
        answer = self._session.json(*route("cancel_job", job_id=self.id)) or {}
        if answer.get("action") == "cancelled":
            return self.refresh()
        self.record = {**self.record, "status": answer.get("status", self.status), "deleted": True}
        return self

    def delete(self) -> None:
        """Delete a finished job and its result (a running one is cancelled)."""
        self._session.json(*route("cancel_job", job_id=self.id))

    def rerun(self) -> Job:
        """A new job with the same input: the same text, parameters and pinned dataset versions."""
        return Job(self._session, self._session.json(*route("rerun_job", job_id=self.id)))

    def result(self, *, progress: bool | None = None) -> pa.Table:
        """The result as a pyarrow Table (waiting for it first), its schema metadata kept, its SHA-256 checked."""
        if self._table is not None:
            return self._table
        if self.status != "succeeded":
            self.wait(progress=progress)  # raises JobFailed or JobCancelled for a job that will have no result
        with self._session.streamed(*route("job_result", job_id=self.id), headers={"Accept": "*/*"}) as response:
            data = response.read()
            expected = response.headers.get("x-checksum-sha256") or self.record.get("result_sha256")
        actual = hashlib.sha256(data).hexdigest()
        if expected and actual != expected:
            raise ChecksumMismatch(f"job {self.id}'s result has SHA-256 {actual}, the service recorded {expected}")
        self._table = pa.ipc.open_stream(data).read_all()
        return self._table

    def to_pandas(self, *, progress: bool | None = None) -> pd.DataFrame:
        """The result as a DataFrame; `attrs` holds the Arrow metadata (job, query, datasets, service version)."""
        table = self.result(progress=progress)
        attrs = decoded_metadata(table)
        datasets = attrs.get("datasets")
        if isinstance(datasets, list) and len(datasets) == 1 and isinstance(datasets[0], dict):
            attrs.setdefault("dataset", datasets[0].get("slug"))
            attrs.setdefault("dataset_id", datasets[0].get("dataset_id"))
            attrs.setdefault("version", datasets[0].get("version"))
        if "syql" in attrs:
            attrs.setdefault("query", attrs["syql"])
        return to_frame(table, attrs)

    @property
    def analysis(self) -> dict[str, Any] | None:
        """A graph job's whole analysis (what the full-analysis route answers), once it has succeeded."""
        meta = self.record.get("result_meta")
        analysis = meta.get("analysis") if isinstance(meta, dict) and self.kind == "graph" else None
        return analysis if isinstance(analysis, dict) else None


_BAR = "{desc}: {percentage:3.0f}%|{bar}|{postfix}"
