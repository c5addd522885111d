"""Schwiegelshohn & Yahyapour 1998 beside a study (schedsim.papers.schwiegelshohn1998).

Every test builds its values by hand: FCFS values per month, and each
PFCFS run made to be a chosen percent off FCFS, so that what the report
must say is known. The synthetic "moves" runs are the paper's own Tables
4-9; the synthetic "waits" runs swap the paper's PFCFS2 and PFCFS3.
"""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from test_report import run, write_study

from schedsim.app.report.study_results import StudyResults
from schedsim.app.study import paper_analyses
from schedsim.papers import schwiegelshohn1998 as paper
from schedsim.papers.schwiegelshohn1998 import analyses

MONTHS = list(paper.MONTHS)


def _fcfs(metric: str, nodes: int, month: str) -> float:
    # Unequal months, so that a weighted Sum differs from a plain mean.
    return 1000.0 * (1 + MONTHS.index(month)) * (2 if nodes == 256 else 1)


def _percent(reading: str, strategy: str, table: paper.PaperTable, month: str) -> float:
    row = table.frame().loc[month]
    if reading in ("waits", "waits-all"):  # the paper's PFCFS2 and PFCFS3 swapped
        strategy = paper.SWAPPED[strategy]
    if reading == "waits-all":  # every job preempted: 1.25 times the greedy "waits" value
        return 125.0 * (1 + float(row[strategy]) / 100) - 100.0
    return float(row[strategy])


def _values(readings: tuple[str, ...] = ("waits", "moves")) -> pd.DataFrame:
    rows = []
    for table in paper.TABLES:
        for month in MONTHS:
            f = _fcfs(table.metric, table.nodes, month)
            rows.append((table.metric, table.nodes, month, "FCFS", "-", f))
            for reading in readings:
                for s in paper.STRATEGIES:
                    p = _percent(reading, s, table, month)
                    rows.append((table.metric, table.nodes, month, s, reading, f * (1 + p / 100)))
    return pd.DataFrame(rows, columns=["metric", "nodes", "month", "strategy", "reading", "value"])


def test_the_paper_is_registered() -> None:
    assert paper_analyses()["schwiegelshohn1998"] == "schedsim.papers.schwiegelshohn1998"


def test_the_tables_are_the_papers() -> None:
    assert [t.number for t in paper.TABLES] == [4, 5, 6, 7, 8, 9]
    assert all(len(t.months) == 11 for t in paper.TABLES)
    t6 = paper.TABLES[2]
    assert (t6.metric, t6.nodes) == ("weighted_flow_time", 128)
    assert t6.frame().loc["1996-11", "PFCFS2"] == -47.3
    assert t6.frame().loc["1997-01", "PFCFS2"] == 9.6
    assert paper.TABLES[5].total == (-16.1, -38.0, 55.6)
    # The plain mean of Table 4's PFCFS1 column is not its printed Sum.
    assert paper.TABLES[0].frame()["PFCFS1"].mean() == pytest.approx(-9.26, abs=0.005)


def test_the_sum_row_is_the_change_of_the_totals() -> None:
    # Months of FCFS 1 and 3, changes +10% and -20%: PFCFS totals 1.1 + 2.4 = 3.5
    # against 4: -12.5%, the FCFS-weighted mean (the plain mean is -5%).
    assert paper.total_change([10.0, -20.0], [1.0, 3.0]) == pytest.approx(-12.5)
    assert paper.weighted_mean([10.0, -20.0], [1.0, 3.0]) == pytest.approx(-12.5)
    assert paper.total_change([10.0, math.nan], [1.0, 3.0]) == pytest.approx(10.0)
    assert math.isnan(paper.total_change([math.nan], [1.0]))


def test_side_by_side_has_the_months_and_the_sum_row() -> None:
    values = _values()
    table = paper.TABLES[3]  # Table 7: makespan, 256 nodes
    frame = paper.side_by_side(values, table)
    assert frame["month"].tolist() == [*MONTHS, "Sum"]
    months = frame.iloc[:11]
    np.testing.assert_allclose(months["moves_PFCFS2"], table.frame()["PFCFS2"])
    np.testing.assert_allclose(months["waits_PFCFS2"], table.frame()["PFCFS3"])
    total = frame.iloc[11]
    assert total["paper_PFCFS1"] == -6.4
    weights = [_fcfs("makespan", 256, m) for m in MONTHS]
    expected = np.dot(table.frame()["PFCFS1"], weights) / sum(weights)
    assert total["moves_PFCFS1"] == pytest.approx(expected)
    assert total["fcfs_makespan"] == pytest.approx(sum(weights))


