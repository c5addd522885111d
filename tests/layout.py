"""The package laid out on disk as pip installs it, for tools that read folders, not imports.

In this checkout ``schedsim.model``, ``schedsim.policies`` and
``schedsim.workloads`` live in the top-level folders model/, policies/ and
workloads/ (pyproject.toml maps them), which an editable install resolves
at import time. import-linter and mypy read packages from their folders
instead, so `installed_layout` copies the sources into a temporary
``schedsim/`` holding ``model/``, ``papers/``, ``policies/``, ``workloads/`` and ``app/``.
A helper module for the test files, not a test file itself.
"""

from __future__ import annotations

import shutil
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
#: Folders installed under ``schedsim.`` beside the ``schedsim/`` folder itself.
MAPPED = ("model", "papers", "policies", "workloads")


def installed_layout(root: Path) -> Path:
    """Copy the package's Python sources into ``root/schedsim/`` as pip installs them."""
    ignore = shutil.ignore_patterns("__pycache__", "*.gz", "*.nbi", "*.nbc")
    package = root / "schedsim"
    shutil.copytree(REPO / "schedsim", package, ignore=ignore)
    for folder in MAPPED:
        shutil.copytree(REPO / folder, package / folder, ignore=ignore)
    return root
