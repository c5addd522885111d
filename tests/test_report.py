"""Tests for schedsim.app.report: study directories written by hand, numbers computed by hand.

The study directories here follow the sweep engine's layout (model/report.py's
module docstring) file by file, so the report is tested without the sweep.
Student t quantiles come from their closed forms, not from scipy, so that the
report's use of scipy is checked too: with p = 0.975, t(p, 1) = tan(pi (p - 1/2))
= 12.7062047361747 and t(p, 2) = (2p - 1) / sqrt(2p (1 - p)) = 4.30265272974946.
(The often-quoted 4.302652729911275 is off in the tenth digit.)
"""

from __future__ import annotations

import json
import math
import warnings
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pytest
from matplotlib.figure import Figure
from rich.console import Console

from schedsim import Simulation
from schedsim.app.report import (
    StudyResults,
    confidence_interval,
    load_results,
    print_report,
)
from schedsim.model.categories import CATEGORIES, CATEGORIES4
from schedsim.workloads.job import Job
from schedsim.workloads.workload import Workload

T1 = math.tan(math.pi * 0.475)  # t(0.975, 1)
T2 = 0.95 / math.sqrt(2 * 0.975 * 0.025)  # t(0.975, 2)


# --------------------------------------------------------------------------- #
# Writing study directories
# --------------------------------------------------------------------------- #


def config(**over: Any) -> dict[str, Any]:
    """A run configuration with every key of the format; ``over`` replaces some."""
    base: dict[str, Any] = {
        "workload": "kth",
        "month": None,
        "first": 1000,
        "exact_estimates": False,
        "load_factor": None,
        "policy": "fcfs",
        "params": {},
        "nodes": None,
        "cores_per_node": 1,
        "kill_at_estimate": True,
        "wide": "error",
        "warmup": 0,
        "cooldown": 0,
        "seed": 0,
    }
    base.update(over)
    return base


def run(
    rid: str,
    label: str,
    replication: int,
    status: str = "done",
    summary: dict[str, Any] | None = None,
    error: str = "ValueError: boom",
    **cfg: Any,
) -> dict[str, Any]:
    """One run of a study to write: its study.json entry plus what to put on disk."""
    return {
        "id": rid,
        "label": label,
        "replication": replication,
        "config": config(**cfg),
        "status": status,
        "summary": summary or {},
        "error": error,
    }


def write_study(
    root: Path,
    runs: list[dict[str, Any]],
    name: str = "demo",
    report: dict[str, Any] | None = None,
    results: dict[str, Any] | None = None,
) -> Path:
    """Write ``root/study.json`` and each run's files as the sweep would.

    A "done" run gets config.json and summary.json (``results[id]``, a real
    `Result`, is saved instead when given: jobs.parquet and series.parquet
    too); a "failed" run gets failures/<id>.json; a "missing" one nothing.
    """
    root.mkdir(parents=True, exist_ok=True)
    entries = [{k: r[k] for k in ("id", "label", "replication", "config")} for r in runs]
    study: dict[str, Any] = {
        "name": name,
        "schedsim_version": "0.1.0",
        "seed": 11,
        "replications": 2,
        "runs": entries,
    }
    if report is not None:
        study["report"] = report
    (root / "study.json").write_text(json.dumps(study, indent=2))
    for r, entry in zip(runs, entries, strict=True):
        run_dir = root / "runs" / r["id"]
        if r["status"] == "done":
            run_dir.mkdir(parents=True)
            record = {**entry, "schedsim_version": "0.1.0"}
            (run_dir / "config.json").write_text(json.dumps(record))
            if results and r["id"] in results:
                cfg = r["config"]
                results[r["id"]].save(run_dir, warmup=cfg["warmup"], cooldown=cfg["cooldown"])
            else:
                doc = {"summary": r["summary"], "meta": {"wall_time": 0.5, "policy": "x"}}
                (run_dir / "summary.json").write_text(json.dumps(doc))
        elif r["status"] == "failed":
            (root / "failures").mkdir(exist_ok=True)
            failure = {
                **entry,
                "error": r["error"],
                "traceback": f"Traceback (most recent call last):\n{r['error']}\n",
                "when": "2024-05-01T12:00:00",
            }
            (root / "failures" / f"{r['id']}.json").write_text(json.dumps(failure))
    return root


def summary(bsld: float, util: float = 0.1, **more: Any) -> dict[str, Any]:
    """A summary.json "summary": mean_wait is 100 x the bounded slowdown."""
    return {
        "jobs": 1000,
        "mean_wait": 100.0 * bsld,
        "mean_bounded_slowdown": bsld,
        "mean_xfactor": None,
        "utilization": util,
        "makespan": 5000.0,
        "new_metric": 7,
        **more,
    }


# Two policies x two loads x replications (seeds 11, 12, 13), in this order.
# mean_bounded_slowdown of the finished runs:
#              load 1.0 (null)      load 1.2
#   fcfs       4, 6, (missing)      10, 8, (failed)
#   easy-sjf   2, 3, 7              5, 2, (missing)
# utilization is 0.1 everywhere but easy-sjf at 1.2: 0.6, 0.8.
DEMO = [
    run("f10-0", "fcfs", 0, summary=summary(4.0), seed=11),
    run("f10-1", "fcfs", 1, summary=summary(6.0), seed=12),
    run("f10-2", "fcfs", 2, status="missing", seed=13),
    run("e10-0", "easy-sjf", 0, summary=summary(2.0), seed=11, policy="easy",
        params={"order": "sjf"}),
    run("e10-1", "easy-sjf", 1, summary=summary(3.0), seed=12, policy="easy",
        params={"order": "sjf"}),
    run("e10-2", "easy-sjf", 2, summary=summary(7.0), seed=13, policy="easy",
        params={"order": "sjf"}),
    run("f12-0", "fcfs", 0, summary=summary(10.0), seed=11, load_factor=1.2),
    run("f12-1", "fcfs", 1, summary=summary(8.0), seed=12, load_factor=1.2),
    run("f12-2", "fcfs", 2, status="failed", seed=13, load_factor=1.2,
        error="RuntimeError: ran out of patience"),
    run("e12-0", "easy-sjf", 0, summary=summary(5.0, 0.6), seed=11, load_factor=1.2,
        policy="easy", params={"order": "sjf"}),
    run("e12-1", "easy-sjf", 1, summary=summary(2.0, 0.8), seed=12, load_factor=1.2,
        policy="easy", params={"order": "sjf"}),
    run("e12-2", "easy-sjf", 2, status="missing", seed=13, load_factor=1.2, policy="easy",
        params={"order": "sjf"}),
]  # fmt: skip


