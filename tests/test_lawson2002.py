"""Lawson & Smirni 2002's measures and claims (`schedsim.papers.lawson2002`).

The measures by hand on small tables, the claims logic on a hand-made table of
ratios, and the whole report on a small study (KTH's first 400 jobs, the
trace's load, 75% high priority and 5% reservations, both policies) swept in
this process.
"""

from __future__ import annotations

import csv
import json
import math
from typing import Any

import pandas as pd
import pytest

from schedsim.app.report.study_results import StudyResults
from schedsim.app.study import Study
from schedsim.app.sweep import sweep
from schedsim.papers import lawson2002 as paper


def test_slowdown_and_ratio_by_hand() -> None:
    # Jobs (wait, run): (10, 10) s = 2, (0, 5) s = 1, (30, 10) s = 4; a job of no
    # service time has no slowdown. Mean (2 + 1 + 4) / 3 = 7/3.
    jobs = pd.DataFrame({"wait": [10.0, 0.0, 30.0, 50.0], "run": [10.0, 5.0, 10.0, 0.0]})
    assert paper.slowdown(jobs) == pytest.approx(7 / 3)
    # R = (s1 - sm) / min(s1, sm): 3 against 2 is +0.5; 2 against 3 is -0.5.
    assert paper.ratio(3.0, 2.0) == 0.5 and paper.ratio(2.0, 3.0) == -0.5


def test_the_readings_of_equation_2_by_hand() -> None:
    # Jobs (wait, run, lost trial): (190, 20, 180) s, (0, 5, 0) s, (30, 10, 0) s.
    # The jobs' mean: (1 + 190/20 + 1 + 0 + 1 + 3) / 3 = 15.5 / 3. Of the averages:
    # 1 + (220 / 3) / (35 / 3) = 1 + 220/35. The trial as service: job 1 got 200 s of
    # service and waited 10 s: (1.05 + 1 + 4) / 3.
    jobs = pd.DataFrame({"wait": [190.0, 0.0, 30.0], "run": [20.0, 5.0, 10.0],
                         "lost_run": [180.0, 0.0, 0.0]})  # fmt: skip
    assert paper.slowdown(jobs) == pytest.approx(15.5 / 3)
    assert paper.slowdown(jobs, "s of averages") == pytest.approx(1 + 220 / 35)
    assert paper.slowdown(jobs, "trial as service") == pytest.approx(6.05 / 3)
    with pytest.raises(ValueError, match="measure must be one of"):
        paper.slowdown(jobs, "bounded")
    # A reading of the measure names the ratios' rows, not the reservations' rows.
    from schedsim.papers.lawson2002.claims import READINGS

    by = {r.name: r for r in READINGS}
    idle = by["trial idle, trial as service"]
    assert idle.scenario("load x1.25", "SP2") == "load x1.25, trial idle, trial as service"
    assert idle.scenario("1% reservations", "SP2", False) == "1% reservations, trial idle"
    assert by["s of averages"].scenario("trace load", "CTC") == "trace load, s of averages"


def test_classes_of_estimated_run_time() -> None:
    jobs = pd.DataFrame({"estimate": [999.0, 1000.0, 9999.0, 10_000.0, 50_000.0]})
    assert paper.estimate_class(jobs).tolist() == ["short", "medium", "medium", "long", "long"]


def test_scenarios_are_named_as_the_paper_does() -> None:
    assert paper.scenario({"load_factor": 1.0}) == "trace load"
    assert paper.scenario({"load_factor": 1.25}) == "load x1.25"
    assert paper.scenario({"priorities": 0.75}) == "75% high priority"
    assert paper.scenario({"reservations": 0.05, "load_factor": math.nan}) == "5% reservations"
    assert paper.scenario({"params.trial": "scheduled"}) == "trial scheduled"
    assert paper.scenario({"params.trial": "reserved"}) == "trial reserved"
    assert paper.scenario({"params.trial": "waiting"}) == "trace load"
    assert paper.scenario({"params.guard": "return"}) == "guard return"
    assert paper.scenario({"params.guard": "all", "nodes": math.nan}) == "trace load"
    row = {"load_factor": 1.5, "params.trial": "reserved", "params.guard": "return", "nodes": 512}
    assert paper.scenario(row) == "load x1.5, trial reserved, guard return, 512 nodes"
    assert paper.scenario({"params.guard": "reassign", "params.trial": "idle"}) == (
        "trial idle, guard reassign")  # fmt: skip


