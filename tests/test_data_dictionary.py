"""docs/guide/files.md, the data dictionary: every column and key a run writes, with a unit.

Real runs (an open-loop multiqueue run with priorities, reservations and the
decision and reservation logs; a closed-loop run with a memory overhead; a log
with SWF queues; the multi-core policies, with their own columns and tables; a
tiny sweep) are checked against the page's tables: a column or key added later
without a row on the page fails here. Where `schedsim.app.report.quantities`
gives a unit (`JOB_UNITS`, `SUMMARY_UNITS`), the page gives the same one.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from schedsim.app.batsim import COLUMNS as BATSIM_COLUMNS
from schedsim.app.report.quantities import JOB_UNITS, SUMMARY_UNITS
from schedsim.app.study import RunConfig, Study
from schedsim.model.results import Result

PAGE = Path(__file__).resolve().parent.parent / "docs" / "guide" / "files.md"
_NAME = re.compile(r"`([^`]+)`")


def read_page(text: str) -> dict[str, dict[str, str]]:
    """Heading -> {name: unit} of the table rows under it. A ``###`` section's rows
    count for it and for the ``##`` section above it; a first cell may name several
    keys (`` `id`, `label` ``), each gets the row's unit."""
    sections: dict[str, dict[str, str]] = {}
    h2 = h3 = None
    for line in text.splitlines():
        if line.startswith("## "):
            h2, h3 = line[3:], None
            continue
        if line.startswith("### "):
            h3 = line[4:]
            continue
        if not line.startswith("|") or line.startswith("|---") or h2 is None:
            continue
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) < 3 or cells[1] == "unit":
            continue  # a header row
        for name in _NAME.findall(cells[0]):
            for heading in (h2, h3):
                if heading is not None:
                    sections.setdefault(heading, {})[name] = cells[1]
    return sections


SECTIONS = read_page(PAGE.read_text(encoding="utf-8"))


def documented(file: str, level3: bool = False) -> dict[str, str]:
    """The rows of the section whose heading names ``file`` (in backticks)."""
    found = [rows for heading, rows in SECTIONS.items() if f"`{file}`" in heading]
    assert found, f"docs/guide/files.md has no section on {file}"
    return found[-1] if level3 else found[0]


def check(file: str, names, level3: bool = False) -> None:
    rows = documented(file, level3)
    missing = [n for n in names if n not in rows]
    assert not missing, f"{file}: not in docs/guide/files.md: {missing}"
    no_unit = [n for n in names if not rows[n]]
    assert not no_unit, f"{file}: no unit in docs/guide/files.md: {no_unit}"


@pytest.fixture(scope="module")
def runs() -> dict[str, Result]:
    return {
        "multiqueue": RunConfig(
            workload="kth", first=300, policy="multiqueue", priorities=0.75, reservations=0.05,
            log_decisions=True, log_reservations=True,
        ).simulation().run(),
        "trials": RunConfig(
            workload="kth", first=300, policy="multiqueue", params={"trial": "scheduled"}
        ).simulation().run(),
        "closed": RunConfig(
            workload="kth", policy="ss", users=8, days=1, overhead="memory", seed=2
        ).simulation().run(),
        "queues": RunConfig(workload="sdsc-par", first=200, policy="easy").simulation().run(),
        "memory": RunConfig(
            workload="kth", first=300, policy="easy", large_memory=0.2,
            large_memory_partition="bigmem", machine={
                "group": [{"name": "thin", "nodes": 90, "memory": "1G"},
                          {"name": "fat", "nodes": 10, "memory": "8G"}],
                "partition": [{"name": "batch", "groups": ["thin", "fat"], "default": True},
                              {"name": "bigmem", "groups": ["fat"]}],
            },
        ).simulation().run(),
        "glts": RunConfig(
            workload="zeng-w1", jobs=60, contention="statistical", policy="glts",
            kill_at_estimate=False,
        ).simulation().run(),
        "scojo": RunConfig(
            workload="zeng-w1", jobs=60, contention="statistical", policy="scojo",
            params={"inner": "glts"}, kill_at_estimate=False,
        ).simulation().run(),
    }  # fmt: skip


