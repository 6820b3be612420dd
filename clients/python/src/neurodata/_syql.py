"""The SyQL queries behind `neurons()` and `connections()`: every value a parameter, columns named as in the CSVs."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

NEURON_COLUMNS = (
    ("id", "neuron_id"),
    ("name", "name"),
    ("class", "cell_class"),
    ("type", "cell_type"),
    ("neurotransmitter", "neurotransmitter"),
    ("is_neuron", "is_neuron"),
    ("region", "region"),
    ("x", "x"),
    ("y", "y"),
    ("z", "z"),
)


def dataset_reference(name: str, version: str) -> str:
    if '"' in name or "\\" in name or not name.strip():
        raise ValueError(f"dataset: {name!r} is not a dataset slug or id")
    return f'"{name}"@{version}'


def _in_list(values: str | Sequence[str]) -> list[str]:
    return [values] if isinstance(values, str) else list(values)


def neurons(
    name: str,
    version: str,
    names: Sequence[str] | None,
    cell_class: str | Sequence[str] | None,
    cell_type: str | Sequence[str] | None,
    is_neuron: bool | None,
) -> tuple[str, dict[str, Any]]:
    conditions: list[str] = []
    parameters: dict[str, Any] = {}
    for prop, key, value in (
        ("name", "names", names),
        ("class", "cell_class", cell_class),
        ("type", "cell_type", cell_type),
    ):
        if value is not None:
            conditions.append(f"n.{prop} IN ${key}")
            parameters[key] = _in_list(value)
    if is_neuron is not None:
        conditions.append("n.is_neuron = $is_neuron")
        parameters["is_neuron"] = is_neuron
    returned = ", ".join(f"n.{prop} AS {alias}" for prop, alias in NEURON_COLUMNS)
    where = f"\nWHERE {' AND '.join(conditions)}" if conditions else ""
    query = f"MATCH (n:Neuron)\nIN {dataset_reference(name, version)}{where}\nRETURN {returned}\nORDER BY neuron_id"
    return query, parameters


def connections(
    name: str,
    version: str,
    synapse_type: str | None,
    min_weight: float | None,
    pre: Sequence[str] | None,
    post: Sequence[str] | None,
) -> tuple[str, dict[str, Any]]:
    """Rows as stored: a gap junction is matched in both directions, so only the pre <= post one is kept."""
    types = {"chemical": "Chemical", "electrical": "Electrical", None: "Chemical|Electrical"}
    if synapse_type not in types:
        raise ValueError(f"synapse_type: {synapse_type!r} is not chemical, electrical or None (both)")
    conditions: list[str] = []
    parameters: dict[str, Any] = {}
    if synapse_type == "electrical":
        conditions.append("a.id <= b.id")
    elif synapse_type is None:
        conditions.append("(c.type = $chemical OR a.id <= b.id)")
        parameters["chemical"] = "chemical"
    if min_weight is not None:
        conditions.append("c.weight >= $min_weight")
        parameters["min_weight"] = float(min_weight)
    for variable, key, value in (("a", "pre", pre), ("b", "post", post)):
        if value is not None:
            conditions.append(f"{variable}.id IN ${key}")
            parameters[key] = _in_list(value)
    where = f"\nWHERE {' AND '.join(conditions)}" if conditions else ""
    query = (
        f"MATCH (a:Neuron)-[c:{types[synapse_type]}]->(b:Neuron)\nIN {dataset_reference(name, version)}{where}\n"
        "RETURN a.id AS pre, b.id AS post, c.type AS synapse_type, c.weight AS weight\n"
        "ORDER BY pre, post, synapse_type"
    )
    return query, parameters


def pin_versions(query: str, datasets: Sequence[Mapping[str, Any]]) -> str:
    """The query with each `@latest` reference replaced by the version it resolved to."""
    for entry in datasets:
        ref = str(entry.get("ref") or "")
        if ref.endswith("@latest") and not entry.get("is_draft") and entry.get("version") is not None:
            query = query.replace(ref, f"{ref[: -len('latest')]}v{int(entry['version'])}")
    return query