def test_a_reading_names_the_scenarios_it_reads() -> None:
    from schedsim.papers.lawson2002.claims import READINGS

    by = {r.name: r for r in READINGS}
    assert by["default"].scenario("trace load", "CTC") == "trace load"
    assert by["trial reserved"].scenario("load x1.5", "KTH") == "load x1.5, trial reserved"
    # CTC's machine: CTC reads its own runs, the other traces the reading's base.
    ctc = by["CTC 512 nodes, trial reserved"]
    assert ctc.scenario("trace load", "CTC") == "trial reserved, 512 nodes"
    assert ctc.scenario("trace load", "SP2") == "trial reserved"
    assert by["CTC 430 nodes"].scenario("trace load", "KTH") == "trace load"


def test_the_shipped_study_runs_the_trial_readings_in_every_scenario() -> None:
    # The readings x claims table scores a claim under a reading only where every
    # trace ran under it: "trial idle" and "trial reserved" run all eight scenarios
    # (load, priorities, reservations), the run ids of the older runs unchanged.
    from pathlib import Path

    from schedsim.app.study import load_study

    study = load_study(Path(paper.__file__).parent / "study.toml")
    runs = study.runs()
    assert len(runs) == 262

    # The lending guards run on multiple queues alone, each beside a single queue of its
    # scenario under guard "all" (which `pairs` reads); the machine sizes on CTC alone.
    def scenario_of(run: Any) -> tuple:
        config = run.config.to_dict()
        config = {k: v for k, v in config.items() if k not in ("policy", "params")}
        config["load_factor"] = config["load_factor"] or 1.0  # (left out: the trace's)
        return (json.dumps(config, sort_keys=True), run.config.policy.params["trial"])

    singles = {scenario_of(r) for r in runs if r.config.policy.name == "singlequeue"}
    for run in runs:
        if run.config.policy.params["guard"] != "all":
            assert run.config.policy.name == "multiqueue"
            assert scenario_of(run) in singles
        if run.config.machine.nodes is not None:
            assert run.config.workload.name == "ctc"
    by: dict[str, set[str]] = {}
    for run in runs:
        config = run.config.to_dict()
        row = {**config, **{f"params.{k}": v for k, v in config["params"].items()}}
        by.setdefault(paper.scenario(row), set()).add(config["workload"])
    bases = ["trace load", "load x1.25", "load x1.5", "75% high priority", "95% high priority",
             "1% reservations", "5% reservations", "25% reservations"]  # fmt: skip
    traces = {"ctc", "kth", "sdsc-par", "sdsc-sp2"}
    for trial in ("idle", "reserved"):
        for base in bases:
            name = f"trial {trial}" if base == "trace load" else f"{base}, trial {trial}"
            assert by.get(name) == traces, name
    # Lending partitions with the trial on idle cores: the loads and priorities too.
    for base in bases[:5]:
        for name in ("trial idle, guard return", "trial idle, guard reassign"):
            assert by.get(name if base == "trace load" else f"{base}, {name}") == traces, base
    assert by.get("guard reassign") == traces
    assert by.get("512 nodes") == {"ctc"}


def test_starvation_and_crashed_jobs_by_hand() -> None:
    from types import SimpleNamespace

    # Waits 0, 8 d and 3 d: the longest 8 days, one wait over 7 days. Estimates 2000 s
    # with runs 100 s and 500 s, and 500 s with 100 s: one job of three "crashed".
    jobs = pd.DataFrame({"id": [1, 2, 3], "wait": [0.0, 8 * 86400.0, 3 * 86400.0],
                         "run": [100.0, 500.0, 100.0],
                         "estimate": [2000.0, 2000.0, 500.0]})  # fmt: skip
    result = SimpleNamespace(jobs=jobs)  # (all these read of a run's result)
    found = [({"trace": "KTH", "scenario": "trace load"}, result, result)]
    starved = paper.starvation(found)
    assert starved["longest wait"].tolist() == [8.0, 8.0]
    assert starved["waits over 7 days"].tolist() == [1, 1]
    crashed = paper.crashed(found).iloc[0]
    assert (crashed["jobs"], crashed["crashed"]) == (3, 1)
    assert crashed["proportion"] == pytest.approx(1 / 3) and crashed["paper proportion"] == 0.11


def _table(values: dict[tuple[str, str, str, str], float]) -> pd.DataFrame:
    return pd.DataFrame(
        [{"trace": t, "scenario": s, "class": c, "priority": p, "R": r}
         for (t, s, c, p), r in values.items()]
    )  # fmt: skip


