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
    with_attribute,
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


# -- cleaning steps count the jobs selected (issue 15) ---------------------------


def swf_file(tmp_path, rows):
    """An SWF file of (job, submit, run, requested time, processors) rows, one per line
    from line 2 (line 1 is a header line)."""
    text = "; MaxProcs: 8\n" + "".join(
        f"{j} {s} -1 {r} {p} -1 -1 {p} {e} -1 1 3 1 1 1 1 -1 -1\n" for j, s, r, e, p in rows
    )
    path = tmp_path / "t.swf"
    path.write_text(text)
    return path


#: Line 2 + k holds row k: jobs 1-8 every 100 s; line 4 (job 3) and line 8 (job 7) have
#: no estimate; line 5 (job 4, no size), line 7 (job 6, run time missing) and line 10
#: (job 9, submit time missing, after job 8 in the file) are dropped.
ROWS = [
    (1, 0, 50, 100, 1),
    (2, 100, 50, 100, 2),
    (3, 200, 50, -1, 1),
    (4, 300, 50, 100, 0),
    (5, 400, 50, 100, 4),
    (6, 500, -1, 100, 1),
    (7, 600, 50, 0, 8),
    (8, 700, 50, 100, 1),
    (9, -1, 50, 100, 1),
]


def steps(w: Workload) -> list[str]:
    return [str(s) for s in w.cleaning]


def test_reader_steps_name_lines_and_keep_members(tmp_path):
    w = catalog.load(str(swf_file(tmp_path, ROWS)))
    assert ids(w) == [1, 2, 3, 5, 7, 8]
    assert steps(w) == [
        "dropped: no size: 1 jobs (requested and allocated processors missing or 0 on line 5)",
        "dropped: submit time missing: 1 jobs (submit time -1 on line 10)",
        "dropped: run time missing: 1 jobs (run time -1 on line 7)",
        "estimate missing: used run time: 2 jobs (requested time -1 or 0 on lines 4, 8)",
    ]
    # A line without a submit time stands where it is in the file: after job 8.
    assert w.cleaning[1].members.at == (700.0,) and w.cleaning[1].members.numbers == (8,)
    assert w.cleaning[3].members.ids == (3, 7)


def test_first_counts_the_steps_again(tmp_path):
    w = catalog.load(str(swf_file(tmp_path, ROWS)))
    f = first(w, 3)  # jobs 1, 2, 3: up to submit 200
    assert ids(f) == [1, 2, 3]
    assert steps(f) == [
        "dropped: no size: 0 jobs (requested and allocated processors missing or 0: "
        "none in this selection; 1 in the whole log)",
        "dropped: submit time missing: 0 jobs (submit time -1: none in this selection; "
        "1 in the whole log)",
        "dropped: run time missing: 0 jobs (run time -1: none in this selection; "
        "1 in the whole log)",
        "estimate missing: used run time: 1 jobs (requested time -1 or 0 on line 4; "
        "2 in the whole log)",
        "dropped: after the first 3: 3 jobs",
    ]
    assert [s.count for s in first(w, 4).cleaning] == [1, 0, 0, 1, 2]  # up to job 5 (400)
    assert [s.count for s in first(w, 5).cleaning] == [1, 0, 1, 2, 1]  # up to job 7 (600)
    assert first(w, 6).cleaning == w.cleaning  # all of them: nothing to select
    assert [s.count for s in first(w, 0).cleaning] == [0, 0, 0, 0, 6]


def test_the_reader_keeps_the_first_jobs_as_first_does(tmp_path):
    path = str(swf_file(tmp_path, ROWS))
    w = catalog.load(path)
    for n in range(len(w) + 2):
        cut = catalog.load(path, first=n)
        assert cut == first(w, n)
        assert steps(cut) == steps(first(w, n))
    with pytest.raises(ValueError, match="first must be a non-negative integer"):
        catalog.load(path, first=-1)


@pytest.mark.parametrize("name", ["kth", "sdsc-sp2"])
def test_the_reader_keeps_the_first_jobs_of_a_shipped_log_as_first_does(name):
    w = catalog.load(name)
    for n in (1, 2000, len(w) - 1):
        assert catalog.load(name, first=n) == first(w, n)
    strict = catalog.load(name, strict=True)
    assert catalog.load(name, first=2000, strict=True) == first(strict, 2000)


