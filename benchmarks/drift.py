"""How a long run's cost per pass follows its state: one run, timed part by part.

    python benchmarks/drift.py                         # SS on 640,000 jobs (about 5 min)
    python benchmarks/drift.py --policy easy --jobs 160000 --parts 4

`benchmarks/growth.py` fits one exponent over whole runs of five sizes; this
looks inside one run, to tell a simulator whose cost per job rises with the
length of the run from a policy whose state does. The workload is growth.py's
(`growth.lublin_config`: Lublin & Feitelson 2003 on 128 nodes, load factor 2,
the model's own estimates), simulated once in this process after an untimed
500-job warm-up. An observer notes the CPU time every ``--every`` passes and
at the last one (the result tables built after it are in no part);
the simulated span, from 0 to the last pass, is cut into ``--parts`` equal
parts, and for each the table gives the jobs submitted in it, its passes,
the CPU seconds spent on them (read off the notes, interpolated at the
part's edges) and per pass, and the mean over its passes of what the run's
``series`` table records after each pass: busy cores, queued, running and
suspended jobs. CPU time, not wall time: a part is short, and the machine's
other load would move its wall time more.
"""

from __future__ import annotations

import argparse
import gc
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np
from rich.table import Table

sys.path.insert(0, str(Path(__file__).resolve().parent))
from growth import LOAD_FACTOR, NODES, SEED, WARMUP_JOBS, lublin_config, simulate
from run import _policy, _positive_int, environment, environment_table, make_console

from schedsim.model.gc_tuning import tuned_gc
from schedsim.model.scheduler import Pass

#: What each part reports of the run's series, as (series column, table heading).
STATE = (
    ("busy_cores", "busy cores"),
    ("queued", "queued jobs"),
    ("running", "running jobs"),
    ("suspended", "suspended jobs"),
)


class _Clock:
    """Observer: the CPU time and the simulated time every ``every`` passes, and at the
    last pass (read at every pass, which costs well under a microsecond: the time the
    run then spends building its result tables is in no part)."""

    def __init__(self, every: int) -> None:
        self.every = every
        self.passes = 0
        self.start()

    def start(self) -> None:
        """Start the clock at simulated time 0 (just before the run)."""
        self.last = (0.0, time.process_time())
        self.marks = [self.last]

    def on_pass(self, step: Pass) -> None:
        self.passes += 1
        self.last = (step.now, time.process_time())
        if self.passes % self.every == 0:
            self.marks.append(self.last)


def measure(
    policy: str = "ss",
    jobs: int = 640_000,
    parts: int = 8,
    every: int = 5_000,
    seed: int = SEED,
    warmup: int = WARMUP_JOBS,
) -> list[dict[str, Any]]:
    """Simulate once and cut the run into ``parts``; one dict per part (module docstring)."""
    if warmup:
        small = lublin_config(warmup, policy, seed, NODES, LOAD_FACTOR)
        simulate(small, small.build_workload()).run()
    config = lublin_config(jobs, policy, seed, NODES, LOAD_FACTOR)
    workload = config.build_workload()
    clock = _Clock(every)
    sim = simulate(config, workload, clock)
    gc.collect()
    clock.start()  # building the simulation is in no part
    with tuned_gc():  # as the schedsim command runs
        result = sim.run()
    if clock.last is not clock.marks[-1]:
        clock.marks.append(clock.last)
    at, cpu = (np.array(column) for column in zip(*clock.marks, strict=True))
    series = result.series
    times = series["time"].to_numpy()
    submits = np.sort(result.jobs["submit"].to_numpy())
    edges = np.linspace(0.0, times[-1], parts + 1)
    rows = []
    for k in range(parts):
        low, high = edges[k], edges[k + 1]
        last = k == parts - 1  # the last part keeps the last pass and the last jobs
        inside = (times >= low) & ((times <= high) if last else (times < high))
        side = "right" if last else "left"
        spent = float(np.interp(high, at, cpu) - np.interp(low, at, cpu))
        passes = int(inside.sum())
        row: dict[str, Any] = {
            "part": k + 1,
            "from_days": low / 86400.0,
            "to_days": high / 86400.0,
            "jobs": int(np.searchsorted(submits, high, side) - np.searchsorted(submits, low)),
            "passes": passes,
            "cpu_s": spent,
            "us_per_pass": 1e6 * spent / passes if passes else float("nan"),
        }
        for column, _ in STATE:
            row[column] = float(series[column][inside].mean()) if passes else float("nan")
        rows.append(row)
    return rows


def drift_table(rows: list[dict[str, Any]], title: str) -> Table:
    """One row per part of the run."""
    table = Table(title=title, caption="means over each part's passes, after each pass")
    headings = ["part", "days", "jobs", "passes", "CPU s", "us / pass"]
    for heading in headings + [h for _, h in STATE]:
        table.add_column(heading, justify="right")
    for r in rows:
        table.add_row(
            str(r["part"]),
            f"{r['from_days']:,.0f}-{r['to_days']:,.0f}",
            f"{r['jobs']:,}",
            f"{r['passes']:,}",
            f"{r['cpu_s']:.1f}",
            f"{r['us_per_pass']:.0f}",
            *(f"{r[column]:.1f}" for column, _ in STATE),
        )
    return table


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="benchmarks/drift.py", description=__doc__.split("\n")[0])
    parser.add_argument("--policy", type=_policy, default="ss", help="a policy name (default: ss)")
    parser.add_argument(
        "--jobs", type=_positive_int, default=640_000, help="jobs in the workload (default: 640000)"
    )
    parser.add_argument(
        "--parts", type=_positive_int, default=8, help="parts of the run (default: 8)"
    )
    parser.add_argument(
        "--every",
        type=_positive_int,
        default=5_000,
        help="passes between CPU-time notes (default: 5000)",
    )
    parser.add_argument("--seed", type=int, default=SEED, help=f"seed (default: {SEED})")
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    console = make_console(150)
    console.print(environment_table(environment()))
    with console.status(f"{args.policy} on {args.jobs:,} jobs"):
        rows = measure(args.policy, args.jobs, args.parts, args.every, args.seed)
    title = (
        f"{args.policy} on {args.jobs:,} Lublin-Feitelson 2003 jobs, {NODES} nodes, load "
        f"factor {LOAD_FACTOR:g}, seed {args.seed}: the run in {args.parts} parts"
    )
    console.print(drift_table(rows, title))
    return 0


if __name__ == "__main__":
    sys.exit(main())
