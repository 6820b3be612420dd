"""Errors as exceptions named for what went wrong, logging in, and waiting when the service asks to."""

from __future__ import annotations

import re
import threading
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import ClassVar

import pytest

import neurodata

from .conftest import PASSWORD, Account, Service

UUID = re.compile(r"^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$")


def test_without_a_token_data_routes_say_how_to_authenticate(service: Service) -> None:
    with neurodata.Client(service.url, progress=False) as anonymous, pytest.raises(neurodata.NotAuthenticated) as e:
        anonymous.neurons("celegans_varshney_2011")
    assert e.value.status == 401
    assert "NEURODATA_TOKEN" in str(e.value)
    assert e.value.request_id and UUID.match(e.value.request_id)


def test_a_wrong_token_is_not_authenticated(service: Service) -> None:
    with (
        neurodata.Client(service.url, "ndt_" + "A" * 43, progress=False) as wrong,
        pytest.raises(neurodata.NotAuthenticated),
    ):
        wrong.neurons("celegans_varshney_2011")


def test_an_account_not_yet_academic_is_told_how_to_verify(service: Service, regular_account: Account) -> None:
    token = regular_account.api_token(service.url, "compute")
    with neurodata.Client(service.url, token, progress=False) as student, pytest.raises(neurodata.NotAcademic) as e:
        student.neurons("celegans_varshney_2011")
    assert isinstance(e.value, neurodata.PermissionDenied)
    assert e.value.code == "FORBIDDEN"
    assert e.value.verify_url == f"{service.url}/account"
    # A server without an institutional login says what works there instead.
    assert "ask a SuperUser of this service to verify your account" in e.value.message
    assert f"{service.url}/account" in str(e.value)


def test_a_read_token_may_read_but_not_compute(service: Service, service_account: Account) -> None:
    token = service_account.api_token(service.url, "read")
    with neurodata.Client(service.url, token, progress=False) as reader:
        assert reader.dataset("celegans_varshney_2011").version == 1
        assert len(reader.connections("celegans_varshney_2011", synapse_type="chemical")) > 0
        with pytest.raises(neurodata.TokenScopeTooNarrow, match="compute") as narrow:
            reader.syql('MATCH (n:Neuron) IN "celegans_varshney_2011"@latest RETURN n.name')
        assert narrow.value.code == "FORBIDDEN"


def test_bad_input_names_the_field_and_unknown_things_are_not_found(client: neurodata.Client) -> None:
    with pytest.raises(neurodata.BadRequest) as bad:
        client.syql('MATCH (n:Neuron) IN "celegans_varshney_2011"@latest RETURN n.name', max_rows=20_000)
    assert bad.value.field == "max_rows"
    assert bad.value.status == 400
    assert bad.value.code == "BAD_USER_INPUT"
    with pytest.raises(neurodata.NotFound) as missing:
        client.dataset("no_such_dataset_anywhere")
    assert missing.value.code == "NOT_FOUND"
    with pytest.raises(neurodata.NotFound):
        client.neurons("no_such_dataset_anywhere")
    with pytest.raises(ValueError, match="synapse_type"):
        client.connections("celegans_varshney_2011", synapse_type="gap")


