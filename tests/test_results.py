"""Tests for schedsim.model.results: hand-built runs with hand-computed expected values."""

from __future__ import annotations

import json
import math

import numpy as np
import pandas as pd
import pytest

from schedsim.model.categories import CATEGORIES, CATEGORIES4
from schedsim.model.results import BSLD_THRESHOLD, Result, compare, derive


def make_jobs(**cols: list) -> pd.DataFrame:
    """A jobs frame with the given columns; the rest filled with plain defaults.

    ``wait`` defaults to 0, ``end`` to submit + wait + run, ``start`` to
    submit + wait, ``estimate``/``work`` to run.
    """
    n = len(next(iter(cols.values())))
    run = np.asarray(cols.get("run", [10.0] * n), dtype=float)
    submit = np.asarray(cols.get("submit", [0.0] * n), dtype=float)
    wait = np.asarray(cols.get("wait", [0.0] * n), dtype=float)
    base = {
        "id": list(range(1, n + 1)),
        "submit": submit,
        "start": submit + wait,
        "end": submit + wait + run,
        "run": run,
        "wait": wait,
        "estimate": run,
        "work": run,
        "size": [1] * n,
        "nodes": ["0"] * n,
        "outcome": ["completed"] * n,
        "suspensions": [0] * n,
        "suspended_time": [0.0] * n,
        "user": [1] * n,
    }
    base.update(cols)
    return pd.DataFrame(base)


def make_series(rows: list[tuple[float, int, int]] | None = None) -> pd.DataFrame:
    """A series from (time, busy_cores, queued) rows; the other columns zero."""
    rows = rows or [(0.0, 0, 0)]
    t, busy, queued = zip(*rows, strict=True)
    n = len(rows)
    return pd.DataFrame(
        {
            "time": list(t),
            "busy_cores": list(busy),
            "busy_nodes": list(busy),
            "queued": list(queued),
            "running": [0] * n,
            "suspended": [0] * n,
        }
    )


def make_result(jobs: pd.DataFrame, series: pd.DataFrame | None = None, **meta) -> Result:
    base = {"total_cores": 4, "start": 0.0, "end": 100.0, "policy": "fcfs"}
    base.update(meta)
    return Result(jobs=jobs, series=make_series() if series is None else series, meta=base)


# A four-job run on 4 cores, meta window [0, 100].
#   id submit run wait size estimate  end  bsld        weight=size*run
#   1    0     5    0   1     10       5   (0+10)/10=1     5
#   2    0    20    5   2     40      25   25/20=1.25     40
#   3   10    30   20   4    100      60   50/30=5/3     120
#   4   20    10   50   2     10      80   60/10=6        20
SMALL = {
    "submit": [0.0, 0.0, 10.0, 20.0],
    "run": [5.0, 20.0, 30.0, 10.0],
    "wait": [0.0, 5.0, 20.0, 50.0],
    "size": [1, 2, 4, 2],
    "estimate": [10.0, 40.0, 100.0, 10.0],
    "outcome": ["completed", "completed", "killed_at_limit", "killed"],
    "suspensions": [0, 1, 2, 0],
}
# busy cores: 3 on [0,5), two rows at 5 (the first lasts 0 s), 2 on [5,25),
# 0 on [25,30), 4 on [30,60), 2 on [60,80), 0 on [80,100].
# Integral over [0,100] = 15 + 40 + 120 + 20 + 20 = 215.
STEPS = [
    (0.0, 3, 1),
    (5.0, 1, 9),
    (5.0, 2, 2),
    (25.0, 0, 0),
    (30.0, 4, 1),
    (60.0, 2, 0),
    (70.0, 2, 0),
    (80.0, 0, 0),
]


@pytest.fixture
def small() -> Result:
    return make_result(make_jobs(**SMALL), make_series(STEPS))


# ---- per-job metrics -----------------------------------------------------------