def test_sums_reconstruct_the_paper_with_our_fcfs_weights() -> None:
    values = _values(("moves",))
    s = paper.sums(values).set_index(["table", "strategy"])
    row = s.loc[(4, "PFCFS1")]
    assert row["paper_sum"] == -9.5
    assert row["paper_plain_mean"] == pytest.approx(-9.2636, abs=1e-3)
    weights = [_fcfs("makespan", 128, m) for m in MONTHS]
    weighted = np.dot(paper.TABLES[0].frame()["PFCFS1"], weights) / sum(weights)
    assert row["paper_weighted_mean"] == pytest.approx(weighted)
    assert row["weighted_error"] == pytest.approx(weighted + 9.5)
    # Ours are the paper's monthly percents: our Sum is that same weighted mean.
    assert row["moves_sum"] == pytest.approx(weighted)
    assert "waits_sum" not in s.columns


def test_agreement_and_the_swapped_rows_hypothesis() -> None:
    a = paper.agreement(_values())
    key = ["table", "reading", "pairing", "ours"]
    a = a.set_index(key)
    for t in (4, 9):
        for s in paper.STRATEGIES:
            row = a.loc[(t, "moves", "as named", s)]
            assert (row["month_cells"], row["same_sign"], row["within_25pct"]) == (11, 11, 11)
        swapped = a.loc[(t, "waits", "swapped (hypothesis)", "PFCFS3")]
        assert (swapped["paper"], swapped["same_sign"], swapped["within_25pct"]) == (
            "PFCFS2",
            11,
            11,
        )
        assert a.loc[(t, "waits", "as named", "PFCFS1")]["same_sign"] == 11
        assert swapped["pearson_r"] == pytest.approx(1.0)
    # Table 4 as named under "waits": our PFCFS2 is the paper's PFCFS3, positive
    # every month, against a negative PFCFS2: no sign in common.
    assert a.loc[(4, "waits", "as named", "PFCFS2")]["same_sign"] == 0
    # Table 7, October: the paper's PFCFS3 is -6.5%, the one month its sign agrees.
    assert a.loc[(7, "waits", "as named", "PFCFS2")]["same_sign"] == 1
    assert ("PFCFS1" not in a.xs("swapped (hypothesis)", level="pairing").
            index.get_level_values("ours"))  # fmt: skip


def test_the_label_swap_summary() -> None:
    # "waits" holds the paper's columns swapped: the paper's PFCFS2 is our waits PFCFS3.
    summary = paper.swap_summary(paper.agreement(_values())).set_index(["table", "reading"])
    assert len(summary) == 12
    row = summary.loc[(4, "waits")]
    assert (row["ours_as_named"], row["ours_swapped"]) == ("PFCFS2", "PFCFS3")
    assert (row["months"], row["signs_swapped"], row["r_swapped"]) == (11, 11, pytest.approx(1.0))
    assert row["signs_as_named"] == 0  # the paper's PFCFS3 is positive every month
    # Pearson's r by hand on Table 4: the paper's PFCFS2 against its PFCFS3.
    frame = paper.TABLES[0].frame()
    expected = np.corrcoef(frame["PFCFS2"], frame["PFCFS3"])[0, 1]
    assert row["r_as_named"] == pytest.approx(expected)
    assert summary.loc[(4, "moves"), "r_as_named"] == pytest.approx(1.0)
    assert math.isnan(analyses._pearson(np.array([1.0, 2.0]), np.array([3.0, 4.0])))
    assert math.isnan(analyses._pearson(np.ones(4), np.arange(4.0)))


def test_a_printed_zero_agrees_only_with_a_zero() -> None:
    ours = np.array([0.04, -0.06, 0.0])
    assert analyses._sign_agrees(ours, np.zeros(3)).tolist() == [True, False, True]


