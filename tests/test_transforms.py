"""Workload transforms (schedsim.workloads.transforms)."""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

import numpy as np
import pytest

from schedsim.workloads import catalog
from schedsim.workloads.job import Job
from schedsim.workloads.transforms import (
    exact_estimates,
    first,
    fit_machine,
    month,
    scale_load,
    window,
)
from schedsim.workloads.workload import CleaningStep, Workload

EASTERN = ZoneInfo("US/Eastern")


def make(submits, sizes=None, runs=None, estimates=None, **header) -> Workload:
    n = len(submits)
    sizes = sizes or [1] * n
    runs = runs or [10.0] * n
    estimates = estimates or [20.0] * n
    jobs = [
        Job(i + 1, float(s), float(r), z, float(e))
        for i, (s, z, r, e) in enumerate(zip(submits, sizes, runs, estimates, strict=True))
    ]
    return Workload.from_jobs(jobs, name="toy", **header)


def ids(w: Workload) -> list[int]:
    return [j.id for j in w]


@pytest.fixture(scope="module")
def ctc() -> Workload:
    return catalog.load("ctc")


# -- scale_load ----------------------------------------------------------------


def test_scale_load_divides_inter_arrival_times():
    w = make([100, 110, 130, 190], sizes=[1, 2, 3, 4])
    s = scale_load(w, 2.0)
    assert [j.submit for j in s] == [100, 105, 115, 145]
    assert ids(s) == ids(w)
    assert [(j.size, j.run_time, j.estimate) for j in s] == [
        (j.size, j.run_time, j.estimate) for j in w
    ]
    assert s.cleaning == (CleaningStep("load scaled", 3, "inter-arrival times divided by 2"),)
    assert [j.submit for j in w] == [100, 110, 130, 190]  # input untouched
    assert w.cleaning == ()


def test_scale_load_lower_load_and_identity():
    w = make([0, 10, 20])
    assert [j.submit for j in scale_load(w, 0.5)] == [0, 20, 40]
    assert scale_load(w, 1).cleaning == ()
    assert scale_load(w, np.float64(1.0)).jobs == w.jobs
    assert len(scale_load(make([]), 2.0)) == 0


@pytest.mark.parametrize("factor", [0, -1.5, float("nan"), float("inf"), "2", None, True])
def test_scale_load_rejects_bad_factor(factor):
    with pytest.raises(ValueError, match="load factor"):
        scale_load(make([0, 1]), factor)


# -- fit_machine ---------------------------------------------------------------


def wide() -> Workload:
    return make([0, 1, 2, 3, 4], sizes=[4, 16, 8, 32, 9])


def test_fit_machine_error_by_default():
    with pytest.raises(ValueError) as info:
        fit_machine(wide(), 8)
    text = str(info.value)
    assert "3 jobs" in text
    assert "job 2 with size 16" in text
    assert "8 cores" in text and "mode='drop'" in text


def test_fit_machine_drop_and_clamp_count():
    dropped = fit_machine(wide(), 8, mode="drop")
    assert ids(dropped) == [1, 3]
    assert dropped.cleaning == (CleaningStep("dropped: wider than machine", 3, "size > 8 cores"),)
    clamped = fit_machine(wide(), 8, mode="clamp")
    assert [j.size for j in clamped] == [4, 8, 8, 8, 8]
    assert [j.run_time for j in clamped] == [j.run_time for j in wide()]
    assert clamped.cleaning == (CleaningStep("clamped: size to 8", 3, "size > 8 cores"),)


def test_fit_machine_nothing_to_do_and_bad_arguments():
    w = wide()
    for mode in ("error", "drop", "clamp"):
        assert fit_machine(w, 32, mode=mode).cleaning == ()  # type: ignore[arg-type]
    assert len(fit_machine(w, np.int64(32))) == 5
    with pytest.raises(ValueError, match="mode"):
        fit_machine(w, 8, mode="shrink")  # type: ignore[arg-type]
    for cores in (0, -4, 8.5, True):
        with pytest.raises(ValueError, match="cores"):
            fit_machine(w, cores)  # type: ignore[arg-type]


def test_fit_machine_on_kth_default_size():
    kth = catalog.load("kth")
    assert fit_machine(kth, kth.header.machine_size).cleaning == kth.cleaning


# -- window and first ------------------------------------------------------------


