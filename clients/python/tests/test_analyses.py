"""Graph analyses, morphometrics and meta-analysis, each checked against an independent computation or a published
figure: networkx on the graph the client builds, the SWC files themselves, and the committed outputs of the
morphometrics reference script and of R's metafor."""

from __future__ import annotations

import csv
import itertools
import json
import math
from collections import Counter
from pathlib import Path

import networkx as nx
import pandas as pd

import neurodata

from .conftest import REPO

COOK_MALE = "celegans_cook_2019_male"
MORPHOMETRICS = REPO / "subgraphs" / "graph" / "morphometrics" / "fixtures"
META = REPO / "subgraphs" / "graph" / "meta" / "test" / "fixtures"


def _without_self_loops(graph: nx.Graph) -> nx.Graph:
    copy = graph.copy()
    copy.remove_edges_from(list(nx.selfloop_edges(copy)))
    return copy


def test_networkx_triadic_census_equals_the_service_census(client: neurodata.Client) -> None:
    graph = client.to_networkx(COOK_MALE, "chemical")
    assert isinstance(graph, nx.DiGraph)
    assert graph.graph["version"] == 1
    census = client.motifs(COOK_MALE, per_node=["AVAL"])
    assert nx.triadic_census(_without_self_loops(graph)) == census["triadic_census"]
    # A cell's census is the census of the graph minus the census of the graph without that cell.
    without_aval = _without_self_loops(graph)
    without_aval.remove_node("AVAL")
    whole = nx.triadic_census(_without_self_loops(graph))
    rest = nx.triadic_census(without_aval)
    row = census["per_node"].loc["AVAL"]
    assert {k: int(row[k]) for k in whole} == {k: whole[k] - rest[k] for k in whole}


def test_the_electrical_graph_is_undirected_and_its_census_is_that_of_both_directions(client: neurodata.Client) -> None:
    graph = client.to_networkx(COOK_MALE, "electrical")
    assert isinstance(graph, nx.Graph)
    assert not graph.is_directed()
    metrics = client.graph_metrics(COOK_MALE, synapse_type="electrical")
    assert graph.number_of_nodes() == metrics["nodes"]
    assert graph.number_of_edges() == metrics["edges"]
    census = client.motifs(COOK_MALE, synapse_type="electrical")["triadic_census"]
    assert nx.triadic_census(_without_self_loops(graph).to_directed()) == census


def test_metrics_paths_reachability_and_degrees_equal_networkx(client: neurodata.Client, tmp_path: Path) -> None:
    graph = client.to_networkx(COOK_MALE, "chemical", min_weight=2)
    metrics = client.graph_metrics(COOK_MALE, min_weight=2)
    assert (metrics["nodes"], metrics["edges"]) == (graph.number_of_nodes(), graph.number_of_edges())
    assert math.isclose(metrics["density"], nx.density(graph), rel_tol=1e-12)
    assert math.isclose(metrics["reciprocity"], nx.reciprocity(graph), rel_tol=1e-12)

    path = client.shortest_path(COOK_MALE, "ASHL", "AVAL", min_weight=2)
    assert path["length"] == nx.shortest_path_length(graph, "ASHL", "AVAL")
    assert path["number_of_shortest_paths"] == len(list(nx.all_shortest_paths(graph, "ASHL", "AVAL")))
    hops = [step["neuron_id"] for step in path["path"]]
    assert all(graph.has_edge(u, v) for u, v in itertools.pairwise(hops))

    reach = client.reachability(COOK_MALE, "AVAL", max_hops=3, min_weight=2)
    distances = nx.single_source_shortest_path_length(graph, "AVAL", cutoff=3)
    by_hop = Counter(d for node, d in distances.items() if node != "AVAL")
    assert {int(h): int(n) for h, n in reach["per_hop"]["new"].items()} == {h: by_hop[h] for h in (1, 2, 3)}

    svg = tmp_path / "degrees.svg"
    degrees = client.degree_distribution(COOK_MALE, min_weight=2, svg=svg)
    for key, of_graph in (("in", graph.in_degree()), ("out", graph.out_degree())):
        histogram = Counter(d for _, d in of_graph)
        bins = degrees[key]
        assert {int(d): int(c) for d, c in zip(bins["degree"], bins["count"], strict=True) if c} == dict(histogram)
    text = svg.read_text()
    assert text.lstrip().startswith("<?xml") or text.lstrip().startswith("<svg")
    assert "<svg" in text and "Degree distribution" in text