def test_claims_count_the_cases_that_hold() -> None:
    # Two traces at their load: CTC gains (R 0.4 >= 0.10, "better"), SP2 loses (R
    # -0.1): "better on every trace" is not reproduced. Long jobs: CTC gains, SP2
    # loses, as the paper has it: reproduced.
    table = _table(
        {
            ("CTC", "trace load", "all", "all"): 0.4,
            ("SP2", "trace load", "all", "all"): -0.1,
            ("CTC", "trace load", "long", "all"): 0.2,
            ("SP2", "trace load", "long", "all"): -0.3,
        }
    )
    batches = pd.DataFrame(
        {
            "trace": ["CTC"] * 3,
            "scenario": ["trace load"] * 3,
            "priority": ["all"] * 3,
            "R": [0.5, -0.2, 0.1],
        }
    )
    res = pd.DataFrame(
        {"trace": ["CTC"], "share": [0.25], "single missed": [100], "multiple missed": [110]}
    )
    claims = paper.claims.claims(table, batches, res).set_index("claim")
    first = claims.loc["multiple queues give a better slowdown than a single queue, all jobs"]
    assert (first["holds"], first["status"]) == ("1 of 2", "not reproduced")
    assert first["schedsim"] == "CTC +0.40, SP2 -0.10"
    assert first["rule"].startswith("at least 0.1; direction only: above 0")
    long_jobs = claims.loc["long jobs gain on CTC and KTH, lose on the two SDSC traces"]
    assert long_jobs["status"] == "reproduced"
    batches_claim = claims.loc["R > 0 for a majority of the batches of 1000 submissions"]
    assert batches_claim["schedsim"] == "CTC 0.67"  # a share: a fraction
    assert batches_claim["status"] == "reproduced"
    missed = claims.loc["single and multiple queues miss roughly as many reservations"]
    assert missed["status"] == "reproduced"  # 110 against 100: within 25%
    # Scenarios that did not run: no case, "not checked".
    heavy = claims[claims["where"].str.startswith("Figure 5(a)")]
    assert set(heavy["status"]) == {"not checked"}


def test_a_better_slowdown_below_the_reading_goes_the_papers_way_only() -> None:
    # "Better" reads R >= 0.10: R +0.05 on both traces is direction only, and a
    # reading whose runs miss a trace is not checked.
    from schedsim.papers.lawson2002.claims import READINGS, readings

    table = _table({("CTC", "trace load", "all", "all"): 0.05,
                    ("KTH", "trace load", "all", "all"): 0.05,
                    ("CTC", "trial reserved", "all", "all"): 0.3,
                    ("KTH", "trial reserved", "all", "all"): 0.2,
                    ("CTC", "512 nodes", "all", "all"): 0.3})  # fmt: skip
    empty = pd.DataFrame(columns=["trace", "scenario", "priority", "R"])
    res = pd.DataFrame(columns=["trace", "share", "single missed", "multiple missed"])
    got = readings(table, empty, res)
    assert list(got) == [r.name for r in READINGS]
    first = {name: results[0].status for name, results in got.items()}
    assert first["default"] == "direction only"
    assert first["trial reserved"] == "reproduced"
    assert first["CTC 512 nodes"] == "direction only"  # KTH +0.05 (its default runs)
    assert first["guard return"] == "not checked"
    from schedsim.app.claims import readings_markdown, readings_table

    text = readings_markdown(readings_table(got))
    best = "The reading that reproduces the most headline claims: **trial reserved** (1 of 6)"
    assert best in text


@pytest.fixture(scope="module")
def study_dir(tmp_path_factory):
    study = Study(
        name="lawson-small",
        base={"workload": "kth", "first": 400},
        grid={"policy": ["singlequeue", "multiqueue"]},
        variants=[{"load_factor": 1.0}, {"priorities": 0.75}, {"reservations": 0.05},
                  {"params": {"trial": "scheduled"}},
                  {"policy": "multiqueue", "params": {"guard": "return"}}],
        report={"paper": "lawson2002", "baseline": "singlequeue", "kind": "R", "x": "none"},
    )  # fmt: skip
    directory = tmp_path_factory.mktemp("study") / "lawson-small"
    sweep(study, directory, workers=0, progress=False)
    return directory


