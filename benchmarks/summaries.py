"""How long a whole log's result takes to summarize: `Result.summary` and `category_table`.

    python benchmarks/summaries.py                    # 200,000 jobs, best of 5
    python benchmarks/summaries.py --jobs 1000000 --repeat 3 --json summaries.json

A multi-year log has 77,000 to 250,000 jobs, and a study summarizes every one
of its runs, with a warmup and a cooldown cut, then tabulates it by category:
that must stay vectorised (target: both together under 1 s on 200,000 jobs,
the figure the test suite once asserted; a timing has no place in a test, where
a loaded machine makes it fail by chance). The result is made up, not
simulated, so that only the summaries are timed: ``--jobs`` jobs (seed 1) with
sorted submit times over a year, exponential run times (mean 3000 s) and waits
(mean 2000 s), estimates 1-4 times the run time, sizes 1-255 cores on a
430-core machine, and a series of twice as many rows. Timed, each the best
(minimum) of ``--repeat`` timings, each on a result made afresh (untimed: a
result keeps what it derives, which a second call would only look up), with
garbage collected before each: building the `Result` from its tables (which
derives the per-job columns: slowdowns, categories...; no target),
``summary(warmup=0.05, cooldown=0.05)``,
``category_table()`` (mean bounded slowdown over the 16 categories), and both
one after the other (the target's figure). The exit status is 1 when the
target is missed.
"""

from __future__ import annotations

import argparse
import gc
import json
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
from rich.table import Table

sys.path.insert(0, str(Path(__file__).resolve().parent))
from run import _positive_int, environment, environment_table, make_console

from schedsim.model.results import Result

#: Seconds: summary plus category table on `JOBS` jobs, at most (the target).
TARGET = 1.0
JOBS = 200_000
#: Cores of the made-up machine (CTC SP2's 338 nodes and more: 430, the thesis's).
CORES = 430


def made_up_result(jobs: int = JOBS, seed: int = 1) -> Result:
    """A result of ``jobs`` made-up jobs and a series of twice as many rows (docstring)."""
    return Result(**made_up_tables(jobs, seed))


def made_up_tables(jobs: int = JOBS, seed: int = 1) -> dict[str, Any]:
    """`made_up_result`'s arguments: ``jobs``, ``series`` and ``meta``."""
    rng = np.random.default_rng(seed)
    submit = np.sort(rng.uniform(0, 3e7, jobs))
    run = rng.exponential(3000, jobs)
    wait = rng.exponential(2000, jobs)
    table = pd.DataFrame(
        {
            "id": np.arange(1, jobs + 1),
            "submit": submit,
            "start": submit + wait,
            "end": submit + wait + run,
            "run": run,
            "wait": wait,
            "estimate": run * rng.uniform(1, 4, jobs),
            "work": run,
            "size": rng.integers(1, 256, jobs),
            "nodes": "0",
            "outcome": "completed",
            "suspensions": 0,
            "suspended_time": 0.0,
            "user": 1,
        }
    )
    rows = 2 * jobs
    series = pd.DataFrame(
        {
            "time": np.sort(rng.uniform(0, 3e7, rows)),
            "busy_cores": rng.integers(0, CORES, rows),
            "busy_nodes": 0,
            "queued": 0,
            "running": 0,
            "suspended": 0,
        }
    )
    meta = {"total_cores": CORES, "start": 0.0, "end": float(table["end"].max()), "policy": "-"}
    return {"jobs": table, "series": series, "meta": meta}


def best_of(call: Callable[[Result], Any], jobs: int, repeat: int) -> float:
    """The fastest of ``repeat`` wall-clock timings of ``call`` on a fresh made-up result
    of ``jobs`` jobs each time (made untimed): a result keeps the tables it derives, so a
    second call on the same one would time a lookup."""
    times = []
    for _ in range(repeat):
        result = made_up_result(jobs)
        gc.collect()
        began = time.perf_counter()
        call(result)
        times.append(time.perf_counter() - began)
    return min(times)


def _timed(call: Callable[[], Any]) -> float:
    gc.collect()
    began = time.perf_counter()
    call()
    return time.perf_counter() - began


def measure(jobs: int = JOBS, repeat: int = 5) -> dict[str, Any]:
    """The timings (seconds) of the summaries of a made-up result of ``jobs`` jobs: each
    on a result not summarized before, and both one after the other, as a study does."""

    def both(result: Result) -> None:
        result.summary(warmup=0.05, cooldown=0.05)
        result.category_table()

    tables = made_up_tables(jobs)
    build = min(
        _timed(lambda: Result(**{k: v.copy() for k, v in tables.items()})) for _ in range(repeat)
    )
    summary = best_of(lambda r: r.summary(warmup=0.05, cooldown=0.05), jobs, repeat)
    categories = best_of(lambda r: r.category_table(), jobs, repeat)
    total = best_of(both, jobs, repeat)
    kept = made_up_result(jobs).summary(warmup=0.05, cooldown=0.05)["jobs"]
    return {
        "jobs": jobs,
        "jobs_summarized": int(kept),
        "repeat": repeat,
        "result_s": build,
        "summary_s": summary,
        "category_table_s": categories,
        "total_s": total,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="benchmarks/summaries.py", description=__doc__)
    parser.add_argument("--jobs", type=_positive_int, default=JOBS, help=f"default {JOBS:,}")
    parser.add_argument("--repeat", type=_positive_int, default=5, help="best of K (default 5)")
    parser.add_argument("--json", type=Path, help="also save the timings here")
    args = parser.parse_args(argv)
    doc = measure(args.jobs, args.repeat)
    # The target is for 200,000 jobs; other sizes scale it linearly, as the code should.
    target = TARGET * args.jobs / JOBS
    doc["target_s"] = target
    doc["met"] = doc["total_s"] <= target
    console = make_console(100)
    table = Table(title=f"Summaries of {args.jobs:,} made-up jobs (best of {args.repeat})")
    table.add_column("what")
    table.add_column("time (s)", justify="right")
    table.add_row("Result(jobs, series, meta): the derived columns", f"{doc['result_s']:.3f}")
    table.add_row("summary(warmup=0.05, cooldown=0.05)", f"{doc['summary_s']:.3f}")
    table.add_row("category_table()", f"{doc['category_table_s']:.3f}")
    verdict = "met" if doc["met"] else "MISSED"
    table.add_row(f"both, in turn (target {target:.2f} s: {verdict})", f"{doc['total_s']:.3f}")
    console.print(table)
    env = environment()
    console.print(environment_table(env))
    if args.json:
        args.json.write_text(json.dumps({**doc, "environment": env}, indent=2) + "\n")
    return 0 if doc["met"] else 1


if __name__ == "__main__":
    sys.exit(main())