@pytest.fixture
def demo(tmp_path: Path) -> StudyResults:
    report = {"metrics": ["mean_bounded_slowdown", "utilization"], "baseline": "fcfs"}
    return load_results(write_study(tmp_path / "demo", DEMO, report=report))


def row(frame: pd.DataFrame, **match: Any) -> pd.Series:
    """The one row of ``frame`` whose columns equal ``match``."""
    mask = np.ones(len(frame), dtype=bool)
    for column, value in match.items():
        mask &= (frame[column] == value).to_numpy()
    assert mask.sum() == 1, (match, frame)
    return frame[mask].iloc[0]


# --------------------------------------------------------------------------- #
# confidence_interval
# --------------------------------------------------------------------------- #


def test_confidence_interval_three_values() -> None:
    # mean 4, deviations -2, -1, 3: std = sqrt(14 / 2) = sqrt(7)
    mean, low, high = confidence_interval([2.0, 3.0, 7.0])
    half = T2 * math.sqrt(7.0) / math.sqrt(3.0)
    assert mean == 4.0
    assert low == pytest.approx(4.0 - half, rel=1e-12)
    assert high == pytest.approx(4.0 + half, rel=1e-12)


def test_confidence_interval_other_level_and_nan_values() -> None:
    # 90%: t(0.95, 1) = tan(0.45 pi); the NaN is ignored
    mean, low, high = confidence_interval([1.0, 3.0, math.nan], confidence=0.9)
    half = math.tan(0.45 * math.pi) * math.sqrt(2.0) / math.sqrt(2.0)
    assert half == pytest.approx(6.313751514675, rel=1e-12)
    assert (mean, low, high) == pytest.approx((2.0, 2.0 - half, 2.0 + half), rel=1e-12)


def test_confidence_interval_degenerate_cases() -> None:
    mean, low, high = confidence_interval([5.0])
    assert mean == 5.0 and math.isnan(low) and math.isnan(high)
    assert all(math.isnan(v) for v in confidence_interval([]))
    # equal values: zero width, exactly the value (a float mean of three 0.1 is not)
    assert confidence_interval([0.1, 0.1, 0.1]) == (0.1, 0.1, 0.1)
    with pytest.raises(ValueError, match="confidence"):
        confidence_interval([1.0, 2.0], confidence=95)


# --------------------------------------------------------------------------- #
# Loading
# --------------------------------------------------------------------------- #


def test_runs_table_status_config_and_metrics(demo: StudyResults) -> None:
    runs = demo.runs
    assert runs["id"].tolist() == [r["id"] for r in DEMO]  # study order
    assert runs["status"].tolist() == [
        "done", "done", "missing", "done", "done", "done",
        "done", "done", "failed", "done", "done", "missing",
    ]  # fmt: skip
    assert demo.counts == {"done": 9, "failed": 1, "missing": 2}
    assert runs.columns[:4].tolist() == ["id", "label", "replication", "status"]
    # the config flattened, params where the key stands
    assert demo.config_columns == [
        "workload", "month", "first", "exact_estimates", "load_factor", "policy",
        "params.order", "nodes", "cores_per_node", "kill_at_estimate", "wide", "warmup",
        "cooldown", "seed",
    ]  # fmt: skip
    assert runs["replication"].tolist() == [0, 1, 2] * 4
    # null load factor reads as 1.0; a policy without the parameter has NaN
    assert runs["load_factor"].tolist() == [1.0] * 6 + [1.2] * 6
    no_order = [True] * 3 + [False] * 3
    assert runs["params.order"].isna().tolist() == no_order * 2
    assert runs["month"].isna().all()
    # every numeric summary entry is a metric; NaN where not done
    for m in ("jobs", "mean_wait", "mean_bounded_slowdown", "mean_xfactor", "new_metric"):
        assert m in demo.metrics
    assert runs["mean_bounded_slowdown"].iloc[:2].tolist() == [4.0, 6.0]
    assert math.isnan(runs["mean_bounded_slowdown"].iloc[2])
    assert runs["mean_xfactor"].isna().all()
    assert runs["wall_time"].tolist()[:2] == [0.5, 0.5] and math.isnan(runs["wall_time"].iloc[2])
    assert demo.name == "demo" and demo.version == "0.1.0"
    assert demo.report_defaults["baseline"] == "fcfs"
    assert len(demo.done) == 9 and (demo.done["status"] == "done").all()


def test_failures_table(demo: StudyResults) -> None:
    f = demo.failures
    assert f.columns.tolist()[:5] == ["id", "label", "replication", "error", "traceback"]
    assert f["id"].tolist() == ["f12-2"]
    assert f["label"].tolist() == ["fcfs"] and f["replication"].tolist() == [2]
    assert f["error"].iloc[0] == "RuntimeError: ran out of patience"
    assert "Traceback" in f["traceback"].iloc[0]


def test_varying_excludes_seed_and_counts_nan(demo: StudyResults) -> None:
    assert demo.varying() == ["label", "load_factor", "policy", "params.order"]
    assert demo.numeric_varying() == ["load_factor"]


def test_extra_config_keys_and_stale_records(tmp_path: Path) -> None:
    runs = [
        run("a", "fcfs", 0, summary=summary(2.0), future_knob=3, topology={"racks": 2}),
        run("b", "fcfs", 1, summary=summary(4.0), future_knob=5, topology={"racks": 2}),
    ]
    root = write_study(tmp_path / "s", runs)
    # results of a run the study no longer lists are not part of the report
    (root / "runs" / "old").mkdir()
    (root / "runs" / "old" / "summary.json").write_text('{"summary": {"jobs": 1}, "meta": {}}')
    # a failure record of a run that later succeeded is stale
    (root / "failures").mkdir()
    (root / "failures" / "a.json").write_text('{"error": "old news"}')
    s = load_results(root)
    assert s.config_columns[-2:] == ["future_knob", "topology.racks"]
    assert s.runs["id"].tolist() == ["a", "b"]
    assert s.runs["status"].tolist() == ["done", "done"] and s.failures.empty
    assert "future_knob" in s.varying()
    agg = s.aggregate("mean_bounded_slowdown")
    assert agg["future_knob"].tolist() == [3, 5]
    # no failures now: a failures.csv of an earlier report goes
    (root / "report").mkdir()
    (root / "report" / "failures.csv").write_text("id,error\na,old news\n")
    written = s.write(metrics="mean_bounded_slowdown")
    assert not (root / "report" / "failures.csv").exists()
    assert {p.name for p in written["plots"]} == {
        "mean_bounded_slowdown-vs-future_knob.png",
        "mean_bounded_slowdown-vs-future_knob.svg",
    }