def test_compare_has_one_row_per_dataset(client: neurodata.Client) -> None:
    slugs = ["celegans_witvliet_2021_1", "celegans_witvliet_2021_8"]
    compared = client.compare(slugs)
    assert list(compared["metrics"].index) == slugs
    for slug in slugs:
        assert compared["metrics"].loc[slug, "nodes"] == len(client.neurons(slug))
    assert compared["difference"].loc[slugs[0], "nodes"] == 0


def test_morphometrics_equal_the_reference_script_and_count_the_points_of_each_swc_file(
    client: neurodata.Client,
) -> None:
    frame = client.morphometrics("neuron_morphologies")
    assert len(frame) == len(frame.attrs["files"]) > 5
    # Computed independently by subgraphs/graph/morphometrics/fixtures/morphometrics_reference.py.
    reference = json.loads((MORPHOMETRICS / "morphometrics_reference.json").read_text())["files"]
    # The reference names files by their path under seed/morphology; the dataset by their file name.
    reference = {Path(path).name: measures for path, measures in reference.items()}
    assert set(reference) <= set(frame.index)
    for name, expected in reference.items():
        for measure, value in expected.items():
            if isinstance(value, int | float) and not isinstance(value, bool):
                assert math.isclose(frame.loc[name, measure], value, rel_tol=1e-9, abs_tol=1e-9), (name, measure)
    for name in ("04a_pyramidal4aACC.CNG.swc", "l22.CNG.swc"):
        lines = (REPO / "seed" / "morphology" / name).read_text().splitlines()
        points = [line for line in lines if line.strip() and not line.lstrip().startswith("#")]
        assert frame.loc[name, "n_points"] == len(points)


def test_meta_analysis_of_the_bcg_trials_equals_metafor(client: neurodata.Client, tmp_path: Path) -> None:
    with (REPO / "seed" / "meta" / "bcg_colditz1994.csv").open() as handle:
        trials = [
            {
                "label": f"{r['author']} {r['year']}",
                "ai": int(r["tpos"]),
                "bi": int(r["tneg"]),
                "ci": int(r["cpos"]),
                "di": int(r["cneg"]),
            }
            for r in csv.DictReader(handle)
        ]
    svg = tmp_path / "forest.svg"
    result = client.meta_analysis(pd.DataFrame(trials), measure="logRR", method="REML", svg=svg)
    # R's metafor, run by subgraphs/graph/meta/test/fixtures/metafor_reference.R on the same table.
    cases = json.loads((META / "metafor_reference.json").read_text())["cases"]
    (metafor,) = [
        c
        for c in cases
        if (c["table"], c["measure"], c["method"], c["knapp_hartung"]) == ("bcg", "logRR", "REML", False)
    ]
    for key in ("estimate", "se", "ci_lower", "ci_upper", "tau2", "I2", "Q"):
        assert math.isclose(result[key], metafor[key], rel_tol=1e-6), key
    assert len(result["studies"]) == metafor["k"] == 13
    assert "<svg" in svg.read_text()


def test_summaries_curves_drawings_and_atlas_comparison(client: neurodata.Client, tmp_path: Path) -> None:
    summary = client.summary(COOK_MALE)
    assert summary["dataset"]["cells"] == len(client.neurons(COOK_MALE))

    curve = client.reachability_curve(COOK_MALE, "AVAL", max_hops=3, svg=tmp_path / "curve.svg")
    reach = client.reachability(COOK_MALE, "AVAL", max_hops=3)
    assert curve["curve"][-1]["reachable"] == reach["per_hop"].loc[3, "cumulative"]
    assert "<svg" in (tmp_path / "curve.svg").read_text()

    ego = client.neighbourhood(COOK_MALE, "AVAL", hops=1, direction="out", svg=tmp_path / "aval.svg")
    assert ego["network_nodes"] == len({"AVAL", *client.to_networkx(COOK_MALE).successors("AVAL")})
    assert "<svg" in (tmp_path / "aval.svg").read_text()

    references = ["celegans_witvliet_2021_7", "celegans_witvliet_2021_8", "celegans_varshney_2011"]
    z = client.zscore_comparison(COOK_MALE, references, ["cells", "reciprocity"])
    assert list(z.index) == ["cells", "reciprocity"]

    # The worm connectomes name no brain region per cell: every cell is unassigned, none is mapped.
    atlas = client.atlas_compare("celegans_witvliet_2021_1", "celegans_witvliet_2021_8")
    assert atlas["reference"]["slug"] == "celegans_witvliet_2021_8"
    assert atlas["dataset_totals"]["neurons_unassigned"] == len(client.neurons("celegans_witvliet_2021_1"))
