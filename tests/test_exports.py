"""The exports mean what their formats mean: holding intervals, ``schedule.swf`` with
partial executions, ``batsim_jobs.csv`` with one row per holding interval.

Each file a run writes is read here by a reader that is not schedsim's: ``schedule.swf``
by a plain SWF parser (split lines) and by evalys's own SWF reader,
``batsim_jobs.csv`` by evalys (Batsim's analysis toolkit), the Parquet files by pyarrow,
``jobs.csv`` by the csv module, ``summary.json`` by json; and each must give the run's
numbers: evalys's utilization is schedsim's, for every policy, and its Gantt chart has
no two jobs on one resource at once (before, a suspended job was one row from its first
start to its end: on KTH under SS evalys saw 14 % more busy cores than there were).

The runs (`RUNS`): SS, IS, PFCFS (suspensions) and multiple-queue backfilling
(speculative starts requeued: lost attempts) on KTH's first 1500 jobs, whose times are
whole seconds; G-LOMARC-TS on Zeng & Sodan's W1 (nodes of 4 cores, contention slows
jobs down: rate changes, fractional times) and inside Scojo-PECT (suspensions with
overheads); SS on 64 nodes (the header says the machine simulated).
"""

from __future__ import annotations

import csv
import functools
import itertools
import json
import math
import re
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pyarrow.parquet as pq
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from schedsim.app.cli import main
from schedsim.model.pieces import HOLDING_COLUMNS, holding
from schedsim.workloads.catalog import load
from schedsim.workloads.swf import read_swf
from schedsim.workloads.transforms import first

with warnings.catch_warnings():  # evalys's own imports warn on newer pandas
    warnings.simplefilter("ignore")
    from evalys.jobset import JobSet
    from evalys.workload import Workload as EvalysWorkload

KTH = ["--first", "1500"]
W1 = ["--workload", "zeng-w1", "--jobs", "300", "--nodes", "16", "--contention", "statistical"]
#: The runs checked, as ``schedsim run`` options.
RUNS: dict[str, list[str]] = {
    "ss": [*KTH, "--policy", "ss"],
    "is": [*KTH, "--policy", "is"],
    "pfcfs": [*KTH, "--policy", "pfcfs"],
    "multiqueue": [*KTH, "--policy", "multiqueue"],
    "glts": [*W1, "--policy", "glts"],
    "scojo-glts": [*W1, "--policy", "scojo", "--param", "inner=glts"],
    "ss-64-nodes": [*KTH, "--policy", "ss", "--nodes", "64", "--wide", "drop"],
}
#: Piece kinds during which a job holds its cores.
HELD = ("run", "overhead", "lost")


@pytest.fixture(scope="module")
def run_dir(tmp_path_factory: pytest.TempPathFactory) -> Callable[[str], Path]:
    """The output folder of ``schedsim run ... --batsim`` for a run of `RUNS`, each run once."""
    root = tmp_path_factory.mktemp("exports")

    @functools.cache
    def make(name: str) -> Path:
        out = root / name
        argv = ["run", *RUNS[name], "--batsim", "--out", str(out), "--no-progress"]
        assert main(argv) == 0
        return out

    return make


# -- an independent holding-interval reference ------------------------------------------


def reference_holding(pieces: pd.DataFrame) -> list[tuple[Any, ...]]:
    """Holding intervals by a plain loop over the pieces of each job in time order:
    ``(job, attempt, start, end, nodes, cores, size, ended_by)``."""
    rows = sorted(
        pieces[["job", "attempt", "kind", "start", "end", "nodes", "cores", "size"]].itertuples(
            index=False, name=None
        ),
        key=lambda r: (r[0], r[3], r[4]),
    )
    out: list[list[Any]] = []
    current: list[Any] | None = None
    for i, (job, attempt, kind, start, end, nodes, cores, size) in enumerate(rows):
        following = rows[i + 1] if i + 1 < len(rows) and rows[i + 1][0] == job else None
        if str(kind) not in HELD:
            current = None
            continue
        joins = current is not None and (current[0], current[1], current[3], current[5]) == (
            job,
            attempt,
            start,
            cores,
        )
        if not joins:
            current = [job, attempt, start, end, nodes, cores, size, None]
            out.append(current)
        assert current is not None
        current[3] = end
        if following is None:
            current[7] = "end"
        elif following[1] != attempt:
            current[7] = "requeue"
        else:
            current[7] = "suspension"
        continues = following is not None and str(following[2]) in HELD
        if not continues:
            current = None
    return [tuple(row) for row in out]


