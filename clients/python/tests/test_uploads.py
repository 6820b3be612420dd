"""A data owner's path: create a draft, upload neurons and connections, see what is missing, publish, read it back."""

from __future__ import annotations

import uuid

import pandas as pd
import pytest

import neurodata

from .conftest import REPO

SOURCE = REPO / "seed" / "connectomes" / "celegans_varshney_2011"


def test_create_upload_publish_and_read_back(client: neurodata.Client) -> None:
    slug = f"pytest_worm_{uuid.uuid4().hex[:8]}"
    draft = client.create_dataset("A worm uploaded from Python", slug=slug, species=["Caenorhabditis elegans"])
    try:
        assert draft.version == "draft"
        missing = draft.missing()
        assert any(m.startswith("data:") for m in missing)
        assert any(m.startswith("license:") for m in missing)

        uploaded = draft.upload(SOURCE / "neurons.csv", SOURCE / "connections.csv", progress=False)
        assert [a["filename"] for a in uploaded] == ["neurons.csv", "connections.csv"]
        draft.update(
            description="The Varshney et al. 2011 hermaphrodite connectome, uploaded again by the client's tests.",
            brain_regions=["nerve ring"],
            microscopy=["transmission electron microscopy (TEM)"],
            license="CC-BY-4.0",
            creators=[{"name": "Lab of the client tests"}],
        )
        assert draft.missing() == []
        # The owner reads the draft before publishing it.
        assert len(client.neurons(slug, version="draft")) == uploaded[0]["rows"]

        published = draft.publish(note="first version")
        assert published.version == 1
        assert published.row_counts["connections"] == uploaded[1]["rows"]

        ours = client.connections(slug).reset_index(drop=True)
        original = client.connections("celegans_varshney_2011").reset_index(drop=True)
        pd.testing.assert_frame_equal(ours, original)
        assert ours.attrs["dataset"] == slug
    finally:
        draft.delete()
    with pytest.raises(neurodata.NotFound):
        client.dataset(slug)


def test_an_unknown_term_is_refused_naming_the_field(client: neurodata.Client) -> None:
    with pytest.raises(neurodata.BadRequest) as refused:
        client.create_dataset("My fly", species=["Drosophilla melanogaster"])
    assert refused.value.field == "species"
    assert "Drosophila melanogaster" in refused.value.message


def test_a_restricted_dataset_is_read_after_its_owner_approves_the_request(
    client: neurodata.Client, other_lab: neurodata.Client
) -> None:
    slug = f"pytest_restricted_{uuid.uuid4().hex[:8]}"
    draft = client.create_dataset(
        "A restricted worm from the client's tests",
        slug=slug,
        visibility="restricted",
        description="The Varshney et al. 2011 connectome again, shared only on request.",
        species=["Caenorhabditis elegans"],
        brain_regions=["nerve ring"],
        microscopy=["transmission electron microscopy (TEM)"],
        license="CC-BY-4.0",
        creators=[{"name": "Lab of the client tests"}],
    )
    try:
        draft.upload(SOURCE / "neurons.csv", SOURCE / "connections.csv", progress=False)
        draft.publish()

        theirs = other_lab.dataset(slug)
        assert theirs.access()["access"]["can_read_data"] is False
        with pytest.raises(neurodata.PermissionDenied, match="request"):
            other_lab.neurons(slug)
        request = theirs.request_access("for a comparison across animals")
        assert request["status"] == "pending"

        requests = client.dataset(slug).access_requests()
        assert list(requests.index) == [request["id"]]
        assert requests.loc[request["id"], "message"] == "for a comparison across animals"
        client.dataset(slug).approve_access(request["id"], "granted")

        assert theirs.access()["access"]["can_read_data"] is True
        pd.testing.assert_frame_equal(
            other_lab.neurons(slug).reset_index(drop=True),
            client.neurons(slug).reset_index(drop=True),
        )

        client.dataset(slug).deny_access(request["id"], "withdrawn")
        with pytest.raises(neurodata.PermissionDenied):
            other_lab.connections(slug)
    finally:
        draft.delete()
