"""mypy on every package of schedsim, as installed: the core (workloads, model,
policies), the application layer (app) and the papers.

mypy reads packages from their folders, so it checks a copy laid out as pip
installs it (`layout.installed_layout`), with pyproject.toml's settings.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from layout import REPO, installed_layout

MYPY = Path(sys.executable).with_name("mypy")


@pytest.mark.skipif(not MYPY.exists(), reason="mypy is not installed")
def test_every_package_type_checks(tmp_path: Path) -> None:
    root = installed_layout(tmp_path / "src")
    cache = Path(os.environ.get("MYPY_CACHE_DIR", REPO / ".mypy_cache"))
    done = subprocess.run(
        [
            str(MYPY), "--config-file", str(REPO / "pyproject.toml"), "--cache-dir", str(cache),
            "-p", "schedsim.workloads", "-p", "schedsim.model", "-p", "schedsim.policies",
            "-p", "schedsim.app", "-p", "schedsim.papers",
        ],
        cwd=root,
        env={**os.environ, "PYTHONPATH": str(root)},
        capture_output=True,
        text=True,
        timeout=600,
    )  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr
