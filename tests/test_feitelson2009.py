"""Seed 002's claims (schedsim.papers.feitelson2009): gains, drain hours, the table."""

from __future__ import annotations

import math

import pandas as pd
import pytest

from schedsim.papers import feitelson2009 as paper


def test_drain_hour_is_the_first_time_after_six_pm_the_queue_is_empty() -> None:
    # Every hour of the day; the queue is 10 jobs, 0 from 3:00 to 5:00.
    hours = [float(h) for h in range(24)]
    queued = [0.0 if 3 <= h < 5 else 10.0 for h in range(24)]
    queue = pd.DataFrame({"hour": hours, "queued": queued})
    assert paper.drain_hour(queue) == 24 + 3  # 3:00 the next morning
    never = queue.assign(queued=10.0)
    assert math.isnan(paper.drain_hour(never))
    # Empty from 9:00 only: after 8:00, so not drained overnight.
    late = queue.assign(queued=[0.0 if 9 <= h < 12 else 10.0 for h in range(24)])
    assert math.isnan(paper.drain_hour(late))


def test_gains_are_creasy_over_easy_of_the_same_setting() -> None:
    runs = pd.DataFrame(
        {
            "alpha": [0.0, 6000.0, 0.0, 6000.0],
            "users": [250, 250, 250, 250],
            "cycle": [True, True, False, False],
            "estimates": ["users' own"] * 4,
            "throughput": [100.0, 160.0, 200.0, 204.0],
            "id": ["a", "b", "c", "d"],
        }
    )
    g = paper.gains(runs).set_index("cycle")
    assert g.loc[True, "gain_pct"] == pytest.approx(60.0)
    assert g.loc[False, "gain_pct"] == pytest.approx(2.0)


def test_claims_from_hand_made_tables() -> None:
    gain = pd.DataFrame(
        {
            "users": [250, 250, 250, 250],
            "cycle": [True, True, False, True],
            "estimates": ["users' own"] * 4,
            "alpha": [3000.0, 6000.0, 6000.0, 9000.0],
            "gain_pct": [30.0, 55.0, 3.0, 57.0],
            "utilization_gain_pct": [20.0, 52.0, 1.0, 53.0],
        }
    )
    queue = pd.DataFrame(
        {
            "policy": ["EASY", "CREASY(6000)", "EASY"],
            "cycle": [True, True, False],
            "estimates": ["users' own"] * 3,
            "spread": [40.0, 40.0, 1.1],
            "drain_hour": [20.5, 31.0, math.nan],
        }
    )
    table = paper.claims.claims(gain, queue, 250).set_index("claim")
    assert set(table["status"]) == {"reproduced"}
    assert (
        "CREASY 7:00"
        in table.loc["with daily cycles EASY's queue drains much faster than CREASY's", "schedsim"]
    )
    assert len(table) == 8  # every claim of the paper's has a row


def test_utilization_and_marginal_gains_beyond_6000() -> None:
    def table(beyond: float, utilization: float) -> pd.DataFrame:
        gain = pd.DataFrame(
            {
                "users": [250] * 3,
                "cycle": [True] * 3,
                "estimates": ["accurate"] * 3,
                "alpha": [1500.0, 6000.0, 24000.0],
                "gain_pct": [10.0, 40.0, beyond],
                "utilization_gain_pct": [1.0, utilization, 9.0],
            }
        )
        return paper.claims.claims(gain, pd.DataFrame(), 250).set_index("claim")["status"]

    marginal = "with daily cycles, beyond alpha 6000 the gain is marginal (250 users)"
    utilization = (
        "with daily cycles, at 250 users and alpha 6000, CREASY's utilization beats EASY's by "
        "more than 50%"
    )
    assert table(44.0, 6.9)[marginal] == "reproduced"  # 4 points more at 24000: marginal
    assert table(66.0, 6.9)[marginal] == "not reproduced"  # 26 points more: not marginal
    assert table(44.0, 6.9)[utilization] == "not reproduced"
    assert table(44.0, 51.0)[utilization] == "reproduced"
    # Without a run beyond 6000 the claim is in the table, not run.
    at_6000 = {"users": [250], "cycle": [True], "estimates": ["accurate"], "alpha": [6000.0]}
    gain = pd.DataFrame({**at_6000, "gain_pct": [40.0], "utilization_gain_pct": [5.0]})
    statuses = paper.claims.claims(gain, pd.DataFrame(), 250).set_index("claim")["status"]
    assert statuses[marginal] == "not run"


def test_a_closed_loop_study_reports_the_claims(tmp_path) -> None:
    from schedsim.app.report import load_results
    from schedsim.app.study import Study
    from schedsim.app.sweep import sweep

    study = Study(
        name="tiny-feitelson2009",
        base={"workload": "kth", "policy": "creasy", "users": 5, "days": 1},
        grid={"params.alpha": [0.0, 6000.0], "users": [3, 5], "daily_cycle": [True, False]},
        report={"x": "users", "metrics": ["daily_throughput"], "paper": "feitelson2009"},
    )
    sweep(study, tmp_path / "s", workers=0)
    written = load_results(tmp_path / "s").write()
    names = {p.name for p in written["tables"]}
    assert {"claims.csv", "feitelson2009-gains.csv", "feitelson2009-queues.csv"} <= names
    plots = {p.name for p in written["plots"]}
    assert {"feitelson2009-throughput.png", "feitelson2009-utilization.png"} <= plots
    claims = pd.read_csv(tmp_path / "s" / "report" / "claims.csv")
    statuses = {"reproduced", "partly", "not reproduced", "not run"}
    assert len(claims) == 8 and set(claims["status"]) <= statuses
    # The study runs alpha up to 6000: "marginal beyond 6000" cannot be checked.
    marginal = claims[claims["claim"].str.contains("beyond alpha 6000")]
    assert list(marginal["status"]) == ["not run"]
