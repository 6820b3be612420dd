"""The datasets' records (`/v1/neurodata/datasets`): the ones you may see, one at a version, a new draft."""

from __future__ import annotations

from typing import Any

import pandas as pd

from .._frames import records_frame
from .._http import Session
from .._routes import path as route_path
from .._routes import route
from ..datasets import Dataset, version_reference
from ._area import Area
from ._arguments import DatasetRef, split_reference
from .data import Data

_LISTED = ["id", "slug", "title", "status", "visibility", "latest_version", "license", "published_at"]


class Datasets(Area):
    """`client.datasets`: `client.datasets()` lists them, `get` gives one as a Dataset, `create` opens a draft.

    A Dataset reads its rows through `client.data`, so it is built with that area."""

    def __init__(self, session: Session, data: Data) -> None:
        super().__init__(session)
        self._data = data

    def __call__(self) -> pd.DataFrame:
        """The datasets you may see: published ones (restricted ones with metadata only) and your drafts."""
        items = list(self._session.pages(route_path("datasets")))
        return records_frame([{k: item.get(k) for k in _LISTED} for item in items])

    def get(self, dataset: DatasetRef, version: str | int = "latest") -> Dataset:
        """A dataset by slug or id (`slug@v2` names a version too) at a version: latest, vN or N, or draft."""
        name, version = split_reference(dataset, version)
        record = self._session.json(*route("dataset", dataset_id=name))
        return Dataset(self._session, record, version_reference(version), data=self._data)

    def create(self, /, title: str, **metadata: Any) -> Dataset:
        """Create a draft (docs/neurodata.md, "Metadata"): species, brain_regions, microscopy by code or label,
        license (SPDX), creators [{name, kind? (person | organization), orcid?, affiliation?}], description,
        keywords, slug, visibility."""
        record = self._session.json(*route("create_dataset"), body={"title": title, **metadata})
        return Dataset(self._session, record, "draft", data=self._data)