def test_the_papers_completion_and_flow_tables_against_each_other() -> None:
    c = paper.consistency()
    assert len(c) == 66
    bad = c[~c["possible"]]
    assert sorted(zip(bad["nodes"], bad["month"], bad["strategy"], strict=True)) == [
        (128, "1996-08", "PFCFS3"),  # completion +13.2% against flow +2.0%
        (128, "1997-01", "PFCFS1"),  # -4.6% against +28.1%: opposite signs
        (128, "1997-01", "PFCFS2"),
    ]


def _claims(values: pd.DataFrame, facts: pd.DataFrame | None = None) -> pd.DataFrame:
    return paper.claims.claims(values, facts).set_index("claim")


def _facts(largest: dict[tuple[str, int], float] | None = None,
           jobs_off: tuple[str, int] | None = None, ratio: float = 0.5,
           flow: dict[tuple[str, int], float] | None = None) -> pd.DataFrame:  # fmt: skip
    """Month facts by hand: the paper's Table 2 counts (but ``jobs_off``, 1,000 fewer),
    a makespan bound ``ratio`` times our FCFS makespan, or at ``largest[(month,
    nodes)]`` percent below it; with ``flow``, weighted bounds: the flow time's at
    ``flow[(month, nodes)]`` percent below our FCFS (the completion time's at a quarter
    of that; where not given, -60% for the completion time, the flow time's below 0)."""
    rows = []
    for nodes in (128, 256):
        for month in MONTHS:
            total, p256, p128 = paper.TABLE2[month]
            jobs = round(total * (p256 if nodes == 256 else p128) / 100)
            if (month, nodes) == jobs_off:
                jobs -= 1000
            f = _fcfs("makespan", nodes, month)
            change = (largest or {}).get((month, nodes), 100.0 * (ratio - 1.0))
            bound = f * (1 + change / 100)
            row = {"month": month, "nodes": nodes, "jobs": jobs, "wide_jobs": 10,
                   "wide_within_quantum": 1, "fcfs_makespan": f, "bound_by_job": bound,
                   "bound_by_work": bound, "makespan_bound": bound,
                   "largest_change": change}  # fmt: skip
            if flow is not None:
                fc = flow.get((month, nodes), -240.0)  # completion -60%, flow unbounded
                c = _fcfs("weighted_completion_time", nodes, month)
                w = _fcfs("weighted_flow_time", nodes, month)
                row.update({"kill_at_estimate": True, "fcfs_weighted_completion_time": c,
                            "weighted_completion_bound": c * (1 + fc / 400),
                            "largest_completion_change": fc / 4,
                            "fcfs_weighted_flow_time": w,
                            "weighted_flow_bound": w * (1 + fc / 100),
                            "largest_flow_change": fc})  # fmt: skip
            rows.append(row)
    return pd.DataFrame(rows, columns=list(paper.FACTS))


def _weighted_sum(table: paper.PaperTable, strategy: str) -> float:
    weights = [_fcfs(table.metric, table.nodes, m) for m in MONTHS]
    return float(np.dot(table.frame()[strategy], weights) / sum(weights))


def test_claims_when_ours_are_the_papers_tables() -> None:
    table = _claims(_values(("moves",)))
    group = [f"{c} [moves, labels swapped]" for c in ("schedsim", "holds", "status")]
    columns = ["claim", "where", "paper", "schedsim", "holds", "status", "rule", *group]
    assert list(table.reset_index().columns) == columns  # moves, with and without the swap
    assert len(table) == len(paper.claims.CLAIMS) == 15
    for s in paper.STRATEGIES:
        cells = table.loc[paper.claims.CELLS[s].key]
        assert (cells["holds"], cells["status"]) == ("66 of 66", "reproduced")
        # The Sum rows are ours, summed over our (synthetic) FCFS values: within 25% of
        # the printed Sum where that weighting lands near it.
        i = paper.STRATEGIES.index(s)
        near = [abs(_weighted_sum(t, s) - t.total[i]) <= 0.25 * abs(t.total[i])
                for t in paper.TABLES]  # fmt: skip
        side = table.loc[paper.claims.SIDE[s].key]
        assert side["holds"] == f"{sum(near)} of 6"
        assert side["status"] == ("reproduced" if all(near) else "direction only")
    nov = table.loc[paper.claims.NOVEMBER.key]
    assert (nov["schedsim"], nov["status"]) == ("PFCFS2 -47.3%", "reproduced")
    jan = table.loc[paper.claims.JANUARY.key]
    assert (jan["schedsim"], jan["status"]) == ("PFCFS2 +9.6%", "reproduced")
    assert table.loc[paper.claims.OUTPERFORM.key, "status"] == "reproduced"
    assert table.loc[paper.claims.SENSITIVITY.key, "status"] == "reproduced"
    # Table 6's PFCFS1 is 29.7% better in November and 28.1% worse in January.
    workload = table.loc[paper.claims.WORKLOAD.key]
    assert workload["status"] == "reproduced"
    assert "T6 PFCFS1 28.1 points" in workload["schedsim"]
    # Table 8's PFCFS2 weighs in at -10.4% printed, near the 10% of "significant".
    improve = table.loc[paper.claims.IMPROVE.key]
    t8 = _weighted_sum(paper.TABLES[4], "PFCFS2")
    assert improve["status"] == ("reproduced" if t8 <= -10 else "direction only")
    # Without the FCFS runs' jobs, Table 2 and Theorem 5.2 are not checked, with a reason.
    for claim in (paper.claims.JOBS, paper.claims.THEOREM, paper.claims.GREEDY):
        row = table.loc[claim.key]
        assert row["status"] == "not checked"
        assert row["schedsim"] != "-"


