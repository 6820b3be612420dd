"""The calls' arguments as the service reads them: dataset references, versions, lists and query values."""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from typing import Any

from ..datasets import Dataset, version_reference

DatasetRef = str | Dataset
PathLike = str | os.PathLike[str]


def split_reference(dataset: DatasetRef, version: str | int) -> tuple[str, str | int]:
    """`slug@v2` names its version; a Dataset object its own; otherwise `version` applies."""
    if isinstance(dataset, Dataset):
        return dataset.slug, dataset.version_label
    if "@" in dataset:
        name, _, named = dataset.rpartition("@")
        return name, named
    return dataset, version


def dataset_name(dataset: DatasetRef) -> str:
    """The slug or id of a dataset reference, its version left aside."""
    return split_reference(dataset, "latest")[0]


def version_param(version: str | int) -> str:
    """A version as the `version` query parameter or body field takes it: latest, draft or a number."""
    reference = version_reference(version)
    return reference[1:] if reference.startswith("v") else reference


def listed(value: str | Sequence[str] | None) -> list[str] | None:
    if value is None:
        return None
    return [value] if isinstance(value, str) else list(value)


def in_list(values: str | Sequence[str]) -> list[str]:
    return [values] if isinstance(values, str) else [str(v) for v in values]


def query_value(value: Any) -> str:
    """A query parameter as the service reads it: booleans as true/false."""
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def scalars(record: Mapping[str, Any]) -> dict[str, Any]:
    """The numbers and strings of a record (nested ones left out), for one row of a DataFrame."""
    return {k: v for k, v in record.items() if v is None or isinstance(v, str | int | float | bool)}
