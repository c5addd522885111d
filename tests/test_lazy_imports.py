"""Imports made lazy: ``schedsim --help`` and the policy listing load no heavy package.

Each probe runs in a fresh interpreter (this test process has imported
everything already) and prints, as JSON, the heavy modules present after
each step. The tests assert on those names, not on seconds: import time
depends on the machine, what is imported does not.
"""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

#: Third-party packages that cost tenths of a second or more to import.
HEAVY_PACKAGES = {"pandas", "scipy", "numba", "matplotlib", "pyarrow", "dask", "rich"}
#: schedsim's own heavy parts: they import the packages above.
HEAVY_SCHEDSIM = ("schedsim.app.report", "schedsim.app.compare", "schedsim.app.claims",
                  "schedsim.app.study", "schedsim.app.sweep", "schedsim.policies")  # fmt: skip
#: Light modules within them: the report package itself imports its modules on first
#: use, and the papers' names the help quotes are in `quantities`.
LIGHT_SCHEDSIM = ("schedsim.app.report", "schedsim.app.report.quantities")

#: Defines ``heavy()``: the heavy modules imported so far, as a sorted list.
_PRELUDE = f"""
import contextlib, io, json, sys
HEAVY_PACKAGES = {sorted(HEAVY_PACKAGES)!r}
HEAVY_SCHEDSIM = {HEAVY_SCHEDSIM!r}
LIGHT_SCHEDSIM = {LIGHT_SCHEDSIM!r}
def heavy():
    return sorted(
        m for m in sys.modules
        if m.split(".")[0] in HEAVY_PACKAGES
        or (
            any(m == h or m.startswith(h + ".") for h in HEAVY_SCHEDSIM)
            and m not in LIGHT_SCHEDSIM
        )
    )
"""

_HELP = (
    _PRELUDE
    + """
seen = {}
import schedsim
seen["import schedsim"] = heavy()
import schedsim.app.registry
seen["import schedsim.app.registry"] = heavy()
import schedsim.app.cli
seen["import schedsim.app.cli"] = heavy()
for command in ([], ["run"], ["sweep"], ["report"], ["compare"], ["policies"], ["workloads"]):
    with contextlib.redirect_stdout(io.StringIO()):
        try:
            schedsim.app.cli.main([*command, "--help"])
        except SystemExit:
            pass
    seen[" ".join(["schedsim", *command, "--help"])] = heavy()
with contextlib.redirect_stdout(io.StringIO()):
    schedsim.app.cli.main([])  # no command: the help
seen["schedsim"] = heavy()
print(json.dumps(seen))
"""
)


def probe(code: str) -> dict[str, list[str]]:
    """Run ``code`` in a fresh interpreter and read the JSON it prints last."""
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.splitlines()[-1])


def test_the_help_of_every_command_imports_nothing_heavy():
    seen = probe(_HELP)
    assert len(seen) == 11  # every step ran
    assert {step: mods for step, mods in seen.items() if mods} == {}


def test_the_probe_sees_a_heavy_import():
    # The check can fail: it sees a heavy package and a heavy part of schedsim (two
    # cheap ones to import, so that the test stays fast).
    seen = probe(
        _PRELUDE + "import rich.table, schedsim.policies.fcfs\nprint(json.dumps({'r': heavy()}))"
    )
    assert "rich.table" in seen["r"] and "schedsim.policies.fcfs" in seen["r"]


def test_listing_and_building_policies_leaves_numba_until_a_kernel_is_used():
    # The policy modules register on import; their numba kernels load when a policy
    # that uses them runs (here: builds the suspended jobs' board, as SS does).
    seen = probe(
        _PRELUDE
        + """
from schedsim.app import registry
seen = {"names": registry.names()}
for name in seen["names"]:
    registry.make(name)
seen["built every policy"] = [m for m in heavy() if m.split(".")[0] == "numba"]
from schedsim.policies.selective_suspension.board import HomeBoard
HomeBoard(4, "text")
seen["board"] = [m for m in heavy() if m.split(".")[0] == "numba"]
print(json.dumps(seen))
"""
    )
    assert {"ss", "tss", "ss-plain", "easy"} <= set(seen["names"])
    assert seen["built every policy"] == []
    assert "numba" in seen["board"]


