"""The catalogue's search (`/v1/search/...`): published datasets by text and facets, one page at a time."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import pandas as pd

from .._frames import records_frame
from .._routes import route
from ._area import Area
from ._arguments import listed


@dataclass
class SearchResults:
    """One page of search hits (`hits`, one row per dataset) with the facets of every match beside them."""

    hits: pd.DataFrame
    facets: dict[str, pd.DataFrame]
    total: int
    corrected_query: str | None = None
    interpreted: list[Any] = field(default_factory=list)

    def __len__(self) -> int:
        return len(self.hits)


class Catalogue(Area):
    """`client.catalogue`: search the published datasets (public, no token needed)."""

    def search(
        self,
        q: str | None = None,
        *,
        species: str | Sequence[str] | None = None,
        brain_region: str | Sequence[str] | None = None,
        microscopy: str | Sequence[str] | None = None,
        neurotransmitter: str | Sequence[str] | None = None,
        license: str | Sequence[str] | None = None,
        year: int | str | None = None,
        visibility: str | None = None,
        federation: bool = False,
        limit: int = 20,
        offset: int = 0,
    ) -> SearchResults:
        """Search the published datasets (public, no token needed). Filters take ontology codes or labels
        (`species="worm"`); `year` is 2019 or a range "2015-2020"; `federation=True` searches every cluster."""
        answer = self._session.json(
            *route("search"),
            params={
                "q": q,
                "species": listed(species),
                "brain_region": listed(brain_region),
                "microscopy": listed(microscopy),
                "neurotransmitter": listed(neurotransmitter),
                "license": listed(license),
                "year": year,
                "visibility": visibility,
                "scope": "federation" if federation else None,
                "limit": limit,
                "offset": offset,
            },
        )
        hits = records_frame([_hit(item) for item in answer.get("items", [])])
        facets = {name: records_frame(values, index="value") for name, values in (answer.get("facets") or {}).items()}
        hits.attrs.update({"query": q, "total": answer.get("total")})
        return SearchResults(
            hits=hits,
            facets=facets,
            total=int(answer.get("total") or 0),
            corrected_query=answer.get("corrected_query"),
            interpreted=list(answer.get("interpreted") or []),
        )


def _hit(item: dict[str, Any]) -> dict[str, Any]:
    """One row of `hits`: the terms by label, the cluster by name."""
    return {
        "slug": item.get("slug"),
        "title": item.get("title"),
        "version": item.get("version"),
        "year": item.get("year"),
        "license": item.get("license"),
        "visibility": item.get("visibility"),
        "species": [t.get("label") for t in item.get("species") or []],
        "brain_regions": [t.get("label") for t in item.get("brain_regions") or []],
        "score": item.get("score"),
        "cluster": (item.get("cluster") or {}).get("name"),
        "dataset_id": item.get("dataset_id"),
        "url": item.get("url"),
    }
