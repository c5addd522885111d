"""Closed-loop users (seed 002): sessions, think times, daily cycles, their metrics."""

from __future__ import annotations

import math
from datetime import datetime, timezone

import numpy as np
import pandas as pd
import pytest

from schedsim import Simulation
from schedsim.model.results import Result
from schedsim.model.sessions import job_maps, jobs_at_times, queue_by_time_of_day
from schedsim.model.sources import EPOCH, Population
from schedsim.workloads.catalog import load
from schedsim.workloads.users import DailyCycle, UserModel, continue_probability, fit_users

DAY = 86400.0


@pytest.fixture(scope="module")
def kth_model() -> UserModel:
    return fit_users(load("kth"))


def toy_model(
    run_time: float, size: int = 1, think: float = 60.0, brk: float = 3600.0
) -> UserModel:
    """One trace user whose every job has ``run_time`` and ``size``; fixed gaps."""
    pool = np.array([[size, run_time, run_time]] * 5, dtype=float)
    return UserModel((pool,), (1,), np.array([think]), np.array([brk]), machine=64, source="toy")


def run(model: UserModel, users: int, days: float, cycle: DailyCycle | None = None, **kw):
    pop = Population(model, users, days, cycle or DailyCycle())
    return Simulation(pop, kw.pop("policy", "easy"), **kw).run()


# ---- the model's parts ----------------------------------------------------------


def test_continue_probability_is_equation_1_in_minutes():
    assert continue_probability(0.0) == pytest.approx(0.8)
    # 20 minutes: 0.8 / (0.05 * 20 + 1) = 0.4
    assert continue_probability(1200.0) == pytest.approx(0.4)
    assert continue_probability(np.array([0.0, 1200.0])).tolist() == pytest.approx([0.8, 0.4])


def test_fit_users_splits_gaps_and_limits_run_times(kth_model):
    m = kth_model
    assert m.think.min() > 0 and m.think.max() <= 1200
    assert m.breaks.min() > 1200 and m.breaks.max() <= 8 * 3600
    for pool in m.pools:
        assert len(pool) >= 5
        assert (pool[:, 1] <= 3600).all() and (pool[:, 2] <= 3600).all()
    assert m.machine == 100
    unlimited = fit_users(load("kth"), max_runtime=None)
    assert max(p[:, 1].max() for p in unlimited.pools) > 3600


def test_fit_users_think_times_are_gaps_from_the_trace_end():
    from schedsim.workloads.job import Job
    from schedsim.workloads.workload import Workload

    def job(i, submit, wait, run, user=7):
        swf = (i, submit, wait, run) + (-1.0,) * 14
        return Job(i, submit, run, 1, run, user=user, swf=swf)

    # Ends at 100+50+10 = 160; next submit 460: think 300. Then 460+0+10 = 470,
    # next at 470 + 5000: a break. Then a job submitted before the previous
    # ended (left out), a break of 9000 - 5505 and an absence of 39,999 s.
    jobs = [job(1, 100, 50, 10), job(2, 460, 0, 10), job(3, 5470, 0, 100), job(4, 5500, 0, 5)]
    jobs += [job(5 + k, 9000 + k * 40_000, 0, 1) for k in range(2)]
    w = Workload.from_jobs(jobs, max_procs=4)
    m = fit_users(w, min_jobs=1)
    assert m.think.tolist() == [300.0]
    assert sorted(m.breaks.tolist()) == [3495.0, 5000.0]
    assert m.trace_users == (7,)


def test_bad_arguments():
    m = toy_model(10.0)
    with pytest.raises(ValueError, match="users"):
        Population(m, 0, 1.0)
    with pytest.raises(ValueError, match="days"):
        Population(m, 1, -1.0)
    with pytest.raises(ValueError, match="day_start"):
        DailyCycle(day_start=10, arrive_until=9)
    with pytest.raises(ValueError, match="weekdays"):
        DailyCycle(weekdays=(7,))
    with pytest.raises(ValueError, match="max_runtime"):
        fit_users(load("kth"), max_runtime=0)


# ---- the daily cycle --------------------------------------------------------------


