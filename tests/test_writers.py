"""The run writers: ``jobs.csv`` (`schedsim.model.tablefile`) and ``schedule.swf``
(`schedsim.workloads.swf.write_swf`) give the bytes they gave before they were made fast.

Golden digests: sha256 of both files as ``schedsim run`` writes them for varied runs,
taken from the writers before the change (``DataFrame.to_csv`` and the per-job SWF loop).
Two ``schedule.swf`` digests were taken again when the file got partial executions
(`schedsim.app.exports`): the SS run's (summary lines with the job table's wait and run,
partial lines, ``Preemption: Double``) and the partial result's (an unfinished job's wait
is unknown, -1); the EASY runs' bytes did not change.
"""

from __future__ import annotations

import functools
import hashlib
import re
from collections.abc import Callable
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from schedsim import Simulation
from schedsim.app.exports import write_schedule_swf
from schedsim.model import tablefile
from schedsim.model.policy import Kill
from schedsim.model.results import Result
from schedsim.model.tablefile import write_csv
from schedsim.policies.backfilling import EASY
from schedsim.workloads import estimates, lublin
from schedsim.workloads.job import Job
from schedsim.workloads.swf import read_swf, write_swf
from schedsim.workloads.transforms import first, scale_load, with_priorities
from schedsim.workloads.workload import Workload

DATA = Path(__file__).resolve().parent.parent / "workloads" / "data"


@functools.cache
def kth() -> Workload:
    return read_swf(DATA / "KTH-SP2-1996-2.1-cln.swf.gz")


class KillSome(EASY):
    """EASY that kills every running job whose id is a multiple of 23 once it has run."""

    def schedule(self, view):  # type: ignore[no-untyped-def]
        doomed = [Kill(j) for j in view.running if j.id % 23 == 0 and view.now > j.since]
        return doomed or super().schedule(view)


def easy_kth() -> tuple[Workload, Result]:
    w = first(kth(), 3000)
    return w, Simulation(w, "easy").run()


def ss_kth() -> tuple[Workload, Result]:
    """Suspensions: the schedule says ``Preemption: Yes``."""
    w = first(kth(), 2000)
    return w, Simulation(w, "ss").run()


def easy_lublin() -> tuple[Workload, Result]:
    """Synthetic jobs (no SWF fields): -1 in the fields they do not know."""
    w = lublin.generate(800, 128, np.random.default_rng(5))
    return w, Simulation(w, "easy").run()


def easy_f_model() -> tuple[Workload, Result]:
    """Fractional estimates (field 9 replaced, written with decimals), fractional submits
    (the load scaled) and a text attribute column."""
    w = scale_load(first(kth(), 1500), 1.3)
    w = with_priorities(estimates.f_model(w, np.random.default_rng(3), 1.5), 0.4, seed=2)
    return w, Simulation(w, "easy").run()


def partial_kills() -> tuple[Workload, Result]:
    """Every outcome: completed, killed at the limit, killed by the policy, unfinished
    (NaN end; NaN start for the jobs still queued)."""
    w = first(kth(), 550)
    return w, Simulation(w, KillSome()).run(until=w[-1].submit + 1.0)


RUNS: dict[str, Callable[[], tuple[Workload, Result]]] = {
    "easy-kth-3000": easy_kth,
    "ss-kth-2000": ss_kth,
    "easy-lublin-800": easy_lublin,
    "easy-f-model-1500": easy_f_model,
    "partial-kills-550": partial_kills,
}


def write_run(name: str, out: Path) -> Path:
    """Write run ``name`` as ``schedsim run`` does (`cli._run_and_write`)."""
    workload, result = RUNS[name]()
    result.save(out)
    write_schedule_swf(result, workload, out / "schedule.swf", policy=result.meta["policy"])
    return out


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


#: sha256 of (jobs.csv, schedule.swf) of each run, from the writers before they were made
#: fast (pandas' to_csv, the per-job SWF loop).
GOLDEN = {
    "easy-kth-3000": (
        "4ffc00a2783eeab222d756725ec7f8e8af25e58d458211a846b6feda784dc30f",
        "3450fd4f61c62d938a0659420634651d7d7c27956665443a33b6ac0a6d24d4f4",
    ),
    "ss-kth-2000": (
        "6cf9e626fc4358ec5588957881880421c335e847fa05504ecf26ba5f9eb1a03e",
        "f37ca0ec381d03ed46f3dbc3b15514ba0a7e7faddc43d49693f29f7c6186ab2a",
    ),
    "easy-lublin-800": (
        "ed79182f65c8e524a87b287b767426824deb573e66846ed26c0dd55804286da2",
        "6427ab008ac7d6cbfbced4ce6e8a88c170b5d7094a58b7e30371e458c7359a6e",
    ),
    "easy-f-model-1500": (
        "3799cc16bef316e95d388b8d18d0cd2eaa60417bfdf5a229256dc72a0b56e468",
        "168ca9355a82701071429389ca3386135fe3b12e80dd7421603310df3543046a",
    ),
    "partial-kills-550": (
        "610ddfed9491c1d9bc96c0cdbb003d32a971c4e27e50d1b63e142b4d4669714f",
        "cb4529c0d9f8c5382aa71779b189d6f39859289cdbc81c66d3aa798d8836b981",
    ),
}