def test_bounded_slowdown_uses_ten_second_floor() -> None:
    jobs = derive(make_jobs(run=[0.0, 5.0, 10.0, 20.0], wait=[10.0, 10.0, 10.0, 10.0]))
    assert BSLD_THRESHOLD == 10.0
    assert jobs["bounded_slowdown"].tolist() == pytest.approx([2.0, 2.0, 2.0, 1.5])
    # unbounded slowdown: NaN for a zero run, (10 + 5) / 5 = 3 for the 5 s job
    assert math.isnan(jobs["slowdown"].iloc[0])
    assert jobs["slowdown"].iloc[1:].tolist() == pytest.approx([3.0, 2.0, 1.5])


def test_turnaround_and_xfactor() -> None:
    jobs = derive(
        make_jobs(
            submit=[0.0, 10.0, 0.0],
            run=[100.0, 50.0, 0.0],
            wait=[20.0, 30.0, 5.0],
            estimate=[200.0, 50.0, 0.0],
        )
    )
    assert jobs["turnaround"].tolist() == pytest.approx([120.0, 80.0, 5.0])
    assert jobs["xfactor"].iloc[:2].tolist() == pytest.approx([220 / 200, 80 / 50])
    assert math.isnan(jobs["xfactor"].iloc[2])


def test_derive_leaves_the_input_alone() -> None:
    jobs = make_jobs(run=[1.0])
    derive(jobs)
    make_result(jobs)
    assert "bounded_slowdown" not in jobs


def test_runtime_class_boundaries_are_inclusive_upper_bounds() -> None:
    runs = [0.0, 600.0, 600.5, 3600.0, 3600.5, 28800.0, 28800.5, 1e6]
    jobs = derive(make_jobs(run=runs))
    assert jobs["runtime_class"].astype(str).tolist() == [
        "VS", "VS", "S", "S", "L", "L", "VL", "VL",
    ]  # fmt: skip
    assert list(jobs["runtime_class"].cat.categories) == ["VS", "S", "L", "VL"]
    assert jobs["runtime_class"].cat.ordered


def test_size_class_boundaries() -> None:
    sizes = [1, 2, 8, 9, 32, 33, 430]
    jobs = derive(make_jobs(run=[10.0] * 7, size=sizes))
    assert jobs["size_class"].astype(str).tolist() == ["Seq", "N", "N", "W", "W", "VW", "VW"]
    assert list(jobs["size_class"].cat.categories) == ["Seq", "N", "W", "VW"]


def test_category_labels_and_order() -> None:
    jobs = derive(make_jobs(run=[600.0, 601.0, 3601.0, 28801.0], size=[1, 8, 9, 33]))
    assert jobs["category"].astype(str).tolist() == ["VS Seq", "S N", "L W", "VL VW"]
    assert list(jobs["category"].cat.categories) == list(CATEGORIES)
    assert CATEGORIES[:4] == ("VS Seq", "VS N", "VS W", "VS VW")
    assert CATEGORIES[-1] == "VL VW"


def test_category4_boundaries() -> None:
    # Table 4.1: <= 1 h is S, <= 8 processors is N.
    jobs = derive(make_jobs(run=[3600.0, 3600.0, 3601.0, 3601.0], size=[8, 9, 1, 64]))
    assert jobs["category4"].astype(str).tolist() == ["SN", "SW", "LN", "LW"]
    assert list(jobs["category4"].cat.categories) == list(CATEGORIES4)


def test_missing_values_get_no_class() -> None:
    jobs = derive(make_jobs(run=[np.nan, -1.0, 10.0], size=[1, 1, 0]))
    assert jobs["runtime_class"].isna().tolist() == [True, True, False]
    assert jobs["size_class"].isna().tolist() == [False, False, True]
    assert jobs["category"].isna().all()


def test_estimate_quality_split_at_exactly_twice() -> None:
    jobs = derive(
        make_jobs(
            run=[100.0, 100.0, 100.0, 0.0, 0.0, 100.0],
            estimate=[200.0, 200.001, 50.0, 0.0, 1.0, np.nan],
        )
    )
    q = jobs["estimate_quality"]
    assert q.iloc[:5].astype(str).tolist() == ["well", "poor", "well", "well", "poor"]
    assert pd.isna(q.iloc[5])
    assert list(q.cat.categories) == ["well", "poor"]