def test_url_and_token_come_from_the_environment(
    service: Service, write_token: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("NEURODATA_URL", service.url)
    monkeypatch.setenv("NEURODATA_TOKEN", write_token)
    with neurodata.Client(progress=False) as from_env:
        assert from_env.whoami()["account_type"] == "SERVICE"
    monkeypatch.delenv("NEURODATA_URL")
    with pytest.raises(ValueError, match="NEURODATA_URL"):
        neurodata.Client()


def test_a_service_account_logs_in_and_renews_its_access_token(service: Service, service_account: Account) -> None:
    with neurodata.Client(service.url, email=service_account.email, password=PASSWORD, progress=False) as lab:
        assert lab.whoami()["email"] == service_account.email
        # As when the 15-minute access token has expired: the next call renews it with the refresh token.
        lab._session.token = "v4.public.expired"
        assert lab.whoami()["email"] == service_account.email
        assert lab._session.token != "v4.public.expired"
    with pytest.raises(neurodata.NotAuthenticated):
        neurodata.Client(service.url, email=service_account.email, password="not the password")


def test_the_client_waits_when_rate_limited(service: Service, write_token: str) -> None:
    def burst(client: neurodata.Client, n: int) -> list[dict[str, object]]:
        with ThreadPoolExecutor(8) as pool:
            return list(pool.map(lambda _: client.dataset("celegans_varshney_2011").record, range(n)))

    def until_limited(client: neurodata.Client) -> None:
        for _ in range(20):
            burst(client, 200)

    with neurodata.Client(service.url, write_token, max_retries=0, progress=False) as impatient:
        with pytest.raises(neurodata.RateLimited) as limited:
            until_limited(impatient)
        assert limited.value.retry_after is not None
        assert limited.value.retry_after > 0
    with neurodata.Client(service.url, write_token, progress=False) as patient:
        assert len(burst(patient, 400)) == 400


class _Flaky(BaseHTTPRequestHandler):
    """A server that is briefly unavailable: the first request of each path answers 503."""

    seen: ClassVar[dict[str, int]] = {}

    def _answer(self) -> None:
        count = self.seen[self.path] = self.seen.get(self.path, 0) + 1
        if count == 1:
            body, status = b'{"error": "the column store is not reachable"}', 503
        else:
            body, status = b'{"status": "ok", "version": "test"}', 200
        self.send_response(status)
        self.send_header("content-type", "application/json")
        self.send_header("retry-after", "0")
        self.send_header("x-request-id", "0190aaaa-bbbb-7ccc-8ddd-eeeeeeeeeeee")
        self.send_header("content-length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    do_GET = _answer
    do_POST = _answer

    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture
def flaky_url() -> Iterator[str]:
    _Flaky.seen = {}
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Flaky)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()


def test_calls_that_change_nothing_are_retried_on_503_and_others_are_not(flaky_url: str) -> None:
    with neurodata.Client(flaky_url, "ndt_x", progress=False) as client:
        assert client.health()["status"] == "ok"
        assert _Flaky.seen["/health"] == 2
        with pytest.raises(neurodata.ServiceUnavailable) as unavailable:
            client.create_dataset("Not sent twice")
        assert _Flaky.seen["/v1/neurodata/datasets"] == 1
        assert unavailable.value.message == "the column store is not reachable"
        assert unavailable.value.request_id == "0190aaaa-bbbb-7ccc-8ddd-eeeeeeeeeeee"


def test_no_answer_within_the_time_limit_is_a_deadline(service: Service, write_token: str) -> None:
    hasty = neurodata.Client(service.url, write_token, timeout=0.0005, max_retries=0, progress=False)
    with hasty, pytest.raises(neurodata.DeadlineExceeded, match="within the time limit"):
        hasty.connections("celegans_cook_2019_male")


def test_the_exception_is_chosen_by_the_error_code_not_the_message_text() -> None:
    from neurodata.errors import error_for

    url = "http://x"
    # A message that reads like an academic refusal, with a plain FORBIDDEN code, is a plain refusal.
    plain = error_for(403, "this operation needs a verified academic account", None, base_url=url, code="FORBIDDEN")
    assert type(plain) is neurodata.PermissionDenied
    academic = error_for(403, "refused", None, base_url=url, code="FORBIDDEN", reason="ACADEMIC_REQUIRED")
    assert isinstance(academic, neurodata.NotAcademic)
    assert academic.verify_url == "http://x/account"
    scope = error_for(403, "refused", None, base_url=url, code="FORBIDDEN", reason="TOKEN_SCOPE")
    assert isinstance(scope, neurodata.TokenScopeTooNarrow)
    # The code decides where the status alone would not: an unreadable range is the caller's to fix.
    assert isinstance(error_for(416, "range", None, base_url=url, code="RANGE_NOT_SATISFIABLE"), neurodata.BadRequest)
    # A proxy's answer carries no code: its status decides.
    proxy = error_for(502, "Bad Gateway", None, base_url=url)
    assert isinstance(proxy, neurodata.ServerError)
    assert proxy.code is None
    assert isinstance(error_for(404, "Not Found", None, base_url=url), neurodata.NotFound)
