"""One HTTP session with the service: keep-alive, time limits, waiting on 429 and 503, errors as exceptions."""

from __future__ import annotations

import contextlib
import random
import time
from collections.abc import Callable, Iterable, Iterator, Mapping
from typing import Any
from urllib.parse import urlsplit

import httpx
from tqdm.auto import tqdm

from ._routes import path as route_path
from ._routes import route
from ._version import __version__
from .errors import DeadlineExceeded, NeurodataError, NotAuthenticated, ServiceUnavailable, error_for

Params = Mapping[str, Any]

_IDEMPOTENT = frozenset({"GET", "HEAD", "PUT", "DELETE", "OPTIONS"})
# A Retry-After longer than this is the service saying "not soon": waiting longer would hang a notebook cell.
_MAX_WAIT_SECONDS = 120.0


def _encode_params(params: Params | None) -> list[tuple[str, str | int | float | bool | None]]:
    """Query parameters as the service reads them: None left out, booleans as true/false, lists repeated."""
    pairs: list[tuple[str, str | int | float | bool | None]] = []
    for key, value in (params or {}).items():
        if value is None:
            continue
        values = value if isinstance(value, list | tuple) else [value]
        for item in values:
            pairs.append((key, ("true" if item else "false") if isinstance(item, bool) else str(item)))
    return pairs


def _retry_after(response: httpx.Response, attempt: int) -> float:
    header = response.headers.get("retry-after")
    if header:
        with contextlib.suppress(ValueError):
            return min(max(float(header), 0.0), _MAX_WAIT_SECONDS)
    return _backoff(attempt)


def _backoff(attempt: int) -> float:
    return float(min(0.5 * 2**attempt, 30.0) * (0.5 + random.random() / 2))