# ---- system metrics --------------------------------------------------------------


def test_utilization_over_whole_run(small: Result) -> None:
    assert small.utilization() == pytest.approx(215 / (4 * 100))


def test_utilization_over_window_cutting_steps(small: Result) -> None:
    # [3, 65]: 3*2 + 2*20 + 0*5 + 4*30 + 2*5 = 176 core-seconds over 62 s.
    assert small.utilization(3.0, 65.0) == pytest.approx(176 / (4 * 62))
    # inside a single step
    assert small.utilization(31.0, 59.0) == pytest.approx(1.0)
    # a window holding only the zero-length duplicate at t=5 picks the later row
    assert small.utilization(5.0, 6.0) == pytest.approx(0.5)
    assert math.isnan(small.utilization(7.0, 7.0))


def test_last_row_holds_until_meta_end() -> None:
    r = make_result(make_jobs(run=[1.0]), make_series([(0.0, 0, 0), (50.0, 4, 2)]))
    assert r.utilization() == pytest.approx(0.5)
    assert r.queue_length_mean() == pytest.approx(1.0)


def test_series_starting_late_counts_as_empty_before() -> None:
    r = make_result(make_jobs(run=[1.0]), make_series([(20.0, 4, 0)]))
    assert r.utilization() == pytest.approx(0.8)


def test_queue_length_mean(small: Result) -> None:
    # queued: 1 on [0,5), 2 on [5,25), 1 on [30,60): 5 + 40 + 30 = 75 over 100 s.
    assert small.queue_length_mean() == pytest.approx(0.75)
    assert small.queue_length_mean(0.0, 10.0) == pytest.approx((5 + 10) / 10)


def test_makespan_and_throughput(small: Result) -> None:
    assert small.makespan == pytest.approx(80.0)
    # all 4 jobs end inside [0, 100]: 4 per 100 s
    assert small.throughput_per_day() == pytest.approx(4 * 86400 / 100)
    # ends 5, 25, 60, 80: [25, 60] holds two (closed window)
    assert small.throughput_per_day(25.0, 60.0) == pytest.approx(2 * 86400 / 35)


def test_makespan_measured_from_meta_start() -> None:
    jobs = make_jobs(submit=[1000.0, 1010.0], run=[50.0, 100.0])
    r = make_result(jobs, make_series([(1000.0, 1, 0)]), start=1000.0, end=1110.0)
    assert r.makespan == pytest.approx(110.0)
    s = r.summary()
    assert s["makespan"] == pytest.approx(110.0)
    # weights 1*50, 1*100; completion from 1000: 50, 110; flow: 50, 100
    assert s["weighted_completion_time"] == pytest.approx(50 * 50 + 100 * 110)
    assert s["weighted_flow_time"] == pytest.approx(50 * 50 + 100 * 100)


def test_summary_of_small_run(small: Result) -> None:
    s = small.summary()
    assert s["jobs"] == 4
    assert s["mean_wait"] == pytest.approx(75 / 4)
    assert s["max_wait"] == pytest.approx(50.0)
    assert s["mean_bounded_slowdown"] == pytest.approx((1 + 1.25 + 5 / 3 + 6) / 4)
    assert s["max_bounded_slowdown"] == pytest.approx(6.0)
    assert s["mean_turnaround"] == pytest.approx((5 + 25 + 50 + 60) / 4)
    assert s["mean_xfactor"] == pytest.approx((1.0 + 45 / 40 + 120 / 100 + 60 / 10) / 4)
    assert s["utilization"] == pytest.approx(0.5375)
    assert s["makespan"] == pytest.approx(80.0)
    assert s["throughput_per_day"] == pytest.approx(4 * 864)
    assert s["mean_queue_length"] == pytest.approx(0.75)
    # seed 004: w = size * run = 5, 40, 120, 20; ends 5, 25, 60, 80; flows 5, 25, 50, 60
    assert s["weighted_completion_time"] == pytest.approx(25 + 1000 + 7200 + 1600)
    assert s["weighted_flow_time"] == pytest.approx(25 + 1000 + 6000 + 1200)
    assert s["killed_at_limit"] == 1
    assert s["killed"] == 1
    assert s["suspensions"] == 3
    assert (s["window_start"], s["window_end"]) == (0.0, 100.0)
    assert (s["excluded_warmup"], s["excluded_cooldown"]) == (0, 0)
    for value in s.values():
        assert type(value) in (int, float)


