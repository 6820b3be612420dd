"""The README examples run as written, as a newcomer pastes them into Python."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from .conftest import REPO, Service

EXAMPLES = {
    "README.md": (REPO / "README.md", "## From Python"),
    "clients/python/README.md": (REPO / "clients" / "python" / "README.md", "# neurodata-client"),
}


def _first_python_block(path: Path, heading: str) -> str:
    text = path.read_text()
    start = text.index("```python", text.index(heading)) + len("```python")
    return text[start : text.index("```", start)]


@pytest.mark.parametrize("name", sorted(EXAMPLES))
def test_example_runs(name: str, service: Service, write_token: str, tmp_path: Path) -> None:
    code = _first_python_block(*EXAMPLES[name])
    env = {**os.environ, "NEURODATA_URL": service.url, "NEURODATA_TOKEN": write_token}
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stderr
