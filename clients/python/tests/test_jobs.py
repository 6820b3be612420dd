"""Jobs followed to the end: progress, cancel, rerun, a graph analysis as a job, and the job list."""

from __future__ import annotations

import uuid

import pandas as pd
import pytest

import neurodata

QUERY = (
    'MATCH (a:Neuron)-[c:Chemical]->(b:Neuron) IN "celegans_varshney_2011"@latest '
    "RETURN a.name AS pre, b.name AS post, c.weight AS weight ORDER BY pre, post"
)


def test_wait_follows_progress_to_the_end(client: neurodata.Client) -> None:
    job = client.syql_job(QUERY)
    assert job.status in {"queued", "running", "succeeded"}
    job.wait(progress=True)
    assert job.done and job.status == "succeeded"
    assert job.progress == 1.0
    assert job.record["result_rows"] == len(job.to_pandas())
    assert job.id in {j.id for j in client.jobs(limit=50)}
    assert client.job(job.id).record["result_sha256"] == job.record["result_sha256"]


def test_rerun_reads_the_same_pinned_versions_and_gives_the_same_rows(client: neurodata.Client) -> None:
    first = client.syql_job(QUERY).wait(progress=False)
    again = first.rerun()
    assert again.id != first.id
    assert again.record["input"]["pins"] == first.record["input"]["pins"]
    assert again.result().equals(first.result())


def test_cancel_stops_a_running_analysis_and_there_is_no_result(client: neurodata.Client) -> None:
    # Thousands of rewired graphs, each censused: minutes of work.
    job = client.graph_job("celegans_cook_2019_male", null_model={"samples": 1000, "swaps_per_edge": 100, "seed": 3})
    job.cancel()
    assert job.status == "cancelled"
    with pytest.raises(neurodata.JobCancelled):
        job.wait(progress=False)
    with pytest.raises(neurodata.JobCancelled):
        job.result()


def test_a_graph_job_gives_its_whole_analysis(client: neurodata.Client) -> None:
    job = client.graph_job("celegans_witvliet_2021_8", null_model={"samples": 5, "seed": 1}).wait(progress=False)
    analysis = job.analysis
    assert analysis is not None
    census = client.motifs("celegans_witvliet_2021_8")["triadic_census"]
    assert analysis["motifs"]["triadic_census"] == census
    table = job.to_pandas()
    assert {"section", "measure", "value"} <= set(table.columns)
    assert table.attrs["job_id"] == job.id


def test_bad_input_is_refused_when_submitted(client: neurodata.Client) -> None:
    with pytest.raises(neurodata.BadRequest) as refused:
        client.syql_job('MATCH (n:Neuron) IN "celegans_varshney_2011"@latest RETURN n.colour')
    assert "colour" in refused.value.message
    with pytest.raises(neurodata.BadRequest) as refused:
        client.graph_job("celegans_varshney_2011", null_model={"samples": 5000})
    assert refused.value.field == "null_model.samples"


def test_a_saved_query_runs_as_a_job_and_is_listed_with_its_last_run(client: neurodata.Client) -> None:
    name = f"Varshney partners {uuid.uuid4().hex[:6]}"
    saved = client.save_query(name, QUERY, description="every chemical connection")
    try:
        assert saved["name"] == name
        with pytest.raises(neurodata.Conflict):
            client.save_query(name, QUERY)
        job = client.run_saved_query(saved["id"])
        rows = job.to_pandas()
        pd.testing.assert_frame_equal(rows, client.syql(QUERY, max_rows=10_000))

        again = client.run_saved_query(saved["id"], refresh=True)
        assert [v["changed"] for v in again.record["versions"]] == [False]
        assert again.result().equals(job.result())

        listed = client.saved_queries()
        assert listed.loc[saved["id"], "name"] == name
        assert listed.loc[saved["id"], "last_job_id"] == again.id
    finally:
        client.delete_saved_query(saved["id"])
    assert saved["id"] not in client.saved_queries().index