def test_the_report_of_a_small_study(study_dir, tmp_path) -> None:
    results = StudyResults.load(study_dir)
    found = paper.pairs(results)
    assert sorted(c["scenario"] for c, _, _ in found) == [
        "5% reservations", "75% high priority", "guard return", "trace load", "trial scheduled",
    ]  # fmt: skip
    # A guard run on multiple queues alone pairs with the single queue under guard "all"
    # (the same schedule as under any guard: one partition lends nothing).
    lend = next(f for f in found if f[0]["scenario"] == "guard return")
    plain = next(f for f in found if f[0]["scenario"] == "trace load")
    assert lend[1].meta["run_id"] == plain[1].meta["run_id"]
    assert lend[2].meta["policy_params"]["guard"] == "return"
    # The trial's readings pair apart: each pair's two runs read it alike.
    for config, one, many in found:
        trial = "scheduled" if config["scenario"] == "trial scheduled" else "waiting"
        assert one.meta["policy_params"]["trial"] == many.meta["policy_params"]["trial"] == trial
    table = paper.aggregate(found)
    at_load = table[(table["scenario"] == "trace load") & (table["priority"] == "all")]
    assert set(at_load["class"]) == {"all", "short", "medium", "long"}
    # R from the two runs' slowdowns, recomputed here from the job tables.
    _, single, multi = next(f for f in found if f[0]["scenario"] == "trace load")
    s1, sm = paper.slowdown(single.jobs), paper.slowdown(multi.jobs)
    row = at_load[at_load["class"] == "all"].iloc[0]
    assert (row["s1"], row["sm"]) == (s1, sm) and row["R"] == paper.ratio(s1, sm)
    assert set(table.loc[table["scenario"] == "75% high priority", "priority"]) == {
        "all", "high", "low",
    }  # fmt: skip
    res, delays = paper.reservations(found)
    assert len(res) == 1 and res["requested"].iloc[0] > 0
    assert (delays["delay"] >= 0).all()
    # The shares of the reservations missed are fractions (0-1), as every share.
    one = res.iloc[0]
    assert one["single missed share"] == one["single missed"] / one["requested"]
    assert 0.0 <= one["multiple missed share"] <= 1.0
    assert not [c for c in res.columns if "%" in c]
    tables, plots, claims = paper.write(results, tmp_path)
    assert {p.name for p in tables} >= {"claims.csv", "lawson2002-slowdown-ratios.csv"}
    assert all(p.exists() and p.stat().st_size > 0 for p in plots)
    assert set(claims["status"]) <= {"reproduced", "direction only", "not reproduced",
                                     "not checked"}  # fmt: skip
    written = pd.read_csv(tmp_path / "claims.csv")
    assert list(written.columns) == ["claim", "where", "paper", "schedsim", "holds", "status",
                                     "rule"]  # fmt: skip
    # The readings x claims table, read back: one column per reading, the headline marks.
    readings = pd.read_csv(tmp_path / "lawson2002-readings.csv")
    assert list(readings.columns[:4]) == ["claim", "where", "headline", "default"]
    assert readings["headline"].sum() == 6
    assert "trial scheduled" in readings and "Starvation" in (
        tmp_path / "lawson2002-readings.md").read_text()  # fmt: skip
    with (tmp_path / "lawson2002-starvation.csv").open(newline="") as f:
        starved = list(csv.DictReader(f))
    assert {"longest wait (days)", "waits over 7 days (jobs)"} <= set(starved[0])
    # Read back with the standard library: the shares named "(fraction)", the same numbers.
    with (tmp_path / "lawson2002-missed-reservations.csv").open(newline="") as f:
        (row,) = list(csv.DictReader(f))
    assert float(row["single missed share (fraction)"]) == pytest.approx(one["single missed share"])
    assert {"multiple missed share (fraction)", "paper single missed share (fraction)"} <= set(row)
    # Figure 11: the share of the reservations delayed longer than x, 0-1.
    ax = paper.delay_figure(delays).axes[0]
    assert ax.get_ylabel() == "reservations delayed longer (fraction)"
    assert max(max(line.get_ydata()) for line in ax.get_lines()) <= 1.0


def test_schedsim_report_prints_the_claims(study_dir, tmp_path, capsys) -> None:
    from schedsim.app.cli import main

    assert main(["report", str(study_dir), "--out", str(tmp_path / "report")]) == 0
    out = capsys.readouterr().out
    assert "The paper's claims (lawson2002)" in out
    assert (tmp_path / "report" / "lawson2002-R-by-class.png").exists()


def test_the_report_of_a_study_without_the_trace_load_scenario(tmp_path) -> None:
    # Only the trial read as a reservation (no "trace load" run): the tables are
    # written and the figures of the scenarios not run left out, not a crash.
    study = Study(
        name="lawson-reserved",
        base={"workload": "kth", "first": 400, "params": {"trial": "reserved"}},
        grid={"policy": ["singlequeue", "multiqueue"]},
        report={"paper": "lawson2002", "baseline": "singlequeue(trial=reserved)", "kind": "R",
                "x": "none"},
    )  # fmt: skip
    directory = tmp_path / "lawson-reserved"
    sweep(study, directory, workers=0, progress=False)
    results = StudyResults.load(directory)
    assert [c["scenario"] for c, _, _ in paper.pairs(results)] == ["trial reserved"]
    (tmp_path / "report").mkdir()
    tables, plots, _ = paper.write(results, tmp_path / "report")
    assert tmp_path / "report" / "lawson2002-slowdown-ratios.csv" in tables
    ratios = pd.read_csv(tmp_path / "report" / "lawson2002-slowdown-ratios.csv")
    # (and under Equation 2's two other readings, rows of their own)
    assert set(ratios["scenario"]) == {"trial reserved", "trial reserved, s of averages",
                                       "trial reserved, trial as service"}  # fmt: skip
    assert "lawson2002-R-by-class" not in {p.stem for p in plots}
