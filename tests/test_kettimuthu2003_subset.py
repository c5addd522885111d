"""The search for Kettimuthu 2003's CTC subset (schedsim.papers.kettimuthu2003.subset):
the thesis's tables as data, the distances and the score by hand, and the report of a
study directory written by hand (hand-made jobs whose categories and slowdowns are known)."""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pytest
from category_jobs import category_jobs
from test_report import run, write_study

from schedsim.app.report import load_results
from schedsim.model.categories import CATEGORIES, CATEGORIES4
from schedsim.model.results import Result
from schedsim.papers.kettimuthu2003 import subset
from schedsim.papers.kettimuthu2003 import thesis as tables

# --------------------------------------------------------------------------- #
# The thesis's tables
# --------------------------------------------------------------------------- #


def _fold(shares: tuple[float, ...]) -> list[float]:
    """16 shares (`CATEGORIES` order) summed into Table 4.1's 4 (`CATEGORIES4` order)."""
    out = dict.fromkeys(CATEGORIES4, 0.0)
    for label, share in zip(CATEGORIES, shares, strict=True):
        runtime, size = label.split()
        out[("S" if runtime in ("VS", "S") else "L") + ("N" if size in ("Seq", "N") else "W")] += (
            share
        )
    return list(out.values())


def test_table_2_2_read_transposed_is_table_4_2() -> None:
    # The reason THESIS_MIX is the printed table's transpose (module docstring).
    assert _fold(tables.THESIS_MIX) == list(tables.THESIS_MIX4)
    assert _fold(tables.THESIS_MIX_AS_PRINTED) == [44.0, 30.0, 13.0, 13.0]
    assert sum(tables.THESIS_MIX) == 100 and sum(tables.THESIS_MIX4) == 100
    mix = dict(zip(CATEGORIES, tables.THESIS_MIX, strict=True))
    assert [mix[f"{r} Seq"] for r in ("VS", "S", "L", "VL")] == [14, 8, 13, 9]
    slow = dict(zip(CATEGORIES, tables.THESIS_SLOWDOWN, strict=True))
    assert slow["VS VW"] == 34.07 and slow["VS Seq"] == 2.6 and slow["VL VW"] == 1.15


# --------------------------------------------------------------------------- #
# Distances and score by hand
# --------------------------------------------------------------------------- #


def test_mix_distance_sums_percentage_points() -> None:
    assert subset.mix_distance(tables.THESIS_MIX) == 0.0
    moved = np.array(tables.THESIS_MIX)
    moved[0] += 5.0  # 5 points of the jobs moved from one category to another
    moved[1] -= 5.0
    assert subset.mix_distance(moved) == pytest.approx(10.0)
    assert subset.mix_distance([50, 50, 0, 0], tables.THESIS_MIX4) == pytest.approx(
        6 + 37 + 30 + 13
    )
    with pytest.raises(ValueError, match="4 shares against 16"):
        subset.mix_distance([25, 25, 25, 25])


def test_category_distance_is_a_mean_log_ratio_over_categories_with_jobs() -> None:
    thesis = np.array(tables.THESIS_SLOWDOWN)
    assert subset.category_distance(thesis) == 0.0
    assert subset.category_distance(2 * thesis) == pytest.approx(math.log(2))
    # Twice as slow or half as slow are as far: 34 against 17 counts as 2 against 1.
    mixed = np.where(np.arange(16) % 2 == 0, 2 * thesis, thesis / 2)
    assert subset.category_distance(mixed) == pytest.approx(math.log(2))
    assert subset.category_distance([34.0, 1.0], [17.0, 2.0]) == pytest.approx(math.log(2))
    # A category without jobs (NaN) is left out, not counted as a match.
    gaps = 2 * thesis
    gaps[:8] = np.nan
    assert subset.category_distance(gaps) == pytest.approx(math.log(2))
    assert math.isnan(subset.category_distance(np.full(16, np.nan)))


def test_score_adds_three_relative_errors_the_slowdowns_counting_once() -> None:
    assert subset.score(0.0, 0.51, 3.58, 0.0) == 0.0
    # 20 pp: a tenth of the jobs in the wrong category; the slowdowns count half each.
    assert subset.score(20.0, 0.51, 3.58, 0.25) == pytest.approx(0.1 + 0.125)
    e = math.e
    assert subset.score(0.0, 0.51 * e, 3.58, 0.0) == pytest.approx(1.0)
    assert subset.score(0.0, 0.51, 3.58 / e, 1.0) == pytest.approx(1.0)
    assert subset.score(0.0, 0.51 / 2, 3.58 * 2, 0.0) == pytest.approx(1.5 * math.log(2))