def test_missing_or_malformed_study_json(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match=r"study\.json"):
        StudyResults.load(tmp_path)
    (tmp_path / "study.json").write_text("{not json")
    with pytest.raises(ValueError, match=str(tmp_path / "study.json")):
        StudyResults.load(tmp_path)
    (tmp_path / "study.json").write_text('{"name": "x"}')
    with pytest.raises(ValueError, match="runs"):
        StudyResults.load(tmp_path)
    (tmp_path / "study.json").write_text('{"runs": [{"id": "../escape", "config": {}}]}')
    with pytest.raises(ValueError, match="id"):
        StudyResults.load(tmp_path)


def test_unreadable_summary_counts_as_missing(tmp_path: Path) -> None:
    root = write_study(tmp_path / "s", [run("a", "fcfs", 0, summary=summary(2.0))])
    (root / "runs" / "a" / "summary.json").write_text('{"summ')  # being written
    with pytest.warns(UserWarning, match="unreadable"):
        s = load_results(root)
    assert s.runs["status"].tolist() == ["missing"]


# --------------------------------------------------------------------------- #
# aggregate
# --------------------------------------------------------------------------- #


def test_aggregate_by_label_and_load(demo: StudyResults) -> None:
    agg = demo.aggregate()
    assert agg.columns[:3].tolist() == ["label", "load_factor", "n"]
    # groups in study order of first appearance, not sorted
    assert list(zip(agg["label"], agg["load_factor"], strict=True)) == [
        ("fcfs", 1.0),
        ("easy-sjf", 1.0),
        ("fcfs", 1.2),
        ("easy-sjf", 1.2),
    ]
    assert agg["n"].tolist() == [2, 3, 2, 2]
    # the main metrics the study has, four statistics each
    assert [c for c in agg.columns if c.endswith("_mean")] == [
        "mean_bounded_slowdown_mean",
        "mean_wait_mean",
        "utilization_mean",
        "makespan_mean",
    ]

    # easy-sjf at 1.0: 2, 3, 7 -> mean 4, std sqrt(7), t(0.975, 2): 4 ± 6.57, whose
    # lower end, below 1, is cut at 1 (a slowdown's least value); the upper one stays
    e = row(agg, label="easy-sjf", load_factor=1.0)
    half = T2 * math.sqrt(7.0) / math.sqrt(3.0)
    assert e["mean_bounded_slowdown_mean"] == 4.0
    assert e["mean_bounded_slowdown_std"] == pytest.approx(math.sqrt(7.0), rel=1e-12)
    assert e["mean_bounded_slowdown_ci_low"] == 1.0
    assert e["mean_bounded_slowdown_ci_high"] == pytest.approx(4.0 + half, rel=1e-12)
    assert e["mean_wait_mean"] == pytest.approx(400.0)
    assert e["mean_wait_ci_low"] == 0.0  # a wait is never negative
    assert e["mean_wait_ci_high"] == pytest.approx(400.0 + 100.0 * half, rel=1e-12)

    # fcfs at 1.2: 10, 8 -> mean 9, std sqrt(2), half-width t(0.975, 1) x sqrt(2) / sqrt(2)
    f = row(agg, label="fcfs", load_factor=1.2)
    assert f["mean_bounded_slowdown_mean"] == 9.0
    assert f["mean_bounded_slowdown_std"] == pytest.approx(math.sqrt(2.0), rel=1e-12)
    assert f["mean_bounded_slowdown_ci_low"] == 1.0  # 9 - 12.7, cut
    assert f["mean_bounded_slowdown_ci_high"] == pytest.approx(9.0 + T1, rel=1e-12)

    # the same utilization in every replication: std 0, a zero-width interval
    assert f["utilization_mean"] == 0.1 and f["utilization_std"] == 0.0
    assert f["utilization_ci_low"] == f["utilization_ci_high"] == 0.1
    # 0.6, 0.8 -> mean 0.7, std 0.1 sqrt(2): 0.7 ± 1.27, cut to the whole range [0, 1]
    u = row(agg, label="easy-sjf", load_factor=1.2)
    assert u["utilization_mean"] == pytest.approx(0.7)
    assert (u["utilization_ci_low"], u["utilization_ci_high"]) == (0.0, 1.0)
    # an interval within the range is the t interval itself
    w = row(agg, label="fcfs", load_factor=1.0)  # waits 400, 600
    assert w["mean_wait_ci_high"] - w["mean_wait_mean"] == pytest.approx(T1 * 100.0, rel=1e-9)


def test_aggregate_single_replication_has_nan_interval(tmp_path: Path) -> None:
    s = load_results(write_study(tmp_path / "s", [run("a", "fcfs", 0, summary=summary(3.0))]))
    agg = s.aggregate(["mean_bounded_slowdown"])
    assert agg.columns.tolist() == [
        "label",
        "n",
        "mean_bounded_slowdown_mean",
        "mean_bounded_slowdown_std",
        "mean_bounded_slowdown_ci_low",
        "mean_bounded_slowdown_ci_high",
    ]
    r = agg.iloc[0]
    assert r["n"] == 1 and r["mean_bounded_slowdown_mean"] == 3.0
    assert math.isnan(r["mean_bounded_slowdown_std"])
    assert math.isnan(r["mean_bounded_slowdown_ci_low"])
    assert math.isnan(r["mean_bounded_slowdown_ci_high"])


def test_aggregate_groups_nan_params_as_a_value(demo: StudyResults) -> None:
    agg = demo.aggregate("mean_bounded_slowdown", by=["policy", "params.order"])
    assert agg["policy"].tolist() == ["fcfs", "easy"]
    assert agg["params.order"].isna().tolist() == [True, False]
    # fcfs (no order parameter): 4, 6, 10, 8; easy-sjf: 2, 3, 7, 5, 2
    assert agg["n"].tolist() == [4, 5]
    assert agg["mean_bounded_slowdown_mean"].tolist() == pytest.approx([7.0, 19.0 / 5.0])
    alone = demo.aggregate("mean_bounded_slowdown", by="params.order")
    assert alone["n"].tolist() == [4, 5] and alone["params.order"].isna().tolist() == [True, False]


def test_aggregate_rejects_unknown_metric_and_column(demo: StudyResults) -> None:
    with pytest.raises(ValueError, match="mean_bounded_slowdown"):
        demo.aggregate("nope")
    with pytest.raises(ValueError, match="group by"):
        demo.aggregate(by="nope")


# --------------------------------------------------------------------------- #
# ratio
# --------------------------------------------------------------------------- #


