"""Progress bars: the client's `progress` decides for every job wait, download and upload; a call given `progress=`
decides for itself."""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Any

import httpx
import pytest

import neurodata

JOB_ID = "0b7a5c2e-0000-4000-8000-000000000001"
DATASET_ID = "my_worm"
CONTENT = b"neuron_id,name\n1,AVAL\n"
SHA256 = hashlib.sha256(CONTENT).hexdigest()
BARS = [f"job {JOB_ID[:8]}", "neurons.csv", "upload neurons.csv"]


def _answer(request: httpx.Request) -> httpx.Response:
    """A service that knows one finished job and one dataset with one file, and takes any upload."""
    request.read()  # an upload is streamed: read to its end, as the service does, which moves its progress bar
    path = request.url.path
    datasets = "/v1/neurodata/datasets"
    if path == f"/v1/jobs/{JOB_ID}":
        return httpx.Response(200, json={"job_id": JOB_ID, "kind": "syql", "status": "succeeded", "progress": 1.0})
    if path == f"{datasets}/{DATASET_ID}":
        return httpx.Response(200, json={"id": DATASET_ID, "slug": DATASET_ID, "latest_version": 1})
    if path == f"{datasets}/{DATASET_ID}/versions/v1":
        asset = {"id": "a1", "filename": "neurons.csv", "size": len(CONTENT), "sha256": SHA256}
        return httpx.Response(200, json={"version": 1, "assets": [asset]})
    if path == f"{datasets}/{DATASET_ID}/assets/a1/content":
        return httpx.Response(200, content=CONTENT)
    if path == f"{datasets}/{DATASET_ID}/assets" and request.method == "POST":
        return httpx.Response(200, json={"items": [{"filename": request.url.params["filename"], "rows": 1}]})
    return httpx.Response(404, json={"error": f"no {path}"})


def _offline(progress: bool) -> neurodata.Client:
    transport = httpx.MockTransport(_answer)
    return neurodata.Client("http://neurodata.test", "ndt_x", max_retries=0, progress=progress, transport=transport)


def _wait_download_and_upload(client: neurodata.Client, tmp_path: Path, progress: bool | None) -> None:
    """Each call that shows a bar, given `progress` when it is not None (and else as a user calls it)."""
    options: dict[str, Any] = {} if progress is None else {"progress": progress}
    source = tmp_path / "source" / "neurons.csv"
    source.parent.mkdir()
    source.write_bytes(CONTENT)
    client.jobs.get(JOB_ID).wait(**options)
    dataset = client.datasets.get(DATASET_ID)
    assert [p.read_bytes() for p in dataset.download(tmp_path / "downloaded", **options)] == [CONTENT]
    assert dataset.upload(source, **options) == [{"filename": "neurons.csv", "rows": 1}]


@pytest.mark.parametrize(
    ("client_progress", "call_progress", "shown"),
    [(True, None, True), (False, None, False), (False, True, True), (True, False, False)],
)
def test_the_clients_progress_decides_every_bar_unless_the_call_says(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    client_progress: bool,
    call_progress: bool | None,
    shown: bool,
) -> None:
    with _offline(client_progress) as client:
        _wait_download_and_upload(client, tmp_path, call_progress)
    err = capsys.readouterr().err
    if shown:
        assert all(bar in err for bar in BARS), err
    else:
        assert err == ""


def test_progress_changed_on_the_client_holds_for_a_job_it_made_before(capsys: pytest.CaptureFixture[str]) -> None:
    with _offline(True) as client:
        job = client.jobs.get(JOB_ID)
        client.progress = False
        job.wait()
        assert capsys.readouterr().err == ""
        client.progress = True
        job.wait()
        assert BARS[0] in capsys.readouterr().err
