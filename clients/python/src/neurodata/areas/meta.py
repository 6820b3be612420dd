"""Meta-analysis (`/v1/meta-analysis/...`, docs/meta-analysis.md): pooled effects as R's metafor computes them,
and datasets compared region by region through the brain-region hierarchy."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import pandas as pd

from .._frames import records_frame
from .._routes import route
from ._area import Area
from ._arguments import DatasetRef, PathLike, dataset_name


class MetaAnalysis(Area):
    """`client.meta`: random- and fixed-effects meta-analysis, and the atlas comparison of two datasets."""

    def analysis(
        self,
        /,
        studies: pd.DataFrame | Sequence[Mapping[str, Any]] | None = None,
        *,
        svg: PathLike | None = None,
        **options: Any,
    ) -> dict[str, Any]:
        """Random- or fixed-effects meta-analysis, as R's metafor computes it. `studies` are rows of effect
        sizes (yi, vi), 2x2 counts (ai, bi, ci, di) or group summaries, with a label; or give `datasets` and
        `metric` to pool a metric across datasets. Options: measure, method (REML, DL, ...), knapp_hartung,
        level. `svg=path` saves the forest plot. The answer's `studies` is a DataFrame."""
        body = dict(options)
        if studies is not None:
            rows = studies.to_dict("records") if isinstance(studies, pd.DataFrame) else [dict(s) for s in studies]
            body["studies"] = rows
        if "datasets" in body:
            body["datasets"] = [dataset_name(d) for d in body["datasets"]]
        if svg is not None:
            self._save_svg(*route("meta_analysis"), svg, body=body)
        answer: dict[str, Any] = self._session.json(*route("meta_analysis"), body=body, idempotent=True)
        if isinstance(answer.get("studies"), list):
            answer["studies"] = records_frame(answer["studies"])
        return answer

    def atlas_compare(self, /, dataset: DatasetRef, reference: DatasetRef, **options: Any) -> dict[str, Any]:
        """A dataset compared with a reference dataset region by region through the brain-region hierarchy.
        Options: level (how deep in the hierarchy), version, reference_version."""
        answer: dict[str, Any] = self._session.json(
            *route("atlas_compare"),
            params={"dataset_id": dataset_name(dataset), "reference_id": dataset_name(reference), **options},
        )
        return answer