def test_ratio_R(demo: StudyResults) -> None:
    # R = (s1 - sm) / min: load 1.0: (4-2)/2 = 1, (6-3)/3 = 1; load 1.2: (10-5)/5 = 1, (8-2)/2 = 3
    r = demo.ratio("mean_bounded_slowdown", baseline="fcfs", other="easy-sjf")
    assert r.columns.tolist() == ["load_factor", "value_mean", "value_ci_low", "value_ci_high", "n"]
    assert r["load_factor"].tolist() == [1.0, 1.2]
    assert r["n"].tolist() == [2, 2]
    assert r["value_mean"].tolist() == [1.0, 2.0]
    assert r["value_ci_low"].tolist()[0] == 1.0 and r["value_ci_high"].tolist()[0] == 1.0
    # 1, 3: std sqrt(2), half-width t(0.975, 1)
    assert r["value_ci_low"].iloc[1] == pytest.approx(2.0 - T1, rel=1e-12)
    assert r["value_ci_high"].iloc[1] == pytest.approx(2.0 + T1, rel=1e-12)
    # easy-sjf replication 2 at load 1.0 has no finished fcfs partner
    assert r.attrs["unpaired"] == 1


@pytest.mark.parametrize(
    ("kind", "at_10", "at_12", "half_12"),
    [
        # other / baseline: 2/4, 3/6 | 5/10, 2/8 -> 0.375, std 0.125 sqrt(2)
        ("ratio", 0.5, 0.375, T1 * 0.125),
        # 100 (other - baseline) / baseline: -50, -50 | -50, -75
        ("percent", -50.0, -62.5, T1 * 12.5),
        # other - baseline: -2, -3 | -5, -6
        ("difference", -2.5, -5.5, T1 * 0.5),
    ],
)
def test_ratio_kinds(demo: StudyResults, kind: str, at_10: float, at_12: float, half_12: float):
    r = demo.ratio("mean_bounded_slowdown", "fcfs", "easy-sjf", kind=kind)
    assert r["value_mean"].tolist() == pytest.approx([at_10, at_12], rel=1e-12)
    assert r["value_ci_high"].iloc[1] - at_12 == pytest.approx(half_12, rel=1e-9)
    # A ratio of slowdowns is never negative, a percent change never below -100:
    # the lower ends are cut there; a difference is unbounded.
    least = {"ratio": 0.0, "percent": -100.0}.get(kind, at_12 - half_12)
    assert r["value_ci_low"].iloc[1] == pytest.approx(least, rel=1e-9)
    if kind != "difference":  # the two load-1.0 pairs agree exactly
        assert r["value_ci_low"].iloc[0] == r["value_ci_high"].iloc[0] == at_10


def test_ratio_on_policy_and_on_a_scenario_column(demo: StudyResults) -> None:
    by_policy = demo.ratio("mean_bounded_slowdown", "fcfs", "easy", on="policy")
    assert by_policy["value_mean"].tolist() == [1.0, 2.0]
    # the same policy at two loads: fcfs 10/4, 8/6; easy-sjf 5/2, 2/3
    loads = demo.ratio("mean_bounded_slowdown", 1.0, 1.2, kind="ratio", on="load_factor")
    assert loads["label"].tolist() == ["fcfs", "easy-sjf"]
    assert loads["value_mean"].tolist() == pytest.approx([(2.5 + 8 / 6) / 2, (2.5 + 2 / 3) / 2])
    assert loads["n"].tolist() == [2, 2]
    assert loads.attrs["unpaired"] == 1  # easy-sjf replication 2 at 1.0


def test_ratio_unknown_values_and_bad_kind(demo: StudyResults) -> None:
    with pytest.raises(ValueError, match=r"baseline 'sjf' .*'fcfs', 'easy-sjf'"):
        demo.ratio("mean_bounded_slowdown", baseline="sjf", other="easy-sjf")
    with pytest.raises(ValueError, match="other 'nope'"):
        demo.ratio("mean_bounded_slowdown", baseline="fcfs", other="nope")
    with pytest.raises(ValueError, match="kind"):
        demo.ratio("mean_bounded_slowdown", "fcfs", "easy-sjf", kind="speedup")
    with pytest.raises(ValueError, match="baseline 'sjf'"):
        demo.ratio_table("mean_bounded_slowdown", "sjf")


def test_ratio_table_has_every_other_label(tmp_path: Path) -> None:
    runs = [
        run("b0", "base", 0, summary=summary(4.0), seed=1),
        run("b1", "base", 1, summary=summary(8.0), seed=2),
        run("x0", "x", 0, summary=summary(2.0), seed=1, policy="easy"),
        run("x1", "x", 1, summary=summary(4.0), seed=2, policy="easy"),
        run("y0", "y", 0, summary=summary(8.0), seed=1, policy="conservative"),
        run("y1", "y", 1, summary=summary(8.0), seed=2, policy="conservative"),
        run("z0", "z", 0, summary=summary(1.0), seed=7, policy="easy", params={"order": "sjf"}),
    ]
    s = load_results(write_study(tmp_path / "s", runs))
    t = s.ratio_table("mean_bounded_slowdown", "base", kind="R")
    assert t.columns.tolist() == ["other", "value_mean", "value_ci_low", "value_ci_high", "n"]
    # x: (4-2)/2 = 1, (8-4)/4 = 1; y: (4-8)/4 = -1, (8-8)/8 = 0; z: seed 7 has no partner
    assert t["other"].tolist() == ["x", "y"]
    assert t["value_mean"].tolist() == [1.0, -0.5]
    assert t["n"].tolist() == [2, 2]
    assert t.attrs["unpaired"] == 1


# --------------------------------------------------------------------------- #
# Real runs: result() and categories()
# --------------------------------------------------------------------------- #


def tiny(first_run: float) -> Workload:
    """Five jobs on two cores, each running exactly its estimate: at time 0 a 2-core
    job of ``first_run`` s, then 700, 50 and 30 s single-core jobs; at 1000 s a
    100 s 2-core job.

    Under FCFS (and EASY, which has nothing to backfill) job 1 runs first; jobs
    2 and 3 start when it ends, job 4 when job 3 ends; job 5 finds the machine
    empty.
    """
    jobs = [
        Job(1, 0.0, first_run, 2, first_run),
        Job(2, 0.0, 700.0, 1, 700.0),
        Job(3, 0.0, 50.0, 1, 50.0),
        Job(4, 0.0, 30.0, 1, 30.0),
        Job(5, 1000.0, 100.0, 2, 100.0),
    ]
    return Workload.from_jobs(jobs, name="tiny", max_procs=2)


