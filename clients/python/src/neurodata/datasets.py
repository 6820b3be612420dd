"""A dataset at one version: its record, files, citation and downloads, and (for its owners) uploads and publishing."""

from __future__ import annotations

import contextlib
import hashlib
import mimetypes
import os
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pandas as pd

from ._frames import records_frame
from ._routes import path as route_path
from ._routes import route
from .errors import ChecksumMismatch, NotFound

if TYPE_CHECKING:
    from ._http import Session
    from .areas.data import Data

_CHUNK = 1 << 20
_MEDIA_TYPES = {".csv": "text/csv", ".swc": "text/plain", ".json": "application/json", ".txt": "text/plain"}


def version_reference(version: str | int) -> str:
    """`latest`, `draft`, `v3` or `3` as the service writes a version in `dataset@version`."""
    text = str(version).strip().lower()
    if text in {"latest", "draft"}:
        return text
    number = text[1:] if text.startswith("v") else text
    if not number.isdigit():
        raise ValueError(f"version: {version!r} is not latest, draft, vN or N")
    return f"v{int(number)}"


class Dataset:
    """A dataset as its reader sees it at one version (`latest` unless asked otherwise)."""

    def __init__(self, session: Session, record: dict[str, Any], version: str, *, data: Data) -> None:
        # The calls of its own routes go through the session it shares with its client (login, retries, errors),
        # and its rows are read as `client.data` reads them.
        self._session = session
        self._data = data
        self.record = record
        self._requested = version
        self._version_record: dict[str, Any] | None = None

    def __repr__(self) -> str:
        return f"<Dataset {self.slug}@{self.version_label} {self.title!r}>"

    @property
    def id(self) -> str:
        return str(self.record["id"])

    @property
    def slug(self) -> str:
        return str(self.record.get("slug") or self.record["id"])

    @property
    def title(self) -> str:
        return str(self.record.get("title"))

    @property
    def version(self) -> int | str:
        """The version number read (the latest published one for `latest`), or "draft"."""
        if self._requested == "draft":
            return "draft"
        if self._requested == "latest":
            latest = self.record.get("latest_version")
            return int(latest) if latest is not None else "draft"
        return int(self._requested[1:])

    @property
    def version_label(self) -> str:
        return "draft" if self.version == "draft" else f"v{self.version}"

    @property
    def reference(self) -> str:
        """How SyQL and the data routes name this dataset at this version: `slug@v3`."""
        return f"{self.slug}@{self.version_label}"

    # --- published versions ---

    def version_record(self) -> dict[str, Any]:
        """The version's frozen record: metadata, files with SHA-256, row counts, publication note."""
        if self._version_record is None:
            if self.version == "draft":
                assets = self._session.json(*route("assets", dataset_id=self.id), params={"version": "draft"})
                self._version_record = {"version": "draft", "assets": assets.get("items", assets), "metadata": None}
            else:
                self._version_record = self._session.json(
                    *route("version", dataset_id=self.id, version=self.version_label)
                )
        return self._version_record

    @property
    def metadata(self) -> dict[str, Any]:
        """The metadata as published in this version (the dataset's current record for a draft)."""
        frozen = self.version_record().get("metadata")
        return dict(frozen) if isinstance(frozen, dict) else dict(self.record)

    @property
    def row_counts(self) -> dict[str, int]:
        return dict(self.version_record().get("row_counts") or {})

    def versions(self) -> pd.DataFrame:
        """Every published version, newest first: version, published_at, note, row counts."""
        answer = self._session.json(*route("versions", dataset_id=self.id))
        rows = [
            {
                "version": item.get("version"),
                "published_at": item.get("published_at"),
                "note": item.get("note"),
                **{f"rows_{k}": v for k, v in (item.get("row_counts") or {}).items()},
            }
            for item in answer.get("items", [])
        ]
        return records_frame(rows)

    @property
    def files(self) -> pd.DataFrame:
        """The version's files: id, filename, kind, media_type, size, sha256, rows."""
        return records_frame(self.version_record().get("assets") or [])

    # --- citing ---

    def citation(self, format: str = "bibtex") -> str:
        """The citation as BibTeX (`bibtex`) or RIS (`ris`)."""
        return self._session.text(
            *route("citation", dataset_id=self.id),
            params={"format": format, "version": self._version_param()},
            headers={"Accept": "*/*"},
        )

    def jsonld(self) -> dict[str, Any]:
        """schema.org Dataset metadata (JSON-LD): creators, licence, identifier, distribution."""
        answer: dict[str, Any] = self._session.json(
            *route("json_ld", dataset_id=self.id),
            params={"version": self._version_param()},
            headers={"Accept": "application/ld+json, application/json"},
        )
        return answer

    def _version_param(self) -> str:
        return "draft" if self.version == "draft" else str(self.version)

    # --- downloading ---

    def download(
        self, dest: str | os.PathLike[str] = ".", files: Sequence[str] | None = None, *, progress: bool | None = None
    ) -> list[Path]:
        """Download the version's files (all, or those named) into `dest`, each checked against its SHA-256, with a
        progress bar (shown as the client's `progress` says, unless `progress` is given).

        A file that does not match is removed and ChecksumMismatch raised; an existing file that matches is kept."""
        target = Path(dest)
        target.mkdir(parents=True, exist_ok=True)
        assets = [a for a in self.version_record().get("assets") or [] if files is None or a["filename"] in files]
        if files is not None:
            unknown = sorted(set(files) - {a["filename"] for a in assets})
            if unknown:
                raise NotFound(f"{self.reference} has no file {', '.join(unknown)}")
        written: list[Path] = []
        for asset in assets:
            path = target / Path(str(asset["filename"])).name
            if path.exists() and _sha256_of(path) == asset.get("sha256"):
                written.append(path)
                continue
            self._download_one(asset, path, progress)
            written.append(path)
        return written

    def _download_one(self, asset: dict[str, Any], path: Path, progress: bool | None) -> None:
        session = self._session
        redirect = session.send(
            *route("asset_content", dataset_id=self.id, asset_id=asset["id"]),
            params={"version": self._version_param()},
            headers={"Accept": "*/*"},
            stream=True,
        )
        location = redirect.headers.get("location")
        response = (
            session.follow(location) if redirect.status_code in (301, 302, 303, 307, 308) and location else redirect
        )
        if response is not redirect:
            redirect.close()
        partial = path.with_name(path.name + ".part")
        digest = hashlib.sha256()
        total = int(asset.get("size") or 0) or None
        try:
            with (
                contextlib.closing(response),
                partial.open("wb") as out,
                session.progress_bar(progress, total=total, unit="B", unit_scale=True, desc=path.name) as bar,
            ):
                for chunk in response.iter_bytes(_CHUNK):
                    out.write(chunk)
                    digest.update(chunk)
                    bar.update(len(chunk))
            actual = digest.hexdigest()
            if asset.get("sha256") and actual != asset["sha256"]:
                raise ChecksumMismatch(f"{path.name} has SHA-256 {actual}, the service recorded {asset['sha256']}")
            partial.replace(path)
        finally:
            partial.unlink(missing_ok=True)

    # --- reading the data ---

    def neurons(self, **filters: Any) -> pd.DataFrame:
        """Every cell of this version (see `client.data.neurons`)."""
        return self._data.neurons(self.slug, version=self.version_label, **filters)

    def connections(self, **filters: Any) -> pd.DataFrame:
        """Every connection of this version (see `client.data.connections`)."""
        return self._data.connections(self.slug, version=self.version_label, **filters)

    def synapses(self, **filters: Any) -> pd.DataFrame:
        """Every synapse of this version that passes the filters (see `client.data.synapses`)."""
        return self._data.synapses(self.slug, version=self.version_label, **filters)

    def rois(self) -> pd.DataFrame:
        """The ROI hierarchy of this version with its synapse counts (see `client.data.rois`)."""
        return self._data.rois(self.slug, version=self.version_label)

    def neuron(self, neuron_id: str | int) -> dict[str, Any]:
        """One neuron of this version: row, annotations, extra columns and per-ROI counts (see
        `client.data.neuron`)."""
        return self._data.neuron(self.slug, neuron_id, version=self.version_label)

    # --- access to a restricted dataset ---

    def access(self) -> dict[str, Any]:
        """Your access (role, can_read_data) and your request's status; owners and maintainers also see
        every request (`requests`)."""
        answer: dict[str, Any] = self._session.json(*route("access", dataset_id=self.id))
        return answer

    def request_access(self, message: str | None = None) -> dict[str, Any]:
        """Ask the owner for access to a restricted dataset's data; asking again after a denial re-opens it."""
        body = {"message": message} if message else None
        answer: dict[str, Any] = self._session.json(*route("request_access", dataset_id=self.id), body=body)
        return answer

    def access_requests(self) -> pd.DataFrame:
        """For owners and maintainers: every access request, with who asked, why, and its status."""
        rows = [
            {
                **{k: r.get(k) for k in ("id", "status", "message", "created_at", "decided_at", "requester_id")},
                "requester": (r.get("requester") or {}).get("display_name"),
            }
            for r in self.access().get("requests") or []
        ]
        return records_frame(rows, index="id")

    def approve_access(self, request_id: str, message: str | None = None) -> dict[str, Any]:
        """Approve a request: the requester may read the data from now on."""
        return self._decide_access(request_id, "approve", message)

    def deny_access(self, request_id: str, message: str | None = None) -> dict[str, Any]:
        """Deny a request; denying an approved one revokes the access (and what was derived from the data)."""
        return self._decide_access(request_id, "deny", message)

    def _decide_access(self, request_id: str, decision: str, message: str | None) -> dict[str, Any]:
        answer: dict[str, Any] = self._session.json(
            *route(f"{decision}_access", dataset_id=self.id, request_id=request_id),
            body={"message": message} if message else None,
        )
        return answer

    # --- for its owners and maintainers ---

    def update(self, **fields: Any) -> Dataset:
        """Change metadata, visibility or maintainers (after a publication this opens the next draft)."""
        self.record = self._session.json(*route("update_dataset", dataset_id=self.id), body=fields)
        self._version_record = None
        return self

    def upload(self, *paths: str | os.PathLike[str], progress: bool | None = None) -> list[dict[str, Any]]:
        """Upload files to the open draft, in the order given (neurons.csv before connections.csv). Each is
        streamed with a progress bar (shown as the client's `progress` says, unless `progress` is given), checked
        and ingested at once; the answers list each file's record (rows, SHA-256)."""
        answers: list[dict[str, Any]] = []
        for raw in paths:
            path = Path(raw)
            size = path.stat().st_size
            media = _MEDIA_TYPES.get(path.suffix.lower()) or mimetypes.guess_type(path.name)[0]

            def body(path: Path = path, size: int = size) -> Iterable[bytes]:
                return self._read_chunks(path, size, progress)

            answer = self._session.json(
                *route("upload", dataset_id=self.id),
                params={"filename": path.name},
                content=body,
                headers={"Content-Type": media or "application/octet-stream", "Content-Length": str(size)},
            )
            answers.extend(answer.get("items", []))
        self._version_record = None
        return answers

    def _read_chunks(self, path: Path, size: int, progress: bool | None) -> Iterator[bytes]:
        label = f"upload {path.name}"
        with (
            path.open("rb") as handle,
            self._session.progress_bar(progress, total=size, unit="B", unit_scale=True, desc=label) as bar,
        ):
            while chunk := handle.read(_CHUNK):
                bar.update(len(chunk))
                yield chunk

    def missing(self) -> list[str]:
        """What the open draft still lacks before it can be published (empty when nothing is missing)."""
        for item in self._session.pages(route_path("incomplete_datasets")):
            if (item.get("dataset") or {}).get("id") == self.id:
                return [str(m) for m in item.get("missing", [])]
        return []

    def publish(self, note: str | None = None) -> Dataset:
        """Publish the open draft as the next immutable version; returns the dataset at that version."""
        body = {"note": note} if note else None
        self._session.json(*route("publish", dataset_id=self.id), body=body)
        record = self._session.json(*route("dataset", dataset_id=self.id))
        return Dataset(self._session, record, "latest", data=self._data)

    def delete(self) -> None:
        """Delete the dataset with every version, its rows and files (owner or SuperUser)."""
        self._session.json(*route("delete_dataset", dataset_id=self.id))


def _sha256_of(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        while chunk := handle.read(_CHUNK):
            digest.update(chunk)
    return digest.hexdigest()