def test_first_of_another_format_is_first_of_the_whole(tmp_path):
    from schedsim.workloads.parquet import write_workload

    w = catalog.load(str(swf_file(tmp_path, ROWS)))
    write_workload(w, tmp_path / "w.parquet")
    back = catalog.load(str(tmp_path / "w.parquet"))
    assert catalog.load(str(tmp_path / "w.parquet"), first=2) == first(back, 2)
    with pytest.raises(ValueError, match="first must be a non-negative integer"):
        catalog.load(str(tmp_path / "w.parquet"), first=-1)


def test_windows_and_months_count_the_steps_again(tmp_path):
    w = catalog.load(str(swf_file(tmp_path, ROWS)))
    assert [s.count for s in window(w, 250, 650).cleaning] == [1, 0, 1, 1, 4]
    assert [s.count for s in window(w, 650).cleaning] == [0, 1, 0, 0, 5]
    assert [s.count for s in window(w, 0, 300).cleaning] == [0, 0, 0, 1, 3]
    # Selections compose: each counts what the one before it kept.
    assert [s.count for s in first(window(w, 250), 2).cleaning] == [1, 0, 1, 1, 3, 1]
    # A month is a window on the log's calendar (January 1970 in UTC: every job).
    text = "; UnixStartTime: 0\n" + (tmp_path / "t.swf").read_text()
    (tmp_path / "t.swf").write_text(text)
    dated = catalog.load(str(tmp_path / "t.swf"))
    assert [s.count for s in month(dated, "1970-01").cleaning] == [1, 1, 1, 2]
    assert [s.count for s in month(dated, "1970-02").cleaning] == [0, 0, 0, 0, 6]


def test_dropping_wide_jobs_counts_the_changed_jobs_again(tmp_path):
    w = catalog.load(str(swf_file(tmp_path, ROWS)))
    narrow = fit_machine(w, 4, mode="drop")  # job 7 (8 processors) goes
    assert ids(narrow) == [1, 2, 3, 5, 8]
    assert [s.count for s in narrow.cleaning] == [1, 1, 1, 1, 1]  # dropped lines all stay
    assert str(narrow.cleaning[3]) == (
        "estimate missing: used run time: 1 jobs (requested time -1 or 0 on line 4; "
        "2 in the whole log)"
    )
    clamped = fit_machine(w, 4, mode="clamp")
    assert clamped.cleaning[:4] == w.cleaning
    assert [s.count for s in first(clamped, 2).cleaning][-2:] == [0, 4]


def test_transform_steps_are_counted_again_too():
    w = make([0, 10, 20, 30], runs=[10, 10, 10, 10], estimates=[10, 20, 30, 10])
    e = exact_estimates(w)  # jobs 2 and 3
    assert str(first(e, 2).cleaning[0]) == (
        "exact estimates: estimate = run time: 1 jobs (2 before the selection)"
    )
    s = scale_load(w, 2.0)
    assert str(window(s, None, 10).cleaning[0]) == (
        "load scaled: 1 jobs (inter-arrival times divided by 2; 3 before the selection)"
    )
    a = with_attribute(w, "tier", "gold")
    assert first(a, 3).cleaning[0].count == 3


def test_scale_load_moves_the_dropped_lines_with_the_jobs(tmp_path):
    w = catalog.load(str(swf_file(tmp_path, ROWS)))
    s = scale_load(w, 2.0)  # submit 100 k -> 50 k
    assert s.cleaning[0].members.at == (150.0,)
    assert [c.count for c in window(s, 0, 200).cleaning[:4]] == [1, 0, 0, 1]
    assert [c.count for c in window(w, 0, 200).cleaning[:4]] == [0, 0, 0, 0]


def test_members_survive_a_parquet_round_trip(tmp_path):
    from schedsim.workloads.parquet import read_workload, write_workload

    w = catalog.load(str(swf_file(tmp_path, ROWS)))
    back = read_workload(write_workload(w, tmp_path / "w.parquet"))
    assert back.cleaning == w.cleaning
    assert [c.members for c in back.cleaning] == [c.members for c in w.cleaning]
    assert first(back, 3).cleaning == first(w, 3).cleaning


