"""The Python examples of the README and the documentation's guides run as written."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from schedsim import Simulation
from schedsim.model import policy as base
from schedsim.workloads.catalog import load
from schedsim.workloads.transforms import first

ROOT = Path(__file__).resolve().parent.parent
#: Where the examples are: the README, the guides and design pages, each paper's page.
PAGES = [
    ROOT / "README.md",
    *sorted((ROOT / "docs" / "guide").glob("*.md")),
    *sorted((ROOT / "docs" / "design").glob("*.md")),
    *sorted((ROOT / "papers").glob("*/README.md")),
]


def python_blocks() -> list[str]:
    return [
        block
        for page in PAGES
        for block in re.findall(r"```python\n(.*?)```", page.read_text(), flags=re.DOTALL)
    ]


def test_readme_has_the_tour_and_the_policy_example():
    blocks = re.findall(r"```python\n(.*?)```", PAGES[0].read_text(), flags=re.DOTALL)
    assert any("compare(" in b for b in blocks)
    assert any('@register("sjf")' in b for b in blocks)


def test_tour_runs(capsys):
    tour = next(b for b in python_blocks() if "compare(" in b)
    exec(compile(tour, "README.md (tour)", "exec"), {})
    assert "VS Seq" in capsys.readouterr().out


def test_added_policy_registers_and_runs(monkeypatch):
    # Registered for this test only, so other tests never see "sjf".
    monkeypatch.setitem(base.REGISTRY, "sjf", None)
    del base.REGISTRY["sjf"]
    code = next(b for b in python_blocks() if '@register("sjf")' in b)
    namespace: dict = {}
    exec(compile(code, "README.md (sjf)", "exec"), namespace)
    assert "sjf" in base.REGISTRY
    kth = first(load("kth"), 300)
    for by in ("estimate", "size"):
        result = Simulation(kth, "sjf", params={"by": by}).run()
        assert len(result.jobs) == 300 and result.meta["policy_params"] == {"by": by}
    with pytest.raises(ValueError, match="expected one of"):
        Simulation(kth, "sjf", params={"by": "color"})


def test_study_example_runs(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    code = next(b for b in python_blocks() if "sweep(study" in b)
    namespace: dict = {}
    exec(compile(code, "README.md (study)", "exec"), namespace)
    results = namespace["results"]
    assert results.counts["done"] == 4
    assert (tmp_path / "results" / "easy-vs-conservative" / "study.json").is_file()


def test_closed_loop_example_runs():
    code = next(b for b in python_blocks() if "queue_by_time_of_day" in b)
    namespace: dict = {}
    exec(compile(code, "README.md (closed loop)", "exec"), namespace)
    assert namespace["r"].meta["users"] == 250


def test_watching_a_run_example_runs(capsys):
    code = next(b for b in python_blocks() if "sim.step()" in b)
    namespace: dict = {}
    exec(compile(code, "README.md (watching a run)", "exec"), namespace)
    result = namespace["result"]
    assert len(result.jobs) > 0 and result.decisions is not None
    assert namespace["part"].partial and "jobs still in the system" in capsys.readouterr().out


def test_schedule_view_example_runs(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    code = next(b for b in python_blocks() if "schedule_figure" in b)
    exec(compile(code, "README.md (schedule view)", "exec"), {})
    assert (tmp_path / "schedule.png").read_bytes()[:4] == b"\x89PNG"