@pytest.fixture(scope="module")
def real_study(tmp_path_factory: pytest.TempPathFactory) -> StudyResults:
    """fcfs twice (first job 100 s, then 200 s), easy once (100 s); warm-up: 1 job."""
    results = {
        "fcfs-0": Simulation(tiny(100.0), "fcfs", seed=1).run(),
        "fcfs-1": Simulation(tiny(200.0), "fcfs", seed=2).run(),
        "easy-0": Simulation(tiny(100.0), "easy", seed=1).run(),
    }
    runs = [
        run("fcfs-0", "fcfs", 0, workload="tiny", seed=1, warmup=1),
        run("fcfs-1", "fcfs", 1, workload="tiny", seed=2, warmup=1),
        run("easy-0", "easy", 0, workload="tiny", seed=1, warmup=1, policy="easy"),
        run("easy-1", "easy", 1, workload="tiny", seed=2, warmup=1, policy="easy", status="failed"),
    ]
    root = tmp_path_factory.mktemp("real") / "study"
    return load_results(write_study(root, runs, name="tiny study", results=results))


def test_result_loads_one_finished_run(real_study: StudyResults) -> None:
    result = real_study.result("fcfs-1")
    assert result.jobs["start"].tolist() == [0.0, 200.0, 200.0, 250.0, 1000.0]
    assert real_study.runs["wall_time"].notna().tolist() == [True, True, True, False]
    with pytest.raises(ValueError, match="failed"):
        real_study.result("easy-1")
    with pytest.raises(ValueError, match="no run"):
        real_study.result("nope")


def test_categories_over_replications(real_study: StudyResults) -> None:
    # Bounded slowdowns (wait + run) / max(run, 10) and categories, job 1 (the
    # first submitted) left out by the warm-up:
    #   first job 100 s: job 2 800/700 = 8/7 (S Seq), job 3 150/50 = 3 and
    #                    job 4 180/30 = 6 (VS Seq), job 5 100/100 = 1 (VS N)
    #   first job 200 s: job 2 900/700 = 9/7, job 3 250/50 = 5, job 4 280/30 = 28/3, job 5 1
    cats = real_study.categories()
    assert cats.columns.tolist() == ["label", "category", "mean", "ci_low", "ci_high", "n"]
    assert len(cats) == 2 * 16
    assert cats["category"].cat.categories.tolist() == list(CATEGORIES)
    assert cats["category"].iloc[:16].tolist() == list(CATEGORIES)
    assert cats["label"].tolist() == ["fcfs"] * 16 + ["easy"] * 16

    fcfs = cats[cats["label"] == "fcfs"].set_index("category")
    # VS Seq: run means 4.5 and 43/6 -> 35/6; std (8/3)/sqrt(2), half-width t x std / sqrt(2)
    vs = fcfs.loc["VS Seq"]
    assert vs["mean"] == pytest.approx(35.0 / 6.0, rel=1e-12)
    assert vs["ci_high"] - vs["mean"] == pytest.approx(T1 * 4.0 / 3.0, rel=1e-9)
    assert vs["n"] == 2
    # S Seq: 8/7 and 9/7 -> 17/14, half-width t x (1/7) / 2 = 0.91: cut at 1 below
    s_seq = fcfs.loc["S Seq"]
    assert s_seq["mean"] == pytest.approx(17.0 / 14.0, rel=1e-12)
    assert s_seq["ci_low"] == 1.0
    assert s_seq["ci_high"] == pytest.approx(17.0 / 14.0 + T1 / 14.0, rel=1e-9)
    # VS N: 1 both times -> a zero-width interval
    assert tuple(fcfs.loc["VS N", ["mean", "ci_low", "ci_high", "n"]]) == (1.0, 1.0, 1.0, 2)
    # an empty category: NaN, no runs
    assert math.isnan(fcfs.loc["L W", "mean"]) and fcfs.loc["L W", "n"] == 0

    # easy ran once: the same numbers, no interval
    easy = cats[cats["label"] == "easy"].set_index("category")
    assert easy.loc["VS Seq", "mean"] == 4.5 and easy.loc["VS Seq", "n"] == 1
    assert math.isnan(easy.loc["VS Seq", "ci_low"]) and math.isnan(easy.loc["VS Seq", "ci_high"])


def test_categories_use_each_runs_warmup_as_a_job_count(real_study: StudyResults) -> None:
    # warmup 1 (not 1.0, which would be an invalid fraction) drops job 1 from VS N
    counts = real_study.categories(stat="count")
    assert row(counts, label="fcfs", category="VS N")["mean"] == 1.0
    assert row(counts, label="fcfs", category="VS Seq")["mean"] == 2.0


def test_categories_scheme_4(real_study: StudyResults) -> None:
    cats = real_study.categories(scheme="4", by="label")
    assert cats["category"].iloc[:4].tolist() == list(CATEGORIES4)
    sn = row(cats, label="fcfs", category="SN")
    # every kept job is SN: (8/7 + 3 + 6 + 1)/4 = 39/14 and (9/7 + 5 + 28/3 + 1)/4 = 349/84
    assert sn["mean"] == pytest.approx(583.0 / 168.0, rel=1e-12)
    with pytest.raises(ValueError, match="scheme"):
        real_study.categories(scheme="9")


# --------------------------------------------------------------------------- #
# Plots, files, console
# --------------------------------------------------------------------------- #


def legend_texts(fig: Figure) -> list[str]:
    legend = fig.axes[0].get_legend()
    return [t.get_text() for t in legend.get_texts()]


def test_plot_against_load_has_a_line_and_band_per_label(demo: StudyResults) -> None:
    fig = demo.plot("mean_bounded_slowdown", x="load_factor")
    assert isinstance(fig, Figure)
    ax = fig.axes[0]
    assert legend_texts(fig) == ["fcfs", "easy-sjf"]
    fcfs = ax.get_lines()[0]
    assert fcfs.get_xdata().tolist() == [1.0, 1.2]
    assert fcfs.get_ydata().tolist() == [5.0, 9.0]  # means of 4, 6 and 10, 8
    assert len(ax.collections) == 2  # one confidence band per line
    assert ax.get_xlabel() == "load factor (ratio)"
    assert ax.get_ylabel() == "mean bounded slowdown (ratio)"
    # the bands are the intervals cut at 1: none reaches below a slowdown's least value
    for band in ax.collections:
        assert min(v[1] for path in band.get_paths() for v in path.vertices) >= 1.0
    with pytest.raises(ValueError, match="numeric"):
        demo.plot("mean_bounded_slowdown", x="params.order")


