"""The caller's account (`/v1/user/...`). Logging in and renewing the access token are the session's own."""

from __future__ import annotations

from typing import Any

from .._routes import route
from ._area import Area


class Account(Area):
    """`client.account`: who the token or login belongs to."""

    def profile(self) -> dict[str, Any]:
        """The caller's profile: email, account type (REGULAR, ACADEMIC, SERVICE, SUPERUSER), verified."""
        answer: dict[str, Any] = self._session.json(*route("profile"))
        return answer
