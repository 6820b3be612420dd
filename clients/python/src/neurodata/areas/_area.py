"""What every area of the client shares: the client's session, and the plots some of their routes also draw."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from .._http import Session
from .._routes import path as route_path
from ._arguments import DatasetRef, PathLike, split_reference, version_param


class Area:
    """One area of the service's REST API (`/v1/<area>/...`), called through the session of the client it
    belongs to: one login, one connection pool and the same retries for every area.

    A method that takes `**options` takes `self` positional-only (`def metrics(self, /, dataset, **options)`):
    otherwise a type checker reads `self` as an option's name too, and the client's shortcut to it loses its
    parameters' types."""

    def __init__(self, session: Session) -> None:
        self._session = session

    def __repr__(self) -> str:
        return f"<neurodata {type(self).__name__} {self._session.base_url}>"

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


def dataset_path(route_name: str, dataset: DatasetRef, args: dict[str, Any]) -> str:
    """The path of a route under one dataset; the version (in `args`, `latest` when absent) becomes the parameter
    the route reads, in `args` again."""
    name, version = split_reference(dataset, args.pop("version", "latest"))
    args["version"] = version_param(version)
    return route_path(route_name, dataset_id=name)