def test_a_plot_names_lines_by_what_tells_them_apart_and_keeps_a_long_legend_off_the_axes(
    tmp_path: Path,
) -> None:
    # The daily cycle's hours are set exactly when the cycle is: they tell no two lines
    # apart and are left out of the lines' names. Eight names of 40-odd characters go
    # below the axes (on them, they squeezed the axes to nothing: a layout warning).
    hours = {"day_start": 8, "day_end": 18}
    runs = []
    for i, (label, users, cycle) in enumerate(
        (f"creasy(alpha={a:.1f}, response_unit=hours)", u, c)
        for a in (0.0, 1500.0, 6000.0, 24000.0)
        for u in (3, 5)
        for c in (True, False)
    ):
        cfg = {"policy": "creasy", "users": users, "daily_cycle": cycle, "seed": 1}
        if cycle:
            cfg["user_params"] = hours
        runs.append(run(f"r{i}", label, 0, summary=summary(1.0 + i), **cfg))
    results = load_results(write_study(tmp_path / "users", runs))
    assert results._line_columns("users") == ["label", "daily_cycle"]
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        fig = results.plot("mean_bounded_slowdown", x="users")
        fig.savefig(tmp_path / "lines.png")
    assert fig.axes[0].get_legend() is None
    names = [t.get_text() for t in fig.legends[0].get_texts()]
    assert len(names) == 8 and all("day_start" not in n for n in names)
    assert names[0] == "creasy(alpha=0.0, response_unit=hours), daily_cycle=True"


def test_plot_log_axis_when_means_span_decades(demo: StudyResults) -> None:
    # demo's mean waits span 350 to 900 s and its utilizations 0.1 to 0.7: no decades.
    assert demo.plot("mean_wait", x="load_factor").axes[0].get_yscale() == "linear"
    assert demo.plot("mean_wait", x="load_factor", log=True).axes[0].get_yscale() == "log"
    assert demo.plot("utilization", x="load_factor").axes[0].get_yscale() == "linear"


def test_plot_log_axis_by_default_over_two_decades(tmp_path: Path) -> None:
    runs = [
        run("a", "fcfs", 0, summary=summary(5000.0), seed=1),
        run("b", "easy", 0, summary=summary(20.0), seed=1, policy="easy"),
        run("c", "fcfs", 0, summary=summary(9000.0), seed=1, load_factor=1.2),
        run("d", "easy", 0, summary=summary(40.0), seed=1, policy="easy", load_factor=1.2),
    ]
    results = load_results(write_study(tmp_path / "wide", runs))
    fig = results.plot("mean_bounded_slowdown", x="load_factor")
    assert fig.axes[0].get_yscale() == "log"
    assert (
        results.plot("mean_bounded_slowdown", x="load_factor", log=False).axes[0].get_yscale()
        == "linear"
    )


def test_plot_bars_without_x(demo: StudyResults) -> None:
    fig = demo.plot("utilization")
    assert isinstance(fig, Figure)
    ax = fig.axes[0]
    heights = [p.get_height() for p in ax.patches]
    assert heights == pytest.approx([0.1, 0.1, 0.1, 0.7])  # a fraction, as stored
    assert ax.get_ylabel() == "utilization (fraction)"
    assert legend_texts(fig) == ["fcfs", "easy-sjf"]


def test_a_parameter_only_one_policy_has_is_no_x_axis(tmp_path: Path) -> None:
    # multiqueue's speculate_above is there for it alone (missing for easy): a column
    # that varies only by being missing elsewhere is no axis, the report draws bars.
    runs = [
        run("e", "easy", 0, summary=summary(3.0), policy="easy"),
        run(
            "m",
            "multiqueue",
            0,
            summary=summary(2.0),
            policy="multiqueue",
            params={"speculate_above": 1000},
        ),
    ]
    s = load_results(write_study(tmp_path / "s", runs))
    assert "params.speculate_above" in s.varying()
    assert s.numeric_varying() == []
    written = s.write(tmp_path / "out", metrics=["mean_bounded_slowdown"])
    assert sorted(p.name for p in written["plots"]) == [
        "mean_bounded_slowdown.png", "mean_bounded_slowdown.svg",
    ]  # fmt: skip


def test_plot_policy_parameter_with_a_reference_policy(tmp_path: Path) -> None:
    runs = [
        run("e", "easy", 0, summary=summary(3.0), policy="easy"),
        run("s2", "ss sf=2", 0, summary=summary(2.0), policy="ss", params={"sf": 2}),
        run("s4", "ss sf=4", 0, summary=summary(1.0), policy="ss", params={"sf": 4}),
    ]
    s = load_results(write_study(tmp_path / "s", runs))
    assert s.numeric_varying() == ["params.sf"]
    fig = s.plot("mean_bounded_slowdown", x="params.sf")
    # the label encodes sf, so lines go by policy; easy has no sf: a reference level
    assert legend_texts(fig) == ["policy=easy", "policy=ss"]
    ax = fig.axes[0]
    easy, ss = ax.get_lines()
    assert list(easy.get_ydata()) == [3.0, 3.0]
    assert ss.get_xdata().tolist() == [2.0, 4.0] and ss.get_ydata().tolist() == [2.0, 1.0]


def test_write_report_files(demo: StudyResults) -> None:
    written = demo.write()
    out = demo.directory / "report"
    names = {p.name for p in written["tables"]}
    assert names == {
        "summary.csv",
        "runs.csv",
        "failures.csv",
        "ratios-mean_bounded_slowdown.csv",
        "ratios-utilization.csv",
    }
    stems = ["mean_bounded_slowdown-vs-load_factor", "utilization-vs-load_factor"]
    assert {p.name for p in written["plots"]} == {
        f"{s}{e}" for s in stems for e in (".png", ".svg")
    }
    for path in [*written["tables"], *written["plots"]]:
        assert path.parent == out and path.stat().st_size > 0
    assert (out / "mean_bounded_slowdown-vs-load_factor.png").read_bytes()[:4] == b"\x89PNG"
    assert b"<svg" in (out / "utilization-vs-load_factor.svg").read_bytes()[:2000]

    # Full-precision numbers in the stored units, named with their units.
    table = pd.read_csv(out / "summary.csv")
    assert table.columns[:3].tolist() == ["label", "load_factor", "n"]
    assert table.columns[3:7].tolist() == [
        f"mean_bounded_slowdown_{st} (ratio)" for st in ("mean", "std", "ci_low", "ci_high")
    ]
    assert table["mean_bounded_slowdown_mean (ratio)"].tolist() == pytest.approx(
        [5.0, 4.0, 9.0, 3.5]
    )
    assert table["utilization_mean (fraction)"].tolist() == pytest.approx([0.1, 0.1, 0.1, 0.7])
    assert table["n"].tolist() == [2, 3, 2, 2]
    runs = pd.read_csv(out / "runs.csv")
    assert runs["status"].tolist().count("missing") == 2 and len(runs) == 12
    for column in ("mean_wait (s)", "utilization (fraction)", "wall_time (s)", "load_factor"):
        assert column in runs, column
    assert pd.read_csv(out / "failures.csv")["id"].tolist() == ["f12-2"]
    ratios = pd.read_csv(out / "ratios-mean_bounded_slowdown.csv")
    assert ratios["other"].tolist() == ["easy-sjf", "easy-sjf"]
    assert ratios["value_mean (ratio)"].tolist() == [1.0, 2.0]