# ---- warm-up and cool-down ----------------------------------------------------------


@pytest.fixture
def ten() -> Result:
    """Ten jobs submitted at 0, 10, ..., 90 with waits 0, 1, ..., 9 (run 5 s each).

    The frame is shuffled, and two jobs share submit time 40 (ids 5 and 6 swapped
    in the frame), so the selection must sort by submit and then id.
    """
    submit = [0.0, 10.0, 20.0, 30.0, 40.0, 40.0, 60.0, 70.0, 80.0, 90.0]
    jobs = make_jobs(submit=submit, run=[5.0] * 10, wait=[float(i) for i in range(10)])
    jobs = jobs.iloc[[9, 5, 4, 0, 2, 8, 1, 7, 3, 6]].reset_index(drop=True)
    series = make_series([(0.0, 2, 0), (50.0, 0, 3)])
    return make_result(jobs, series, total_cores=4, end=100.0)


def test_warmup_and_cooldown_by_count(ten: Result) -> None:
    s = ten.summary(warmup=2, cooldown=3)
    # kept: ids 3..7 (submits 20, 30, 40, 40, 60), waits 2..6
    assert s["jobs"] == 5
    assert s["mean_wait"] == pytest.approx(4.0)
    assert s["max_wait"] == pytest.approx(6.0)
    assert (s["excluded_warmup"], s["excluded_cooldown"]) == (2, 3)
    assert (s["window_start"], s["window_end"]) == (20.0, 60.0)
    # busy 2 on [20,50), 0 on [50,60): 60 core-s over 40 s on 4 cores
    assert s["utilization"] == pytest.approx(60 / 160)
    assert s["mean_queue_length"] == pytest.approx(30 / 40)
    # jobs ending in [20, 60]: ends 27, 38, 49, 50 -> 4
    assert s["throughput_per_day"] == pytest.approx(4 * 86400 / 40)


def test_tie_in_submit_breaks_by_id(ten: Result) -> None:
    # warmup 5 drops ids 1..5; id 6 (also submitted at 40) is kept
    s = ten.summary(warmup=5)
    assert s["jobs"] == 5
    assert s["mean_wait"] == pytest.approx((5 + 6 + 7 + 8 + 9) / 5)
    assert s["window_start"] == 40.0


def test_warmup_and_cooldown_by_fraction(ten: Result) -> None:
    assert ten.summary(warmup=0.2, cooldown=0.3) == ten.summary(warmup=2, cooldown=3)
    # fractions round down: 0.25 of 10 is 2 jobs
    assert ten.summary(warmup=0.25)["jobs"] == 8
    assert ten.summary(warmup=0.0)["jobs"] == 10


def test_one_sided_trim_keeps_the_other_window_end(ten: Result) -> None:
    s = ten.summary(warmup=2)
    assert (s["window_start"], s["window_end"]) == (20.0, 100.0)
    s = ten.summary(cooldown=2)
    assert (s["window_start"], s["window_end"]) == (0.0, 70.0)


def test_warmup_applies_to_tables(ten: Result) -> None:
    table = ten.category_table("wait", "count", warmup=2, cooldown=3)
    assert table.loc["VS", "Seq"] == 5
    assert table.to_numpy().sum() == 5


