"""A run's tables as plain columns (`schedsim.model.columns`), and what is read from them.

A `Result` made from `Columns` must give what the same result made from their
DataFrame gives: its summary bit for bit (each mean as pandas' ``Series.mean``
computes it), its per-category rows, and ``jobs.csv`` byte for byte (as
``to_csv`` writes the frame).
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from schedsim.model.categories import CATEGORIES, category_codes
from schedsim.model.columns import Coded, Columns
from schedsim.model.results import JOB_COLUMNS, SERIES_COLUMNS, Result
from schedsim.model.tablefile import write_csv

OUTCOMES = ("completed", "killed_at_limit", "killed", "unfinished")


def test_columns_keep_their_order_and_length() -> None:
    table = Columns({"a": np.arange(3), "b": ["x", "y", "z"]})
    table.insert(1, "c", Coded(np.array([0, -1, 1]), ("lo", "hi")))
    table["a"] = np.array([5, 6, 7])  # replaced in its place
    assert table.columns == ["a", "c", "b"] and len(table) == 3 and "c" in table
    with pytest.raises(ValueError, match="has 2 rows, the table 3"):
        table["d"] = np.zeros(2)
    with pytest.raises(ValueError, match="already"):
        table.insert(0, "a", np.zeros(3))
    assert table["c"].values().tolist() == ["lo", None, "hi"]  # code -1: missing


def test_a_frame_has_the_dtypes_a_frame_built_by_hand_has() -> None:
    objects = np.empty(3, dtype=object)
    objects[:] = ["p", None, (1, 2)]
    table = Columns(
        {
            "n": np.array([1, 2, 3]),
            "f": np.array([0.5, np.nan, 2.0]),
            "text": ["a", "b", ""],
            "any": objects,
            "class": Coded(np.array([1, 0, -1]), ("S", "L")),
        }
    )
    frame = table.frame()
    by_hand = pd.DataFrame(
        {
            "n": [1, 2, 3],
            "f": [0.5, np.nan, 2.0],
            "text": ["a", "b", ""],
            "any": pd.array(["p", None, (1, 2)], dtype=object),
            "class": pd.Categorical(["L", "S", None], categories=["S", "L"], ordered=True),
        }
    )
    pd.testing.assert_frame_equal(frame, by_hand)
    assert Columns().frame().empty


@st.composite
def job_tables(draw: st.DrawFn) -> tuple[Columns, dict[str, Any]]:
    """A job table as a simulation makes it (the columns `Result` needs, outcomes of
    every kind, NaN ends for unfinished jobs) and the meta of its run."""
    n = draw(st.integers(1, 30))
    times = st.floats(0.0, 1e6, allow_nan=False)
    submit = np.sort(np.array(draw(st.lists(times, min_size=n, max_size=n))))
    run = np.array(draw(st.lists(st.floats(0.0, 1e5), min_size=n, max_size=n)))
    wait = np.array(draw(st.lists(times, min_size=n, max_size=n)))
    partial = draw(st.booleans())
    outcome = draw(
        st.lists(st.sampled_from(OUTCOMES if partial else OUTCOMES[:3]), min_size=n, max_size=n)
    )
    end = submit + wait + run
    end[np.array(outcome) == "unfinished"] = np.nan
    table = Columns(
        {
            "id": np.arange(1, n + 1, dtype=np.int64),
            "submit": submit,
            "start": submit + wait,
            "end": end,
            "run": run,
            "wait": wait,
            "estimate": np.array(draw(st.lists(st.floats(0.0, 2e5), min_size=n, max_size=n))),
            "work": run,
            "size": np.array(draw(st.lists(st.integers(1, 64), min_size=n, max_size=n))),
            "nodes": ["0-3"] * n,
            "outcome": outcome,
            "suspensions": np.array(draw(st.lists(st.integers(0, 3), min_size=n, max_size=n))),
            "suspended_time": np.zeros(n),
            "user": np.ones(n, dtype=np.int64),
        }
    )
    last = float(np.nanmax(np.append(end, submit)))
    meta = {"total_cores": 64, "start": float(submit[0]), "end": last, "partial": partial}
    return table, meta


def _series(meta: dict[str, Any]) -> Columns:
    return Columns(
        {
            name: np.array([meta["start"]]) if name == "time" else np.array([3])
            for name in SERIES_COLUMNS
        }
    )


def _same(a: Any, b: Any) -> bool:
    """Equal, NaN being equal to NaN (and 0.0 never to -0.0: bit for bit)."""
    if isinstance(a, float) and isinstance(b, float):
        return (math.isnan(a) and math.isnan(b)) or (
            a == b and math.copysign(1, a) == math.copysign(1, b)
        )
    return type(a) is type(b) and a == b


@settings(max_examples=150, deadline=None)
@given(table=job_tables(), trim=st.sampled_from([(0, 0), (1, 0), (0, 2), (0.2, 0.3)]))
def test_a_result_of_columns_summarizes_as_its_frame(
    table: tuple[Columns, dict[str, Any]], trim: tuple[float, float]
) -> None:
    jobs, meta = table
    n = len(jobs)
    assume(sum(t if isinstance(t, int) else math.floor(t * n) for t in trim) < n)
    of_columns = Result(jobs=jobs, series=_series(meta), meta=meta)
    of_frame = Result(jobs=jobs.frame(), series=_series(meta).frame(), meta=meta)
    ours = of_columns.summary(*trim)
    theirs = of_frame.summary(*trim)
    assert ours.keys() == theirs.keys()
    assert all(_same(ours[k], theirs[k]) for k in ours), (ours, theirs)
    # Each mean and max is pandas' own, on the jobs kept.
    frame = of_frame._filtered(None, *trim)
    frame = frame[frame["outcome"] != "unfinished"]
    for column in ("wait", "bounded_slowdown", "slowdown", "turnaround", "xfactor"):
        if f"mean_{column}" in ours:
            assert _same(ours[f"mean_{column}"], float(frame[column].mean()))
    assert _same(ours["max_wait"], float(frame["wait"].max()) if len(frame) else math.nan)
    assert _records_alike(of_columns, of_frame, trim)
    assert not isinstance(of_columns._jobs, pd.DataFrame)  # no frame was made for them


def _records_alike(a: Result, b: Result, trim: tuple[float, float]) -> bool:
    left = a.category_records(warmup=trim[0], cooldown=trim[1])
    right = b.category_records(warmup=trim[0], cooldown=trim[1])
    return all(all(_same(x[k], y[k]) for k in x) for x, y in zip(left, right, strict=True))


@settings(max_examples=100, deadline=None)
@given(table=job_tables())
def test_per_category_rows_are_pandas_groups(table: tuple[Columns, dict[str, Any]]) -> None:
    jobs, meta = table
    result = Result(jobs=jobs, series=_series(meta), meta=meta)
    records = result.category_records(metrics=("bounded_slowdown", "size"))
    frame = result.jobs  # made now, from the same columns
    codes = category_codes(frame["run"].to_numpy(), frame["size"].to_numpy())
    groups = frame[["bounded_slowdown", "size"]].groupby(codes).agg(["mean", "max", "size"])
    assert [r["category"] for r in records] == [*CATEGORIES, "all"]
    for code, record in enumerate(records[:-1]):
        if code not in groups.index:
            assert record["count"] == 0 and math.isnan(record["size_mean"])
            continue
        group = groups.loc[code]
        assert record["count"] == group[("size", "size")]
        assert record["size_max"] == float(group[("size", "max")])
        # pandas' group means add with compensation; ours as Series.mean: alike, to the ulp.
        assert record["bounded_slowdown_mean"] == pytest.approx(
            group[("bounded_slowdown", "mean")], rel=1e-12
        )
    assert records[-1]["count"] == len(frame)
    assert _same(records[-1]["size_mean"], float(frame["size"].mean()))


#: Column kinds a simulation's tables hold, and how to draw one of ``n`` rows.
KINDS = {
    "float": lambda n: st.lists(
        st.one_of(st.floats(), st.sampled_from([0.0, -0.0, 937.0, 1e16, 2.5e-7])),
        min_size=n,
        max_size=n,
    ).map(lambda v: np.array(v, dtype=float)),
    "int": lambda n: st.lists(st.integers(-(2**63), 2**63 - 1), min_size=n, max_size=n).map(
        lambda v: np.array(v, dtype=np.int64)
    ),
    "bool": lambda n: st.lists(st.booleans(), min_size=n, max_size=n).map(np.array),
    "text": lambda n: st.lists(
        st.one_of(st.text(max_size=5), st.sampled_from(["a,b", 'q"', "l\nm", ""])),
        min_size=n,
        max_size=n,
    ),
    "objects": lambda n: st.lists(
        st.one_of(st.none(), st.text(max_size=4), st.integers()), min_size=n, max_size=n
    ).map(_objects),
    "coded": lambda n: st.lists(st.integers(-1, 2), min_size=n, max_size=n).map(
        lambda c: Coded(np.array(c, dtype=np.int64), ("x", "y,z", "w"))
    ),
    "numbers list": lambda n: st.lists(
        st.one_of(st.none(), st.integers(0, 9)), min_size=n, max_size=n
    ),
}


def _objects(values: list[Any]) -> np.ndarray:
    out = np.empty(len(values), dtype=object)
    out[:] = values
    return out


@st.composite
def tables(draw: st.DrawFn) -> Columns:
    n = draw(st.integers(0, 6))
    kinds = draw(st.lists(st.sampled_from(sorted(KINDS)), min_size=1, max_size=5))
    return Columns(
        {f"c{i},{k}" if i % 2 else f"c{i}": draw(KINDS[k](n)) for i, k in enumerate(kinds)}
    )


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("columns-csv")


@settings(max_examples=300, deadline=None)
@given(table=tables())
def test_jobs_csv_of_columns_is_to_csv_of_their_frame(table: Columns, folder: Path) -> None:
    write_csv(table, folder / "ours.csv")
    table.frame().to_csv(folder / "pandas.csv", index=False)
    assert (folder / "ours.csv").read_bytes() == (folder / "pandas.csv").read_bytes()


def test_a_simulated_result_keeps_its_columns_until_a_frame_is_asked_for() -> None:
    from schedsim import Simulation
    from schedsim.workloads.catalog import load
    from schedsim.workloads.transforms import first

    result = Simulation(first(load("kth"), 300), "easy").run()
    assert isinstance(result._jobs, Columns) and isinstance(result._series, Columns)
    summary = result.summary()
    assert set(JOB_COLUMNS) <= set(result.jobs.columns)  # the frame, made now
    assert isinstance(result._jobs, pd.DataFrame)
    assert result.summary() == summary
    # From here on the frame is read: a caller's change to it counts.
    result.jobs["wait"] = 0.0
    assert result.summary()["mean_wait"] == 0.0