def as_tuples(table: pd.DataFrame) -> list[tuple[Any, ...]]:
    table = table.astype({"ended_by": str})
    return list(table[list(HOLDING_COLUMNS)].itertuples(index=False, name=None))


def pieces_of(rows: list[tuple[Any, ...]]) -> pd.DataFrame:
    """A piece table from ``(job, attempt, kind, start, end, cores)`` rows (size 2)."""
    frame = pd.DataFrame(rows, columns=["job", "attempt", "kind", "start", "end", "cores"])
    frame["nodes"] = frame["cores"]
    frame["size"] = 2
    frame["rate"] = np.where(frame["kind"] == "run", 1.0, 0.0)
    frame["kind"] = pd.Categorical(
        frame["kind"], categories=["run", "overhead", "suspended", "lost"]
    )
    return frame[["job", "attempt", "kind", "start", "end", "nodes", "cores", "size", "rate"]]


# -- holding intervals on hand-built piece tables --------------------------------------


def test_rate_changes_and_overheads_stay_inside_one_interval() -> None:
    pieces = pieces_of(
        [
            (1, 1, "run", 0.0, 10.0, "0-1"),
            (1, 1, "run", 10.0, 25.5, "0-1"),  # another rate (contention)
            (1, 1, "overhead", 25.5, 30.0, "0-1"),  # writing its memory out
            (1, 1, "suspended", 30.0, 50.0, "0-1"),
            (1, 1, "overhead", 50.0, 52.0, "0-1"),  # reading it back
            (1, 1, "run", 52.0, 60.0, "0-1"),
        ]
    ).iloc[::-1]  # any order
    assert as_tuples(holding(pieces)) == [
        (1, 1, 0.0, 30.0, "0-1", "0-1", 2, "suspension"),
        (1, 1, 50.0, 60.0, "0-1", "0-1", 2, "end"),
    ]


def test_a_requeue_and_other_cores_cut_an_interval() -> None:
    pieces = pieces_of(
        [
            (2, 1, "lost", 0.0, 180.0, "4-5"),  # a speculative start, thrown away
            (2, 2, "run", 300.0, 400.0, "6-7"),
            (3, 1, "run", 0.0, 50.0, "0-1"),
            (3, 1, "run", 50.0, 70.0, "2-3"),  # resumed at once on other cores
            (3, 1, "run", 70.0, 90.0, "2-3"),
            (4, 1, "lost", 0.0, 10.0, "0-1"),  # requeued while suspended:
            (4, 1, "suspended", 10.0, 20.0, "0-1"),  # the suspension freed its cores
            (4, 2, "run", 30.0, 40.0, "0-1"),
            (5, 1, "run", 0.0, 10.0, "0-1"),
            (5, 1, "suspended", 10.0, 20.0, "0-1"),  # killed while suspended: the
        ]
    )
    assert as_tuples(holding(pieces)) == [
        (2, 1, 0.0, 180.0, "4-5", "4-5", 2, "requeue"),
        (2, 2, 300.0, 400.0, "6-7", "6-7", 2, "end"),
        (3, 1, 0.0, 50.0, "0-1", "0-1", 2, "suspension"),
        (3, 1, 50.0, 90.0, "2-3", "2-3", 2, "end"),
        (4, 1, 0.0, 10.0, "0-1", "0-1", 2, "suspension"),
        (4, 2, 30.0, 40.0, "0-1", "0-1", 2, "end"),
        (5, 1, 0.0, 10.0, "0-1", "0-1", 2, "suspension"),  # suspension freed its cores
    ]
    assert as_tuples(holding(pieces.iloc[:0])) == []