def _frames(
    subsets: dict[tuple[str, float], tuple[list[float], list[float], float, float]],
) -> tuple[pd.DataFrame, pd.DataFrame, pd.DataFrame]:
    """`candidates`' three frames from (month, load) -> (16 job counts, 16 slowdowns,
    utilization, overall slowdown)."""
    runs, c16, c4 = [], [], []
    for (month, load), (counts, slow, util, bsld) in subsets.items():
        runs.append({"month": month, "load_factor": load, "utilization": util,
                     "mean_bounded_slowdown": bsld})  # fmt: skip
        for label, n, s in zip(CATEGORIES, counts, slow, strict=True):
            c16.append({"month": month, "load_factor": load, "category": label, "jobs": n,
                        "mean_bounded_slowdown": s})  # fmt: skip
        for label, n in zip(CATEGORIES4, _fold(tuple(counts)), strict=True):
            c4.append({"month": month, "load_factor": load, "category": label, "jobs": n})
    return pd.DataFrame(runs), pd.DataFrame(c16), pd.DataFrame(c4)


def test_search_ranks_the_closest_subset_first() -> None:
    mix, slow = list(tables.THESIS_MIX), list(tables.THESIS_SLOWDOWN)
    printed = list(tables.THESIS_MIX_AS_PRINTED)
    runs, c16, c4 = _frames(
        {
            ("1996-07", 1.0): (mix, [2 * s for s in slow], 0.64, 10.3),  # too loaded
            ("1996-07", 0.8): (mix, slow, 0.51, 3.58),  # the thesis exactly
            ("1996-08", 0.8): (printed, slow, 0.51, 3.58),  # the mix as printed
        }
    )
    table = subset.search(runs, c16, c4)
    assert list(zip(table["month"], table["load_factor"], strict=True)) == [
        ("1996-07", 0.8), ("1996-08", 0.8), ("1996-07", 1.0),
    ]  # fmt: skip
    assert list(table["rank"]) == [1, 2, 3] and list(table["chosen"]) == [True, False, False]
    best, printed_row, loaded = (table.iloc[i] for i in range(3))
    assert best["score"] == 0.0 and best["jobs"] == 100
    assert best["mix4_distance"] == 0.0 and best["mix_distance_as_printed"] > 50
    assert printed_row["mix_distance"] == pytest.approx(best["mix_distance_as_printed"])
    assert printed_row["score"] == pytest.approx(printed_row["mix_distance"] / 200)
    assert loaded["category_distance"] == pytest.approx(math.log(2))
    assert loaded["score"] == pytest.approx(
        math.log(0.64 / 0.51) + (math.log(10.3 / 3.58) + math.log(2)) / 2
    )


def test_a_subset_without_a_finite_score_is_never_chosen() -> None:
    slow = list(tables.THESIS_SLOWDOWN)
    runs, c16, c4 = _frames({("1996-07", 1.0): (list(tables.THESIS_MIX), slow, 0.0, 3.58)})
    table = subset.search(runs, c16, c4)
    assert math.isnan(table["score"].iloc[0]) and not table["chosen"].any()
    assert subset.claims(table, subset.category_table(c16, c4, "1996-07", 1.0)).empty


# --------------------------------------------------------------------------- #
# The report of a study directory written by hand
# --------------------------------------------------------------------------- #

CORES = 100


def _result(counts: list[float], slowdowns: list[float], utilization: float) -> Result:
    """Jobs by hand: ``counts[c]`` jobs in category c, each of bounded slowdown
    ``slowdowns[c]``; the machine busy at ``utilization`` throughout."""
    each = [(label, s) for label, n, s in zip(CATEGORIES, counts, slowdowns, strict=True)
            for _ in range(int(n))]  # fmt: skip
    jobs = category_jobs((label, float(i), s) for i, (label, s) in enumerate(each))
    end = float(jobs["end"].max())
    series = pd.DataFrame({"time": [0.0], "busy_cores": [utilization * CORES], "busy_nodes": [0],
                           "queued": [0], "running": [0], "suspended": [0]})  # fmt: skip
    return Result(jobs=jobs, series=series, meta={"total_cores": CORES, "start": 0.0, "end": end})


