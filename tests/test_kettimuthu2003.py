"""Kettimuthu 2003's claims (schedsim.papers.kettimuthu2003): the status rule, the
readings of SS and TSS, claims scored from hand-made tables (SS clearly better than NS,
then clearly worse), and the report of a study directory written by hand."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pandas as pd
import pytest
from category_jobs import category_jobs
from test_report import run, write_study

from schedsim.app.report import load_results
from schedsim.app.study import paper_analyses
from schedsim.model.categories import CATEGORIES, CATEGORIES4
from schedsim.model.results import Result
from schedsim.papers import kettimuthu2003 as paper

VS_S = "SS is significantly better than NS for the VS and S categories"
TSS_SIX = "TSS improves the worst-case slowdown of VL W, VL VW, L N, VS Seq, VS N and S Seq"
SHORT_LOAD = "SS benefits the short jobs significantly at every load"
MIX = "the job mix over the 16 categories is Table 2.2's"
SATURATES = "the machine saturates at load 1.6"
MIX4 = "the job mix over the 4 categories of the load study is Table 4.2's"

# --------------------------------------------------------------------------- #
# Hand-made tables: every category has the same values unless told otherwise
# --------------------------------------------------------------------------- #

BASE = {"jobs": 10.0, "mean_bounded_slowdown": 4.0, "mean_turnaround": 4000.0,
        "max_bounded_slowdown": 40.0, "max_turnaround": 40_000.0}  # fmt: skip


def _cats(label: str, accurate: bool = True, load: float = 1.0, scheme: str = "16",
          estimate: str = "all", scale: Mapping[str, float] | None = None,
          columns: tuple[str, ...] = tuple(BASE)) -> pd.DataFrame:  # fmt: skip
    """One run's rows of a `category_values` table: `BASE`, times ``scale[category]`` in
    ``columns`` (jobs excepted)."""
    names = CATEGORIES if scheme == "16" else CATEGORIES4
    rows: list[dict[str, Any]] = []
    for c in names:
        factor = (scale or {}).get(c, 1.0)
        rows.append({"label": label, "accurate": accurate, "overhead": "", "load_factor": load,
                     "scheme": scheme, "estimate": estimate, "category": c,
                     **{k: v * (factor if k in columns and k != "jobs" else 1.0)
                        for k, v in BASE.items()}})  # fmt: skip
    return pd.DataFrame(rows)


def _overall(labels: list[str], accurate: bool = True, load: float = 1.0) -> pd.DataFrame:
    return pd.DataFrame([{"label": lab, "accurate": accurate, "overhead": "",
                          "load_factor": load, "mean_bounded_slowdown": 4.0,
                          "mean_turnaround": 4000.0, "utilization": 0.5, "suspensions": 0.0}
                         for lab in labels])  # fmt: skip


SHORT = {c: 0.1 for c in CATEGORIES if c.split()[0] in ("VS", "S")}


def _row(table: pd.DataFrame, claim: str) -> pd.Series:
    rows = table[table["claim"] == claim]
    assert len(rows) == 1, f"{claim!r} not in the table"
    return rows.iloc[0]


# --------------------------------------------------------------------------- #
# The rules
# --------------------------------------------------------------------------- #


def test_the_words_are_rules_with_a_direction() -> None:
    # (reproduced, goes the thesis's way): "much better" is at most 0.8, direction only
    # below 1; "slightly worse" between 1 and 1.25, direction only above 1.
    assert paper.MUCH_BETTER(0.8) == (True, True)
    assert paper.MUCH_BETTER(0.9) == (False, True) and paper.MUCH_BETTER(1.1) == (False, False)
    assert paper.SLIGHTLY_WORSE(1.1) == (True, True) and paper.SLIGHTLY_WORSE(1.3) == (False, True)
    assert paper.SLIGHTLY_BETTER(0.7) == (False, True) and paper.SLIGHTLY_BETTER(1.0)[1] is False
    # Saturation from 1.6 to 1.8 (12.5% more work): a level within half of that rise.
    assert paper.SATURATED(1.05) == (True, True) and paper.SATURATED(0.95) == (True, True)
    assert paper.SATURATED(1.07) == (False, True)  # rises, but less than the work offered
    assert paper.SATURATED(1.13) == (False, False) and paper.SATURATED(0.93) == (False, True)
    assert paper.UNDER_3(2.9) == (True, True) and paper.UNDER_3(20.0) == (False, True)


def test_the_words_made_numbers() -> None:
    # Significant: a factor 1.25 either way; comparable: 1.1.
    assert paper.much_better(0.8) and not paper.much_better(0.81)
    assert paper.slightly_better(0.9) and not paper.slightly_better(0.8)
    assert paper.much_worse(1.25) and paper.slightly_worse(1.2) and not paper.slightly_worse(1.0)
    assert paper.comparable(1.1) and paper.comparable(1 / 1.1) and not paper.comparable(1.11)
    assert paper.not_worse(0.2) and not paper.not_worse(1.11)
    # Table 2.2 read transposed: its sums by Table 4.1's categories are Table 4.2.
    mix = dict(zip(CATEGORIES, paper.THESIS_MIX, strict=True))
    sn = sum(mix[f"{r} {s}"] for r in ("VS", "S") for s in ("Seq", "N"))
    lw = sum(mix[f"{r} {s}"] for r in ("L", "VL") for s in ("W", "VW"))
    assert (sn, lw) == (44, 13) and sum(paper.THESIS_MIX) == 100


def test_readings_are_named_after_ss_sf2_and_tss() -> None:
    labels = ["NS", "SS sf=1.5", "SS sf=2", "SS sf=2.5", "SS sf=2 resume=start", "TSS",
              "TSS averages=running", "TSS resume=start", "IS"]  # fmt: skip
    got = {r.name: r for r in paper.readings.readings(labels)}
    assert list(got) == ["default", "resume=start", "averages=running"]  # sf=2.5 is none
    assert got["default"] == paper.Reading("default", "SS sf=2", "TSS", "SS sf=2",
                                           "SS sf=1.5", None)  # fmt: skip
    resume = got["resume=start"]
    assert (resume.ss, resume.tss, resume.tss_ss) == (
        "SS sf=2 resume=start", "TSS resume=start", "SS sf=2 resume=start",
    )  # fmt: skip
    assert resume.sf15 is None  # the SF trends need SF 1.5 and 5 of the same reading
    # A reading of TSS alone sets its TSS against the default SS.
    alone = got["averages=running"]
    assert (alone.ss, alone.tss, alone.tss_ss) == (None, "TSS averages=running", "SS sf=2")


def test_a_reading_of_tss_and_ss_sets_its_tss_against_that_ss_reading() -> None:
    # TSS under SS's hold=all and its own reentry=open is set against SS under hold=all:
    # the change of TSS is then its protection's alone.
    labels = ["NS", "SS sf=2", "SS sf=2 hold=all", "TSS", "TSS hold=all reentry=open",
              "TSS hold=top reentry=limit", "IS"]  # fmt: skip
    got = {r.name: r for r in paper.readings.readings(labels)}
    both = got["hold=all reentry=open"]
    assert (both.ss, both.tss, both.tss_ss) == (
        None, "TSS hold=all reentry=open", "SS sf=2 hold=all",
    )  # fmt: skip
    # Without SS's run of that reading, TSS has nothing to be set against: not checked.
    assert got["hold=top reentry=limit"].tss_ss is None
    assert paper.readings.ss_part("hold=all reentry=open averages=thesis") == "hold=all"


# --------------------------------------------------------------------------- #
# Claims from hand-made tables
# --------------------------------------------------------------------------- #


def test_ss_clearly_better_for_short_jobs_is_reproduced_and_worse_is_not() -> None:
    overall = _overall(["NS", "SS sf=2"])
    better = pd.concat([_cats("NS"), _cats("SS sf=2", scale=SHORT)])
    row = _row(paper.claims.claims(overall, better), VS_S)
    assert (row["holds"], row["status"]) == ("16 of 16", "reproduced")
    assert row["schedsim"] == "every case holds"  # more than 8 cases: the failures only
    worse = pd.concat([_cats("NS"), _cats("SS sf=2", scale={c: 10.0 for c in SHORT})])
    row = _row(paper.claims.claims(overall, worse), VS_S)
    assert (row["holds"], row["status"]) == ("0 of 16", "not reproduced")
    assert row["schedsim"].startswith("fails: VS Seq slowdown +900%")
    # 15% better is better, but not significantly: half the cases (slowdowns) hold.
    slightly = _cats("SS sf=2", scale={c: 0.85 for c in SHORT})
    much = _cats("SS sf=2", scale=SHORT)
    slightly["mean_bounded_slowdown"] = much["mean_bounded_slowdown"]
    mixed = pd.concat([_cats("NS"), slightly])
    row = _row(paper.claims.claims(overall, mixed), VS_S)
    assert (row["holds"], row["status"]) == ("8 of 16", "direction only")


def test_claims_without_their_runs_are_left_out() -> None:
    table = paper.claims.claims(_overall(["NS"]), _cats("NS"))
    assert VS_S not in set(table["claim"])  # no SS run
    assert MIX in set(table["claim"])  # NS alone: the job mix is scored
    assert list(table.columns) == [*paper.COLUMNS, "rule", "reads", "headline"]  # no reading
    assert set(table["status"]) <= set(paper.STATUSES)


def test_the_job_mix_and_table_2_3() -> None:
    jobs = {c: float(s) for c, s in zip(CATEGORIES, paper.THESIS_MIX, strict=True)}
    sld = dict(zip(CATEGORIES, paper.THESIS_SLOWDOWN, strict=True))
    ns = _cats("NS")
    ns["jobs"] = ns["category"].map(jobs)
    ns["mean_bounded_slowdown"] = ns["category"].map(sld) * 1.2  # within a factor 1.25
    ns.loc[ns["category"] == "VS VW", "mean_bounded_slowdown"] = 60.0  # 34.07: too far
    table = paper.claims.claims(_overall(["NS"]), ns)
    assert _row(table, MIX)["status"] == "not checked"  # calibrated
    for claim in ("NS's overall slowdown is 3.58",
                  'NS\'s utilization under normal load is 0.51 ("51 percent")'):  # fmt: skip
        assert _row(table, claim)["status"] == "not checked"
    t23 = _row(table, "NS's average slowdown per category is Table 2.3's")
    # The subset was fitted to these values: shown, but not evidence (not checked).
    assert (t23["holds"], t23["status"]) == ("15 of 16", "not checked")
    assert t23["schedsim"].startswith("calibrated, not evidence")
    assert "VS VW 60.0 (34.07)" in t23["schedsim"] and "[calibrated]" in t23["paper"]


def test_each_reading_gets_its_own_columns_and_counts() -> None:
    labels = ["NS", "SS sf=2", "SS sf=2 resume=start", "TSS", "TSS averages=running"]
    # TSS: SS's values, halved in the six categories of section 3.5.2.
    tss = {c: SHORT.get(c, 1.0) * (0.5 if c in paper.TSS_BETTER else 1.0) for c in CATEGORIES}
    cats = pd.concat([
        _cats("NS"), _cats("SS sf=2", scale=SHORT),
        _cats("SS sf=2 resume=start", scale={c: 10.0 for c in SHORT}),
        _cats("TSS", scale=tss),
        _cats("TSS averages=running", scale={c: 2.0 for c in CATEGORIES}),
    ])  # fmt: skip
    scored = paper.claims.score_all(_overall(labels), cats)
    table = paper.claims.table(scored)
    assert list(table.columns) == [
        *paper.COLUMNS,
        "schedsim [resume=start]", "holds [resume=start]", "status [resume=start]",
        "schedsim [averages=running]", "holds [averages=running]", "status [averages=running]",
        "rule", "reads", "headline",
    ]  # fmt: skip
    row = _row(table, VS_S)
    assert (row["status"], row["status [resume=start]"]) == ("reproduced", "not reproduced")
    assert row["status [averages=running]"] == ""  # a reading of TSS alone: SS unchanged
    assert row["headline"] and row["rule"] == "r = SS / NS: at most 0.8; direction only: below 1"
    # The TSS claims: the default TSS beats SS on the six; the other reading's TSS is
    # twice the default SS's everywhere; the reading of SS alone leaves TSS to the default.
    tss = _row(table, TSS_SIX)
    assert (tss["holds"], tss["status"]) == ("6 of 6", "reproduced")
    assert (tss["holds [averages=running]"], tss["status [averages=running]"]) == (
        "0 of 6", "not reproduced",
    )  # fmt: skip
    assert tss["status [resume=start]"] == "" and tss["reads"] == "TSS"
    # NS's own claims belong to no reading; the SF trends need SF 1.5 and 5.
    assert _row(table, MIX)["status [resume=start]"] == ""
    # Per reading every claim's verdict, its own where it has one, else the default's.
    counts = paper.summary(scored).set_index("reading")
    assert list(counts.index) == ["default", "resume=start", "averages=running"]
    assert (counts["claims"] == len(table)).all()
    assert counts.loc["default", "reproduced"] == (table["status"] == "reproduced").sum()
    verdicts = paper.readings_verdicts(scored).set_index("claim")
    assert verdicts.loc[VS_S, "resume=start"] == "not reproduced"
    assert verdicts.loc[MIX, "resume=start"] == verdicts.loc[MIX, "default"]
    heads = int(verdicts["headline"].sum())
    assert counts.loc["default", "headline"] == heads
    assert (
        counts.loc["resume=start", "headline reproduced"]
        < counts.loc["default", "headline reproduced"]
    )
    assert "| SS is significantly better" in paper.markdown(table, "resume=start")


def test_load_claims_read_every_load_factor() -> None:
    overall = pd.concat([_overall(["NS", "SS sf=2", "IS"], accurate=False, load=x)
                         for x in (1.0, 1.2, 1.4)])  # fmt: skip
    short4 = {"SN": 0.5, "SW": 0.5}
    cats = pd.concat([
        frame
        for x in (1.0, 1.2, 1.4)
        for frame in (_cats("NS", False, x, "4"), _cats("IS", False, x, "4"),
                      _cats("SS sf=2", False, x, "4", scale=short4 if x < 1.4 else None))
    ])  # fmt: skip
    table = paper.claims.claims(overall, cats)
    # The trends against the normal load: SN and SW lose their gain at 1.4 (4 of 16 cases).
    trends = _row(
        table, "the trends per category under higher loads are those under the normal load"
    )
    assert (trends["holds"], trends["status"]) == ("12 of 16", "reproduced")
    row = _row(table, SHORT_LOAD)
    # SN and SW, slowdown and turnaround, at 3 loads: the gain is gone at load 1.4.
    assert (row["holds"], row["status"]) == ("8 of 12", "not reproduced")
    assert "load 1.4 SN slowdown +0%" in row["schedsim"]


# --------------------------------------------------------------------------- #
# A study directory written by hand
# --------------------------------------------------------------------------- #

CORES = 430


def _result(slowdown: Mapping[str, float]) -> Result:
    """Two jobs per category, each of bounded slowdown ``slowdown[category]`` (1 if
    not given) and estimated exactly."""
    twice = [label for label in CATEGORIES for _ in range(2)]
    jobs = category_jobs(
        (label, 100.0 * i, slowdown.get(label, 1.0)) for i, label in enumerate(twice)
    )
    series = pd.DataFrame({"time": [0.0], "busy_cores": [0.5 * CORES], "busy_nodes": [0],
                           "queued": [0], "running": [0], "suspended": [0]})  # fmt: skip
    end = float(jobs["end"].max())
    return Result(jobs=jobs, series=series, meta={"total_cores": CORES, "start": 0.0, "end": end})


def _write_study(root: Path, runs: dict[str, tuple[str, Result]]) -> Path:
    """A study directory as the sweep writes it (`test_report.write_study`)."""
    entries = [run(rid, label, 0, workload="ctc", first=None, nodes=CORES, policy="easy",
                   exact_estimates=True, seed=1) for rid, (label, _) in runs.items()]  # fmt: skip
    report = {"paper": "kettimuthu2003", "x": "none", "metrics": ["mean_bounded_slowdown"]}
    results = {rid: result for rid, (_, result) in runs.items()}
    return write_study(root, entries, "kettimuthu-small", report, results)


def test_the_paper_is_registered() -> None:
    assert paper_analyses()["kettimuthu2003"] == "schedsim.papers.kettimuthu2003"


def test_the_report_of_a_small_study(tmp_path: Path) -> None:
    ns = {c: 20.0 for c in CATEGORIES if c.split()[0] in ("VS", "S")}
    runs = {
        "ns": ("NS", _result(ns)),
        "ss": ("SS sf=2", _result({c: 1.5 for c in ns})),
        "ss-late": ("SS sf=2 resume=start", _result({c: 40.0 for c in ns})),
    }
    directory = _write_study(tmp_path / "s", runs)
    written = load_results(directory).write()  # through write_report and paper_analyses
    names = {p.name for p in written["tables"]}
    assert {"claims.csv", "kettimuthu2003-summary.csv", "kettimuthu2003-categories.csv",
            "kettimuthu2003-overall.csv", "kettimuthu2003-claims.md"} <= names  # fmt: skip
    report = directory / "report"
    claims = pd.read_csv(report / "claims.csv", keep_default_na=False).set_index("claim")
    assert claims.loc[VS_S, "status"] == "reproduced"
    assert claims.loc[VS_S, "status [resume=start]"] == "not reproduced"
    cats = pd.read_csv(report / "kettimuthu2003-categories.csv")
    assert {"mean_bounded_slowdown (ratio)", "max_turnaround (s)", "jobs (jobs)"} <= set(cats)
    ns_vs = cats[(cats["label"] == "NS") & (cats["category"] == "VS Seq")
                 & (cats["estimate"] == "all")]  # fmt: skip
    assert ns_vs["mean_bounded_slowdown (ratio)"].tolist() == pytest.approx([20.0])
    counts = pd.read_csv(report / "kettimuthu2003-summary.csv")
    assert list(counts["reading"].unique()) == ["default", "resume=start"]
    text = (report / "kettimuthu2003-claims.md").read_text()
    assert "## Reading: resume=start" in text and "| reading | claims | reproduced |" in text
    assert "## Readings x claims" in text and "headline claims reproduced" in text
    assert "## Reading: window=arrivals" not in text  # no load study: no arrival window
    assert "## The load study" not in text


def test_saturation_reads_the_load_beyond_the_series_and_the_window() -> None:
    # NS and SS at the normal load 0.8, the thesis's 1.6 (1.28) and 1.8 (1.44).
    util = {"NS": {0.8: 0.5, 1.28: 0.78, 1.44: 0.80}, "SS sf=2": {0.8: 0.5, 1.28: 0.58,
                                                                 1.44: 0.70}}  # fmt: skip
    arrivals = {"NS": {0.8: 0.5, 1.28: 0.80, 1.44: 0.82}, "SS sf=2": {0.8: 0.5, 1.28: 0.70,
                                                                     1.44: 0.72}}  # fmt: skip
    rows = []
    for label in ("NS", "SS sf=2"):
        for load in (0.8, 1.28, 1.44):
            frame = _overall([label], accurate=False, load=load)
            frame["utilization"] = util[label][load]
            frame["utilization_arrivals"] = arrivals[label][load]
            rows.append(frame)
    cats = pd.concat([_cats(lab, False, x, "4", scale={"SN": 0.5} if lab != "NS" else None)
                      for lab in ("NS", "SS sf=2") for x in (0.8, 1.28, 1.44)])  # fmt: skip
    table = paper.claims.claims(pd.concat(rows), cats)
    row = _row(table, SATURATES)
    # Whole run: NS +2.6% (a level), SS +20.7% (no saturation); over the arrivals: both
    # level (+2.5%, +2.9%).
    assert row["schedsim"] == "load 1.28 -> 1.44; NS 0.780 -> 0.800 (+3%), SS 0.580 -> 0.700 (+21%)"
    assert (row["holds"], row["status"]) == ("1 of 2", "not reproduced")
    assert (row["holds [window=arrivals]"], row["status [window=arrivals]"]) == (
        "2 of 2", "reproduced")  # fmt: skip
    # The load beyond the thesis's series is the saturation claim's only.
    short = _row(table, SHORT_LOAD)
    assert "1.44" not in short["schedsim"] and short["holds"] == "4 of 8"
    # A claim that does not read the utilization is not scored again over the window.
    assert short["status [window=arrivals]"] == ""


def test_load_metrics_of_a_run_with_suspensions() -> None:
    # Three jobs on a 4-node machine: job 1 runs on nodes 0-1 over [0, 100); job 2 is
    # submitted at 10, runs on 0-3 over [10, 30) while job 1 is suspended (home 0-1),
    # and job 3, submitted at 20, is suspended over [25, 60) with its home on 1-2.
    jobs = pd.DataFrame({"id": [1, 2, 3], "submit": [0.0, 10.0, 20.0],
                         "start": [0.0, 10.0, 20.0], "end": [120.0, 30.0, 70.0],
                         "run": [100.0, 20.0, 15.0], "size": [2, 4, 2]})  # fmt: skip
    jobs = jobs.assign(wait=jobs["end"] - jobs["submit"] - jobs["run"], estimate=jobs["run"],
                       work=jobs["run"], nodes=["0-1", "0-3", "1-2"], outcome="completed",
                       suspensions=[1, 0, 1], suspended_time=[20.0, 0.0, 35.0], user=1)  # fmt: skip
    pieces = pd.DataFrame({
        "job": [1, 1, 2, 1, 3, 3, 3], "attempt": 1,
        "kind": ["run", "suspended", "run", "run", "run", "suspended", "run"],
        "start": [0.0, 10.0, 10.0, 30.0, 20.0, 25.0, 60.0],
        "end": [10.0, 30.0, 30.0, 120.0, 25.0, 60.0, 70.0],
        "nodes": ["0-1", "0-1", "0-3", "0-1", "1-2", "1-2", "1-2"],
    })  # fmt: skip
    series = pd.DataFrame({"time": [0.0, 10.0, 30.0, 120.0], "busy_cores": [2, 4, 4, 0],
                           "busy_nodes": [2, 4, 4, 0],
                           "queued": 0, "running": 0, "suspended": 0})  # fmt: skip
    result = Result(jobs=jobs, series=series, pieces=pieces,
                    meta={"total_cores": 4, "nodes": 4, "start": 0.0, "end": 120.0})  # fmt: skip
    got = paper.load.run_metrics(result)
    # Arrivals [0, 20]: 2 cores for 10 s, 4 for 10 s -> 60 / 80.
    assert got["utilization_arrivals"] == pytest.approx(60.0 / 80.0)
    assert got["drain"] == pytest.approx(100.0 / 3600.0)
    # At the last submit (20) job 1 is suspended on 0-1: nodes 0, 1 hold one home each.
    assert (got["suspended_last"], got["homes_max"]) == (1.0, 1.0)
    assert got["homes_mean"] == pytest.approx(2 / 4)
    # Over [25, 30) jobs 1 and 3 both have a home on node 1.
    assert got["homes_peak"] == 2.0


def test_the_reading_normal_1_0_starts_the_load_series_at_the_original_trace() -> None:
    # The study's normal load 0.8 (series 0.8 ... 1.28, beyond 1.44) and the original
    # trace's, 1.0 (series 1.0 ... 1.6, beyond 1.8), in one table.
    util = {0.8: 0.5, 1.28: 0.78, 1.44: 0.85, 1.0: 0.6, 1.6: 0.90, 1.8: 0.91}
    rows = []
    for label in ("NS", "SS sf=2"):
        for load, u in util.items():
            frame = _overall([label], accurate=False, load=load)
            frame["utilization"] = u
            rows.append(frame)
    cats = pd.concat([_cats(lab, False, x, "4") for lab in ("NS", "SS sf=2") for x in util])
    scored = paper.claims.score_all(pd.concat(rows), cats)
    assert [r.name for r in scored.readings] == ["default", "normal=1.0"]
    table = paper.claims.table(scored)
    row = _row(table, SATURATES)
    # From 0.8: +9% past 1.28, not a level; from 1.0: +1% past 1.6, a level.
    assert row["schedsim"].startswith("load 1.28 -> 1.44;") and row["status"] == "direction only"
    assert row["schedsim [normal=1.0]"].startswith("load 1.6 -> 1.8;")
    assert row["status [normal=1.0]"] == "reproduced"
    # Each series holds its own loads only: 1.0 is not the thesis's 1.25 from 0.8.
    short = _row(table, SHORT_LOAD)
    assert "load 1 " not in short["schedsim"] and "load 1.6 " not in short["schedsim"]
    assert "load 1.28 " not in short["schedsim [normal=1.0]"]
    # The claims outside the load series are not the reading's.
    assert _row(table, MIX4)["status [normal=1.0]"] == ""


UTIL_HIGHER = "SS achieves a better utilization than NS at higher loads"


def test_the_reading_normal_0_75_runs_each_ss_reading_from_the_lower_normal_load() -> None:
    # The study's normal load 0.8 (its chapter-3 runs, accurate estimates) and a lower
    # one, 0.75: the series 0.8 ... 1.28 (1.2 is its 1.5) and 0.75 ... 1.2 (its 1.6).
    # SS hold=all is above NS at 1.2 and below at 1.28; the default SS below at both.
    util = {"NS": {0.75: 0.5, 0.8: 0.5, 1.2: 0.74, 1.28: 0.78},
            "SS sf=2": {0.75: 0.5, 0.8: 0.5, 1.2: 0.60, 1.28: 0.58},
            "SS sf=2 hold=all": {0.75: 0.5, 0.8: 0.5, 1.2: 0.75, 1.28: 0.77}}  # fmt: skip
    rows = [_overall(list(util), accurate=True, load=0.8)]
    for label, by_load in util.items():
        for load, u in by_load.items():
            frame = _overall([label], accurate=False, load=load)
            frame["utilization"] = u
            rows.append(frame)
    cats = pd.concat([_cats(lab, acc, x, "4") for lab in util
                      for acc, loads in ((True, (0.8,)), (False, tuple(util[lab])))
                      for x in loads])  # fmt: skip
    scored = paper.claims.score_all(pd.concat(rows), cats)
    # Every SS reading with runs over the lower series gets one; the study's normal load
    # stays 0.8 (the accurate runs'), though the trace's lowest is 0.75.
    assert [r.name for r in scored.readings] == ["default", "hold=all", "normal=0.75",
                                                 "hold=all normal=0.75"]  # fmt: skip
    table = paper.claims.table(scored)
    row = _row(table, UTIL_HIGHER)
    assert row["schedsim"] == "load 1.28 0.580 vs 0.780" and row["status"] == "not reproduced"
    assert row["status [hold=all]"] == "not reproduced"
    assert row["schedsim [normal=0.75]"] == "load 1.2 0.600 vs 0.740"
    assert row["schedsim [hold=all normal=0.75]"] == "load 1.2 0.750 vs 0.740"
    assert row["status [hold=all normal=0.75]"] == "reproduced"
    # Outside the load study a normal reading takes its base reading's verdicts.
    assert scored.base(scored.readings[3]) == "hold=all"
    mix = _row(table, MIX4)
    assert mix["status [hold=all normal=0.75]"] == ""


OVERHEAD = "with the suspension overhead SS is significantly better than NS and IS"
OVERHEAD_SAME = "the suspension overhead does not significantly affect SS"


def test_the_reading_overhead_accurate_scores_the_overhead_claims_on_accurate_runs() -> None:
    # The overhead with the trace's estimates (SS 0.9 of IS) and with accurate ones (SS
    # 0.7 of IS); NS 4.0 in both. Each scenario's SS also runs without the overhead.
    slowdowns = {(False, "memory"): {"NS": 4.0, "IS": 2.0, "SS sf=2": 1.8},
                 (True, "memory"): {"NS": 4.0, "IS": 2.0, "SS sf=2": 1.4},
                 (False, ""): {"NS": 4.0, "IS": 2.0, "SS sf=2": 1.8},
                 (True, ""): {"NS": 4.0, "IS": 2.0, "SS sf=2": 1.4}}  # fmt: skip
    rows, cats = [], []
    for (accurate, overhead), values in slowdowns.items():
        frame = _overall(list(values), accurate=accurate, load=0.8).assign(overhead=overhead)
        frame["mean_bounded_slowdown"] = frame["label"].map(values)
        rows.append(frame)
        cats += [_cats(lab, accurate, 0.8).assign(overhead=overhead) for lab in values]
    scored = paper.claims.score_all(pd.concat(rows), pd.concat(cats))
    assert [r.name for r in scored.readings] == ["default", "overhead=accurate"]
    accurate = scored.readings[1]
    assert (accurate.ss, accurate.with_overhead, accurate.without_overhead) == (
        "SS sf=2", "overhead, accurate", "accurate")  # fmt: skip
    table = paper.claims.table(scored)
    row = _row(table, OVERHEAD)
    # The trace's: SS 55% below NS, only 10% below IS ("significant" needs 20%).
    assert row["status"] == "direction only" and "SS vs IS -10%" in row["schedsim"]
    assert row["status [overhead=accurate]"] == "reproduced"
    assert "SS vs IS -30%" in row["schedsim [overhead=accurate]"]
    # The overhead moves no category in either (each against its own estimates).
    same = _row(table, OVERHEAD_SAME)
    assert same["status"] == same["status [overhead=accurate]"] == "reproduced"
    # Claims on no overhead run are not the reading's.
    assert _row(table, VS_S)["status [overhead=accurate]"] == ""
    # Its results table takes the default's verdict for those.
    names = [c.claim for c in scored.claims]
    base = scored.results("default")
    got = scored.results("overhead=accurate")
    assert got[names.index(VS_S)] == base[names.index(VS_S)]
    assert got[names.index(OVERHEAD)].status == "reproduced"
