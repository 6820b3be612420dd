"""A real service for the client's tests: `npm start` on the embedded engines, a fresh data directory, a free port.

NEURODATA_TEST_URL and NEURODATA_TEST_SERVICE_SECRET point the tests at a service already running instead."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import tempfile
import time
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import httpx
import pytest

import neurodata

REPO = Path(__file__).resolve().parents[3]
SERVICE_SECRET = "python-client-test-secret"
PASSWORD = "correct horse battery staple"
# Low enough that a burst of calls meets 429 and the client's waiting is exercised; high enough for the rest.
RATE_LIMIT_BURST = 120
RATE_LIMIT_REFILL_PER_SEC = 40


@dataclass(frozen=True)
class Service:
    url: str
    secret: str


@dataclass(frozen=True)
class Account:
    email: str
    access_token: str

    def api_token(self, url: str, scope: str) -> str:
        answer = _post(
            f"{url}/v1/user/tokens",
            {"name": f"pytest {scope} {uuid.uuid4().hex[:6]}", "scope": scope},
            {"Authorization": f"Bearer {self.access_token}"},
        )
        return str(answer["token"])


def _post(url: str, body: dict[str, object], headers: dict[str, str] | None = None) -> dict[str, object]:
    """Set-up calls made without the client, waiting as the service asks when a test has used up the rate limit."""
    for _ in range(20):
        answer = httpx.post(url, json=body, headers=headers)
        if answer.status_code != 429:
            answer.raise_for_status()
            result: dict[str, object] = answer.json()
            return result
        time.sleep(float(answer.headers.get("retry-after", "1")))
    raise RuntimeError(f"{url} kept answering 429")


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _wait_healthy(url: str, process: subprocess.Popen[bytes] | None, log: Path, limit: float = 300.0) -> None:
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        if process is not None and process.poll() is not None:
            raise RuntimeError(f"the service exited with {process.returncode}:\n{log.read_text()[-4000:]}")
        try:
            if httpx.get(f"{url}/health", timeout=2).status_code == 200:
                return
        except httpx.HTTPError:
            pass
        time.sleep(0.5)
    raise RuntimeError(f"the service did not become healthy within {limit} s:\n{log.read_text()[-4000:]}")


@pytest.fixture(scope="session")
def service() -> Iterator[Service]:
    external = os.environ.get("NEURODATA_TEST_URL")
    if external:
        yield Service(external.rstrip("/"), os.environ.get("NEURODATA_TEST_SERVICE_SECRET", SERVICE_SECRET))
        return
    with tempfile.TemporaryDirectory(prefix="neurodata-pytest-") as data_dir:
        port = _free_port()
        env = {k: v for k, v in os.environ.items() if k not in {"DATABASE_URL", "CLICKHOUSE_URL", "REDIS_URL"}}
        env.update(
            DATA_DIR=str(Path(data_dir) / "data"),
            HOST="127.0.0.1",
            PORT=str(port),
            SERVICE_SECRET=SERVICE_SECRET,
            LOG_LEVEL="warn",
            RATE_LIMIT_BURST=str(RATE_LIMIT_BURST),
            RATE_LIMIT_REFILL_PER_SEC=str(RATE_LIMIT_REFILL_PER_SEC),
        )
        log = Path(data_dir) / "service.log"
        with log.open("wb") as out:
            process = subprocess.Popen(
                ["npm", "start"], cwd=REPO, env=env, stdout=out, stderr=subprocess.STDOUT, start_new_session=True
            )
        url = f"http://127.0.0.1:{port}"
        try:
            _wait_healthy(url, process, log)
            yield Service(url, SERVICE_SECRET)
        finally:
            os.killpg(process.pid, signal.SIGTERM)
            try:
                process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, signal.SIGKILL)
                process.wait()


def _login(url: str, email: str) -> Account:
    answer = _post(f"{url}/v1/user/auth/login", {"email": email, "password": PASSWORD})
    return Account(email, str(answer["access_token"]))


def _service_account(service: Service, name: str) -> Account:
    email = f"{name}-{uuid.uuid4().hex[:8]}@example.org"
    _post(
        f"{service.url}/v1/user/auth/register-service",
        {"email": email, "password": PASSWORD, "display_name": f"pytest {name}"},
        {"X-Service-Secret": service.secret},
    )
    return _login(service.url, email)


@pytest.fixture(scope="session")
def service_account(service: Service) -> Account:
    """A verified Service account, as a lab's pipeline has (its data, queries and analyses are open to it)."""
    return _service_account(service, "lab")


@pytest.fixture(scope="session")
def other_lab(service: Service) -> Iterator[neurodata.Client]:
    """A second lab's client: it reads what the first lab publishes, and asks for access to what it restricts."""
    account = _service_account(service, "other-lab")
    with neurodata.Client(service.url, account.api_token(service.url, "write"), progress=False) as other:
        yield other


@pytest.fixture(scope="session")
def regular_account(service: Service) -> Account:
    """A registered account that has not verified an institution yet."""
    email = f"student-{uuid.uuid4().hex[:8]}@example.org"
    _post(
        f"{service.url}/v1/user/auth/register", {"email": email, "password": PASSWORD, "display_name": "pytest student"}
    )
    return _login(service.url, email)


@pytest.fixture(scope="session")
def write_token(service: Service, service_account: Account) -> str:
    return service_account.api_token(service.url, "write")


@pytest.fixture(scope="session")
def client(service: Service, write_token: str) -> Iterator[neurodata.Client]:
    with neurodata.Client(service.url, write_token, progress=False) as session_client:
        yield session_client