def test_multicore_cores_strings_are_compared_whole() -> None:
    """Nodes of 4 cores: the same nodes on other cores is another set of cores."""
    pieces = pieces_of(
        [
            (7, 1, "run", 0.0, 5.0, "0-2 9"),
            (7, 1, "run", 5.0, 8.0, "0-2 9"),
            (7, 1, "run", 8.0, 9.0, "1-3 9"),
        ]
    )
    pieces["nodes"] = "0 2"
    assert as_tuples(holding(pieces)) == [
        (7, 1, 0.0, 8.0, "0 2", "0-2 9", 2, "suspension"),
        (7, 1, 8.0, 9.0, "0 2", "1-3 9", 2, "end"),
    ]


@st.composite
def piece_tables(draw: st.DrawFn) -> pd.DataFrame:
    """Jobs whose pieces follow each other with or without gaps, kinds, attempts and
    cores drawn at random (2 sets of cores, so that neighbours often share them)."""
    rows = []
    for job in range(draw(st.integers(1, 4))):
        t, attempt = float(draw(st.integers(0, 5))), 1
        for _ in range(draw(st.integers(0, 7))):
            t += draw(st.sampled_from([0.0, 0.0, 0.5, 3.0]))  # mostly contiguous
            attempt += draw(st.sampled_from([0, 0, 0, 1]))
            length = draw(st.sampled_from([0.25, 1.0, 7.0]))
            kind = draw(st.sampled_from(["run", "run", "overhead", "suspended", "lost"]))
            cores = draw(st.sampled_from(["0-1", "0-1", "2 5"]))
            rows.append((job * 3 + 1, attempt, kind, t, t + length, cores))
            t += length
    order = draw(st.permutations(range(len(rows))))
    return pieces_of([rows[i] for i in order])


@settings(max_examples=300, deadline=None)
@given(pieces=piece_tables())
def test_holding_agrees_with_a_plain_loop(pieces: pd.DataFrame) -> None:
    assert as_tuples(holding(pieces)) == reference_holding(pieces)


# -- evalys reads batsim_jobs.csv ---------------------------------------------------------


def machine(out: Path) -> tuple[dict[str, Any], dict[str, Any], int]:
    """summary.json's summary and meta, and the machine's cores."""
    doc = json.loads((out / "summary.json").read_text())
    meta = doc["meta"]
    return doc["summary"], meta, int(meta["nodes"]) * int(meta["cores_per_node"])


def evalys_jobset(out: Path) -> tuple[JobSet, int]:
    _, _, cores = machine(out)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return JobSet.from_csv(str(out / "batsim_jobs.csv"), resource_bounds=(0, cores - 1)), cores


def evalys_utilization(js: JobSet, cores: int, length: float) -> float:
    """evalys's mean utilization over [0, length] (the run's window from its start), as a
    share of the machine: its load integrated between its first and last events (it
    refuses a window beyond them; the machine is idle outside)."""
    times = js.utilisation.index
    lo, hi = float(times.min()), float(times.max())
    assert lo >= 0.0 and hi <= length
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        busy = js.mean_utilisation(lo, hi) * (hi - lo)  # core-seconds
    return busy / (cores * length)


def held_seconds(pieces: pd.DataFrame) -> pd.Series:
    """Core-seconds held per job, from the piece log."""
    held = pieces[pieces["kind"].astype(str).isin(HELD)]
    return (held["size"] * (held["end"] - held["start"])).groupby(held["job"]).sum()