def test_the_report_package_imports_its_modules_on_first_use():
    # `from schedsim.app.report import X` still gives the public names, and submodules.
    seen = probe(
        _PRELUDE
        + """
import schedsim.app.report as report
seen = {"package": heavy()}
from schedsim.app.report import load_results, plots
seen["names"] = [load_results.__module__, plots.__name__, str(sorted(dir(report))[:1])]
print(json.dumps(seen))
"""
    )
    assert seen["package"] == []
    assert seen["names"][:2] == [
        "schedsim.app.report.study_results",
        "schedsim.app.report.plots",
    ]


def test_a_run_on_a_log_loads_neither_scipy_nor_numba(tmp_path):
    # scipy serves the generated workloads (Lublin-Feitelson's Gamma weights) and numba
    # SS's kernels: a run of EASY on a shipped log needs neither, and pays 0.2-0.3 s
    # for each it loads.
    seen = probe(
        _PRELUDE
        + f"""
from schedsim.app.cli import main
with contextlib.redirect_stdout(io.StringIO()):
    main(["run", "--workload", "kth", "--policy", "easy", "--out", {str(tmp_path)!r},
          "--no-progress"])
print(json.dumps({{"run": heavy()}}))
"""
    )
    packages = {m.split(".")[0] for m in seen["run"]}
    assert "pandas" in packages  # the probe sees what a run loads
    assert not packages & {"scipy", "numba", "matplotlib", "dask"}


def test_a_run_writing_the_csv_and_swf_files_loads_no_pandas(tmp_path):
    # The job table, the summary, the per-category table, jobs.csv and schedule.swf are
    # made from the run's columns (`schedsim.model.columns`): pandas and the pyarrow it
    # loads cost a run a third of a second. Its Parquet files load pandas (above).
    seen = probe(
        _PRELUDE
        + f"""
from schedsim.app.cli import main
with contextlib.redirect_stdout(io.StringIO()):
    main(["run", "--workload", "kth", "--first", "2000", "--policy", "easy",
          "--only", "jobs.csv,schedule.swf", "--out", {str(tmp_path)!r}, "--no-progress"])
random = sorted(m for m in ("numpy.random", "secrets") if m in sys.modules)
print(json.dumps({{"run": heavy(), "random": random}}))
"""
    )
    packages = {m.split(".")[0] for m in seen["run"]}
    assert "rich" in packages  # the probe sees what a run loads
    assert "pandas" not in packages
    # A replay draws nothing: numpy.random (and the secrets it loads) stays out.
    assert seen["random"] == []
    # The SWF reader calls Arrow's kernels by name, without pyarrow.compute's wrappers.
    assert "pyarrow.lib" in seen["run"] and "pyarrow.compute" not in seen["run"]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["jobs.csv", "schedule.swf"]


@pytest.mark.parametrize(
    ("policy", "module", "jobs"),
    [
        # Conservative's compression goes compiled only once its walks in Python have cost
        # about what loading numba would (`conservative.PYTHON_BUDGET`): not in 2,000 jobs.
        ("conservative", "schedsim.policies.planning.conservative", 2000),
        # CREASY's pass, only after `creasy.PYTHON_BUDGET` passes in a process.
        ("creasy", "schedsim.policies.creasy.policy", 3000),
    ],
)
def test_a_short_run_of_a_policy_that_compiles_late_leaves_numba_unloaded(
    tmp_path, policy, module, jobs
):
    seen = probe(
        _PRELUDE
        + f"""
import importlib
from schedsim.app.cli import main
budgeted = importlib.import_module({module!r})
with contextlib.redirect_stdout(io.StringIO()):
    main(["run", "--workload", "kth", "--first", "{jobs}", "--policy", {policy!r},
          "--out", {str(tmp_path)!r}, "--no-progress"])
assert 0 < budgeted._spent < budgeted.PYTHON_BUDGET, budgeted._spent
print(json.dumps({{"run": heavy()}}))
"""
    )
    assert "numba" not in {m.split(".")[0] for m in seen["run"]}