def test_the_page_is_in_the_documentation_and_has_tables() -> None:
    index = (PAGE.parent.parent / "index.md").read_text(encoding="utf-8")
    assert "guide/command-line\nguide/files\n" in index  # in the toctree, near the CLI's
    assert len(documented("jobs.parquet")) > 40


def test_every_job_column_is_documented(runs) -> None:
    columns = {c for r in runs.values() for c in r.jobs.columns}
    # The attributes and the closed loop's column are among them.
    assert {"priority", "reservation", "session", "memory_mb", "queue", "group",
            "memory_per_core_mb"} <= columns  # fmt: skip
    check("jobs.parquet", sorted(columns))
    assert documented("jobs.csv") is documented("jobs.parquet")  # one section, one table


def test_the_job_units_agree_with_the_reports() -> None:
    rows = documented("jobs.parquet")
    for column, unit in JOB_UNITS.items():
        assert rows[column] == unit, (column, rows[column], unit)


def test_every_table_column_is_documented(runs) -> None:
    for name in ("series", "pieces", "decisions", "reservations", "sessions"):
        tables = [getattr(r, name) for r in runs.values() if getattr(r, name) is not None]
        assert tables, name
        check(f"{name}.parquet", sorted({c for t in tables for c in t.columns}))


def test_every_policy_table_is_documented(runs) -> None:
    tables: dict[str, set[str]] = {}
    for r in runs.values():
        for name, table in r.tables.items():
            tables.setdefault(name, set()).update(table.columns)
    assert set(tables) == {"partitions", "groups", "matchmaking", "slices"}
    for name, columns in tables.items():
        check(f"policy-{name}.parquet", sorted(columns), level3=True)


def test_every_summary_and_meta_key_is_documented(runs) -> None:
    keys = {k for r in runs.values() for k in r.summary()}
    rows = documented("summary.json")
    check("summary.json", sorted(keys))
    # Every key the reports know a unit for (the study's runs.csv wall_time aside), with it.
    for key, unit in SUMMARY_UNITS.items():
        if key != "wall_time":
            assert rows.get(key) == unit, (key, rows.get(key), unit)
    meta = {k for r in runs.values() for k in r.meta}
    check("summary.json", sorted(meta))


def test_a_written_summary_json_has_no_other_keys(runs, tmp_path) -> None:
    out = runs["closed"].save(tmp_path / "run")
    doc = json.loads((out / "summary.json").read_text())
    assert set(doc) == {"summary", "meta"}
    check("summary.json", sorted({*doc["summary"], *doc["meta"]}))


def test_every_batsim_column_is_documented() -> None:
    check("batsim_jobs.csv", list(BATSIM_COLUMNS))


def test_a_sweeps_files_are_documented(tmp_path) -> None:
    from schedsim.app.sweep import RunOutcome, _document, _store, sweep

    study = Study(
        name="tiny",
        base={"workload": "kth", "first": 30},
        grid={"policy": ["fcfs", "easy"]},
    )
    sweep(study, tmp_path, workers=0, progress=False)
    doc = json.loads((tmp_path / "study.json").read_text())
    check("study.json", sorted(doc), level3=True)
    run_dir = next((tmp_path / "runs").iterdir())
    config = json.loads((run_dir / "config.json").read_text())
    check("runs/<id>/config.json", sorted(config), level3=True)
    # A run that raised leaves failures/<id>.json.
    run = study.runs()[0]
    _store(tmp_path, run, RunOutcome(run.id, error="ValueError: no", traceback="..."))
    failure = json.loads((tmp_path / "failures" / f"{run.id}.json").read_text())
    assert set(_document(run)) <= set(failure)
    check("failures/<id>.json", sorted(failure), level3=True)


def test_the_reader_of_the_page() -> None:
    text = "## `a.csv`: x\n\n| column | unit | meaning |\n|---|---|---|\n| `x`, `y` | s | ... |\n"
    text += "### `b.parquet`\n\n| column | unit | meaning |\n|---|---|---|\n| `z` | jobs | ... |\n"
    assert read_page(text) == {
        "`a.csv`: x": {"x": "s", "y": "s", "z": "jobs"},
        "`b.parquet`": {"z": "jobs"},
    }