def test_a_makespan_cell_no_schedule_can_reach_is_not_reproduced() -> None:
    # October 1996 on 256 nodes: the paper's PFCFS1 -23.5% and PFCFS2 -28.7%, where no
    # schedule ends more than 15.7% before FCFS: not reproduced, though ours equal them.
    facts = _facts({("1996-10", 256): -15.7})
    table = _claims(_values(("moves",)), facts)
    for s, printed in (("PFCFS1", "-23.5%"), ("PFCFS2", "-28.7%")):
        cells = table.loc[paper.claims.CELLS[s].key]
        assert (cells["holds"], cells["status"]) == ("65 of 66", "not reproduced")
        assert f"T7 Oct 96 {printed} (the paper's {printed} is impossible: no schedule below " \
               "-15.7%)" in cells["schedsim"]  # fmt: skip
    # PFCFS3's -6.5% is possible.
    assert table.loc[paper.claims.CELLS["PFCFS3"].key, "status"] == "reproduced"
    bound = paper.bound_table(facts).set_index(["table", "month"])
    oct7 = bound.loc[(7, "1996-10")]
    assert (oct7["possible_PFCFS1"], oct7["possible_PFCFS2"], oct7["possible_PFCFS3"]) == (
        False, False, True)  # fmt: skip
    # A printed value at the bound, to its rounding, is possible.
    at = paper.bound_table(_facts({("1996-10", 256): -28.74})).set_index(["table", "month"])
    assert at.loc[(7, "1996-10"), "possible_PFCFS2"]
    beyond = paper.bound_table(_facts({("1996-10", 256): -28.6})).set_index(["table", "month"])
    assert not beyond.loc[(7, "1996-10"), "possible_PFCFS2"]


def test_a_weighted_cell_no_schedule_can_reach_is_not_reproduced() -> None:
    # Table 9 (flow time, 256 nodes), October 1996: the paper's PFCFS2 -22.0% where no
    # schedule's flow time is more than 20% below FCFS: not reproduced, though ours is it.
    facts = _facts(flow={("1996-10", 256): -20.0})
    bound = paper.weighted_bound_table(facts).set_index(["table", "month"])
    assert sorted(set(bound.index.get_level_values("table"))) == [5, 6, 8, 9]
    oct9 = bound.loc[(9, "1996-10")]
    assert (oct9["possible_PFCFS1"], oct9["possible_PFCFS2"]) == (True, False)
    assert oct9["largest_change"] == pytest.approx(-20.0)
    assert oct9["metric"] == "weighted_flow_time"
    assert bound.loc[(8, "1996-10"), "largest_change"] == pytest.approx(-5.0)
    table = _claims(_values(("moves",)), facts)
    cells = table.loc[paper.claims.CELLS["PFCFS2"].key]
    assert (cells["holds"], cells["status"]) == ("65 of 66", "not reproduced")
    assert "T9 Oct 96 -22.0% (the paper's -22.0% is impossible: no schedule below -20.0%)" \
        in cells["schedsim"]  # fmt: skip
    # The best strategy's Sum rows are shown beside what any schedule can reach.
    improve = table.loc[paper.claims.IMPROVE.key, "schedsim"]
    t9 = bound.loc[(9, "Sum"), "largest_change"]
    assert f"(any schedule: at best {t9:+.1f}%)" in improve
    # Facts without the weighted bounds (made before them): no weighted cell is judged.
    assert paper.weighted_bound_table(_facts()).empty


