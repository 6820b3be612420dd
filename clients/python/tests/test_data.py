"""Neurons and connections as DataFrames, complete, with where they came from; SyQL within a request and as a job."""

from __future__ import annotations

import json

import pandas as pd
import pyarrow as pa
import pytest

import neurodata
from neurodata.client import EXEC_MAX_ROWS

from .conftest import REPO

COOK_MALE = "celegans_cook_2019_male"
COUNTS = json.loads((REPO / "seed" / "connectomes" / COOK_MALE / "dataset.json").read_text())["counts"]


def test_cook_male_counts_equal_the_published_dataset_json(client: neurodata.Client) -> None:
    neurons = client.neurons(COOK_MALE)
    connections = client.connections(COOK_MALE)
    chemical = connections[connections["synapse_type"] == "chemical"]
    electrical = connections[connections["synapse_type"] == "electrical"]

    assert len(neurons) == COUNTS["cells"]
    assert int(neurons["is_neuron"].sum()) == COUNTS["neurons"]
    assert int((~neurons["is_neuron"]).sum()) == COUNTS["non_neuronal_cells"]
    assert int((neurons["neurotransmitter"] != "").sum()) == COUNTS["neurons_with_neurotransmitter"]
    assert len(connections) == COUNTS["connections"]
    assert len(chemical) == COUNTS["chemical_connections"]
    assert len(electrical) == COUNTS["electrical_connections"]
    assert int((chemical["pre"] == chemical["post"]).sum()) == COUNTS["chemical_self_loops"]
    assert int((electrical["pre"] == electrical["post"]).sum()) == COUNTS["electrical_self_loops"]
    assert chemical["weight"].sum() == COUNTS["total_weight_chemical"]
    assert electrical["weight"].sum() == COUNTS["total_weight_electrical"]
    # Gap junctions come once per unordered pair, as stored.
    assert bool((electrical["pre"] <= electrical["post"]).all())


def test_frames_say_which_dataset_version_query_and_service_they_came_from(client: neurodata.Client) -> None:
    neurons = client.neurons(COOK_MALE)
    assert neurons.attrs["dataset"] == COOK_MALE
    assert neurons.attrs["version"] == 1
    assert neurons.attrs["query"] == f"GET /v1/neurodata/datasets/{COOK_MALE}/neurons.arrow?version=v1"
    assert neurons.attrs["dataset_id"] == client.dataset(COOK_MALE).id
    assert neurons.attrs["service_version"] == client.service_version
    assert neurons.attrs["truncated"] is False
    assert list(neurons.columns) == [
        "neuron_id",
        "name",
        "cell_class",
        "cell_type",
        "neurotransmitter",
        "is_neuron",
        "region",
        "x",
        "y",
        "z",
    ]
    assert neurons["neuron_id"].is_unique
    assert list(neurons["neuron_id"]) == sorted(neurons["neuron_id"])


def test_filters(client: neurodata.Client) -> None:
    ava = client.neurons(COOK_MALE, names=["AVAL", "AVAR"])
    assert list(ava["name"]) == ["AVAL", "AVAR"]
    assert set(client.neurons(COOK_MALE, is_neuron=False)["is_neuron"]) == {False}

    strong = client.connections(COOK_MALE, synapse_type="chemical", min_weight=5)
    everything = client.connections(COOK_MALE)
    expected = everything[(everything["synapse_type"] == "chemical") & (everything["weight"] >= 5)]
    assert len(strong) == len(expected) > 0
    assert strong.attrs["parameters"]["min_weight"] == 5.0

    from_aval = client.connections(COOK_MALE, pre=["AVAL"], synapse_type="chemical")
    assert set(from_aval["pre"]) == {"AVAL"}
    assert len(from_aval) == int(((everything["pre"] == "AVAL") & (everything["synapse_type"] == "chemical")).sum())


def test_every_row_comes_as_arrow_and_equals_the_pages_of_the_json_route(client: neurodata.Client) -> None:
    connections = client.connections(COOK_MALE)
    assert connections.attrs["total"] == len(connections) == COUNTS["connections"]
    assert connections.attrs["truncated"] is False
    rows: list[dict[str, object]] = []
    for offset in range(0, len(connections), 1000):
        page = client._session.json(
            "GET", f"/v1/neurodata/datasets/{COOK_MALE}/connections", params={"limit": 1000, "offset": offset}
        )
        assert page["total"] == len(connections)
        rows.extend(page["items"])
    pages = pd.DataFrame.from_records(rows)
    # A page's rows carry roi, which only group_by=roi fills (per-ROI connections): not a column of the stored rows.
    assert pages.pop("roi").isna().all()
    pd.testing.assert_frame_equal(connections, pages, check_dtype=False, check_like=False)
    assert isinstance(connections["pre"].iloc[0], str) and connections["weight"].dtype == "float64"