def test_window_is_half_open_and_counts():
    w = make([0, 10, 20, 30, 40])
    s = window(w, 10, 30)
    assert [j.submit for j in s] == [10, 20]
    assert s.cleaning == (CleaningStep("dropped: outside window", 3, "submit outside [10, 30) s"),)
    assert [j.submit for j in window(w, start=25)] == [30, 40]
    assert [j.submit for j in window(w, end=25)] == [0, 10, 20]
    assert window(w).cleaning == ()
    assert window(w, 0, 41).cleaning == ()
    assert len(window(w, 15, 15)) == 0
    with pytest.raises(ValueError, match="after its end"):
        window(w, 30, 10)


def test_first():
    w = make([5, 1, 3, 2])
    f = first(w, 2)
    assert [j.submit for j in f] == [1, 2]
    assert f.cleaning == (CleaningStep("dropped: after the first 2", 2),)
    assert first(w, 4).cleaning == () and first(w, 10).cleaning == ()
    assert len(first(w, 0)) == 0
    for n in (-1, 2.0, True):
        with pytest.raises(ValueError, match="non-negative integer"):
            first(w, n)  # type: ignore[arg-type]


def test_steps_accumulate_in_order():
    w = first(window(make([0, 10, 20, 30, 40]), start=10), 2)
    assert [s.name for s in w.cleaning] == ["dropped: outside window", "dropped: after the first 2"]


# -- exact_estimates --------------------------------------------------------------


def test_exact_estimates():
    w = make([0, 1, 2], runs=[10, 20, 30], estimates=[10, 100, 15])
    e = exact_estimates(w)
    assert [j.estimate for j in e] == [10, 20, 30]
    assert e.cleaning == (CleaningStep("exact estimates: estimate = run time", 2),)
    assert exact_estimates(e).cleaning == e.cleaning  # nothing more to change
    assert [j.estimate for j in w] == [10, 100, 15]


# -- month ---------------------------------------------------------------------


def ctc_like(submits) -> Workload:
    return make(submits, unix_start_time=835823160, time_zone=-18000, time_zone_string="US/Eastern")


def trace_time(year, mon, day, hour=0, minute=0, second=0) -> float:
    local = datetime(year, mon, day, hour, minute, second, tzinfo=EASTERN)
    return local.timestamp() - 835823160


def test_month_boundaries_are_local_midnights():
    july1 = trace_time(1996, 7, 1)
    aug1 = trace_time(1996, 8, 1)
    # In July US/Eastern is on daylight time (UTC-4), not the header's -18000 (UTC-5).
    assert aug1 - july1 == 31 * 86400
    w = ctc_like([july1 - 1, july1, july1 + 1800, aug1 - 1, aug1, aug1 + 1])
    m = month(w, "1996-07")
    assert [j.submit for j in m] == [july1, july1 + 1800, aug1 - 1]
    assert m.cleaning == (
        CleaningStep("dropped: outside 1996-07", 3, f"submit outside [{july1:g}, {aug1:g}) s"),
    )


def test_month_december_rolls_over_to_next_year():
    dec1, jan1 = trace_time(1996, 12, 1), trace_time(1997, 1, 1)
    w = ctc_like([dec1 - 1, dec1, jan1 - 1, jan1])
    assert [j.submit for j in month(w, "1996-12")] == [dec1, jan1 - 1]


def test_month_of_ctc(ctc):
    assert len(ctc) == 77222
    july = month(ctc, "1996-07")
    local = [ctc.header.to_datetime(j.submit) for j in july]
    assert local and all((d.year, d.month) == (1996, 7) for d in local)

    # Independent selection with zoneinfo over the whole log.
    def local_month(j: Job) -> tuple[int, int]:
        d = datetime.fromtimestamp(835823160 + j.submit, tz=EASTERN)
        return d.year, d.month

    expected = [j.id for j in ctc if local_month(j) == (1996, 7)]
    assert ids(july) == expected
    assert july.cleaning[-1].count == len(ctc) - len(july)
    # The neighbours just outside are in June and August.
    before = max(j.submit for j in ctc if j.submit < july[0].submit)
    after = min(j.submit for j in ctc if j.submit > july[-1].submit)
    assert ctc.header.to_datetime(before).month == 6
    assert ctc.header.to_datetime(after).month == 8
    # Months partition the log.
    months = [f"1996-{m:02d}" for m in range(6, 13)] + [f"1997-{m:02d}" for m in range(1, 6)]
    assert sum(len(month(ctc, s)) for s in months) == len(ctc)


@pytest.mark.parametrize("bad", ["1996-7", "July 1996", "1996-13", "1996-00", "96-07", ""])
def test_month_rejects_bad_strings(bad):
    with pytest.raises(ValueError, match="YYYY-MM"):
        month(ctc_like([0]), bad)


def test_month_needs_unix_start_time():
    with pytest.raises(ValueError, match="UnixStartTime"):
        month(make([0, 1]), "1996-07")