@pytest.mark.parametrize("name", list(RUNS))
def test_evalys_sees_schedsims_utilization_and_no_overlap(
    name: str, run_dir: Callable[[str], Path]
) -> None:
    out = run_dir(name)
    summary, meta, cores = machine(out)
    js, cores = evalys_jobset(out)
    length = float(meta["end"]) - float(meta["start"])
    utilization = evalys_utilization(js, cores, length)
    assert utilization == pytest.approx(summary["utilization"], rel=1e-3)
    # No resource holds two rows at once: evalys's Gantt chart is schedsim's pieces.
    spans: dict[int, list[tuple[float, float]]] = {}
    for row in js.df.itertuples(index=False):
        for resource in row.allocated_resources:
            spans.setdefault(resource, []).append((row.starting_time, row.finish_time))
    for resource, held in spans.items():
        held.sort()
        assert all(a[1] <= b[0] for a, b in itertools.pairwise(held)), (name, resource)
    # Each job's rows hold what its pieces held, and are named ID, ID#1 ... in time order.
    table = pd.read_csv(out / "batsim_jobs.csv", dtype={"job_id": str})
    job = table["metadata"].str.extract(r"^job=(\d+) ended=(end|suspension|requeue)$")
    assert job.notna().all().all()
    table["job"] = job[0].astype(int)
    seconds = (table["execution_time"] * table["requested_number_of_resources"]).groupby(
        table["job"]
    )
    expected = held_seconds(pd.read_parquet(out / "pieces.parquet"))
    assert seconds.sum().loc[expected.index].to_numpy() == pytest.approx(expected.to_numpy())
    for jid, rows in table.groupby("job", sort=False):
        assert rows["job_id"].tolist() == [str(jid)] + [f"{jid}#{k}" for k in range(1, len(rows))]
        assert (rows["starting_time"].diff().dropna() > 0).all()
        assert (rows["submission_time"].iloc[1:].to_numpy() == rows["finish_time"].iloc[:-1]).all()
        # The last row ends with the job, or by a suspension it was killed in.
        assert job.loc[rows.index[-1], 1] in ("end", "suspension")
        assert (job.loc[rows.index[:-1], 1] != "end").all()
    assert len(table) == len(holding(pd.read_parquet(out / "pieces.parquet")))


# -- a plain SWF parser reads schedule.swf --------------------------------------------


def parse_swf(path: Path) -> tuple[dict[str, str], list[list[float]]]:
    """The header's ``; Key: value`` (the first of each key) and the job lines' fields."""
    header: dict[str, str] = {}
    rows = []
    for line in path.read_text().splitlines():
        text = line.strip()
        if text.startswith(";"):
            m = re.match(r";\s?(\w+):(.*)", text)
            if m:
                header.setdefault(m.group(1), m.group(2).strip())
        elif text:
            rows.append([float(x) for x in text.split()])
    return header, rows


PARTIAL = (2.0, 3.0, 4.0)


def swf_jobs(path: Path) -> tuple[dict[str, str], dict[int, list[float]], dict[int, list]]:
    """Header, each job's summary line and its partial lines, by job number."""
    header, rows = parse_swf(path)
    summary: dict[int, list[float]] = {}
    partials: dict[int, list[list[float]]] = {}
    for row in rows:
        if row[10] in PARTIAL:
            assert int(row[0]) in summary  # right after its summary line
            partials.setdefault(int(row[0]), []).append(row)
        else:
            assert int(row[0]) not in summary
            summary[int(row[0])] = row
    return header, summary, partials


def swf_utilization(summary: dict, partials: dict, cores: int, length: float) -> float:
    """Busy share of the machine by the file: partial lines, and the summary lines of the
    jobs that have none (SWF field 5 processors x field 4 run)."""
    busy = sum(r[4] * r[3] for rows in partials.values() for r in rows)
    busy += sum(r[4] * r[3] for jid, r in summary.items() if jid not in partials)
    return busy / (cores * length)