@pytest.fixture(scope="module")
def written(tmp_path_factory: pytest.TempPathFactory) -> Callable[[str], Path]:
    """The output folder of a run by name, each run made and written once."""
    root = tmp_path_factory.mktemp("runs")
    return functools.cache(lambda name: write_run(name, root / name))


@pytest.mark.parametrize("name", list(RUNS))
def test_run_outputs_keep_their_bytes(name: str, written: Callable[[str], Path]) -> None:
    out = written(name)
    assert (digest(out / "jobs.csv"), digest(out / "schedule.swf")) == GOLDEN[name]


def test_the_runs_reach_the_cases_they_are_for(written: Callable[[str], Path]) -> None:
    """What each golden run is there for is in its files: suspensions, fractional
    fields, synthetic jobs, every status, missing values."""

    def job_lines(name: str) -> list[list[str]]:
        text = (written(name) / "schedule.swf").read_text()
        return [ln.split() for ln in text.splitlines() if not ln.startswith(";")]

    assert "; Preemption: Double" in (written("ss-kth-2000") / "schedule.swf").read_text()
    assert {row[10] for row in job_lines("ss-kth-2000")} == {"1", "0", "2", "3", "4"}
    assert any("." in f for row in job_lines("easy-f-model-1500") for f in row[1:9])
    assert {row[5] for row in job_lines("easy-lublin-800")} == {"-1"}
    partial = job_lines("partial-kills-550")
    assert {row[10] for row in partial} == {"1", "0", "5", "-1"}
    # An unfinished job's end is not known, nor its wait (end - submit - run) or run.
    assert {(row[2], row[3]) for row in partial if row[10] == "-1"} == {("-1", "-1")}
    jobs = pd.read_csv(written("partial-kills-550") / "jobs.csv")
    assert jobs.loc[jobs["outcome"] == "unfinished", "start"].notna().any()  # some started
    assert ",," in (written("partial-kills-550") / "jobs.csv").read_text()


# -- jobs.csv: the fast writer against pandas -----------------------------------

FLOATS = st.one_of(
    st.floats(),
    st.sampled_from(
        [
            float("nan"),
            float("inf"),
            -float("inf"),
            -0.0,
            1e16,
            1e-7,
            0.1 + 0.2,
            937.0,
            2.5e-07,
            0.0,
            -5.0,
            9999999999999998.0,
            -1e15,
            1e17,
        ]
    ),
)
TEXTS = st.one_of(
    st.text(max_size=6),
    st.sampled_from(["", " lead", "a,b", 'say "hi"', "two\nlines", "cr\r", "x", "\u00e9t\u00e9"]),
)


def _series(values: st.SearchStrategy[Any], dtype: Any) -> Callable[[int], Any]:
    return lambda n: st.lists(values, min_size=n, max_size=n).map(
        lambda v: pd.Series(v, dtype=dtype)
    )


#: Column kinds written by `write_csv` itself.
FAST = {
    "float64": _series(FLOATS, "float64"),
    "int64": _series(st.integers(-(2**63), 2**63 - 1), "int64"),
    "uint64": _series(st.integers(0, 2**64 - 1), "uint64"),
    "int8": _series(st.integers(-128, 127), "int8"),
    "bool": _series(st.booleans(), "bool"),
    "str": _series(st.one_of(st.none(), TEXTS), "str"),
    "string": _series(st.one_of(st.none(), TEXTS), "string"),
    "object": _series(st.one_of(st.none(), st.just(float("nan")), st.just(pd.NA), TEXTS), object),
    "category": _series(st.one_of(st.none(), TEXTS), "category"),
    "Int64": _series(st.one_of(st.none(), st.integers(-(2**63), 2**63 - 1)), "Int64"),
    "boolean": _series(st.one_of(st.none(), st.booleans()), "boolean"),
}
#: Column kinds left to pandas' to_csv.
SLOW = {
    "float32": _series(st.floats(width=32), "float32"),
    "datetime": _series(
        st.one_of(st.none(), st.datetimes(datetime(1900, 1, 1), datetime(2200, 1, 1))),
        "datetime64[ns]",
    ),
    "timedelta": _series(
        st.timedeltas(-timedelta(days=9999), timedelta(days=9999)), "timedelta64[ns]"
    ),
    "complex": _series(st.complex_numbers(), "complex128"),
    "mixed": _series(st.one_of(st.integers(), FLOATS, TEXTS, st.booleans()), object),
    "int category": _series(st.one_of(st.none(), st.integers(0, 3)), "category"),
    "Float64": _series(st.one_of(st.none(), st.floats(allow_nan=False)), "Float64"),
}


