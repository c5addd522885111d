"""The package's layers (README, "Architecture"), checked by import-linter.

workloads <- model <- policies <- app: no import runs back up, policies and
workloads never use SimPy, the policy boundary (View, decisions, Policy)
needs no SimPy, and the core packages know nothing of the command line or
plotting. The contracts are in pyproject.toml (``[tool.importlinter]``).

import-linter reads a package from its folder on disk, so the test lints a
copy laid out as pip installs it (`layout.installed_layout`).
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from layout import REPO, installed_layout

LINT = Path(sys.executable).with_name("lint-imports")


def lint(root: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(root)}
    return subprocess.run(
        [str(LINT), "--config", str(REPO / "pyproject.toml"), "--no-cache"],
        cwd=root,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )


@pytest.mark.skipif(not LINT.exists(), reason="import-linter is not installed")
def test_layers_and_contracts_hold(tmp_path: Path) -> None:
    done = lint(installed_layout(tmp_path))
    assert done.returncode == 0, done.stdout + done.stderr
    assert "Contracts: 4 kept, 0 broken" in done.stdout, done.stdout


@pytest.mark.skipif(not LINT.exists(), reason="import-linter is not installed")
def test_an_upward_import_breaks_the_layers(tmp_path: Path) -> None:
    # The contracts can fail: a workloads module that imports the model breaks them.
    root = installed_layout(tmp_path)
    victim = root / "schedsim" / "workloads" / "transforms.py"
    victim.write_text(victim.read_text() + "\nimport schedsim.model.scheduler  # noqa\n")
    done = lint(root)
    assert done.returncode != 0
    assert "schedsim.workloads.transforms -> schedsim.model.scheduler" in done.stdout, done.stdout


def test_no_import_cycle_inside_the_report_package() -> None:
    """No two modules of schedsim.app.report import each other, directly or through
    others (an import under TYPE_CHECKING counts: grimp, as import-linter, sees it)."""
    grimp = pytest.importorskip("grimp")
    graph = grimp.build_graph("schedsim")
    modules = sorted(m for m in graph.modules if m.startswith("schedsim.app.report."))
    assert "schedsim.app.report.study_results" in modules
    cycles = [
        f"{a} <-> {b}"
        for i, a in enumerate(modules)
        for b in modules[i + 1 :]
        if graph.chain_exists(a, b) and graph.chain_exists(b, a)
    ]
    assert cycles == []


def test_the_report_package_keeps_to_what_every_study_uses() -> None:
    """`schedsim.app.report` holds what every study's report uses (reading,
    statistics, plots, console, formats, writing) in under 3,000 lines; run folders side by
    side (`schedsim.app.compare`) and a paper's claims (`schedsim.app.claims`) use it and
    are never imported by it (the papers neither: the layers contract)."""
    grimp = pytest.importorskip("grimp")
    graph = grimp.build_graph("schedsim")
    report = sorted(m for m in graph.modules if m.startswith("schedsim.app.report."))
    for outside in ("schedsim.app.compare", "schedsim.app.claims"):
        assert outside in graph.modules
        assert not any(graph.chain_exists(m, outside) for m in report), outside
    folder = REPO / "schedsim" / "app" / "report"
    lines = sum(len(path.read_text().splitlines()) for path in folder.glob("*.py"))
    assert lines < 3000, f"schedsim/app/report has {lines} lines"
