"""Speed of the parameter-study engine: runs per minute and the pool's overhead per run.

    python benchmarks/sweep.py                     # 24 runs on the first 2000 KTH jobs
    python benchmarks/sweep.py --first 5000 --replications 4 --dask --json sweep.json

One small study (FCFS, EASY and conservative x two load factors x
replications, on the first ``--first`` jobs of the shipped KTH trace) is run
several ways, each into a fresh study directory:

- ``in-process loop``: the simulations one after the other in this process,
  with nothing written (`RunConfig.simulation().run()`): the floor;
- ``sweep, 0 workers``: `schedsim.app.sweep.sweep` in this process (adds the
  parquet/JSON files and the atomic renames);
- ``sweep, 1 worker`` / ``2 workers``: the local process pool;
- ``--dask``: a `distributed.LocalCluster` with 2 worker processes (its
  start-up, about a second, is timed separately and left out).

Each is the best of ``--repeat`` timings. The pool's overhead per run is
(1-worker sweep - in-process loop) / runs: the cost of worker start-up, of
pickling each run's files back, and of writing them, with the same work
done one run at a time. Runs per minute and the
simulated jobs per second are printed, and every jobs/s is also given as a
ratio to the reference run of `benchmarks/run.py` (EASY on the first 5000
KTH jobs, in this process) so that figures from different machines compare.
"""

from __future__ import annotations

import argparse
import gc
import json
import shutil
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table

sys.path.insert(0, str(Path(__file__).resolve().parent))
from run import environment, environment_table, reference_speed

from schedsim.app.study import Study
from schedsim.app.sweep import sweep


def make_study(first: int, replications: int) -> Study:
    return Study(
        name="sweep-benchmark",
        base={"workload": "kth", "first": first},
        grid={"policy": ["fcfs", "easy", "conservative"], "load_factor": [1.0, 1.3]},
        replications=replications,
        seed=1,
    )


def in_process(study: Study) -> tuple[float, int]:
    """Seconds and simulated jobs of the study's runs, one by one, nothing written."""
    gc.collect()
    t0 = time.perf_counter()
    jobs = 0
    for run in study.runs():
        jobs += len(run.config.simulation().run().jobs)
    return time.perf_counter() - t0, jobs


def timed_sweep(study: Study, **kwargs: Any) -> float:
    folder = Path(tempfile.mkdtemp(prefix="schedsim-sweep-bench-"))
    gc.collect()
    try:
        t0 = time.perf_counter()
        outcome = sweep(study, folder, **kwargs)
        seconds = time.perf_counter() - t0
        if outcome.failed or outcome.finished != outcome.total:
            raise RuntimeError(f"benchmark sweep did not finish cleanly: {outcome}")
        return seconds
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--first", type=int, default=2000, help="jobs of KTH per run")
    parser.add_argument("--replications", type=int, default=4, help="replications (x 6 runs)")
    parser.add_argument("--repeat", type=int, default=3, help="best of this many (default 3)")
    parser.add_argument("--dask", action="store_true", help="also time a Dask LocalCluster")
    parser.add_argument("--json", type=Path, metavar="FILE", help="save the results as JSON")
    args = parser.parse_args(argv)
    console = Console()
    console.print(environment_table(env := environment()))

    reference = reference_speed(3)
    study = make_study(args.first, args.replications)
    n = len(study.runs())
    in_process(make_study(args.first, 1))  # warm the trace cache and imports first
    loop_s, jobs = min(in_process(study) for _ in range(args.repeat))
    rows: list[dict[str, Any]] = [{"how": "in-process loop", "seconds": loop_s}]
    for workers in (0, 1, 2):
        label = f"sweep, {workers} worker{'s' if workers != 1 else ''}"
        best = min(timed_sweep(study, workers=workers) for _ in range(args.repeat))
        rows.append({"how": label, "seconds": best})
    if args.dask:
        from distributed import LocalCluster

        t0 = time.perf_counter()
        with LocalCluster(
            n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
        ) as cluster:
            start_up = time.perf_counter() - t0
            seconds = timed_sweep(study, cluster=cluster.scheduler_address)
        rows.append({"how": f"dask, 2 workers (+{start_up:.1f} s start-up)", "seconds": seconds})

    table = Table(title=f"{n} runs of {args.first} KTH jobs ({jobs:,} jobs in all)")
    for col in ("how", "seconds", "runs/min", "jobs/s", "x ref", "overhead/run vs loop"):
        table.add_column(col, justify="left" if col == "how" else "right")
    for row in rows:
        row["runs_per_min"] = 60.0 * n / row["seconds"]
        row["jobs_per_s"] = jobs / row["seconds"]
        row["x_ref"] = row["jobs_per_s"] / reference["jobs_per_s"]
        row["overhead_per_run_s"] = (row["seconds"] - loop_s) / n
        table.add_row(
            row["how"],
            f"{row['seconds']:.2f}",
            f"{row['runs_per_min']:.0f}",
            f"{row['jobs_per_s']:,.0f}",
            f"{row['x_ref']:.2f}",
            f"{1000 * row['overhead_per_run_s']:+.0f} ms",
        )
    console.print(table)
    console.print(
        f"reference: EASY on the first 5000 KTH jobs, {reference['jobs_per_s']:,.0f} jobs/s"
    )
    if args.json:
        doc = {"environment": env, "reference": reference, "runs": n, "jobs": jobs, "rows": rows}
        args.json.write_text(json.dumps(doc, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