def _write_study(root: Path, runs: dict[str, tuple[dict[str, Any], Result]], label: str = "NS"):
    """A study directory as the sweep writes it (`test_report.write_study`)."""
    entries = [run(rid, label if rid != "odd" else "SS", 0,
                   **{"workload": "ctc", "first": None, "nodes": 430, "policy": "easy",
                      "exact_estimates": True, "seed": 1, **cfg})
               for rid, (cfg, _) in runs.items()]  # fmt: skip
    report = {"paper": "kettimuthu2003-subset", "x": "none",
              "metrics": ["mean_bounded_slowdown", "utilization"]}  # fmt: skip
    results = {rid: result for rid, (_, result) in runs.items()}
    return write_study(root, entries, "subset", report, results)


def _mix() -> list[float]:
    return list(tables.THESIS_MIX)  # 100 jobs: a job per percent


def test_the_report_of_a_small_study(tmp_path: Path) -> None:
    slow = list(tables.THESIS_SLOWDOWN)
    runs = {
        "jul08": ({"month": "1996-07", "load_factor": 0.8}, _result(_mix(), slow, 0.51)),
        "jul10": ({"month": "1996-07", "load_factor": 1.0},
                  _result(_mix(), [2 * s for s in slow], 0.64)),
        "aug08": ({"month": "1996-08", "load_factor": 0.8},
                  _result(list(tables.THESIS_MIX_AS_PRINTED), slow, 0.51)),
    }  # fmt: skip
    directory = _write_study(tmp_path / "s", runs)
    written = load_results(directory).write()  # through write_report and paper_analyses
    names = {p.name for p in written["tables"]}
    assert {"claims.csv", "kettimuthu2003-subset-search.csv",
            "kettimuthu2003-subset-categories.csv"} <= names  # fmt: skip
    figure = directory / "report" / "kettimuthu2003-subset.png"
    assert figure in written["plots"] and figure.stat().st_size > 0

    table = pd.read_csv(directory / "report" / "kettimuthu2003-subset-search.csv")
    assert list(table.columns[:4]) == ["rank", "month", "load_factor", "jobs (jobs)"]
    assert "utilization (fraction)" in table and "mix_distance (pp)" in table
    best = table.iloc[0]
    assert (best["month"], best["load_factor"], bool(best["chosen"])) == ("1996-07", 0.8, True)
    assert best["jobs (jobs)"] == 100
    assert best["mix_distance (pp)"] == pytest.approx(0.0, abs=1e-9)
    assert best["category_distance (mean |ln ratio|)"] == pytest.approx(0.0, abs=1e-9)
    assert best["utilization (fraction)"] == pytest.approx(0.51)
    # The overall slowdown of these jobs is the mix-weighted mean of Table 2.3.
    overall = float(np.dot(tables.THESIS_MIX, slow)) / 100
    assert best["mean_bounded_slowdown (ratio)"] == pytest.approx(overall)
    assert best["score (dimensionless)"] == pytest.approx(abs(math.log(overall / 3.58)) / 2)
    assert list(table["month"]) == ["1996-07", "1996-08", "1996-07"]
    assert table["load_factor"].iloc[2] == 1.0

    cats = pd.read_csv(directory / "report" / "kettimuthu2003-subset-categories.csv")
    c16 = cats[cats["table"] == "2.2 / 2.3"]
    assert np.allclose(c16["share (%)"], tables.THESIS_MIX)
    assert np.allclose(c16["mean_bounded_slowdown (ratio)"], slow)

    claims = pd.read_csv(directory / "report" / "claims.csv").set_index("where")
    assert list(claims.columns) == ["claim", "paper", "schedsim", "holds", "status"]
    assert claims.loc["section 2.4, Table 2.2 (read transposed)", "holds"] == "16 of 16"
    assert claims.loc["section 4.2, Table 4.2", "holds"] == "4 of 4"
    assert claims.loc["section 2.4", "holds"] == "1 of 1"  # utilization 51%
    # The search fits these values: calibrated, so none is evidence.
    assert set(claims["status"]) == {"not checked"}
    assert claims["schedsim"].str.startswith("calibrated, not evidence").all()
    assert claims.loc["section 2.4, Table 2.3", "holds"] == "16 of 16"


def test_a_study_that_varies_more_than_the_subset_is_refused(tmp_path: Path) -> None:
    slow = list(tables.THESIS_SLOWDOWN)
    runs = {
        "jul08": ({"month": "1996-07", "load_factor": 0.8}, _result(_mix(), slow, 0.51)),
        "odd": ({"month": "1996-07", "load_factor": 0.8, "policy": "ss"},
                _result(_mix(), slow, 0.51)),
    }  # fmt: skip
    results = load_results(_write_study(tmp_path / "s", runs))
    with pytest.raises(ValueError, match="label, policy vary too"):
        subset.candidates(results)
