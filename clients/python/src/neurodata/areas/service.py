"""The service itself (`/health`, `/v1/federation/ping`): whether it is up, and the version results record."""

from __future__ import annotations

from typing import Any

from .._http import Session
from .._routes import route
from ..errors import NeurodataError
from ._area import Area


class Service(Area):
    """`client.service`: the service's health and version. Neither needs a token."""

    def __init__(self, session: Session) -> None:
        super().__init__(session)
        self._version: str | None = None

    @property
    def version(self) -> str | None:
        """The service's version, as results record it (None when the service does not say)."""
        if self._version is None:
            try:
                self._version = str(self._session.json(*route("ping"), auth=False)["version"])
            except (NeurodataError, KeyError):
                return None
        return self._version

    def health(self) -> dict[str, Any]:
        """The health of the service's relational store, column store, object storage and search."""
        answer: dict[str, Any] = self._session.json(*route("health"), auth=False)
        return answer
