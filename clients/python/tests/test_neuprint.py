"""neuprint-python's fetch_neurons, ported by changing the import and the client line: a hemibrain dataset (four
DA1 lPNs with every synapse point and neuPrint's ROI hierarchy) uploaded as a lab would, searched as a neuPrint user
searches, and every answer checked against pandas on the same files."""

from __future__ import annotations

import json
import uuid
from collections.abc import Iterator

import pandas as pd
import pytest

import neurodata
from neurodata.neuprint import (
    Client,
    fetch_adjacencies,
    fetch_common_connectivity,
    fetch_neurons,
    fetch_simple_connections,
    set_default_client,
)
from neurodata.neuprint import NeuronCriteria as NC

from .conftest import REPO, Service

SEED = REPO / "seed" / "synapse-level"
BODIES = ["722817260", "754534424", "1734350788", "1734350908"]


@pytest.fixture(scope="module")
def hemibrain(
    client: neurodata.Client, service: Service, write_token: str, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[str]:
    slug = f"pytest_hemibrain_{uuid.uuid4().hex[:8]}"
    draft = client.create_dataset(
        "Four DA1 lateral projection neurons, uploaded from Python",
        slug=slug,
        species=["Drosophila melanogaster"],
        brain_regions=["adult brain"],
        microscopy=["focussed ion beam scanning electron microscopy (FIB-SEM)"],
        coordinate_unit="voxel",
        voxel_size=[8, 8, 8],
        license="CC-BY-4.0",
        description="Every synapse point of four hemibrain DA1 lPNs, for the client's neuPrint calls.",
        creators=[{"name": "Lab of the client tests"}],
    )
    folder = tmp_path_factory.mktemp("hemibrain")
    meta = json.loads((SEED / "hemibrain_da1_lpn" / "meta.json").read_text())
    neurons = folder / "neurons.csv"
    neurons.write_text(
        "\n".join(
            ["bodyId,instance,type,status,cellBodyFiber"]
            + [f"{k},{v['instance']},{v['type']},{v['status']},{v['cellBodyFiber']}" for k, v in meta.items()]
        )
        + "\n"
    )
    files = [SEED / "rois" / "hemibrain_roi_info.json", neurons]
    for body in BODIES:
        target = folder / f"synapses_{body}.csv"
        target.write_bytes((SEED / "hemibrain_da1_lpn" / f"{body}.csv").read_bytes())
        files.append(target)
    # The ROI file is named as the service expects a hierarchy to be.
    (folder / "rois.json").write_bytes(files[0].read_bytes())
    files[0] = folder / "rois.json"
    draft.upload(*files, progress=False)
    draft.publish()
    try:
        yield slug
    finally:
        draft.delete()


def _points() -> pd.DataFrame:
    frames = []
    for body in BODIES:
        f = pd.read_csv(SEED / "hemibrain_da1_lpn" / f"{body}.csv", dtype={"roi": str}, keep_default_na=False)
        f["bodyId"] = int(body)
        frames.append(f)
    return pd.concat(frames, ignore_index=True)


def test_fetch_neurons_answers_neuprints_columns_and_counts(hemibrain: str, service: Service, write_token: str) -> None:
    c = Client(service.url, dataset=hemibrain, token=write_token, progress=False)
    set_default_client(c)
    neurons, roi_counts = fetch_neurons(NC(type="DA1_lPN"))
    assert list(neurons["bodyId"]) == sorted(int(b) for b in BODIES) or sorted(neurons["bodyId"]) == sorted(
        int(b) for b in BODIES
    )
    assert neurons["bodyId"].dtype == "int64"
    assert list(neurons.columns[:3]) == ["bodyId", "instance", "type"]
    assert set(neurons["cellBodyFiber"]) == {"AVM02"}
    assert list(roi_counts.columns) == ["bodyId", "roi", "pre", "post", "downstream", "upstream"]
    points = _points()
    expected = points.groupby(["bodyId", "roi", "type"]).size().unstack(fill_value=0).reset_index()
    got = roi_counts.set_index(["bodyId", "roi"]).sort_index()
    for row in expected.itertuples():
        assert got.loc[(row.bodyId, row.roi), "pre"] == row.pre
        assert got.loc[(row.bodyId, row.roi), "post"] == row.post
    totals = points.groupby(["bodyId", "type"]).size().unstack(fill_value=0)
    for row in neurons.itertuples():
        assert row.pre == totals.loc[row.bodyId, "pre"]
        assert row.post == totals.loc[row.bodyId, "post"]
        assert row.upstream == totals.loc[row.bodyId, "post"]
    assert neurons.attrs["dataset"] == hemibrain
    assert neurons.attrs["criteria"] == {"where": [{"field": "type", "values": ["DA1_lPN"]}]}


def test_roi_criteria_count_an_rois_primary_descendants(hemibrain: str, service: Service, write_token: str) -> None:
    c = Client(service.url, dataset=hemibrain, token=write_token, progress=False)
    points = _points()
    # MB(R) is not a primary ROI: its synapses are those of CA(R), PED(R), ... (here CA(R) alone).
    info = json.loads((SEED / "rois" / "hemibrain_roi_info.json").read_text())
    under = {"MB(R)"}
    while True:
        more = {k for k, v in info.items() if v.get("parent") in under} - under
        if not more:
            break
        under |= more
    primaries = {k for k in under if info[k].get("isPrimary")}
    outputs = points[(points["type"] == "pre") & points["roi"].isin(primaries)].groupby("bodyId").size()
    expected = sorted(int(b) for b, n in outputs.items() if n >= 110)
    neurons, _ = fetch_neurons(NC(outputRois=["MB(R)"], min_roi_outputs=110), client=c)
    assert list(neurons["bodyId"]) == expected
    by_regex, _ = fetch_neurons(NC(type="DA1_.*", regex=True, min_pre=700), client=c)
    pre = points[points["type"] == "pre"].groupby("bodyId").size()
    assert sorted(by_regex["bodyId"]) == sorted(int(b) for b, n in pre.items() if n >= 700)
    with pytest.raises(neurodata.BadRequest) as refused:
        fetch_neurons(NC(inputRois=["NOT_AN_ROI"]), client=c)
    assert "NOT_AN_ROI" in refused.value.message


def test_long_id_lists_are_asked_for_in_parts(hemibrain: str, service: Service, write_token: str) -> None:
    c = Client(service.url, dataset=hemibrain, token=write_token, progress=False)
    ids = [str(10**15 + i) for i in range(25_000)] + BODIES
    neurons, roi_counts = fetch_neurons(NC(bodyId=ids), client=c)
    assert sorted(neurons["bodyId"]) == sorted(int(b) for b in BODIES)
    assert set(roi_counts["bodyId"]) == {int(b) for b in BODIES}
    fields = c.data.neuron_fields(hemibrain)
    assert fields.loc["type", "top"] == [{"value": "DA1_lPN", "count": 4}]
    assert fields.loc["cellBodyFiber", "source"] == "extra"


@pytest.fixture(scope="module")
def flywire_gng(client: neurodata.Client, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """FlyWire's GNG sample of per-neuropil connections, with the annotations of its neurons and the neuropils."""
    slug = f"pytest_flywire_{uuid.uuid4().hex[:8]}"
    draft = client.create_dataset(
        "FlyWire v783, a GNG sample, uploaded from Python",
        slug=slug,
        species=["Drosophila melanogaster"],
        brain_regions=["adult brain"],
        microscopy=["transmission electron microscopy (TEM)"],
        coordinate_unit="nm",
        license="CC-BY-NC-4.0",
        description="Per-neuropil connections of FlyWire v783 in the GNG, for the client's neuPrint calls.",
        creators=[{"name": "Lab of the client tests"}],
    )
    folder = tmp_path_factory.mktemp("flywire")
    gng = pd.read_csv(SEED / "flywire_783" / "codex_connections_GNG_sample.csv", dtype=str)
    ids = set(gng["From"]) | set(gng["To"])
    classification = pd.read_csv(SEED / "flywire_783" / "classification.csv.gz", dtype=str, keep_default_na=False)
    classification[classification["root_id"].isin(ids)].to_csv(folder / "classification.csv", index=False)
    (folder / "rois.csv").write_bytes((SEED / "rois" / "flywire_783_neuropils.csv").read_bytes())
    (folder / "connections_gng.csv").write_bytes(
        (SEED / "flywire_783" / "codex_connections_GNG_sample.csv").read_bytes()
    )
    draft.upload(folder / "rois.csv", folder / "classification.csv", folder / "connections_gng.csv", progress=False)
    draft.publish()
    try:
        yield slug
    finally:
        draft.delete()


def _gng() -> tuple[pd.DataFrame, pd.DataFrame]:
    gng = pd.read_csv(SEED / "flywire_783" / "codex_connections_GNG_sample.csv", dtype=str)
    gng["Synapses"] = gng["Synapses"].astype(int)
    classification = pd.read_csv(SEED / "flywire_783" / "classification.csv.gz", dtype=str, keep_default_na=False)
    return gng, classification[classification["root_id"].isin(set(gng["From"]) | set(gng["To"]))]


def test_fetch_adjacencies_answers_per_roi_weights_that_pandas_sums(
    flywire_gng: str, service: Service, write_token: str
) -> None:
    c = Client(service.url, dataset=flywire_gng, token=write_token, progress=False)
    gng, annotated = _gng()
    left = set(annotated.loc[annotated["side"] == "left", "root_id"])
    neurons, roi_conn = fetch_adjacencies(NC(side="left"), None, client=c)
    rows = gng[gng["From"].isin(left)]
    expected = rows.groupby(["From", "To", "Neuropil"])["Synapses"].sum().reset_index()
    assert list(roi_conn.columns) == ["bodyId_pre", "bodyId_post", "roi", "weight"]
    assert roi_conn["bodyId_pre"].dtype == "int64"
    assert roi_conn["weight"].dtype == "int64"
    got = sorted(zip(roi_conn["bodyId_pre"], roi_conn["bodyId_post"], roi_conn["roi"], roi_conn["weight"], strict=True))
    want = sorted(
        zip(
            expected["From"].astype("int64"),
            expected["To"].astype("int64"),
            expected["Neuropil"],
            expected["Synapses"],
            strict=True,
        )
    )
    assert got == want
    # Every FlyWire root id stays exact: above 2**53, a float would have changed them.
    assert all(int(i) > 2**53 for i in roi_conn["bodyId_pre"])
    assert set(neurons["bodyId"]) <= set(roi_conn["bodyId_pre"]) | set(roi_conn["bodyId_post"])
    assert set(neurons["bodyId"]) >= {int(i) for i in left & set(rows["From"])}


def test_fetch_simple_connections_merges_the_partners_annotations(
    flywire_gng: str, service: Service, write_token: str
) -> None:
    c = Client(service.url, dataset=flywire_gng, token=write_token, progress=False)
    gng, annotated = _gng()
    frame = fetch_simple_connections(
        None, NC(super_class="sensory"), min_weight=5, properties=["type", "side"], client=c
    )
    sensory = set(annotated.loc[annotated["super_class"] == "sensory", "root_id"])
    pairs = gng[gng["To"].isin(sensory)].groupby(["From", "To"])["Synapses"].sum()
    pairs = pairs[pairs >= 5]
    assert len(frame) == len(pairs)
    assert list(frame["weight"]) == sorted(frame["weight"], reverse=True)
    types = dict(zip(annotated["root_id"], annotated["cell_type"], strict=True))
    for row in frame.itertuples():
        assert row.weight == pairs[(str(row.bodyId_pre), str(row.bodyId_post))]
        assert row.type_post == types[str(row.bodyId_post)]
        assert row.side_post in {"left", "right", "center"}


def test_fetch_common_connectivity_finds_the_partners_of_every_member(
    flywire_gng: str, service: Service, write_token: str
) -> None:
    c = Client(service.url, dataset=flywire_gng, token=write_token, progress=False)
    gng, annotated = _gng()
    pairs = gng.groupby(["From", "To"])["Synapses"].sum().reset_index()
    # Two annotated neurons that share an upstream partner: the first such pair by id.
    known = set(annotated["root_id"])
    by_partner = pairs[pairs["To"].isin(known)].groupby("From")["To"].apply(lambda s: sorted(set(s)))
    members = min(ids[:2] for ids in by_partner if len(ids) >= 2)
    frame = fetch_common_connectivity(NC(bodyId=members), "upstream", client=c)
    inputs = [set(pairs.loc[pairs["To"] == m, "From"]) for m in members]
    expected = sorted(int(i) for i in set.intersection(*inputs))
    assert sorted(frame["bodyId"]) == expected
    assert {"type", "instance", *members} <= set(frame.columns)
    for row in frame.itertuples(index=False):
        for m in members:
            weight = pairs.loc[(pairs["From"] == str(row.bodyId)) & (pairs["To"] == m), "Synapses"].sum()
            assert frame.loc[frame["bodyId"] == row.bodyId, m].iloc[0] == weight


def test_connectivity_by_field_is_the_class_matrix_pandas_groups(client: neurodata.Client) -> None:
    worm = REPO / "seed" / "connectomes" / "celegans_varshney_2011"
    neurons = pd.read_csv(worm / "neurons.csv", dtype=str, keep_default_na=False).set_index("neuron_id")
    edges = pd.read_csv(worm / "connections.csv", dtype={"pre": str, "post": str})
    chemical = edges[edges["synapse_type"] == "chemical"]
    chemical = chemical.assign(pre_value=neurons.loc[chemical["pre"], "cell_class"].values)
    chemical = chemical.assign(post_value=neurons.loc[chemical["post"], "cell_class"].values)
    expected = chemical.groupby(["pre_value", "post_value"])["weight"].sum()
    frame = client.data.connectivity_by_field("celegans_varshney_2011", "cell_class")
    assert len(frame) == len(expected)
    got = frame.set_index(["pre_value", "post_value"])["weight"]
    assert (got.sort_index() == expected.sort_index()).all()
    matrix = frame.pivot(index="pre_value", columns="post_value", values="weight")
    assert matrix.loc["AVA", "DA"] == expected[("AVA", "DA")]