def independent_counts(path, n: int) -> tuple[int, int]:
    """(lines dropped for a missing run time, jobs without an estimate) within the
    first ``n`` jobs of an SWF log, counted from its text without the reader."""
    import gzip

    rows = []
    with gzip.open(path, "rt") as fh:
        for line in fh:
            if line.strip() and not line.lstrip().startswith(";"):
                rows.append([float(x) for x in line.split()])
    size = [r[7] if r[7] > 0 else r[4] for r in rows]
    jobs = sorted(
        (r[1], r[0], r[8]) for r, z in zip(rows, size, strict=True) if z > 0 and r[3] != -1
    )
    last = jobs[n - 1][:2]
    dropped = [r for r, z in zip(rows, size, strict=True) if z > 0 and r[3] == -1]
    no_run = sum(1 for r in dropped if (r[1], r[0]) <= last)
    no_estimate = sum(1 for _, _, e in jobs[:n] if e <= 0)
    return no_run, no_estimate


def test_a_slice_of_sdsc_sp2_counts_its_own_cleaning():
    w = catalog.load("sdsc-sp2")
    assert [(s.name, s.count) for s in w.cleaning] == [
        ("dropped: run time missing", 5671),
        ("estimate missing: used run time", 35),
    ]
    for n in (3000, 30000):
        f = first(w, n)
        assert [s.count for s in f.cleaning[:2]] == list(
            independent_counts(catalog.resolve("sdsc-sp2"), n)
        )
        assert f.cleaning[0].count < 5671 and str(f.cleaning[0]).endswith("5671 in the whole log)")


def test_the_run_summary_and_schedule_count_the_slice(tmp_path, capsys):
    import json

    from schedsim.app.cli import main

    out = tmp_path / "run"
    argv = ["run", "--workload", "sdsc-sp2", "--first", "1500", "--out", str(out)]
    assert main([*argv, "--no-progress"]) == 0
    printed = capsys.readouterr().out
    no_run, no_estimate = independent_counts(catalog.resolve("sdsc-sp2"), 1500)
    assert no_run > 0 and no_estimate == 0
    expected = [
        f"dropped: run time missing: {no_run} jobs (run time -1 on lines 57, 88, 113, ...; "
        "5671 in the whole log)",
        "estimate missing: used run time: 0 jobs (requested time -1 or 0: none in this "
        "selection; 35 in the whole log)",
        "dropped: after the first 1500: 52544 jobs",
    ]
    assert json.loads((out / "summary.json").read_text())["meta"]["cleaning"] == expected
    for line in expected:
        assert f"cleaning: {line}" in " ".join(printed.split())
    notes = [
        ln.removeprefix("; Note: schedsim cleaning: ")
        for ln in (out / "schedule.swf").read_text().splitlines()
        if ln.startswith("; Note: schedsim cleaning: ")
    ]
    assert notes == expected


def test_the_run_summary_and_schedule_count_a_slice_of_a_hand_made_file(tmp_path, capsys):
    import json

    from schedsim.app.cli import main

    path, out = swf_file(tmp_path, ROWS), tmp_path / "run"
    argv = ["run", "--workload", str(path), "--first", "4", "--out", str(out), "--no-progress"]
    assert main(argv) == 0
    printed = " ".join(capsys.readouterr().out.split())
    expected = [
        "dropped: no size: 1 jobs (requested and allocated processors missing or 0 on line 5)",
        "dropped: submit time missing: 0 jobs (submit time -1: none in this selection; "
        "1 in the whole log)",
        "dropped: run time missing: 0 jobs (run time -1: none in this selection; "
        "1 in the whole log)",
        "estimate missing: used run time: 1 jobs (requested time -1 or 0 on line 4; "
        "2 in the whole log)",
        "dropped: after the first 4: 2 jobs",
    ]
    assert json.loads((out / "summary.json").read_text())["meta"]["cleaning"] == expected
    assert all(f"cleaning: {line}" in printed for line in expected)
    header = (out / "schedule.swf").read_text().splitlines()
    assert [ln for ln in header if ln.startswith("; Note: schedsim cleaning: ")] == [
        f"; Note: schedsim cleaning: {line}" for line in expected
    ]