@pytest.mark.parametrize(
    ("warmup", "cooldown"),
    [(-1, 0), (0, -2), (1.5, 0), (1.0, 0), (-0.1, 0), (True, 0), ("2", 0), (None, 0),
     (5, 5), (0.6, 0.4), (10, 0)],
)  # fmt: skip
def test_bad_trim_arguments(ten: Result, warmup: object, cooldown: object) -> None:
    with pytest.raises(ValueError):
        ten.summary(warmup=warmup, cooldown=cooldown)  # type: ignore[arg-type]


def test_numpy_integer_trim_is_accepted(ten: Result) -> None:
    assert ten.summary(warmup=np.int64(2))["jobs"] == 8


# ---- category tables --------------------------------------------------------------


@pytest.fixture
def spread() -> Result:
    """Jobs in four categories, with bounded slowdowns chosen by hand.

    VS Seq: run 100, waits 0 and 200 -> bsld 1 and 3
    S N:    run 1000, size 8, wait 1000 -> bsld 2, estimate 3000 (poor)
    L W:    run 4000, size 9, wait 0 -> bsld 1
    VL VW:  run 30000, size 64, wait 30000 -> bsld 2
    """
    jobs = make_jobs(
        submit=[0.0, 1.0, 2.0, 3.0, 4.0],
        run=[100.0, 100.0, 1000.0, 4000.0, 30000.0],
        wait=[0.0, 200.0, 1000.0, 0.0, 30000.0],
        size=[1, 1, 8, 9, 64],
        estimate=[100.0, 200.0, 3000.0, 4000.0, 30000.0],
    )
    return make_result(jobs, make_series([(0.0, 1, 0)]), total_cores=64, end=70000.0)


def test_category_table_in_paper_order(spread: Result) -> None:
    table = spread.category_table()
    assert table.shape == (4, 4)
    assert list(table.index) == ["VS", "S", "L", "VL"]
    assert list(table.columns) == ["Seq", "N", "W", "VW"]
    assert table.loc["VS", "Seq"] == pytest.approx(2.0)
    assert table.loc["S", "N"] == pytest.approx(2.0)
    assert table.loc["L", "W"] == pytest.approx(1.0)
    assert table.loc["VL", "VW"] == pytest.approx(2.0)
    assert int(table.isna().to_numpy().sum()) == 12


def test_category_table_stats(spread: Result) -> None:
    assert spread.category_table(stat="max").loc["VS", "Seq"] == pytest.approx(3.0)
    counts = spread.category_table(stat="count")
    assert counts.loc["VS", "Seq"] == 2
    assert counts.loc["S", "Seq"] == 0  # empty cell of a count is 0, not NaN
    assert counts.to_numpy().sum() == 5
    assert spread.category_table(stat="median").loc["VS", "Seq"] == pytest.approx(2.0)
    assert spread.category_table(stat="p50").loc["VS", "Seq"] == pytest.approx(2.0)
    assert spread.category_table(stat="std").loc["VS", "Seq"] == pytest.approx(math.sqrt(2))
    assert math.isnan(spread.category_table(stat="sum").loc["S", "Seq"])
    table = spread.category_table("turnaround", "mean")
    assert table.loc["VS", "Seq"] == pytest.approx((100 + 300) / 2)


def test_category_table_scheme4(spread: Result) -> None:
    table = spread.category_table(scheme="4", stat="count")
    assert list(table.index) == ["S", "L"]
    assert list(table.columns) == ["N", "W"]
    # VS Seq, VS Seq, S N -> SN; L W -> LW; VL VW -> LW
    assert table.to_numpy().tolist() == [[3, 0], [0, 2]]
    assert math.isnan(spread.category_table(scheme="4").loc["S", "W"])


def test_category_table_by_estimate_quality(spread: Result) -> None:
    poor = spread.category_table(stat="count", estimate="poor")
    well = spread.category_table(stat="count", estimate="well")
    assert poor.to_numpy().sum() == 1
    assert poor.loc["S", "N"] == 1
    assert well.to_numpy().sum() == 4