def test_write_bars_elsewhere_and_arguments_win(real_study: StudyResults, tmp_path: Path):
    assert real_study.numeric_varying() == []  # only the policy varies: bar charts
    out = tmp_path / "elsewhere"
    written = real_study.write(
        out, metrics=["mean_bounded_slowdown"], baseline="fcfs", kind="ratio"
    )
    assert {p.name for p in written["plots"]} == {
        "mean_bounded_slowdown.png",
        "mean_bounded_slowdown.svg",
    }
    assert all(p.stat().st_size > 0 for p in written["plots"])
    assert "failures.csv" in {p.name for p in written["tables"]}
    # easy-0 ran the same schedule as fcfs-0: ratio 1; fcfs-1's partner failed
    ratios = pd.read_csv(out / "ratios-mean_bounded_slowdown.csv")
    done = real_study.runs.set_index("id")["mean_bounded_slowdown"]
    assert done["fcfs-0"] == pytest.approx((8 / 7 + 3 + 6 + 1) / 4)
    assert ratios["other"].tolist() == ["easy"]
    assert ratios["value_mean (ratio)"].tolist() == [1.0] and ratios["n"].tolist() == [1]


def test_print_report_mentions_everything(demo: StudyResults) -> None:
    console = Console(record=True, width=200)
    print_report(console, demo)
    text = console.export_text()
    assert "demo" in text and "0.1.0" in text
    assert "12 runs" in text and "9 done" in text and "1 failed" in text and "2 missing" in text
    # easy-sjf at 1.0: 4 ± t(0.975, 2) sqrt(7/3) = 4 ± 6.5724, cut at 1 below
    assert "4.00 [1.00, 10.6]" in text
    assert "0.100 [0.100, 0.100]" in text  # zero spread; a utilization as a fraction
    assert "mean_bounded_slowdown (ratio)" in text and "utilization (fraction)" in text
    # the ratio table (baseline fcfs from the study's defaults): R at load 1.2 = 2 ± 12.71,
    # unbounded
    assert "2.00 [-10.7, 14.7]" in text
    assert "cut at the range of their quantity" in text
    assert "RuntimeError: ran out of patience" in text and "fcfs" in text


def test_print_report_without_finished_runs(tmp_path: Path) -> None:
    s = load_results(write_study(tmp_path / "s", [run("a", "fcfs", 0, status="failed")]))
    console = Console(record=True, width=120)
    print_report(console, s)
    text = console.export_text()
    assert "No finished runs" in text and "ValueError: boom" in text


def test_no_finished_run_says_so_and_what_to_run(tmp_path: Path, capsys) -> None:
    # Issue 15: with [report] metrics (or --metric) it used to say "unknown metric(s)".
    from schedsim.app.cli import main

    runs = [run("a", "fcfs", 0, status="failed"), run("b", "easy", 0, status="missing")]
    directory = write_study(tmp_path / "s", runs, report={"metrics": ["utilization"]})
    for extra in ([], ["--metric", "mean_wait"]):
        assert main(["report", str(directory), *extra]) == 2
        out, err = capsys.readouterr()
        assert len(err.splitlines()) == 1 and "unknown metric" not in err
        assert err.startswith(f"schedsim: error: {directory}: no run of the study has finished")
        assert (
            "1 failed, 1 not run" in err and f"schedsim sweep STUDY.toml --out {directory}" in err
        )
        assert "ValueError: boom" in out  # the failures are still shown
    assert not (directory / "report").exists()
    with pytest.raises(ValueError, match="no run of the study has finished yet"):
        load_results(directory).aggregate("utilization")
    console = Console(record=True, width=120)
    print_report(console, load_results(directory))  # the [report] metrics are not checked
    assert "No finished runs" in console.export_text()


# --------------------------------------------------------------------------- #
# Per-category tables and plots (seed 000's figures)
# --------------------------------------------------------------------------- #


def test_category_summary_average_and_worst_case(real_study: StudyResults) -> None:
    # Job 1 left out by the warm-up (see test_categories_over_replications). VS Seq
    # holds jobs 3 and 4: with the first job 100 s they end at 150 and 180 s
    # (bounded slowdowns 3 and 6), with 200 s at 250 and 280 s (5 and 28/3).
    table = real_study.category_summary()
    assert table.columns.tolist() == [
        "label", "category", "n", "jobs",
        *(f"{s}_{m}{e}" for s in ("mean", "max") for m in ("bounded_slowdown", "turnaround")
          for e in ("", "_ci_low", "_ci_high")),
    ]  # fmt: skip
    assert len(table) == 2 * 16
    assert table["category"].cat.categories.tolist() == list(CATEGORIES)
    vs = row(table, label="fcfs", category="VS Seq")
    assert (vs["n"], vs["jobs"]) == (2, 2.0)
    assert vs["mean_bounded_slowdown"] == pytest.approx(35.0 / 6.0, rel=1e-12)
    assert vs["mean_turnaround"] == pytest.approx((165.0 + 265.0) / 2, rel=1e-12)
    assert vs["max_bounded_slowdown"] == pytest.approx((6.0 + 28.0 / 3.0) / 2, rel=1e-12)
    assert vs["max_turnaround"] == pytest.approx((180.0 + 280.0) / 2, rel=1e-12)
    # the worst cases 6 and 28/3: half-width t(0.975, 1) x std / sqrt(2), std = (10/3) / sqrt(2)
    half = T1 * (28.0 / 3.0 - 6.0) / math.sqrt(2) / math.sqrt(2)
    assert vs["max_bounded_slowdown_ci_high"] - vs["max_bounded_slowdown"] == pytest.approx(
        half, rel=1e-9
    )
    # the same numbers as categories(), one statistic at a time
    cats = real_study.categories("turnaround", "max")
    assert row(cats, label="fcfs", category="VS Seq")["mean"] == vs["max_turnaround"]
    empty = row(table, label="fcfs", category="L W")
    assert (empty["n"], empty["jobs"]) == (0, 0.0) and math.isnan(empty["mean_turnaround"])
    easy = row(table, label="easy", category="VS Seq")
    assert easy["n"] == 1 and math.isnan(easy["mean_bounded_slowdown_ci_low"])