@pytest.mark.parametrize("name", list(RUNS))
def test_schedule_swf_tells_the_schedule(
    name: str, run_dir: Callable[[str], Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    out = run_dir(name)
    summary_json, meta, cores = machine(out)
    header, summary, partials = swf_jobs(out / "schedule.swf")
    jobs = pd.read_parquet(out / "jobs.parquet").set_index("id")
    pieces = pd.read_parquet(out / "pieces.parquet")
    whole = bool(np.all(np.mod(pieces[["start", "end"]].to_numpy(), 1) == 0))
    lines = len(summary) + sum(map(len, partials.values()))
    assert header["MaxJobs"] == str(len(summary)) == str(len(jobs))
    assert header["MaxRecords"] == str(lines)
    assert header["MaxNodes"] == str(meta["nodes"]) and header["MaxProcs"] == str(cores)
    assert header["Preemption"] == ("Double" if partials else "No")
    # Summary lines: the job table's wait and run, to the second; submit + wait + run is
    # the end (each rounded half up: within a second).
    assert sorted(summary) == sorted(jobs.index)
    for jid, row in summary.items():
        job = jobs.loc[jid]
        assert abs(row[2] - job["wait"]) <= 0.5 and abs(row[3] - job["run"]) <= 0.5
        assert abs(row[1] + row[2] + row[3] - job["end"]) <= 1.0
        assert row[10] == {"completed": 1, "killed_at_limit": 0, "killed": 5}[job["outcome"]]
    # Partial lines: the holding intervals (by the plain loop) of the jobs not held in one
    # stretch of their run, in time order, inside the job's life as the file gives it.
    intervals: dict[int, list[tuple[Any, ...]]] = {}
    for row in reference_holding(pieces):
        intervals.setdefault(int(row[0]), []).append(row)
    extra = set(pieces.loc[pieces["kind"].astype(str).isin(("overhead", "lost")), "job"])
    cut = {jid for jid, rows in intervals.items() if len(rows) > 1 or jid in extra}
    assert set(partials) == cut
    if name in ("ss", "is", "pfcfs", "multiqueue", "scojo-glts", "ss-64-nodes"):
        assert cut, "no job was preempted: the run does not test what it is for"
    tolerance = 0.0 if whole else 1.5
    for jid, rows in partials.items():
        summary_end = summary[jid][1] + summary[jid][2] + summary[jid][3]
        spans = [(r[1] + r[2], r[1] + r[2] + r[3]) for r in rows]
        assert all(a[1] <= b[0] for a, b in itertools.pairwise(spans))
        assert spans[-1][1] <= summary_end
        truth = intervals[jid]
        assert len(spans) == len(truth)
        for (start, end), held, row in zip(spans, truth, rows, strict=True):
            assert abs(start - held[2]) <= max(tolerance, 0.5)
            assert abs(end - held[3]) <= max(tolerance, 0.5)
            assert row[4] == held[6] and row[1] == summary[jid][1]
        last = {"completed": 3, "killed_at_limit": 4, "killed": 4}[jobs.loc[jid, "outcome"]]
        assert [r[10] for r in rows] == [2] * (len(rows) - 1) + [last]
        # Their runs add up to the summary's, plus overheads and lost attempts.
        job = jobs.loc[jid]
        total = job["run"] + job["overhead_time"] + job["lost_run"]
        assert abs(sum(r[3] for r in rows) - total) <= (0.0 if whole else 1.5 * len(rows) + 0.5)
    for jid in set(summary) - set(partials):  # one stretch: the summary line shows it
        (held,) = intervals[jid]
        row = summary[jid]
        assert abs(row[1] + row[2] - held[2]) <= max(tolerance, 1.0)
    # Utilization from the lines: schedsim's, within the rounding.
    length = float(meta["end"]) - float(meta["start"])
    utilization = swf_utilization(summary, partials, cores, length)
    sizes = [r[4] for r in summary.values()] + [r[4] for v in partials.values() for r in v]
    bound = 0.0 if whole else 1.5 * sum(sizes) / (cores * length)
    assert abs(utilization - summary_json["utilization"]) <= bound + 1e-12
    # evalys's own SWF reader reads the summary lines (it keeps status <= 1; its
    # read_csv(header=0) takes the first job line for column names, and its
    # delim_whitespace is gone from pandas 3: given as sep=r"\s+").
    real = pd.read_csv

    def read_csv(*args: Any, delim_whitespace: bool = False, **kwargs: Any) -> pd.DataFrame:
        if delim_whitespace:
            kwargs["sep"] = r"\s+"
        return real(*args, **kwargs)

    monkeypatch.setattr(pd, "read_csv", read_csv)
    evalys = EvalysWorkload.from_csv(str(out / "schedule.swf"))
    _, rows = parse_swf(out / "schedule.swf")
    assert len(evalys.df) == sum(r[10] <= 1 for r in rows[1:])
    assert evalys.MaxProcs == cores and evalys.MaxJobs == len(jobs)
    assert set(evalys.df["status"]) <= {0, 1, -1}


def test_the_header_names_the_logs_own_machine(run_dir: Callable[[str], Path]) -> None:
    header, _ = parse_swf(run_dir("ss-64-nodes") / "schedule.swf")
    assert (header["MaxNodes"], header["MaxProcs"]) == ("64", "64")
    notes = [
        ln
        for ln in (run_dir("ss-64-nodes") / "schedule.swf").read_text().splitlines()
        if ln.startswith("; Note: schedsim machine:")
    ]
    assert notes == [
        "; Note: schedsim machine: MaxNodes and MaxProcs are the simulated machine's; the "
        "log's own header says MaxNodes: 100, MaxProcs: 100"
    ]
    header, _ = parse_swf(run_dir("glts") / "schedule.swf")
    assert (header["MaxNodes"], header["MaxProcs"]) == ("16", "64")


# -- every file schedsim run writes gives the run's numbers -----------------------------


def bounded_slowdown(wait: np.ndarray, run: np.ndarray) -> float:
    floor = np.maximum(run, 10.0)
    return float(np.mean((wait + floor) / floor))


def test_every_file_gives_the_summary(run_dir: Callable[[str], Path]) -> None:
    """SS on KTH (whole seconds, no overhead, no requeue): every file gives summary.json's
    jobs, mean wait, mean bounded slowdown, makespan and utilization."""
    out = run_dir("ss")
    summary, meta, cores = machine(out)
    start, end = float(meta["start"]), float(meta["end"])
    length = end - start
    found: dict[str, dict[str, float]] = {}

    def numbers(wait: Any, run: Any, finish: Any, busy: float) -> dict[str, float]:
        wait, run = np.asarray(wait, dtype=float), np.asarray(run, dtype=float)
        return {
            "jobs": len(wait),
            "mean_wait": float(np.mean(wait)),
            "mean_bounded_slowdown": bounded_slowdown(wait, run),
            "makespan": float(np.max(finish)),
            "utilization": busy / (cores * length),
        }

    # jobs.parquet (pyarrow) and jobs.csv (csv): held time = run + overheads + lost runs.
    table = pq.read_table(out / "jobs.parquet").to_pydict()
    held = np.multiply(table["size"], np.add(table["run"], table["overhead_time"]))
    held = held + np.multiply(table["size"], table["lost_run"])
    finish = np.subtract(table["end"], start)
    found["jobs.parquet"] = numbers(table["wait"], table["run"], finish, float(held.sum()))
    with open(out / "jobs.csv", newline="") as fh:
        rows = list(csv.DictReader(fh))
    col = {k: np.array([float(r[k]) for r in rows]) for k in ("wait", "run", "end", "size")}
    busy = float(np.sum(col["size"] * col["run"]))  # SS: no overhead, no lost attempt
    found["jobs.csv"] = numbers(col["wait"], col["run"], col["end"] - start, busy)
    # series.parquet: the busy cores' step function, integrated.
    series = pq.read_table(out / "series.parquet").to_pydict()
    t = np.append(series["time"], end)
    busy = float(np.dot(series["busy_cores"], np.diff(t)))
    # pieces.parquet: the held pieces.
    pieces = pq.read_table(out / "pieces.parquet").to_pandas()
    kept = pieces[pieces["kind"].astype(str).isin(HELD)]
    busy_pieces = float(np.sum(kept["size"] * (kept["end"] - kept["start"])))
    # schedule.swf (plain parser): summary lines; utilization from the partial lines.
    header, swf_summary, partials = swf_jobs(out / "schedule.swf")
    rows_ = np.array(list(swf_summary.values()))
    first_submit = float(rows_[:, 1].min())
    found["schedule.swf"] = numbers(
        rows_[:, 2],
        rows_[:, 3],
        rows_[:, 1] + rows_[:, 2] + rows_[:, 3] - first_submit,
        swf_utilization(swf_summary, partials, cores, length) * cores * length,
    )
    # batsim_jobs.csv (evalys): a job's rows' waits add up to its wait and their
    # execution times to its run (no overhead, no lost attempt under SS).
    js, _ = evalys_jobset(out)
    df = js.df.assign(job=js.df["metadata"].str.extract(r"^job=(\d+)")[0])
    per_job = df.groupby("job").agg(
        wait=("waiting_time", "sum"), run=("execution_time", "sum"), end=("finish_time", "max")
    )
    busy_evalys = evalys_utilization(js, cores, length) * cores * length
    found["batsim_jobs.csv"] = numbers(per_job["wait"], per_job["run"], per_job["end"], busy_evalys)

    for name, got in found.items():
        for key, value in got.items():
            assert value == pytest.approx(summary[key], rel=1e-9), (name, key)
    assert busy == pytest.approx(summary["utilization"] * cores * length, rel=1e-12)
    assert busy_pieces == pytest.approx(busy, rel=1e-12)
    assert float(kept["end"].max()) - start == pytest.approx(summary["makespan"])
    assert header["MaxJobs"] == str(summary["jobs"])


def test_a_schedule_replays_as_the_same_jobs(
    run_dir: Callable[[str], Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = run_dir("ss")
    path = out / "schedule.swf"
    _, _, partials = swf_jobs(path)
    back = read_swf(path)
    submitted = first(load("kth"), 1500)
    assert [(j.id, j.submit, j.size, j.estimate) for j in back] == [
        (j.id, j.submit, j.size, j.estimate) for j in submitted
    ]
    jobs = pd.read_parquet(out / "jobs.parquet").set_index("id")
    assert [j.run_time for j in back] == [math.floor(jobs.loc[j.id, "run"] + 0.5) for j in back]
    step = back.cleaning[0]
    assert (step.name, step.count) == (
        "partial executions skipped: summary line used",
        len(partials),
    )
    replay = tmp_path / "replay"
    argv = ["run", "--workload", str(path), "--policy", "easy", "--out", str(replay)]
    assert main([*argv, "--no-progress"]) == 0
    assert f"partial executions skipped: summary line used: {len(partials)} jobs" in " ".join(
        capsys.readouterr().out.split()
    )
    assert pd.read_parquet(replay / "jobs.parquet")["id"].tolist() == [j.id for j in back]


# -- without a piece log ---------------------------------------------------------------


def test_without_pieces_summary_lines_only(tmp_path: Path) -> None:
    out = tmp_path / "ss"
    argv = [*KTH[:1], "300", "--policy", "ss", "--no-pieces", "--batsim", "--out", str(out)]
    assert main(["run", *argv, "--no-progress"]) == 0
    header, _, partials = swf_jobs(out / "schedule.swf")
    assert not partials and header["MaxRecords"] == header["MaxJobs"] == "300"
    assert header["Preemption"] == "TS"  # preempted, no details
    text = (out / "schedule.swf").read_text()
    assert "; Note: schedsim partial executions: jobs were suspended or requeued, but" in text
    table = pd.read_csv(out / "batsim_jobs.csv", dtype={"job_id": str})
    assert len(table) == 300 and (table["metadata"].str.endswith("ended=end")).all()
    jobs = pd.read_parquet(out / "jobs.parquet").set_index("id")
    assert (jobs["suspensions"] > 0).any()
    out = tmp_path / "easy"
    assert main(["run", *KTH[:1], "300", "--no-pieces", "--out", str(out), "--no-progress"]) == 0
    header, _, _ = swf_jobs(out / "schedule.swf")
    assert header["Preemption"] == "No"
