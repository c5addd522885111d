"""`schedsim compare` and `schedsim report` on run folders: printed columns and CSV values
checked against `Result.summary` and `schedsim.model.results.compare` computed directly."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pandas as pd
import pytest

import schedsim
from schedsim.app.cli import main
from schedsim.app.report.formats import format_value, significant
from schedsim.model.categories import CATEGORIES, CATEGORIES4
from schedsim.model.results import Result, compare
from schedsim.workloads.transforms import first

POLICIES = ("easy", "conservative")


@pytest.fixture(scope="module")
def folders(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """Two run folders, as `schedsim run --out` writes them: policy -> folder."""
    root = tmp_path_factory.mktemp("runs")
    kth = first(schedsim.load("kth"), 300)
    out = {}
    for policy in POLICIES:
        out[policy] = root / f"kth-{policy}"
        schedsim.Simulation(kth, policy, seed=1).run().save(out[policy])
    return out


@pytest.fixture(scope="module")
def results(folders: dict[str, Path]) -> dict[str, Result]:
    return {policy: Result.load(path) for policy, path in folders.items()}


def run(capsys: pytest.CaptureFixture[str], *argv: str | Path) -> tuple[int, str, str]:
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def rows(text: str) -> dict[str, list[str]]:
    """The body rows of the rich tables printed: first cell -> the other cells."""
    table: dict[str, list[str]] = {}
    for line in text.splitlines():
        cells = [c.strip() for c in line.split("│")[1:-1]]
        if cells and cells[0]:
            table.setdefault(cells[0], cells[1:])
    return table


def number(cell: str) -> float:
    return float("nan") if cell == "-" else float(cell.replace(",", ""))


def words(text: str) -> str:
    """``text`` with every run of white space as one space (rich wraps long titles)."""
    return " ".join(text.split())


def header(text: str) -> list[str]:
    """The column names of the first table printed."""
    line = next(line for line in text.splitlines() if line.startswith("┃"))
    return [c.strip() for c in line.split("┃")[1:-1]]


def test_compare_prints_summary_and_categories_side_by_side(folders, results, capsys):
    code, text, err = run(capsys, "compare", folders["easy"], folders["conservative"])
    assert code == 0 and err == ""
    # One column per run, named by its policy (the policies differ).
    assert header(text) == ["metric", "unit", "easy", "conservative"]
    table = rows(text)
    summaries = {p: results[p].summary() for p in POLICIES}
    for metric in summaries["easy"]:
        _unit, *cells = table[metric]
        assert len(cells) == 2, metric
        for policy, cell in zip(POLICIES, cells, strict=True):
            want = summaries[policy][metric]
            # the one format of the quantity, and the number summary.json holds (a
            # utilization as a fraction, to 3 decimals: never scaled to a percentage)
            assert cell == format_value(want, metric), metric
            close = 5e-4 if metric == "utilization" else 0.5
            assert number(cell) == pytest.approx(want, rel=5e-3, abs=close), metric
    assert table["mean_wait"][0] == "s" and table["makespan"][0] == "s"
    assert table["mean_turnaround"][0] == "s" and table["utilization"][0] == "fraction"
    assert table["throughput_per_day"][0] == "jobs/day" and table["jobs"][0] == "jobs"
    assert table["mean_bounded_slowdown"][0] == "ratio"
    # One format per quantity: whole seconds, 3 significant digits for slowdowns.
    assert all("." not in c for c in table["mean_wait"][1:])
    assert table["mean_bounded_slowdown"][1:] == [
        significant(summaries[p]["mean_bounded_slowdown"]) for p in POLICIES
    ]

    expected = compare(results, "bounded_slowdown", "mean")
    for category in [*CATEGORIES, "all"]:
        cells = table[category]
        assert len(cells) == 2, category
        for policy, cell in zip(POLICIES, cells, strict=True):
            want = expected.loc[category, policy]
            if pd.isna(want):
                assert cell == "-"
            else:
                assert cell == significant(want)
                assert number(cell) == pytest.approx(want, rel=5e-3)
    assert "mean bounded_slowdown (ratio)" in words(text)
    assert "Kettimuthu 2003, selective preemption, Table 2.1" in text


def test_compare_out_writes_both_tables(folders, results, tmp_path, capsys):
    out = tmp_path / "cmp"
    code, text, _ = run(
        capsys,
        "compare",
        folders["easy"],
        folders["conservative"],
        "--metric",
        "wait",
        "--stat",
        "max",
        "--scheme",
        "4",
        "--estimate",
        "poor",
        "--warmup",
        "10",
        "--cooldown",
        "0.1",
        "--out",
        out,
    )
    assert code == 0
    assert sorted(p.name for p in out.iterdir()) == [
        "compare-categories.csv",
        "compare-summary.csv",
    ]
    summary = pd.read_csv(out / "compare-summary.csv", index_col="metric")
    assert summary.columns.tolist() == ["unit", "easy", "conservative"]
    for policy in POLICIES:
        want = results[policy].summary(warmup=10, cooldown=0.1)
        assert summary.index.tolist() == list(want)
        for metric, value in want.items():
            assert summary.loc[metric, policy] == pytest.approx(value, rel=1e-12), metric
    assert summary.loc["mean_wait", "unit"] == "s"

    categories = pd.read_csv(out / "compare-categories.csv", index_col="category")
    expected = compare(results, "wait", "max", "4", "poor", warmup=10, cooldown=0.1)
    assert categories.index.tolist() == [*CATEGORIES4, "all"]
    # each run's column carries the unit of the values
    assert categories.columns.tolist() == ["easy (s)", "conservative (s)"]
    categories.columns = expected.columns
    pd.testing.assert_frame_equal(
        categories, expected, check_names=False, check_exact=False, rtol=1e-12
    )
    assert "max wait (s), poor-estimated jobs" in words(text)
    assert "Table 4.1" in text and "warmup 10" in text and "compare-summary.csv" in text


def test_runs_of_one_policy_are_named_by_their_folders(folders, tmp_path, capsys):
    twin = tmp_path / "easy-again"
    shutil.copytree(folders["easy"], twin)
    code, text, _ = run(capsys, "compare", folders["easy"], twin, "--out", tmp_path / "o")
    assert code == 0
    assert header(text) == ["metric", "unit", "kth-easy", "easy-again"]
    summary = pd.read_csv(tmp_path / "o" / "compare-summary.csv", index_col="metric")
    assert (summary["kth-easy"] == summary["easy-again"]).all()


@pytest.mark.parametrize("what", ["empty", "missing", "no-series", "bad-json"])
def test_not_a_run_folder_is_one_line(folders, tmp_path, capsys, what):
    bad = tmp_path / "bad"
    if what != "missing":
        bad.mkdir()
    if what in ("no-series", "bad-json"):
        for name in ("summary.json", "jobs.parquet"):
            shutil.copy(folders["easy"] / name, bad / name)
    if what == "bad-json":
        shutil.copy(folders["easy"] / "series.parquet", bad / "series.parquet")
        (bad / "summary.json").write_text('{"summ')
    code, text, err = run(capsys, "compare", folders["easy"], bad)
    assert code == 2 and text == ""
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err
    assert err.startswith(f"schedsim: error: {bad}: ")
    missing = {
        "empty": "summary.json",
        "missing": "no such folder",
        "no-series": "series.parquet",
        "bad-json": "summary.json",
    }[what]
    assert missing in err


def test_bad_options_are_one_line(folders, capsys):
    for option, value, message in (
        ("--metric", "colour", "colour"),
        ("--stat", "nonsense", "nonsense"),
        ("--warmup", "300", "exclude all"),
    ):
        code, _, err = run(capsys, "compare", folders["easy"], option, value)
        assert code == 2 and len(err.strip().splitlines()) == 1 and message in err, option


def test_report_on_run_folders(folders, results, tmp_path, capsys):
    # Several folders: the tables and the bar chart go into --out.
    out = tmp_path / "rep"
    code, text, _ = run(
        capsys,
        "report",
        folders["easy"],
        folders["conservative"],
        "--metric",
        "mean_wait",
        "--metric",
        "utilization",
        "--out",
        out,
    )
    assert code == 0
    assert header(text) == ["metric", "unit", "easy", "conservative"]
    assert sorted(p.name for p in out.iterdir()) == [
        "compare-categories.csv",
        "compare-categories.png",
        "compare-summary.csv",
    ]
    summary = pd.read_csv(out / "compare-summary.csv", index_col="metric")
    assert summary.index.tolist() == ["mean_wait", "utilization"]
    for policy in POLICIES:
        want = results[policy].summary()
        assert summary.loc["mean_wait", policy] == pytest.approx(want["mean_wait"], rel=1e-12)
    categories = pd.read_csv(out / "compare-categories.csv", index_col="category")
    assert categories.columns.tolist() == ["easy (ratio)", "conservative (ratio)"]
    categories.columns = list(POLICIES)
    pd.testing.assert_frame_equal(
        categories, compare(results), check_names=False, check_exact=False, rtol=1e-12
    )

    # The same as compare prints, and the options compare takes.
    code, compared, _ = run(capsys, "compare", folders["easy"], folders["conservative"])
    code, reported, _ = run(capsys, "report", folders["easy"], folders["conservative"])
    assert rows(reported) == rows(compared)
    parent = folders["easy"].parent / "report"  # several folders: beside the first
    assert (parent / "compare-categories.png").is_file()
    code, text, _ = run(capsys, "report", folders["easy"], "--category-metric", "turnaround")
    assert code == 0 and "mean turnaround (s)" in words(text)
    assert (folders["easy"] / "report" / "compare-summary.csv").is_file()  # one: DIR/report


def test_report_options_of_the_other_kind_are_refused(folders, tmp_path, capsys):
    code, _, err = run(capsys, "report", folders["easy"], "--baseline", "easy")
    assert code == 2 and "--baseline" in err and len(err.strip().splitlines()) == 1
    study = tmp_path / "study"
    study.mkdir()
    (study / "study.json").write_text(json.dumps({"name": "s", "runs": []}))
    code, _, err = run(capsys, "report", study, "--stat", "max")
    assert code == 2 and "--stat" in err
    code, _, err = run(capsys, "report", study, folders["easy"])
    assert code == 2 and f"{study}: a study directory is reported alone" in err
    code, _, err = run(capsys, "report", tmp_path)
    assert code == 2 and "study.json" in err and "summary.json" in err
