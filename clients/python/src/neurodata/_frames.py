"""Answers of the service as pyarrow tables and pandas DataFrames, with where they came from in `df.attrs`."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

import pandas as pd
import pyarrow as pa

# SyQL's column types (docs/syql.md), as the service's own Arrow results type them.
_ARROW_TYPES: dict[str, pa.DataType] = {
    "string": pa.string(),
    "integer": pa.int64(),
    "float": pa.float64(),
    "boolean": pa.bool_(),
}


def arrow_type(syql_type: str) -> pa.DataType:
    return _ARROW_TYPES.get(syql_type, pa.string())


def rows_to_table(columns: Sequence[Mapping[str, Any]], rows: Sequence[Sequence[Any]]) -> pa.Table:
    """An exec answer's rows as the same Arrow table a job would write for the query (same names, types, nulls)."""
    fields = [
        pa.field(str(c["name"]), arrow_type(str(c["type"])), nullable=bool(c.get("nullable", True))) for c in columns
    ]
    arrays = [pa.array([row[i] for row in rows], type=f.type) for i, f in enumerate(fields)]
    return pa.Table.from_arrays(arrays, schema=pa.schema(fields))


def decoded_metadata(table: pa.Table) -> dict[str, Any]:
    """An Arrow result's schema metadata as Python values: the JSON ones (parameters, datasets, ...) decoded."""
    out: dict[str, Any] = {}
    for key, value in (table.schema.metadata or {}).items():
        name = key.decode()
        text = value.decode()
        try:
            out[name] = json.loads(text) if text[:1] in "[{" else text
        except ValueError:
            out[name] = text
    return out


def to_frame(table: pa.Table, attrs: Mapping[str, Any]) -> pd.DataFrame:
    """A DataFrame whose dtypes follow the Arrow types (nullable integers and booleans stay nullable)."""
    frame = table.to_pandas(types_mapper=_nullable_dtype)
    frame.attrs.update(attrs)
    return frame


def _nullable_dtype(arrow: pa.DataType) -> Any:
    if pa.types.is_integer(arrow):
        return pd.Int64Dtype()
    if pa.types.is_boolean(arrow):
        return pd.BooleanDtype()
    return None


def provenance(
    datasets: Sequence[Mapping[str, Any]], query: str, parameters: Mapping[str, Any], service_version: str | None
) -> dict[str, Any]:
    """What `df.attrs` says about a result: the dataset and version read, the query and the service's version."""
    attrs: dict[str, Any] = {
        "query": query,
        "parameters": dict(parameters),
        "datasets": [dict(d) for d in datasets],
        "service_version": service_version,
    }
    if len(datasets) == 1:
        only = datasets[0]
        attrs["dataset"] = only.get("slug")
        attrs["dataset_id"] = only.get("dataset_id")
        attrs["version"] = only.get("version")
    return attrs


def records_frame(items: Sequence[Mapping[str, Any]], index: str | None = None) -> pd.DataFrame:
    frame = pd.DataFrame.from_records(list(items))
    if index is not None and index in frame.columns:
        frame = frame.set_index(index)
    return frame
