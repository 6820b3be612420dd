"""Exceptions named for what went wrong, each carrying the service's `error` text and the request id."""

from __future__ import annotations

import re

# The service names the field first ("max_rows: ...") or quoted ('field "measure" must be ...').
_FIELD = re.compile(r'^(?:([A-Za-z_][A-Za-z0-9_.\[\]]*): |field "([^"]+)")')


class NeurodataError(Exception):
    """Anything the service refused or could not do. `status` is the HTTP status (None when no answer came)."""

    def __init__(self, message: str, *, status: int | None = None, request_id: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.status = status
        self.request_id = request_id

    def __str__(self) -> str:
        where = f" (HTTP {self.status}" if self.status is not None else ""
        if self.request_id:
            where += f", request {self.request_id}" if where else f" (request {self.request_id}"
        return f"{self.message}{where + ')' if where else ''}"


class BadRequest(NeurodataError):
    """400: the input is wrong. `field` names the parameter or body field when the service names one."""

    def __init__(self, message: str, *, status: int | None = 400, request_id: str | None = None) -> None:
        super().__init__(message, status=status, request_id=request_id)
        match = _FIELD.match(message)
        self.field: str | None = (match.group(1) or match.group(2)) if match else None


class NotAuthenticated(NeurodataError):
    """401: no token, or a wrong, expired or revoked one."""


class PermissionDenied(NeurodataError):
    """403: the account, its class or the token's scope does not allow this."""


class NotAcademic(PermissionDenied):
    """403: the route needs a verified academic account. `verify_url` is the page where the account gets verified."""

    def __init__(
        self, message: str, *, status: int | None = 403, request_id: str | None = None, verify_url: str | None = None
    ) -> None:
        super().__init__(message, status=status, request_id=request_id)
        self.verify_url = verify_url

    def __str__(self) -> str:
        hint = f"; {self.verify_url} says how this server verifies accounts" if self.verify_url else ""
        return super().__str__() + hint


class TokenScopeTooNarrow(PermissionDenied):
    """403: the personal API token's scope (read, compute, write) does not cover the call, or it needs a login."""


class NotFound(NeurodataError):
    """404: no such thing, or not visible to this account (restricted datasets and drafts answer the same)."""


class DeadlineExceeded(NeurodataError):
    """408 (or a client-side time-out): the request ran past its deadline. Large reads belong in a job."""


class Conflict(NeurodataError):
    """409: the state does not allow it (a job not finished yet, a draft that lacks something, a name taken)."""


class PayloadTooLarge(NeurodataError):
    """413: the body or file is larger than the service accepts."""


class RateLimited(NeurodataError):
    """429 after every allowed retry. `retry_after` is how many seconds the service asked to wait."""

    def __init__(
        self, message: str, *, status: int | None = 429, request_id: str | None = None, retry_after: float | None = None
    ) -> None:
        super().__init__(message, status=status, request_id=request_id)
        self.retry_after = retry_after


class ServiceUnavailable(NeurodataError):
    """503 after every allowed retry, or no connection to the service at all."""


class ServerError(NeurodataError):
    """500 and other faults on the service's side: quote the request id when reporting it."""


class ChecksumMismatch(NeurodataError):
    """A downloaded file or result does not have the SHA-256 the service recorded for it; nothing was kept."""


class JobFailed(NeurodataError):
    """The job ended as failed; `job` is the job's record."""

    def __init__(self, message: str, *, job: dict[str, object]) -> None:
        super().__init__(message)
        self.job = job


class JobCancelled(NeurodataError):
    """The job was cancelled before it produced a result."""

    def __init__(self, message: str, *, job: dict[str, object]) -> None:
        super().__init__(message)
        self.job = job


class TruncatedResultWarning(UserWarning):
    """A `syql()` answer holds fewer rows than the query yields; `syql_job()` returns every row."""


_BY_STATUS: dict[int, type[NeurodataError]] = {
    400: BadRequest,
    401: NotAuthenticated,
    403: PermissionDenied,
    404: NotFound,
    408: DeadlineExceeded,
    409: Conflict,
    413: PayloadTooLarge,
    429: RateLimited,
    503: ServiceUnavailable,
}


def error_for(
    status: int, message: str, request_id: str | None, *, base_url: str, retry_after: float | None = None
) -> NeurodataError:
    """The exception for one error answer of the service."""
    if status == 403:
        if "verified academic account" in message:
            return NotAcademic(message, request_id=request_id, verify_url=f"{base_url}/account")
        if "API token" in message:
            return TokenScopeTooNarrow(message, status=403, request_id=request_id)
    if status == 429:
        return RateLimited(message, request_id=request_id, retry_after=retry_after)
    cls = _BY_STATUS.get(status)
    if cls is not None:
        return cls(message, status=status, request_id=request_id)
    if status >= 500:
        return ServerError(message, status=status, request_id=request_id)
    return NeurodataError(message, status=status, request_id=request_id)