@st.composite
def frames(draw: st.DrawFn, kinds: dict[str, Callable[[int], Any]]) -> pd.DataFrame:
    n = draw(st.integers(0, 6))
    chosen = draw(st.lists(st.sampled_from(sorted(kinds)), min_size=1, max_size=5))
    frame = pd.DataFrame({f"c{i}": draw(kinds[k](n)) for i, k in enumerate(chosen)})
    frame.columns = draw(st.lists(TEXTS, min_size=len(chosen), max_size=len(chosen)))
    return frame


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("csv")


def same_as_pandas(frame: pd.DataFrame, folder: Path) -> bool:
    frame.to_csv(folder / "pandas.csv", index=False)
    write_csv(frame, folder / "ours.csv")
    return (folder / "ours.csv").read_bytes() == (folder / "pandas.csv").read_bytes()


@settings(max_examples=300, deadline=None)
@given(frame=frames(FAST))
def test_csv_writer_writes_what_pandas_writes(frame: pd.DataFrame, folder: Path) -> None:
    assert tablefile._columns(frame) is not None  # written here, not handed to pandas
    assert same_as_pandas(frame, folder)


@settings(max_examples=100, deadline=None)
@given(frame=frames({**FAST, **SLOW}))
def test_csv_writer_leaves_other_dtypes_to_pandas(frame: pd.DataFrame, folder: Path) -> None:
    assert same_as_pandas(frame, folder)


def test_csv_writer_any_index_other_labels(folder: Path) -> None:
    frame = pd.DataFrame({"a": [1.5, float("nan")], "b": ["x", None]}, index=["r", "s"])
    assert tablefile._columns(frame) is not None and same_as_pandas(frame, folder)
    frame.index = pd.MultiIndex.from_tuples([(1, 2), (3, 4)])
    assert same_as_pandas(frame, folder)
    frame.columns.name = "named"
    assert same_as_pandas(frame, folder)
    assert same_as_pandas(frame.set_axis([1, 2], axis=1), folder)  # int labels: pandas'
    wide = frame.set_axis(pd.MultiIndex.from_tuples([("a", "x"), ("a", "y")]), axis=1)
    assert tablefile._columns(wide) is None and same_as_pandas(wide, folder)
    assert same_as_pandas(frame.set_axis(["a", "a"], axis=1), folder)  # repeated labels
    assert same_as_pandas(frame.iloc[:0], folder)  # no rows: the header
    assert same_as_pandas(frame.iloc[:, :0], folder)  # no columns
    assert same_as_pandas(pd.DataFrame({"only": ["", None]}), folder)  # an empty row