def test_long_id_lists_give_what_short_ones_give(client: neurodata.Client) -> None:
    neurons = client.neurons(COOK_MALE)
    ids = list(neurons["neuron_id"])
    # Too long for a URL: applied by the client to every row instead.
    everyone = client.connections(COOK_MALE, pre=ids * 3, synapse_type="chemical")
    pd.testing.assert_frame_equal(everyone, client.connections(COOK_MALE, synapse_type="chemical"))
    few = client.connections(COOK_MALE, neuron_ids=["AVAL"])
    assert len(few) > 0 and bool(((few["pre"] == "AVAL") | (few["post"] == "AVAL")).all())
    assert few.attrs["parameters"]["neuron_ids"] == ["AVAL"]
    pd.testing.assert_frame_equal(client.neurons(COOK_MALE, neuron_ids=ids[:3]), neurons.head(3))


def test_syql_warns_when_the_answer_is_truncated(client: neurodata.Client) -> None:
    names = client.neurons(COOK_MALE)["name"]
    expected = int(names.str.startswith("AV").sum())
    query = (
        'MATCH (n:Neuron) IN "celegans_cook_2019_male"@latest WHERE n.name STARTS WITH $prefix RETURN n.name AS name'
    )
    with pytest.warns(neurodata.TruncatedResultWarning, match=f"yields {expected} rows and this answer holds 2"):
        frame = client.syql(query, {"prefix": "AV"}, max_rows=2)
    assert len(frame) == 2
    assert frame.attrs["total"] == expected > 2
    assert frame.attrs["truncated"] is True


def test_exec_max_rows_is_the_most_rows_the_service_answers_within_a_request(client: neurodata.Client) -> None:
    query = f'MATCH (n:Neuron) IN "{COOK_MALE}"@latest RETURN n.name AS name'
    whole = client.syql(query, max_rows=EXEC_MAX_ROWS)
    assert whole.attrs["truncated"] is False and len(whole) == whole.attrs["total"] > 0
    with pytest.raises(neurodata.BadRequest) as above:
        client.syql(query, max_rows=EXEC_MAX_ROWS + 1)
    assert above.value.field == "max_rows"
    assert f"0 to {EXEC_MAX_ROWS}" in above.value.message


def test_syql_job_result_is_arrow_with_its_metadata_and_equals_the_exec_rows(client: neurodata.Client) -> None:
    query = (
        'MATCH (a:Neuron)-[c:Chemical]->(b:Neuron) IN "celegans_cook_2019_male"@latest '
        "WHERE c.weight >= $w RETURN a.name AS pre, b.name AS post, c.weight AS weight, a.x AS x "
        "ORDER BY weight DESC, pre, post"
    )
    exec_frame = client.syql(query, {"w": 20}, max_rows=10_000)
    job = client.syql_job(query, {"w": 20})
    table = job.result()
    assert isinstance(table, pa.Table)
    assert job.status == "succeeded"
    assert table.schema.field("pre").type == pa.string()
    assert table.schema.field("weight").type == pa.float64()
    assert table.schema.field("x").nullable
    metadata = {k.decode(): v.decode() for k, v in table.schema.metadata.items()}
    assert metadata["job_id"] == job.id
    assert json.loads(metadata["parameters"]) == {"w": 20}
    assert json.loads(metadata["datasets"])[0]["version"] == 1
    assert table.num_rows == job.record["result_rows"] == len(exec_frame)

    job_frame = job.to_pandas()
    assert job_frame.attrs["job_id"] == job.id
    assert job_frame.attrs["version"] == 1
    pd.testing.assert_frame_equal(job_frame, exec_frame)


def test_synapse_level_reads_of_a_version_without_synapses_answer_empty_and_typed(client: neurodata.Client) -> None:
    dataset = client.dataset(COOK_MALE)
    synapses = dataset.synapses(neuron=["AVAL"], min_confidence=0.5)
    assert len(synapses) == 0
    assert list(synapses.columns)[:7] == ["synapse_id", "pre", "post", "x", "y", "z", "roi"]
    assert synapses.attrs["dataset"] == COOK_MALE
    assert synapses.attrs["parameters"] == {"neuron": ["AVAL"], "min_confidence": 0.5}
    assert len(dataset.synapses(numeric_ids=True)) == 0
    with pytest.raises(ValueError, match="bbox and unit"):
        dataset.synapses(bbox=[0, 0, 0, 1, 1, 1])

    rois = dataset.rois()
    assert len(rois) == 0
    assert rois.attrs["outside_rois"] == {"pre": 0, "post": 0}

    aval = dataset.neuron("AVAL")
    assert aval["name"] == "AVAL"
    assert aval["instance"] is None
    assert aval["extra"] == {}
    assert len(aval["rois"]) == 0
    with pytest.raises(neurodata.NotFound):
        dataset.neuron("nobody")
