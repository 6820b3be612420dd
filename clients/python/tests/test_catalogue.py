"""Search, a dataset's record, its citation and JSON-LD, and downloads checked against the shipped files."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest

import neurodata

from .conftest import REPO, Service

COOK_MALE = "celegans_cook_2019_male"
SHIPPED = REPO / "seed" / "connectomes" / COOK_MALE


def test_search_is_public_and_returns_hits_with_facets(service: Service) -> None:
    with neurodata.Client(service.url, progress=False) as anonymous:
        found = anonymous.search("cook male connectome")
        assert found.total >= 1
        assert found.hits.iloc[0]["slug"] == COOK_MALE
        assert found.hits.iloc[0]["year"] == 2019
        assert "Caenorhabditis elegans" in found.hits.iloc[0]["species"]
        assert found.facets["species"].loc["NCBITaxon:6239", "count"] >= 1

        published_2021 = {
            path.parent.name
            for path in (REPO / "seed" / "connectomes").glob("*/dataset.json")
            if json.loads(path.read_text())["year"] == 2021
        }
        worms_2021 = anonymous.search(species="worm", year=2021, limit=50)
        assert worms_2021.total == len(published_2021) == 8
        assert set(worms_2021.hits["slug"]) == published_2021
        assert set(worms_2021.facets["year"].index) == {"2021"}

        assert anonymous.search("conectome").corrected_query == "connectome"


def test_a_dataset_has_its_published_record_files_and_counts(client: neurodata.Client) -> None:
    dataset = client.dataset(COOK_MALE)
    shipped = json.loads((SHIPPED / "dataset.json").read_text())
    assert dataset.slug == COOK_MALE
    assert dataset.version == 1
    assert dataset.reference == f"{COOK_MALE}@v1"
    assert dataset.metadata["title"] == shipped["title"]
    assert dataset.row_counts["neurons"] == shipped["counts"]["cells"]
    assert dataset.row_counts["connections"] == shipped["counts"]["connections"]
    assert set(dataset.files["filename"]) == {"neurons.csv", "connections.csv", "dataset.json"}
    versions = dataset.versions()
    assert list(versions["version"]) == [1]
    assert client.dataset(f"{COOK_MALE}@v1").version == 1


def test_citation_and_jsonld(client: neurodata.Client) -> None:
    dataset = client.dataset(COOK_MALE)
    bibtex = dataset.citation()
    assert bibtex.lstrip().startswith("@")
    assert "Cook" in bibtex
    ris = dataset.citation("ris")
    assert ris.lstrip().startswith("TY  -")
    assert "ER  -" in ris
    document = dataset.jsonld()
    assert document["@type"] == "Dataset"
    assert "Cook" in json.dumps(document["creator"])


def test_download_checks_each_file_against_the_recorded_sha256(client: neurodata.Client, tmp_path: Path) -> None:
    dataset = client.dataset(COOK_MALE)
    paths = dataset.download(tmp_path, files=["neurons.csv", "connections.csv"])
    assert sorted(p.name for p in paths) == ["connections.csv", "neurons.csv"]
    recorded = dataset.files.set_index("filename")["sha256"]
    for path in paths:
        digest = hashlib.sha256(path.read_bytes()).hexdigest()
        assert digest == recorded[path.name]
        # The service gives back exactly the file shipped with it.
        assert digest == hashlib.sha256((SHIPPED / path.name).read_bytes()).hexdigest()
    assert not list(tmp_path.glob("*.part"))


def test_download_of_an_unknown_file_says_so(client: neurodata.Client, tmp_path: Path) -> None:
    with pytest.raises(neurodata.NotFound, match=r"no file nope\.csv"):
        client.dataset(COOK_MALE).download(tmp_path, files=["nope.csv"])
