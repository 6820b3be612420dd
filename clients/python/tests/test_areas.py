"""The client's areas: each holds the client's one session, and every shortcut on the client is its area's call."""

from __future__ import annotations

import inspect
import json
import warnings

import httpx
import pytest

import neurodata
from neurodata.areas._area import Area
from neurodata.client import EXEC_MAX_ROWS

COOK_MALE = "celegans_cook_2019_male"


def _offline(handler: httpx.MockTransport | None = None) -> neurodata.Client:
    refuse = httpx.MockTransport(lambda request: httpx.Response(404, json={"error": f"no {request.url.path}"}))
    return neurodata.Client("http://neurodata.test", "ndt_x", max_retries=0, transport=handler or refuse)


def _areas(client: neurodata.Client) -> dict[str, Area]:
    return {name: value for name, value in vars(client).items() if isinstance(value, Area)}


def test_every_area_calls_through_the_clients_one_session() -> None:
    with _offline() as client:
        areas = _areas(client)
        assert set(areas) == {
            "service",
            "account",
            "catalogue",
            "datasets",
            "data",
            "queries",
            "jobs",
            "graph",
            "analytics",
            "meta",
        }
        assert all(area._session is client._session for area in areas.values())


def test_every_shortcut_is_the_call_of_one_area_of_the_same_client() -> None:
    with _offline() as client:
        areas = _areas(client)
        shortcuts = {
            name: getattr(client, name)
            for name, _ in inspect.getmembers(type(client))
            if not name.startswith("_") and inspect.ismethod(getattr(client, name))
        }
        of_an_area = {name: call for name, call in shortcuts.items() if call.__self__ is not client}
        assert len(of_an_area) == 34
        for name, call in of_an_area.items():
            assert any(call.__self__ is area for area in areas.values()), name
        assert client.search == client.catalogue.search
        assert client.whoami == client.account.profile
        assert client.meta_analysis == client.meta.analysis


def test_the_truncation_warning_names_the_callers_line_through_a_shortcut_and_through_its_area() -> None:
    def answer(request: httpx.Request) -> httpx.Response:
        if request.url.path == "/v1/federation/ping":
            return httpx.Response(200, json={"version": "test"})
        assert json.loads(request.content)["max_rows"] == 1
        columns = [{"name": "name", "type": "string", "nullable": True}]
        return httpx.Response(200, json={"columns": columns, "rows": [["AVAL"]], "total": 2, "truncated": True})

    with _offline(httpx.MockTransport(answer)) as client, warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        client.syql("MATCH (n:Neuron) RETURN n.name AS name", max_rows=1)
        frame = client.queries.run("MATCH (n:Neuron) RETURN n.name AS name", max_rows=1)
    assert [w.category for w in caught] == [neurodata.TruncatedResultWarning] * 2
    assert {w.filename for w in caught} == {__file__}
    assert frame.attrs["truncated"] is True and frame.attrs["service_version"] == "test"


def test_a_truncated_answer_at_the_services_bound_says_that_only_a_job_gives_every_row() -> None:
    def answer(request: httpx.Request) -> httpx.Response:
        if request.url.path == "/v1/federation/ping":
            return httpx.Response(200, json={"version": "test"})
        columns = [{"name": "name", "type": "string", "nullable": True}]
        rows = [["AVAL"]] * json.loads(request.content)["max_rows"]
        return httpx.Response(200, json={"columns": columns, "rows": rows, "total": 12_345, "truncated": True})

    query = "MATCH (n:Neuron) RETURN n.name AS name"
    with _offline(httpx.MockTransport(answer)) as client:
        with pytest.warns(neurodata.TruncatedResultWarning, match="raise max_rows") as below:
            client.queries.run(query, max_rows=10)
        with pytest.warns(neurodata.TruncatedResultWarning, match="syql_job") as at_bound:
            frame = client.queries.run(query, max_rows=EXEC_MAX_ROWS)
    assert "up to 10,000" in str(below[0].message)
    assert "raise max_rows" not in str(at_bound[0].message)
    assert len(frame) == EXEC_MAX_ROWS and frame.attrs["total"] == 12_345 and frame.attrs["truncated"] is True


def test_the_areas_answer_as_their_shortcuts_do(client: neurodata.Client) -> None:
    listed = client.datasets()
    assert COOK_MALE in set(listed["slug"])
    assert {"id", "slug", "title", "status", "visibility", "latest_version"} <= set(listed.columns)

    dataset = client.datasets.get(COOK_MALE)
    assert dataset.record == client.dataset(COOK_MALE).record
    assert dataset._session is client._session
    assert len(dataset.neurons()) == len(client.data.neurons(COOK_MALE)) > 0

    found = client.catalogue.search("cook male connectome")
    assert list(found.hits["slug"]) == list(client.search("cook male connectome").hits["slug"])
    assert client.account.profile()["email"] == client.whoami()["email"]
    assert client.service.version == client.service_version

    job = client.jobs.syql(f'MATCH (n:Neuron) IN "{COOK_MALE}"@latest RETURN n.name AS name').wait(progress=False)
    assert job.id in {j.id for j in client.jobs(status="succeeded", limit=50)}
    assert client.jobs.get(job.id).record["result_sha256"] == job.record["result_sha256"]


def test_an_unknown_dataset_is_not_found_through_the_area(client: neurodata.Client) -> None:
    with pytest.raises(neurodata.NotFound):
        client.datasets.get("no_such_dataset_anywhere")
