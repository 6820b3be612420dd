"""Exceptions named for what went wrong, each carrying the service's `error` text and the request id."""

from __future__ import annotations

import re

# The service names the field first ("max_rows: ...") or quoted ('field "measure" must be ...').
_FIELD = re.compile(r'^(?:([A-Za-z_][A-Za-z0-9_.\[\]]*): |field "([^"]+)")')


class NeurodataError(Exception):
    """Anything the service refused or could not do. `status` is the HTTP status (None when no answer came);
    `code` the service's stable error code (its `X-Error-Code` header, GraphQL's `extensions.code`), None when the
    answer carried none (a proxy's)."""

    def __init__(
        self, message: str, *, status: int | None = None, request_id: str | None = None, code: str | None = None
    ) -> None:
        super().__init__(message)
        self.message = message
        self.status = status
        self.request_id = request_id
        self.code = code

    def __str__(self) -> str:
        where = f" (HTTP {self.status}" if self.status is not None else ""
        if self.request_id:
            where += f", request {self.request_id}" if where else f" (request {self.request_id}"
        return f"{self.message}{where + ')' if where else ''}"


class BadRequest(NeurodataError):
    """400: the input is wrong. `field` names the parameter or body field when the service names one."""

    def __init__(
        self, message: str, *, status: int | None = 400, request_id: str | None = None, code: str | None = None
    ) -> None:
        super().__init__(message, status=status, request_id=request_id, code=code)
        match = _FIELD.match(message)
        self.field: str | None = (match.group(1) or match.group(2)) if match else None


class NotAuthenticated(NeurodataError):
    """401: no token, or a wrong, expired or revoked one."""


class PermissionDenied(NeurodataError):
    """403: the account, its class or the token's scope does not allow this."""


class NotAcademic(PermissionDenied):
    """403: the route needs a verified academic account. `verify_url` is the page where the account gets verified."""

    def __init__(
        self,
        message: str,
        *,
        status: int | None = 403,
        request_id: str | None = None,
        code: str | None = None,
        verify_url: str | None = None,
    ) -> None:
        super().__init__(message, status=status, request_id=request_id, code=code)
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
        self,
        message: str,
        *,
        status: int | None = 429,
        request_id: str | None = None,
        code: str | None = None,
        retry_after: float | None = None,
    ) -> None:
        super().__init__(message, status=status, request_id=request_id, code=code)
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


# The service's error codes (X-Error-Code), and the reasons (X-Error-Reason) that refine a 403.
_BY_CODE: dict[str, type[NeurodataError]] = {
    "BAD_USER_INPUT": BadRequest,
    "BAD_REQUEST": BadRequest,
    "GRAPHQL_VALIDATION_FAILED": BadRequest,
    "GRAPHQL_PARSE_FAILED": BadRequest,
    "URI_TOO_LONG": BadRequest,
    "UNSUPPORTED_MEDIA_TYPE": BadRequest,
    "RANGE_NOT_SATISFIABLE": BadRequest,
    "REQUEST_HEADER_FIELDS_TOO_LARGE": BadRequest,
    "UNAUTHENTICATED": NotAuthenticated,
    "FORBIDDEN": PermissionDenied,
    "UNAUTHORIZED": PermissionDenied,
    "NOT_FOUND": NotFound,
    "TIMEOUT": DeadlineExceeded,
    "CONFLICT": Conflict,
    "PAYLOAD_TOO_LARGE": PayloadTooLarge,
    "RATE_LIMITED": RateLimited,
    "SERVICE_UNAVAILABLE": ServiceUnavailable,
    "INTERNAL_SERVER_ERROR": ServerError,
}
_BY_REASON: dict[str, type[NeurodataError]] = {
    "ACADEMIC_REQUIRED": NotAcademic,
    "TOKEN_SCOPE": TokenScopeTooNarrow,
}
# An answer without a code (a proxy's, a load balancer's) is told by its status alone.
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
    status: int,
    message: str,
    request_id: str | None,
    *,
    base_url: str,
    code: str | None = None,
    reason: str | None = None,
    retry_after: float | None = None,
) -> NeurodataError:
    """The exception for one error answer of the service: by its reason, then its code, then its status."""
    cls = _BY_REASON.get(reason or "") or _BY_CODE.get(code or "") or _BY_STATUS.get(status)
    if cls is None:
        cls = ServerError if status >= 500 else NeurodataError
    if cls is NotAcademic:
        return NotAcademic(message, status=status, request_id=request_id, code=code, verify_url=f"{base_url}/account")
    if cls is RateLimited:
        return RateLimited(message, status=status, request_id=request_id, code=code, retry_after=retry_after)
    return cls(message, status=status, request_id=request_id, code=code)