def _local(ts: pd.Series) -> pd.Series:
    return pd.to_datetime(ts + EPOCH, unit="s", utc=True)


def test_no_submission_at_night_with_the_cycle(kth_model):
    r = run(kth_model, 60, 6, seed=3)
    hours = (r.jobs["submit"] % DAY) / 3600.0
    assert len(r.jobs) > 500
    assert hours.min() >= 8.0 and hours.max() < 18.0
    # Each user starts its day between 8:00 and 10:00: no user's first job of a
    # day comes before its arrival, and some users arrive after 9:00.
    firsts = r.jobs.assign(day=r.jobs["submit"] // DAY).groupby(["user", "day"])["submit"].min()
    first_hours = (firsts % DAY) / 3600.0
    assert first_hours.min() >= 8.0 and (first_hours > 9.0).any()


def test_weekly_cycle_keeps_weekends_free(kth_model):
    r = run(kth_model, 40, 14, DailyCycle(weekdays=(0, 1, 2, 3, 4)), seed=1)
    days = _local(r.jobs["submit"]).dt.day_of_week
    assert datetime.fromtimestamp(EPOCH, timezone.utc).weekday() == 0  # day 0 is a Monday
    assert set(days) <= {0, 1, 2, 3, 4} and len(set(days)) == 5


def test_without_the_cycle_users_submit_at_night(kth_model):
    r = run(kth_model, 60, 4, DailyCycle(enabled=False), seed=3)
    hours = (r.jobs["submit"] % DAY) / 3600.0
    assert ((hours < 6) | (hours >= 20)).mean() > 0.2


# ---- sessions ------------------------------------------------------------------------


def test_sessions_end_when_the_continue_draw_fails():
    # Jobs of 1 s on an empty machine: responses of 1 s, p = 0.8 / (1 + 0.05/60)
    # ~ 0.7993, so sessions have geometric lengths with mean 1 / (1 - p) ~ 4.98.
    r = run(toy_model(1.0), 20, 30, DailyCycle(enabled=False), seed=5)
    s = r.sessions
    p = float(continue_probability(1.0))
    done = s[s["reason"] != "horizon"]
    assert done["jobs"].mean() == pytest.approx(1 / (1 - p), rel=0.05)
    # Aborts due to the response need p <= u < 0.8: almost none here.
    assert (done["reason"] == "response").mean() < 0.01
    assert len(r.jobs) == s["jobs"].sum()


def test_long_responses_abort_sessions():
    # Jobs of 10 h: p(continue) = 0.8 / (0.05 * 600 + 1) ~ 0.026; sessions are
    # mostly one job and most end because of the response ((0.8 - p) of them).
    r = run(toy_model(36_000.0), 10, 60, DailyCycle(enabled=False), seed=5)
    s = r.sessions[r.sessions["reason"] != "horizon"]
    p = float(continue_probability(36_000.0))
    assert s["jobs"].mean() == pytest.approx(1 / (1 - p), rel=0.05)
    assert (s["reason"] == "response").mean() == pytest.approx((0.8 - p) / (1 - p), abs=0.08)
    summary = r.summary()
    assert summary["aborts_by_response"] == int((r.sessions["reason"] == "response").sum())


def test_gaps_within_and_between_sessions():
    think, brk = 120.0, 5000.0
    r = run(toy_model(30.0, think=think, brk=brk), 5, 10, DailyCycle(enabled=False), seed=2)
    jobs = r.jobs.sort_values(["user", "submit"])
    for _, mine in jobs.groupby("user"):
        gap = mine["submit"].to_numpy()[1:] - mine["end"].to_numpy()[:-1]
        same = mine["session"].to_numpy()[1:] == mine["session"].to_numpy()[:-1]
        assert np.allclose(gap[same], think)
        assert np.allclose(gap[~same], brk)


def test_closed_loop_load_falls_when_responses_grow(kth_model):
    fast = run(kth_model, 80, 8, seed=4, nodes=100)
    slow = run(kth_model, 80, 8, seed=4, nodes=25)
    assert len(slow.jobs) < 0.9 * len(fast.jobs)
    assert slow.summary()["daily_throughput"] < fast.summary()["daily_throughput"]
    assert slow.jobs["turnaround"].mean() > fast.jobs["turnaround"].mean()


def test_same_seed_same_run_and_same_draws_across_policies(kth_model):
    a = run(kth_model, 30, 5, seed=9)
    b = run(kth_model, 30, 5, seed=9)
    pd.testing.assert_frame_equal(a.jobs, b.jobs)
    pd.testing.assert_frame_equal(a.sessions, b.sessions)
    # Another policy sees other responses, but each user's first job is the same.
    c = run(kth_model, 30, 5, seed=9, policy="fcfs")
    first = ["user", "size", "estimate", "submit"]
    pick = lambda r: r.jobs.sort_values("submit").groupby("user").head(1)[first]  # noqa: E731
    pd.testing.assert_frame_equal(
        pick(a).sort_values("user").reset_index(drop=True),
        pick(c).sort_values("user").reset_index(drop=True),
    )


def test_every_job_ends_and_users_stop_at_the_horizon(kth_model):
    r = run(kth_model, 50, 3, DailyCycle(enabled=False), seed=1)
    assert r.jobs["submit"].max() < 3 * DAY
    assert r.jobs["id"].is_unique and (r.jobs["end"] >= r.jobs["start"]).all()
    assert r.meta["horizon"] == 3 * DAY and r.meta["users"] == 50


# ---- metrics ---------------------------------------------------------------------------


def test_queue_by_time_of_day_follows_the_cycle(kth_model):
    r = run(kth_model, 250, 6, seed=1, nodes=50)
    q = queue_by_time_of_day(r, step=1800)
    assert len(q) == 48 and q["hour"].iloc[1] == 0.5
    at = q.set_index("hour")["queued"]
    assert at[14.0] > at[7.0]
    assert (q[["queued", "running"]] >= 0).all().all()


def test_jobs_at_times_classifies_waiting_and_running():
    jobs = pd.DataFrame(
        {
            "id": [1, 2, 3],
            "submit": [0.0, 3600.0 * 9, 3600.0 * 9.5],
            "start": [10.0, 3600.0 * 11, 3600.0 * 9.5],
            "end": [20.0, 3600.0 * 12, 3600.0 * 10.5],
            "run": [10.0, 3600.0, 3600.0],
            "estimate": [10.0, 3600.0, 3600.0],
            "work": [10.0, 3600.0, 3600.0],
            "size": [1, 4, 8],
            "nodes": ["", "", ""],
            "outcome": ["completed"] * 3,
            "suspensions": [0, 0, 0],
            "suspended_time": [0.0] * 3,
            "user": [0, 0, 1],
        }
    )
    jobs.insert(5, "wait", jobs["end"] - jobs["submit"] - jobs["run"])
    series = pd.DataFrame(
        [(0.0, 0, 0, 0, 0, 0)],
        columns=["time", "busy_cores", "busy_nodes", "queued", "running", "suspended"],
    )
    sessions = pd.DataFrame(columns=["user", "session", "start", "end", "jobs", "reason"])
    r = Result(jobs, series, {"total_cores": 8, "start": 0.0, "end": DAY, "horizon": DAY}, sessions)
    s = jobs_at_times(r, hours=(10,))
    assert sorted(zip(s["state"], s["id"], strict=True)) == [("running", 3), ("waiting", 2)]
    maps = job_maps(s)
    assert maps[(10.0, "waiting")].sum() == 1 and maps[(10.0, "running")].sum() == 1


def test_sessions_survive_save_and_load(tmp_path, kth_model):
    r = run(kth_model, 10, 2, seed=1)
    r.save(tmp_path)
    back = Result.load(tmp_path)
    pd.testing.assert_frame_equal(back.sessions, r.sessions)
    assert back.summary()["sessions"] == len(r.sessions)
    assert math.isfinite(back.summary()["daily_throughput"])


def test_a_closed_loop_study_reports_figures_5_and_6(tmp_path):
    from schedsim.app.report import load_results
    from schedsim.app.study import Study
    from schedsim.app.sweep import sweep

    study = Study(
        name="tiny-seed002",
        base={"workload": "kth", "policy": "creasy", "users": 10, "days": 2},
        grid={"params.alpha": [0.0, 6000.0], "users": [5, 10], "daily_cycle": [True, False]},
        report={"x": "users", "metrics": ["daily_throughput"], "closed_loop": True},
    )
    sweep(study, tmp_path / "s", workers=0)
    results = load_results(tmp_path / "s")
    assert results.counts["done"] == 8
    written = results.write()
    names = {p.name for p in written["plots"]}
    for name in ("queue-by-time-of-day-cycle.png", "job-maps-no-cycle.png",
                 "daily_throughput-vs-users.png"):  # fmt: skip
        assert name in names
    queue = pd.read_csv(tmp_path / "s" / "report" / "queue-by-time-of-day-cycle.csv")
    assert set(queue["label"]) == {"creasy(alpha=0.0)", "creasy"} and len(queue) == 2 * 144


def test_the_limit_as_a_cap_keeps_every_job_shortened():
    # KTH: a filter leaves out the jobs that ran over an hour; a cap keeps them all,
    # run for the hour, and cuts every estimate to it (seed 002 section 4.1).
    workload = load("kth")
    filtered = fit_users(workload, max_runtime=3600.0)
    capped = fit_users(workload, max_runtime=3600.0, max_runtime_as="cap")
    rows = np.concatenate(capped.pools)
    assert (rows[:, 1] <= 3600).all() and (rows[:, 2] <= 3600).all()
    assert (rows[:, 1] == 3600).sum() > 0
    assert len(rows) > len(np.concatenate(filtered.pools))
    long_share = sum(j.run_time > 3600 for j in workload) / len(workload)
    assert 0.3 < long_share < 0.45  # the 37% of KTH's jobs
    assert capped.describe()["max_runtime_as"] == "cap"
    with pytest.raises(ValueError, match="max_runtime_as"):
        fit_users(workload, max_runtime_as="clip")  # type: ignore[arg-type]


def test_closed_loop_figures_keep_accurate_estimates_apart(tmp_path):
    # Seed 002's study runs the users' own estimates and accurate ones: Figure 5 for
    # each, never one line made of both.
    from schedsim.app.report import load_results
    from schedsim.app.study import Study
    from schedsim.app.sweep import sweep

    study = Study(
        name="tiny-seed002-estimates",
        base={
            "workload": "kth",
            "policy": "creasy",
            "users": 5,
            "days": 1,
            "max_runtime_as": "cap",
        },
        grid={"params.alpha": [0.0, 6000.0], "users": [3, 5], "exact_estimates": [False, True]},
        report={"x": "users", "metrics": ["daily_throughput"], "closed_loop": True},
    )
    sweep(study, tmp_path / "s", workers=0)
    written = load_results(tmp_path / "s").write()
    names = {p.name for p in written["plots"]}
    assert "queue-by-time-of-day-cycle.png" in names
    assert "queue-by-time-of-day-cycle-exact-estimates.png" in names
    for stem in ("cycle", "cycle-exact-estimates"):
        queue = pd.read_csv(tmp_path / "s" / "report" / f"queue-by-time-of-day-{stem}.csv")
        assert len(queue) == 2 * 144  # two labels, one line each


# ---- Equation 1's reading: its unit and constants (issue 39) ----------------------


@pytest.mark.parametrize(
    ("unit", "response", "p"),
    [
        # 0.8 / (0.05 * 20 + 1) = 0.4 at a response of 20 units, whatever the unit.
        ("minutes", 1200.0, 0.4),
        ("seconds", 20.0, 0.4),
        ("hours", 72_000.0, 0.4),
        # A one-hour response: 0.8 / 4 in minutes, 0.8 / 181 in seconds, 0.8 / 1.05 in hours.
        ("minutes", 3600.0, 0.2),
        ("seconds", 3600.0, 0.8 / 181),
        ("hours", 3600.0, 0.8 / 1.05),
    ],
)
def test_equation_1_in_each_unit_the_text_allows(unit, response, p):
    from schedsim.workloads.users import Continuation

    assert Continuation(unit=unit).probability(response) == pytest.approx(p, rel=1e-12)
    # The constants: 0.6 / (0.1 * 20 + 1) = 0.2 at 20 minutes.
    assert Continuation(0.6, 0.1).probability(1200.0) == pytest.approx(0.2, rel=1e-12)


def test_equation_1_reading_is_checked_and_reaches_the_model():
    from schedsim.workloads.users import Continuation

    with pytest.raises(ValueError, match="response_unit must be one of"):
        Continuation(unit="days")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="continue_at_zero"):
        Continuation(at_zero=1.5)
    with pytest.raises(ValueError, match="continue_slope"):
        Continuation(slope=-1.0)
    m = fit_users(load("kth"), response_unit="seconds", continue_at_zero=0.7,
                  continue_slope=0.1)  # fmt: skip
    assert m.continuation == Continuation(0.7, 0.1, "seconds")
    assert m.restrict(50).continuation == m.continuation
    assert m.describe()["response_unit"] == "seconds"