def test_category_summary_estimate_split_and_scheme_4(real_study: StudyResults) -> None:
    # Every job of `tiny` runs exactly its estimate: all well estimated, none poorly.
    well = real_study.category_summary("4", "well", ["bounded_slowdown"], ["mean"])
    everything = real_study.category_summary("4", None, ["bounded_slowdown"], ["mean"])
    pd.testing.assert_frame_equal(well, everything)
    assert well["category"].iloc[:4].tolist() == list(CATEGORIES4)
    assert row(well, label="fcfs", category="SN")["mean_bounded_slowdown"] == pytest.approx(
        583.0 / 168.0, rel=1e-12
    )
    poor = real_study.category_summary("16", "poor")
    assert (poor["jobs"] == 0).all() and (poor["n"] == 0).all()
    assert poor["mean_bounded_slowdown"].isna().all()
    with pytest.raises(ValueError, match="estimate"):
        real_study.category_summary("16", "so-so")
    with pytest.raises(ValueError, match="scheme"):
        real_study.category_summary("9")


def test_category_plot_has_a_bar_per_label_and_category(real_study: StudyResults) -> None:
    fig = real_study.category_plot("bounded_slowdown", "max")
    assert len(fig.axes) == 1  # one scenario
    ax = fig.axes[0]
    assert len(ax.patches) == 2 * 16
    assert [t.get_text() for t in ax.get_xticklabels()] == list(CATEGORIES)
    assert [t.get_text() for t in fig.legends[0].get_texts()] == ["fcfs", "easy"]
    assert ax.get_ylabel() == "max bounded slowdown (ratio)"
    assert ax.get_xlabel() == (
        "job category (run time x processors, Kettimuthu 2003, selective preemption, Table 2.1)"
    )


def test_category_plot_one_panel_per_scenario(tmp_path: Path) -> None:
    results = {
        "f1": Simulation(tiny(100.0), "fcfs", seed=1).run(),
        "f2": Simulation(tiny(200.0), "fcfs", seed=1).run(),
        "e1": Simulation(tiny(100.0), "easy", seed=1).run(),
    }
    runs = [
        run("f1", "fcfs", 0, workload="tiny", seed=1),
        run("e1", "easy", 0, workload="tiny", seed=1, policy="easy"),
        run("f2", "fcfs", 0, workload="tiny", seed=1, load_factor=1.2),
    ]
    s = load_results(write_study(tmp_path / "s", runs, results=results))
    fig = s.category_plot(scheme="4")
    visible = [ax for ax in fig.axes if ax.get_visible()]
    assert [ax.get_title() for ax in visible] == ["load_factor=1", "load_factor=1.2"]
    first, second = visible
    assert len(first.patches) == 2 * 4 and len(second.patches) == 4  # easy ran at 1.0 only
    fcfs_colour = first.patches[0].get_facecolor()
    assert second.patches[0].get_facecolor() == fcfs_colour  # a label keeps its colour


def test_write_category_tables_and_plots(real_study: StudyResults, tmp_path: Path) -> None:
    out = tmp_path / "cats"
    spec = {"schemes": ["4"], "estimates": ["all", "well"], "stats": ["mean"]}
    written = real_study.write(out, metrics=["utilization"], categories=spec)
    tables = {p.name for p in written["tables"]}
    assert {"categories-4.csv", "categories-4-well.csv"} <= tables
    assert not any(name.startswith("categories-16") for name in tables)
    plots = {p.name for p in written["plots"] if p.name.startswith("categories")}
    assert plots == {
        f"categories-4{e}-mean_{m}.png"
        for e in ("", "-well")
        for m in ("bounded_slowdown", "turnaround")
    }
    assert (out / "categories-4-mean_turnaround.png").read_bytes()[:4] == b"\x89PNG"
    csv = pd.read_csv(out / "categories-4.csv")
    assert csv.columns.tolist()[:4] == ["label", "category", "n", "jobs"]
    assert "mean_bounded_slowdown (ratio)" in csv and "mean_turnaround_ci_low (s)" in csv
    assert "max_bounded_slowdown (ratio)" not in csv  # stats = ["mean"] only
    # no categories unless asked for
    plain = real_study.write(tmp_path / "plain", metrics=["utilization"])
    assert not any(p.name.startswith("categories") for p in plain["tables"])
    with pytest.raises(ValueError, match=r"categories\.schemes"):
        real_study.write(tmp_path / "bad", metrics=["utilization"], categories={"schemes": ["8"]})


def test_write_takes_categories_from_the_study(tmp_path: Path) -> None:
    results = {"f1": Simulation(tiny(100.0), "fcfs", seed=1).run()}
    runs = [run("f1", "fcfs", 0, workload="tiny", seed=1)]
    report = {"metrics": ["utilization"], "categories": {"schemes": [4], "metrics": ["wait"]}}
    s = load_results(write_study(tmp_path / "s", runs, report=report, results=results))
    names = {p.name for p in s.write()["tables"]}
    assert "categories-4.csv" in names and "categories-16.csv" not in names
    table = pd.read_csv(tmp_path / "s" / "report" / "categories-4.csv")
    assert "mean_wait (s)" in table and "max_wait (s)" in table
    assert "mean_turnaround (s)" not in table
    # True keeps the study's table; False turns it off.
    assert "categories-4.csv" in {p.name for p in s.write(categories=True)["tables"]}
    assert not any(p.name.startswith("categories") for p in s.write(categories=False)["tables"])


def test_category_plot_of_a_panel_without_jobs_still_draws(tmp_path: Path) -> None:
    # Exact estimates have no poorly estimated jobs: that panel is empty, and a log
    # axis (chosen for the other panel) must not break drawing it.
    late = Workload.from_jobs(
        [Job(1, 0.0, 10.0, 2, 10.0), Job(2, 0.0, 5000.0, 1, 20000.0), Job(3, 1.0, 10.0, 1, 9e4)],
        name="late",
        max_procs=2,
    )
    results = {
        "a": Simulation(late, "fcfs", seed=1).run(),
        "b": Simulation(tiny(100.0), "fcfs", seed=1).run(),
    }
    runs = [
        run("a", "fcfs", 0, workload="late", seed=1),
        run("b", "fcfs", 0, workload="tiny", seed=1, exact_estimates=True),
    ]
    s = load_results(write_study(tmp_path / "s", runs, results=results))
    fig = s.category_plot("turnaround", "mean", estimate="poor")
    first, second = (ax for ax in fig.axes if ax.get_visible())
    assert first.get_yscale() == "log" and second.get_yscale() == "linear"
    assert [t.get_text() for t in second.texts] == ["no jobs"]
    fig.savefig(tmp_path / "plot.png")


def test_write_x_none_makes_no_metric_plots(demo: StudyResults, tmp_path: Path) -> None:
    written = demo.write(tmp_path / "tables-only", x="none")
    assert written["plots"] == []
    assert "summary.csv" in {p.name for p in written["tables"]}
