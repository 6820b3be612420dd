"""Analytics of datasets (`/v1/analytics/...`, docs/analytics.md, docs/morphometrics.md): degree distributions,
summaries, z-scores against reference datasets and the morphometrics of SWC files."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pandas as pd

from .._frames import records_frame
from .._routes import path as route_path
from .._routes import route
from ._area import Area, dataset_path
from ._arguments import DatasetRef, PathLike, dataset_name, scalars, split_reference, version_param


class Analytics(Area):
    """`client.analytics`: descriptive statistics of a dataset version, as tables."""

    def degree_distribution(
        self, /, dataset: DatasetRef, *, svg: PathLike | None = None, **options: Any
    ) -> dict[str, pd.DataFrame]:
        """In-, out- and total degree histograms as DataFrames (degree, count); `svg=path` saves the plot."""
        params = dict(options)
        path = dataset_path("degree_distribution", dataset, params)
        if svg is not None:
            self._save_svg("GET", path, svg, params=params)
        answer = self._session.json("GET", path, params=params)
        frames: dict[str, pd.DataFrame] = {}
        for key in ("in", "out", "total"):
            part = answer.get(key)
            if isinstance(part, dict) and "bins" in part:
                frames[key] = records_frame(part["bins"])
        return frames

    def summary(self, dataset: DatasetRef, version: str | int = "latest") -> dict[str, Any]:
        """A dataset's summary: cells by class and type, connections, weights."""
        name, version = split_reference(dataset, version)
        answer: dict[str, Any] = self._session.json(
            *route("summary"), params={"dataset_id": name, "version": version_param(version)}
        )
        return answer

    def zscore_comparison(
        self, dataset: DatasetRef, reference: Sequence[DatasetRef], metrics: Sequence[str] | None = None
    ) -> pd.DataFrame:
        """The dataset's summary metrics as z-scores against reference datasets, one row per metric."""
        answer = self._session.json(
            *route("zscore_comparison"),
            params={
                "dataset_id": dataset_name(dataset),
                "reference": ",".join(dataset_name(d) for d in reference),
                "metrics": ",".join(metrics) if metrics else None,
            },
        )
        return records_frame(answer.get("rows") or [], index="metric")

    def morphometrics(
        self, /, dataset: DatasetRef, neuron: str | None = None, *, version: str | int = "latest", **options: Any
    ) -> pd.DataFrame:
        """Morphometrics of every SWC file of a dataset (or of one neuron's): one row per file with its scalar
        measures (n_tips, total_length, strahler_order, ...); the full answer per file is in `attrs["files"]`."""
        name, version = split_reference(dataset, version)
        params = {"dataset_id": name, "version": version_param(version), "neuron": neuron, **options}
        files = list(self._session.pages(route_path("morphometrics"), params, items="files", total="total_files"))
        rows = [
            {
                "file": f.get("file"),
                "neuron": f.get("neuron"),
                "error": f.get("error"),
                **scalars(f.get("morphometrics") or {}),
            }
            for f in files
        ]
        frame = records_frame(rows, index="file")
        frame.attrs["files"] = files
        return frame