class Session:
    """The client's connection to one service. Thread-safe as httpx.Client is; one per Client.

    It also holds the client's `progress` setting, so that every object holding the session (areas, datasets,
    jobs) shows its progress bars as the client was told to."""

    def __init__(
        self,
        base_url: str,
        token: str | None,
        *,
        timeout: float,
        max_retries: int,
        progress: bool = True,
        transport: httpx.BaseTransport | None = None,
    ) -> None:
        self.base_url = base_url.rstrip("/")
        self.token = token
        self.max_retries = max_retries
        self.progress = progress
        self._refresh_token: str | None = None
        self._http = httpx.Client(
            base_url=self.base_url,
            timeout=httpx.Timeout(timeout, connect=min(timeout, 10.0)),
            headers={"User-Agent": f"neurodata-python/{__version__}", "Accept": "application/json"},
            follow_redirects=False,
            transport=transport,
        )

    def close(self) -> None:
        self._http.close()

    def progress_bar(self, progress: bool | None = None, **options: Any) -> Any:
        """A tqdm bar for a job, a download or an upload: shown as the client's `progress` says, unless the call
        that shows it was given `progress=` itself."""
        shown = self.progress if progress is None else progress
        return tqdm(disable=not shown, **options)

    # --- logging in (Service accounts and others with a password) ---

    def login(self, email: str, password: str) -> dict[str, Any]:
        answer: dict[str, Any] = self.json(*route("login"), body={"email": email, "password": password}, auth=False)
        self.token = str(answer["access_token"])
        self._refresh_token = str(answer["refresh_token"])
        return answer

    def _refresh(self) -> bool:
        """A login's access token lasts 15 minutes: rotate the refresh token into a new pair, once per 401."""
        if not self._refresh_token:
            return False
        response = self._http.post(route_path("refresh"), json={"refresh_token": self._refresh_token})
        if response.status_code != 200:
            return False
        answer = response.json()
        self.token = str(answer["access_token"])
        self._refresh_token = str(answer["refresh_token"])
        return True

    # --- requests ---

    def _headers(self, extra: Mapping[str, str] | None, auth: bool) -> dict[str, str]:
        headers = dict(extra or {})
        if auth and self.token:
            headers["Authorization"] = f"Bearer {self.token}"
        return headers

    def send(
        self,
        method: str,
        path: str,
        *,
        params: Params | None = None,
        body: Any = None,
        content: Callable[[], bytes | Iterable[bytes]] | None = None,
        headers: Mapping[str, str] | None = None,
        idempotent: bool | None = None,
        auth: bool = True,
        stream: bool = False,
    ) -> httpx.Response:
        """One call, retried while the service asks to wait. `content` makes the body afresh for each attempt.

        With `stream=True` the caller reads and closes the response (use `streamed`)."""
        method = method.upper()
        retryable = method in _IDEMPOTENT if idempotent is None else idempotent
        refreshed = False
        attempt = 0
        while True:
            request = self._http.build_request(
                method,
                path,
                params=_encode_params(params),
                json=body if content is None and body is not None else None,
                content=content() if content is not None else None,
                headers=self._headers(headers, auth),
            )
            try:
                response = self._http.send(request, stream=stream)
            except httpx.TransportError as exc:
                if retryable and attempt < self.max_retries:
                    time.sleep(_backoff(attempt))
                    attempt += 1
                    continue
                if isinstance(exc, httpx.TimeoutException):
                    raise DeadlineExceeded(f"no answer from {self.base_url} within the time limit ({exc})") from exc
                raise ServiceUnavailable(f"could not reach {self.base_url}: {exc}") from exc
            status = response.status_code
            # 429 means the request was not run, so even a POST may be sent again; a 503 may have run part of it.
            if (status == 429 or (status == 503 and retryable)) and attempt < self.max_retries:
                wait = _retry_after(response, attempt)
                response.close()
                time.sleep(wait)
                attempt += 1
                continue
            if status == 401 and auth and not refreshed and self._refresh():
                refreshed = True
                response.close()
                continue
            if status >= 400:
                raise self._error(response)
            return response

    def _error(self, response: httpx.Response) -> NeurodataError:
        if not response.is_closed:
            response.read()
        message = f"HTTP {response.status_code}"
        with contextlib.suppress(ValueError):
            payload = response.json()
            if isinstance(payload, dict) and isinstance(payload.get("error"), str):
                message = payload["error"]
        if message.startswith("HTTP ") and response.text:
            message = response.text[:500]
        retry_after = None
        with contextlib.suppress(ValueError, TypeError):
            retry_after = float(response.headers.get("retry-after", ""))
        error = error_for(
            response.status_code,
            message,
            response.headers.get("x-request-id"),
            base_url=self.base_url,
            code=response.headers.get("x-error-code"),
            reason=response.headers.get("x-error-reason"),
            retry_after=retry_after,
        )
        if isinstance(error, NotAuthenticated) and not self.token:
            error.message += " (pass token= to Client, or set NEURODATA_TOKEN)"
        response.close()
        return error

    def json(self, method: str, path: str, **kwargs: Any) -> Any:
        response = self.send(method, path, **kwargs)
        if response.status_code == 204 or not response.content:
            return None
        return response.json()

    def pages(
        self, path: str, params: Params | None = None, *, items: str = "items", total: str = "total"
    ) -> Iterator[dict[str, Any]]:
        """Every item of a paged GET (`limit`/`offset`, with the total in the answer), page by page: a listing is
        never cut at the first page."""
        offset = 0
        while True:
            answer = self.json("GET", path, params={**(params or {}), "limit": 100, "offset": offset})
            page = answer.get(items) or []
            yield from page
            offset += len(page)
            if not page or offset >= int(answer.get(total) or 0):
                return

    def text(self, method: str, path: str, **kwargs: Any) -> str:
        return self.send(method, path, **kwargs).text

    @contextlib.contextmanager
    def streamed(self, method: str, path: str, **kwargs: Any) -> Iterator[httpx.Response]:
        response = self.send(method, path, stream=True, **kwargs)
        try:
            yield response
        finally:
            response.close()

    def follow(self, location: str) -> httpx.Response:
        """A streamed GET of a redirect target. A signed URL on another origin (object storage) gets no token."""
        target = httpx.URL(self.base_url).join(location)
        same_origin = urlsplit(str(target))[:2] == urlsplit(self.base_url)[:2]
        request = self._http.build_request("GET", target, headers=self._headers(None, auth=same_origin))
        response = self._http.send(request, stream=True)
        if response.status_code >= 400:
            raise self._error(response)
        return response
