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


def test_the_status_rule() -> None:
    assert paper.status(16, 16, 16) == "reproduced"
    assert paper.status(8, 16, 16) == "partly"  # half of the cases needed
    assert paper.status(7, 16, 16) == "not reproduced"
    assert paper.status(9, 16, 9) == "reproduced"  # "most": more than half
    assert paper.status(1, 8, 1) == "reproduced"  # "some": one
    assert paper.status(0, 1, 1) == "not reproduced"
    assert paper.status(0, 0, 0) == "not run"


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
    assert (row["holds"], row["status"]) == ("8 of 16", "partly")


def test_claims_without_their_runs_are_left_out() -> None:
    table = paper.claims.claims(_overall(["NS"]), _cats("NS"))
    assert VS_S not in set(table["claim"])  # no SS run
    assert MIX in set(table["claim"])  # NS alone: the job mix is scored
    assert list(table.columns) == [*paper.COLUMNS, "reads"]  # no other reading
    assert set(table["status"]) <= set(paper.STATUSES)


def test_the_job_mix_and_table_2_3() -> None:
    jobs = {c: float(s) for c, s in zip(CATEGORIES, paper.THESIS_MIX, strict=True)}
    sld = dict(zip(CATEGORIES, paper.THESIS_SLOWDOWN, strict=True))
    ns = _cats("NS")
    ns["jobs"] = ns["category"].map(jobs)
    ns["mean_bounded_slowdown"] = ns["category"].map(sld) * 1.2  # within a factor 1.25
    ns.loc[ns["category"] == "VS VW", "mean_bounded_slowdown"] = 60.0  # 34.07: too far
    table = paper.claims.claims(_overall(["NS"]), ns)
    assert _row(table, MIX)["status"] == "reproduced"
    t23 = _row(table, "NS's average slowdown per category is Table 2.3's")
    assert (t23["holds"], t23["status"]) == ("15 of 16", "partly")
    assert "VS VW 60.0 (34.07)" in t23["schedsim"]


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
    table = paper.claims.claims(_overall(labels), cats)
    assert list(table.columns) == [
        *paper.COLUMNS,
        "schedsim [resume=start]", "holds [resume=start]", "status [resume=start]",
        "schedsim [averages=running]", "holds [averages=running]", "status [averages=running]",
        "reads",
    ]  # fmt: skip
    row = _row(table, VS_S)
    assert (row["status"], row["status [resume=start]"]) == ("reproduced", "not reproduced")
    assert row["status [averages=running]"] == ""  # a reading of TSS alone: SS unchanged
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
    counts = paper.summary(table).set_index(["reading", "scope"])
    default = counts.loc[("default", "all")]
    assert default["scored"] == (table["status"] != "not run").sum()
    resume = counts.loc[("resume=start", "SS or TSS")]
    on_ss = table["status [resume=start]"].isin(paper.STATUSES)
    assert resume["scored"] == on_ss.sum() and resume["not reproduced"] >= 1
    # "all": the reading's own statuses where it has them, else the default's.
    assert counts.loc[("resume=start", "all"), "scored"] == default["scored"]
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
    row = _row(paper.claims.claims(overall, cats), SHORT_LOAD)
    # SN and SW, slowdown and turnaround, at 3 loads: the gain is gone at load 1.4.
    assert (row["holds"], row["status"]) == ("8 of 12", "partly")
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
    assert "## Reading: resume=start" in text and "| reading | claims scored |" in text
