"""The README examples run as written, as a newcomer pastes them into Python."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

import neurodata

from .conftest import REPO, Account, Service


def _python_blocks(path: Path, heading: str) -> list[str]:
    """The ```python blocks of one section (from its heading to the next heading of the same level)."""
    text = path.read_text()
    start = text.index(heading)
    level = heading.split(" ")[0]
    end = text.find(f"\n{level} ", start + len(heading))
    section = text[start : end if end >= 0 else len(text)]
    blocks = []
    at = section.find("```python")
    while at >= 0:
        body = at + len("```python")
        close = section.index("```", body)
        blocks.append(section[body:close])
        at = section.find("```python", close + 3)
    return blocks


def _run(code: str, service: Service, token: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "NEURODATA_URL": service.url, "NEURODATA_TOKEN": token}
    return subprocess.run([sys.executable, "-c", code], cwd=cwd, env=env, capture_output=True, text=True, timeout=300)


def test_readme_from_python_reads_with_a_default_read_token(
    service: Service, service_account: Account, tmp_path: Path
) -> None:
    """The first block: search, every neuron and connection, a networkx graph, with a token of the default scope."""
    first = _python_blocks(REPO / "README.md", "## From Python")[0]
    done = _run(first, service, service_account.api_token(service.url, "read"), tmp_path)
    assert done.returncode == 0, done.stderr
    assert "celegans_cook_2019_male" in done.stdout


def test_readme_from_python_computes_with_a_compute_token(
    service: Service, service_account: Account, tmp_path: Path
) -> None:
    """Both blocks in order, as in a notebook: the SyQL job and the plot need the compute scope."""
    blocks = _python_blocks(REPO / "README.md", "## From Python")
    assert len(blocks) == 2
    done = _run("\n".join(blocks), service, service_account.api_token(service.url, "compute"), tmp_path)
    assert done.returncode == 0, done.stderr
    assert "<svg" in (tmp_path / "degrees.svg").read_text()


def test_client_readme_example_runs(service: Service, write_token: str, tmp_path: Path) -> None:
    code = _python_blocks(REPO / "clients" / "python" / "README.md", "# neurodata-client")[0]
    done = _run(code, service, write_token, tmp_path)
    assert done.returncode == 0, done.stderr


@pytest.mark.parametrize("method", ["neurons", "connections"])
def test_a_read_token_reads_every_row(service: Service, service_account: Account, method: str) -> None:
    with neurodata.Client(service.url, service_account.api_token(service.url, "read"), progress=False) as reader:
        frame = getattr(reader.dataset("celegans_cook_2019_male"), method)()
    assert len(frame) > 0
    assert frame.attrs["version"] == 1