def test_category_stats_long_table(spread: Result) -> None:
    stats = spread.category_stats()
    assert stats["category"].tolist() == [*CATEGORIES, "all"]
    assert list(stats.columns) == [
        "category", "count", "bounded_slowdown_mean", "bounded_slowdown_max",
        "turnaround_mean", "turnaround_max",
    ]  # fmt: skip
    row = stats.set_index("category").loc["VS Seq"]
    assert row["count"] == 2
    assert row["bounded_slowdown_mean"] == pytest.approx(2.0)
    assert row["bounded_slowdown_max"] == pytest.approx(3.0)
    total = stats.set_index("category").loc["all"]
    assert total["count"] == 5
    assert total["bounded_slowdown_mean"] == pytest.approx((1 + 3 + 2 + 1 + 2) / 5)
    assert total["turnaround_max"] == pytest.approx(60000.0)
    four = spread.category_stats("wait", scheme="4")
    assert four["category"].tolist() == [*CATEGORIES4, "all"]
    assert four["count"].tolist() == [3, 0, 0, 2, 5]


def test_compare_side_by_side(spread: Result, small: Result) -> None:
    table = compare({"NS": spread, "SS": small}, "bounded_slowdown", "mean")
    assert list(table.columns) == ["NS", "SS"]
    assert list(table.index) == [*CATEGORIES, "all"]
    assert table.loc["VS Seq", "NS"] == pytest.approx(2.0)
    assert table.loc["VS Seq", "SS"] == pytest.approx(1.0)  # only job 1 (run 5 s, 1 core)
    assert table.loc["VS N", "SS"] == pytest.approx((1.25 + 5 / 3 + 6) / 3)
    assert table.loc["all", "SS"] == pytest.approx((1 + 1.25 + 5 / 3 + 6) / 4)
    assert math.isnan(table.loc["VL Seq", "NS"])
    four = compare({"NS": spread}, scheme="4", stat="count")
    assert four["NS"].tolist() == [3, 0, 0, 2, 5]


def test_table_bad_arguments(spread: Result) -> None:
    with pytest.raises(ValueError):
        spread.category_table(metric="nodes")
    with pytest.raises(ValueError):
        spread.category_table(metric="no_such_column")
    with pytest.raises(ValueError):
        spread.category_table(scheme="8")
    with pytest.raises(ValueError):
        spread.category_table(estimate="good")
    with pytest.raises(ValueError):
        spread.category_table(stat="no_such_stat")
    with pytest.raises(ValueError):
        spread.category_stats(metrics=("bounded_slowdown", "outcome"))
    with pytest.raises(ValueError):
        compare({})


def test_window_bad_arguments(small: Result) -> None:
    with pytest.raises(ValueError):
        small.utilization(50.0, 10.0)
    with pytest.raises(ValueError):
        small.utilization(-1.0, 10.0)
    with pytest.raises(ValueError):
        small.utilization(0.0, 101.0)
    with pytest.raises(ValueError):
        small.time_average("no_such_column")


def test_construction_bad_arguments() -> None:
    jobs = make_jobs(run=[1.0])
    with pytest.raises(ValueError, match="jobs lacks"):
        make_result(jobs.drop(columns=["wait"]))
    with pytest.raises(ValueError, match="series lacks"):
        make_result(jobs, make_series().drop(columns=["queued"]))
    with pytest.raises(ValueError, match="non-decreasing"):
        make_result(jobs, make_series([(5.0, 0, 0), (1.0, 0, 0)]))
    with pytest.raises(ValueError, match="meta lacks"):
        Result(jobs=jobs, series=make_series(), meta={"total_cores": 4})
    with pytest.raises(ValueError, match="total_cores"):
        make_result(jobs, total_cores=0)


# ---- files --------------------------------------------------------------------------