def test_table2_and_theorem_claims_from_the_month_facts() -> None:
    table = _claims(_values(("moves",)), _facts(jobs_off=("1997-01", 128)))
    jobs = table.loc[paper.claims.JOBS.key]
    assert (jobs["holds"], jobs["status"]) == ("21 of 22", "not reproduced")
    assert "Jan 97 128 nodes" in jobs["schedsim"]
    theorem = table.loc[paper.claims.THEOREM.key]
    assert (theorem["holds"], theorem["status"]) == ("22 of 22", "reproduced")
    # A bound a fifth of FCFS's makespan: PFCFS1's ratio of about 5 says nothing.
    theorem = _claims(_values(("moves",)), _facts(ratio=0.2)).loc[paper.claims.THEOREM.key]
    assert theorem["status"] == "not reproduced"


def test_the_labels_swapped_reading_scores_pfcfs2_against_our_pfcfs3() -> None:
    # "waits" holds the paper's PFCFS2 and PFCFS3 swapped, "moves" the paper's tables.
    scored = paper.claims.results(_values())
    assert list(scored) == ["waits", "moves", "waits, labels swapped", "moves, labels swapped"]
    table = paper.claims.readings(scored).set_index("claim")
    assert (table["waits, labels swapped"] == table["moves"]).all()
    cells = paper.claims.CELLS
    assert table.loc[cells["PFCFS2"].key, "waits"] == "not reproduced"
    assert table.loc[cells["PFCFS2"].key, "waits, labels swapped"] == "reproduced"
    assert table.loc[paper.claims.NOVEMBER.key, "waits"] == "not reproduced"  # +8.1%
    # The claims that name no strategy do not change with the labels.
    for claim in (paper.claims.IMPROVE, paper.claims.SENSITIVITY, paper.claims.OUTPERFORM):
        assert table.loc[claim.key, "waits"] == table.loc[claim.key, "waits, labels swapped"]
    assert table["headline"].sum() == 3
    claimed = paper.claims.claims(_values())
    assert "status [waits, labels swapped]" in claimed.columns
    row = claimed.set_index("claim").loc[cells["PFCFS2"].key]
    assert row["schedsim [waits, labels swapped]"].startswith("ours: PFCFS3; within 25% in 66")


def test_claims_on_the_strict_rule() -> None:
    values = _values(("moves",))
    pf1 = values["strategy"] == "PFCFS1"
    fcfs = values[values["strategy"] == "FCFS"].set_index(["metric", "nodes", "month"])["value"]
    base = fcfs.loc[list(zip(values.loc[pf1, "metric"], values.loc[pf1, "nodes"],
                             values.loc[pf1, "month"], strict=True))].to_numpy()  # fmt: skip
    # PFCFS1 1.3 times as far from FCFS: the right side, beyond 25% of the paper's.
    values.loc[pf1, "value"] = base + 1.3 * (values.loc[pf1, "value"].to_numpy() - base)
    row = _claims(values).loc[paper.claims.SIDE["PFCFS1"].key]
    near = [abs(1.3 * _weighted_sum(t, "PFCFS1") - t.total[0]) <= 0.25 * abs(t.total[0])
            for t in paper.TABLES]  # fmt: skip
    assert not all(near)
    assert (row["holds"], row["status"]) == (f"{sum(near)} of 6", "direction only")
    # Every month cell 30% beyond the paper's: direction only.
    cells = _claims(values).loc[paper.claims.CELLS["PFCFS1"].key]
    assert cells["status"] == "direction only"
    # And the reverse of the paper everywhere: not reproduced.
    values.loc[pf1, "value"] = base - (values.loc[pf1, "value"].to_numpy() - base)
    row = _claims(values).loc[paper.claims.SIDE["PFCFS1"].key]
    assert row["status"] == "not reproduced"