def test_sessions_follow_equation_1_in_the_chosen_unit():
    # Jobs of 60 s on an empty machine. In minutes p = 0.8 / 1.05, sessions of mean
    # 1 / (1 - p) = 4.2 jobs; in seconds p = 0.8 / 4: mean 1.25 jobs; in hours
    # p = 0.8 / (0.05/60 + 1): mean 4.98 jobs.
    from dataclasses import replace

    from schedsim.workloads.users import Continuation

    for unit, p in (("minutes", 0.8 / 1.05), ("seconds", 0.2), ("hours", 0.8 / (0.05 / 60 + 1))):
        model = replace(toy_model(60.0), continuation=Continuation(unit=unit))
        r = run(model, 20, 30, DailyCycle(enabled=False), seed=5)
        done = r.sessions[r.sessions["reason"] != "horizon"]
        assert done["jobs"].mean() == pytest.approx(1 / (1 - p), rel=0.06), unit


def test_users_drawn_from_several_logs():
    from schedsim.workloads.users import merge_models

    kth, sp2 = fit_users(load("kth")), fit_users(load("sdsc-sp2"))
    both = merge_models([kth, sp2])
    # SDSC-SP2's 128-node jobs do not fit KTH's 100 nodes: they leave the pools, counted.
    narrow = sp2.restrict(kth.machine)
    assert len(both.pools) == len(kth.pools) + len(narrow.pools)
    assert both.machine == kth.machine == 100
    assert max(p[:, 0].max() for p in both.pools) <= 100
    assert both.think.size == kth.think.size + sp2.think.size
    assert both.source == f"{kth.source}+{sp2.source}"
    assert any("wider than 100" in n for n in both.notes)
    assert merge_models([kth]) is kth
    with pytest.raises(ValueError, match="cannot be merged"):
        merge_models([kth, fit_users(load("sdsc-sp2"), response_unit="hours")])


def test_a_study_draws_its_users_from_several_logs():
    from schedsim.app.study import RunConfig, StudyError

    base = {"workload": "kth", "policy": "creasy", "users": 20, "days": 2}
    c = RunConfig(**base, user_logs=["kth", "sdsc-sp2"])
    model = c.population().model
    assert model.source == "KTH-SP2-1996-2.1-cln+SDSC-SP2-1998-4.2-cln"
    assert model.machine == 100
    assert len(model.pools) > len(RunConfig(**base).population().model.pools)
    # The default spelled out is the default: one run id (and the ids of earlier runs).
    assert RunConfig(**base, user_logs=["kth"]).run_id() == RunConfig(**base).run_id()
    assert c.run_id() != RunConfig(**base).run_id()
    for logs, why in (
        (["sdsc-sp2", "kth"], "must name the workload 'kth' first"),
        (["kth", "nope"], "unknown log 'nope'"),
        (["kth", "kth"], "names a log twice"),
        ("kth", "expected a non-empty list"),
    ):
        with pytest.raises(StudyError, match=why):
            RunConfig(**base, user_logs=logs)
    with pytest.raises(StudyError, match="applies only to a closed-loop run"):
        RunConfig(workload="kth", user_logs=["kth", "ctc"])