def test_save_and_reload(small: Result, tmp_path) -> None:
    small.meta.update(
        seed=np.int64(7),
        policy_params={"factor": np.float64(2.0), "limit": math.inf, "t": (1, 2)},
        cleaning=["dropped 0 jobs"],
        wall_time=0.5,
    )
    out = small.save(tmp_path / "run")
    for name in ("jobs.parquet", "jobs.csv", "series.parquet", "summary.json"):
        assert (out / name).is_file()

    jobs = pd.read_parquet(out / "jobs.parquet")
    pd.testing.assert_frame_equal(jobs, small.jobs.reset_index(drop=True))
    csv = pd.read_csv(out / "jobs.csv")
    assert csv["category"].tolist() == small.jobs["category"].astype(str).tolist()
    assert csv["bounded_slowdown"].to_numpy() == pytest.approx(
        small.jobs["bounded_slowdown"].to_numpy()
    )
    series = pd.read_parquet(out / "series.parquet")
    pd.testing.assert_frame_equal(series, small.series.reset_index(drop=True))

    doc = json.loads((out / "summary.json").read_text())
    assert doc["summary"]["jobs"] == 4
    assert doc["summary"]["utilization"] == pytest.approx(0.5375)
    assert doc["meta"]["seed"] == 7
    assert doc["meta"]["policy_params"] == {"factor": 2.0, "limit": None, "t": [1, 2]}

    again = Result.load(out)
    assert again.summary() == small.summary()


def test_save_only_writes_the_files_named(small: Result, tmp_path) -> None:
    small.tables = {"shares": pd.DataFrame({"t": [0.0], "share": [1.0]})}
    assert small.files() == [
        "jobs.parquet", "jobs.csv", "series.parquet", "policy-shares.parquet", "summary.json"
    ]  # fmt: skip
    out = small.save(tmp_path / "a", only=["summary.json", "jobs.csv"])
    assert sorted(p.name for p in out.iterdir()) == ["jobs.csv", "summary.json"]
    # The same bytes as a full save writes.
    full = small.save(tmp_path / "b")
    for name in ("jobs.csv", "summary.json"):
        assert (out / name).read_bytes() == (full / name).read_bytes()
    # policy-*.parquet: every one of the policy's tables.
    assert small.files(["policy-*.parquet"]) == ["policy-shares.parquet"]
    out = small.save(tmp_path / "c", only=["policy-*.parquet"])
    assert [p.name for p in out.iterdir()] == ["policy-shares.parquet"]


def test_save_only_refuses_a_file_the_result_has_not(small: Result, tmp_path) -> None:
    assert small.pieces is None
    with pytest.raises(ValueError, match=r"no file pieces\.parquet to save; it has jobs\.parquet"):
        small.save(tmp_path / "run", only=["jobs.csv", "pieces.parquet"])
    assert not (tmp_path / "run").exists()  # checked before anything is written


def test_load_names_what_a_partial_folder_lacks(small: Result, tmp_path) -> None:
    out = small.save(tmp_path / "run", only=["jobs.csv", "jobs.parquet"])
    with pytest.raises(ValueError, match=r"run: no summary\.json or series\.parquet; a result"):
        Result.load(out)


def test_summary_json_nulls_nan(tmp_path) -> None:
    # a single 0 s job: no xfactor (estimate 0) -> NaN -> null
    r = make_result(make_jobs(run=[0.0], estimate=[0.0]), end=0.0)
    doc = json.loads((r.save(tmp_path) / "summary.json").read_text())
    assert doc["summary"]["mean_xfactor"] is None
    assert doc["summary"]["utilization"] is None


def test_empty_run_summarizes() -> None:
    r = make_result(make_jobs(run=[1.0]).iloc[:0])
    s = r.summary()
    assert s["jobs"] == 0
    assert math.isnan(s["mean_wait"])
    assert math.isnan(s["makespan"])
    assert r.category_table(stat="count").to_numpy().sum() == 0


@pytest.mark.parametrize("n", [1, 2, 3])
def test_category_table_with_very_few_jobs(n: int) -> None:
    # Two jobs once made pandas read the two key arrays as one key pair.
    result = make_result(make_jobs(run=[5.0, 700.0, 4000.0][:n], size=[1, 4, 40][:n]))
    counts = result.category_table(stat="count")
    assert counts.to_numpy().sum() == n
    assert counts.loc["VS", "Seq"] == 1