def test_claims_without_runs() -> None:
    empty = pd.DataFrame(columns=["metric", "nodes", "month", "strategy", "reading", "value"])
    assert paper.claims.claims(empty).empty
    assert paper.claims.results(empty) == {}


# -- through a study directory --------------------------------------------------------------


def _write_study(root: Path, values: pd.DataFrame) -> Path:
    """study.json and a summary.json per run, as a sweep writes them (`test_report.write_study`)."""
    wide = values.pivot_table(index=["nodes", "month", "strategy", "reading"], columns="metric",
                              values="value").reset_index()  # fmt: skip
    runs = []
    for i, row in enumerate(wide.itertuples(index=False)):
        policy = "fcfs" if row.strategy == "FCFS" else row.strategy.lower()
        # "waits" as the runs made before the parameter existed: no queue_in_cycle.
        params = {"queue_in_cycle": "moves"} if row.reading == "moves" else {}
        if row.reading == "waits-all":
            params = {"preempt": "all"}
        label = policy if policy == "fcfs" else f"{policy}-{row.reading}"
        summary = {m: float(getattr(row, m)) for m in paper.METRICS}
        config = {"workload": "ctc", "first": None, "policy": policy, "params": params,
                  "nodes": row.nodes, "month": row.month}  # fmt: skip
        runs.append(run(f"r{i:03d}", label, 0, summary=summary, **config))
    report = {"paper": "schwiegelshohn1998", "x": "none"}
    return write_study(root, runs, "pfcfs-small", report)


def test_the_report_of_a_study_directory(tmp_path: Path) -> None:
    values = _values(("waits", "moves", "waits-all"))
    results = StudyResults.load(_write_study(tmp_path / "study", values))
    read = paper.ours(results)
    assert set(read["reading"]) == {"-", "waits", "moves", "waits-all"}
    assert len(read) == len(values)
    out = tmp_path / "report"
    out.mkdir()
    tables, plots, claimed = paper.write(results, out)
    names = {p.name for p in tables}
    assert {f"schwiegelshohn1998-table{n}.csv" for n in range(4, 10)} <= names
    assert {"claims.csv", "schwiegelshohn1998-sums.csv", "schwiegelshohn1998-agreement.csv",
            "schwiegelshohn1998-consistency.csv"} <= names  # fmt: skip
    assert [p.name for p in plots] == ["schwiegelshohn1998-flow-by-month.png"]
    assert plots[0].stat().st_size > 0
    t6 = pd.read_csv(out / "schwiegelshohn1998-table6.csv")
    assert list(t6.columns[:3]) == ["month", "fcfs_weighted_flow_time (core s^2)",
                                    "paper_PFCFS1 (%)"]  # fmt: skip
    assert "moves_PFCFS3 (%)" in t6.columns and "waits_PFCFS3 (%)" in t6.columns
    on_disk = pd.read_csv(out / "claims.csv")
    readings = ["waits", "moves", "waits-all", "waits, labels swapped", "moves, labels swapped",
                "waits-all, labels swapped"]  # fmt: skip
    groups = [f"{c} [{r}]" for r in readings[1:] for c in ("schedsim", "holds", "status")]
    assert list(on_disk.columns) == ["claim", "where", "paper", "schedsim", "holds", "status",
                                     "rule", *groups]  # fmt: skip
    assert len(on_disk) == len(claimed) == 15
    verdicts = {"reproduced", "direction only", "not reproduced", "not checked"}
    assert set(on_disk["status"]) <= verdicts
    # No job tables in these runs: no month facts, and the claims that need them say so.
    assert "schwiegelshohn1998-months.csv" not in names
    assert list(pd.read_csv(out / "readings.csv").columns) == ["claim", "where", "headline",
                                                               *readings]  # fmt: skip
    # The runs that preempt every job are the reading waits-all; the greedy claim is
    # checked against them: every greedy total is 1 / 1.25 of theirs, 20% better.
    greedy = on_disk.set_index("claim").loc[paper.claims.GREEDY.key]
    assert (greedy["holds"], greedy["status"]) == ("18 of 18", "reproduced")
    assert "T4 PFCFS1 -20.0%" in greedy["schedsim"]
    text = (out / "claims.md").read_text()
    assert "## Readings x claims" in text and "## Reading: waits (the default)" in text
    assert "No interval: one deterministic run per month and machine" in text
    assert "| read as |" in text
