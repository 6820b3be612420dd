"""The example notebook runs from start to end against the service, as a researcher would run it."""

from __future__ import annotations

from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient

from .conftest import REPO, Service

NOTEBOOKS = sorted((REPO / "docs" / "notebooks").glob("*.ipynb"))


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.name for p in NOTEBOOKS])
def test_notebook_runs_without_errors(
    path: Path, service: Service, write_token: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("NEURODATA_URL", service.url)
    monkeypatch.setenv("NEURODATA_TOKEN", write_token)
    notebook = nbformat.read(path, as_version=4)  # type: ignore[no-untyped-call]
    NotebookClient(
        notebook, timeout=300, kernel_name="python3", resources={"metadata": {"path": str(tmp_path)}}
    ).execute()
    outputs = [o for cell in notebook.cells if cell.cell_type == "code" for o in cell.get("outputs", [])]
    assert not [o for o in outputs if o.get("output_type") == "error"]
    assert (tmp_path / "degrees.svg").read_text().count("<svg") >= 1