def test_csv_writer_shortcuts(folder: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The cheap paths give pandas' text: a column of one value (0.0 beside -0.0 is not
    one), whole floats up to 1e16 (repr's exponent from there on), text needing quotes
    among plain columns, and rows written in several blocks."""
    whole = [0.0, -5.0, 937.0, 9999999999999998.0, -9999999999999998.0, 1e15]
    frames = {
        "whole": pd.DataFrame({"w": whole, "n": range(6)}),
        "whole and -0.0": pd.DataFrame({"w": [*whole[1:], -0.0], "n": range(6)}),
        "1e16": pd.DataFrame({"w": [*whole[1:], 1e16], "n": range(6)}),
        "one value": pd.DataFrame({"z": [0.0] * 6, "i": [7] * 6, "b": [True] * 6}),
        "signs of zero": pd.DataFrame({"z": [0.0, -0.0] * 3, "y": [-0.0] * 6}),
        "all NaN": pd.DataFrame({"z": [float("nan")] * 6, "c": ["x"] * 6}),
        "quotes": pd.DataFrame({"n": range(3), "s": ["a", "b,c", None]}),
        "quoted category": pd.DataFrame({"n": range(2), "s": pd.Categorical(["x", 'y"'])}),
    }
    for name, frame in frames.items():
        assert tablefile._columns(frame) is not None, name
        assert same_as_pandas(frame, folder), name
    assert not tablefile._columns(frames["quotes"])[1]  # type: ignore[index]
    assert tablefile._columns(frames["whole"])[1]  # type: ignore[index]
    monkeypatch.setattr(tablefile, "BLOCK", 4)
    rows = pd.DataFrame({"x": np.arange(10) / 4, "s": list("abcdefghij")})
    for frame in (rows, rows.iloc[:8], rows.assign(s=[*"abcdefghi", "j,k"])):
        assert same_as_pandas(frame, folder)


# -- schedule.swf: errors ------------------------------------------------------


def small_workload() -> Workload:
    """Four jobs with SWF fields, submitted in id order."""
    return Workload.from_jobs(
        [
            Job(i, 10.0 * i, 100.0, 2, 200.0, swf=(i, 10 * i, -1, 100, 2, -1, -1, 2, 200, -1,
                                                 1, 7, 3, -1, 1, -1, -1, -1))
            for i in (1, 2, 3, 4)
        ],
        name="small",
        max_procs=8,
    )  # fmt: skip


def reversed_schedule(**columns: list[Any]) -> pd.DataFrame:
    """A schedule of `small_workload` in reverse order (job 4 first), column values in
    that order."""
    return pd.DataFrame({"id": [4, 3, 2, 1], "wait": [0.0] * 4, "run": [100.0] * 4, **columns})


@pytest.mark.parametrize(
    ("columns", "message"),
    [
        # The first job in submit order (not in the schedule's), whatever it is.
        ({"wait": [float("inf"), 0, 0, 0], "run": [100, 100, -0.6, 100]},
         "job 2: simulated run time -0.6 is negative"),
        ({"wait": [float("inf"), 0, 0, 0]}, "job 4: simulated wait is infinite"),
        ({"run": [100, -float("inf"), 100, 100]}, "job 3: simulated run time is infinite"),
        ({"wait": [0, 0, 0, -0.6]}, "job 1: simulated wait -0.6 is negative"),
        # Within a job: size, wait, run, status.
        ({"wait": [0, 0, -2.0, 0], "run": [100, 100, float("inf"), 100]},
         "job 2: simulated wait -2.0 is negative"),
        ({"wait": [0, 0, float("inf"), 0], "status": [1, 1, 2.5, 1]},
         "job 2: simulated wait is infinite"),
        ({"status": [1, -3, 1, 1], "wait": [float("inf"), 0, 0, 0]},
         "job 3: status -3.0 is not an SWF status"),
        ({"status": [1, 1, 1, float("inf")]}, "job 1: status inf is not an SWF status"),
        ({"size": [2.0, 2.0, float("nan"), 2.0], "wait": [0, 0, float("inf"), 0]},
         "cannot convert float NaN to integer"),
    ],
)  # fmt: skip
def test_bad_values_name_the_first_job_in_submit_order(
    columns: dict[str, list[Any]], message: str, tmp_path: Path
) -> None:
    with pytest.raises(ValueError, match=re.escape(message)):
        write_swf(tmp_path / "s.swf", small_workload(), reversed_schedule(**columns))
    assert not (tmp_path / "s.swf").exists()


def test_values_at_the_edges_are_written(tmp_path: Path) -> None:
    """Half up from -0.5 is 0, NaN is -1, a float size is truncated, -1 and NaN are
    missing statuses, float job ids name the same jobs."""
    out = tmp_path / "s.swf"
    schedule = reversed_schedule(
        wait=[-0.5, -0.4, float("nan"), 2.5],
        run=[0.49, float("nan"), 1e15 + 0.5, 100.0],
        size=[2.9, 4.0, 2.0, 1.0],
        status=[-1, float("nan"), 0, 5],
    )
    write_swf(out, small_workload(), schedule)
    rows = [ln.split() for ln in out.read_text().splitlines() if not ln.startswith(";")]
    assert [row[2:5] for row in rows] == [
        ["3", "100", "1"], ["-1", "1000000000000001", "2"], ["0", "-1", "4"], ["0", "0", "2"]
    ]  # fmt: skip
    assert [row[7] for row in rows] == ["2", "2", "2", "2"]  # requested: the job's size
    assert [row[10] for row in rows] == ["5", "0", "-1", "-1"]
    again = tmp_path / "again.swf"
    write_swf(again, small_workload(), schedule.assign(id=schedule["id"].astype(float)))
    assert again.read_bytes() == out.read_bytes()


@pytest.mark.parametrize(
    ("ids", "message"),
    [
        ([3, 1, 2, 1, 3, 4], "schedule has job 1 more than once"),  # the first repeat found
        ([3, 3, 9], "schedule has job 3 more than once"),  # before the missing jobs
        ([4, 9, 8], "3 jobs of workload 'small' are not in the schedule (first: job 1)"),
        ([4, 9, 3, 2, 8, 1], "schedule has 2 jobs that are not in workload 'small' (first: job 9)"),
    ],
)
def test_schedule_and_workload_must_name_the_same_jobs(
    ids: list[int], message: str, tmp_path: Path
) -> None:
    schedule = pd.DataFrame({"id": ids, "wait": 0.0, "run": 1.0})
    with pytest.raises(ValueError, match=re.escape(message)):
        write_swf(tmp_path / "s.swf", small_workload(), schedule)
