"""Speed of the parameter-study engine: runs per minute, scaling and overhead per run.

    python benchmarks/sweep.py                     # 24 runs on the first 2000 KTH jobs
    python benchmarks/sweep.py --dask              # + Dask LocalClusters of 1 and 2 workers
    python benchmarks/sweep.py --replications 34 --repeat 1   # 204 runs: issue 41's sweep
    python benchmarks/sweep.py --first 5000 --replications 4 --dask --json sweep.json

One small study (FCFS, EASY and conservative x two load factors x
replications, on the first ``--first`` jobs of the shipped KTH trace) is run
several ways, each into a fresh study directory:

- ``in-process loop``: the simulations one after the other in this process,
  with nothing written (`RunConfig.simulation().run()`): the floor;
- ``sweep, 0 workers``: `schedsim.app.sweep.sweep` in this process (adds the
  parquet/JSON files and the atomic renames);
- ``sweep, 1 worker`` / ``N workers``: the local process pool (``--workers``
  N, default 2, the most a 2-core machine can show);
- ``--dask``: a `distributed.LocalCluster` of 1 worker process and one of N,
  both started afresh (their start-up, a few seconds, is timed separately and
  left out). A cluster serves every repeat: the first sweep on it is also
  given apart (``first``), since its workers import schedsim and read the
  trace then, which the later sweeps do not.

Each is the best of ``--repeat`` timings, taken in turn (the pool's 0, 1 and
N workers one after the other, then again; likewise the two clusters), so
that other load on the machine falls on each alike. The overhead per run is
the worker time a run costs beyond the loop's: (workers x seconds - loop
seconds) / runs. For one worker that is (1-worker sweep - loop) / runs, the
whole cost of the pool, or of Dask (start-up of the workers, pickling each
run's files back, writing them), with the same work done one run at a time;
for N workers it also holds the time lost to running N at once on shared
cores. Runs per minute and the simulated jobs per second are printed, and
every jobs/s is also given as a ratio to the reference run of
`benchmarks/run.py` (EASY on the first 5000 KTH jobs, in this process) so
that figures from different machines compare.

Then the scaling: runs per minute with N workers over runs per minute with
one, for the local pool and for Dask. Target: at least
0.8 x N. And the sweep on N workers over the sum of its runs' simulation
times (each run's ``Simulation.run()`` alone, timed in the loop). Target: at
most 2x, for 200 runs of 2,000 jobs on 2 workers (``--replications 34``: 204
runs). The exit status is 1 when a ratio misses its target.
"""

from __future__ import annotations

import argparse
import contextlib
import gc
import json
import logging
import shutil
import sys
import tempfile
import time
import warnings
from pathlib import Path
from typing import Any

from rich.table import Table

sys.path.insert(0, str(Path(__file__).resolve().parent))
from run import environment, environment_table, make_console, reference_speed

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


def in_process(study: Study) -> tuple[float, int, float]:
    """The study's runs one by one, nothing written: seconds, jobs and simulation seconds.

    The simulation seconds are the sum of each run's ``Simulation.run()`` alone (the
    simulation and its result tables), without building the run's workload.
    """
    gc.collect()
    t0 = time.perf_counter()
    jobs = 0
    simulating = 0.0
    for run in study.runs():
        simulation = run.config.simulation()
        t1 = time.perf_counter()
        jobs += len(simulation.run().jobs)
        simulating += time.perf_counter() - t1
    return time.perf_counter() - t0, jobs, simulating


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


#: Issue 20, item 5: N workers give at least this share of N times one worker's runs/min.
SCALING_TARGET: float = 0.8
#: Issue 41, item 2: a sweep on N workers takes at most this many times the sum of its
#: runs' simulation times (measured with 200 runs of 2,000 jobs on 2 workers).
SWEEP_TARGET: float = 2.0


def dask_rows(study: Study, sizes: tuple[int, ...], repeat: int) -> list[dict[str, Any]]:
    """A fresh LocalCluster per size, all up at once, timed in turn: best of ``repeat``.

    The clusters' sweeps alternate (1 worker, N workers, 1, N...), so that a
    change in the machine's other load falls on both alike. Each start-up and
    each cluster's first sweep (its workers import schedsim and read the trace
    then) are kept apart.
    """
    from distributed import LocalCluster

    # Closing a cluster whose worker is slow to stop logs a warning per worker (it is then
    # killed, which is all the benchmark needs): not worth a line in its output.
    logging.getLogger("distributed.nanny").setLevel(logging.ERROR)
    # Two clusters are up at once: the second's HTTP server takes another port than 8787.
    warnings.filterwarnings("ignore", message="Port 8787 is already in use")
    with contextlib.ExitStack() as stack:
        clusters: dict[int, Any] = {}
        start_up: dict[int, float] = {}
        for workers in sizes:
            t0 = time.perf_counter()
            clusters[workers] = stack.enter_context(
                LocalCluster(
                    n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=None
                )
            )
            start_up[workers] = time.perf_counter() - t0
        times: dict[int, list[float]] = {workers: [] for workers in sizes}
        for _ in range(repeat):
            for workers in sizes:
                address = clusters[workers].scheduler_address
                times[workers].append(timed_sweep(study, cluster=address))
    rows = []
    for workers in sizes:
        label = f"dask, {workers} worker{'s' if workers != 1 else ''}"
        first = times[workers][0]
        rows.append(
            {
                "how": f"{label} (+{start_up[workers]:.1f} s start-up, first {first:.2f} s)",
                "seconds": min(times[workers]),
                "workers": workers,
                "kind": "dask",
                "start_up_s": start_up[workers],
                "first_s": first,
            }
        )
    return rows


def scaling(rows: list[dict[str, Any]], kind: str, n: int) -> dict[str, Any] | None:
    """Runs/min with ``n`` workers over runs/min with one, for one kind of pool."""
    by_workers = {r["workers"]: r for r in rows if r.get("kind") == kind}
    if 1 not in by_workers or n not in by_workers or n == 1:
        return None
    ratio = by_workers[n]["runs_per_min"] / by_workers[1]["runs_per_min"]
    return {
        "kind": kind,
        "workers": n,
        "runs_per_min_1": by_workers[1]["runs_per_min"],
        "runs_per_min_n": by_workers[n]["runs_per_min"],
        "ratio": ratio,
        "target": SCALING_TARGET * n,
        "ok": ratio >= SCALING_TARGET * n,
        "overhead_per_run_s": by_workers[1]["overhead_per_run_s"],
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--first", type=int, default=2000, help="jobs of KTH per run")
    parser.add_argument("--replications", type=int, default=4, help="replications (x 6 runs)")
    parser.add_argument("--repeat", type=int, default=3, help="best of this many (default 3)")
    parser.add_argument(
        "--workers", type=int, default=2, help="N, the larger pool and cluster (default 2)"
    )
    parser.add_argument(
        "--dask", action="store_true", help="also time Dask LocalClusters of 1 and N workers"
    )
    parser.add_argument("--json", type=Path, metavar="FILE", help="save the results as JSON")
    args = parser.parse_args(argv)
    if args.workers < 2:
        parser.error("--workers must be at least 2 (it is compared with one worker)")
    console = make_console(120)
    console.print(environment_table(env := environment()))

    reference = reference_speed(3)
    study = make_study(args.first, args.replications)
    n = len(study.runs())
    in_process(make_study(args.first, 1))  # warm the trace cache and imports first
    loop_s, jobs, simulating_s = min(in_process(study) for _ in range(args.repeat))
    rows: list[dict[str, Any]] = [
        {"how": "in-process loop", "seconds": loop_s, "workers": 1, "kind": "loop"}
    ]
    # Interleaved (0, 1, N workers, 0, 1, N...): other load on the machine falls on each alike.
    pool_sizes = (0, 1, args.workers)
    pool_times: dict[int, list[float]] = {workers: [] for workers in pool_sizes}
    for _ in range(args.repeat):
        for workers in pool_sizes:
            pool_times[workers].append(timed_sweep(study, workers=workers))
    for workers in pool_sizes:
        label = f"sweep, {workers} worker{'s' if workers != 1 else ''}"
        kind = "in-process sweep" if workers == 0 else "local pool"
        best = min(pool_times[workers])
        rows.append({"how": label, "seconds": best, "workers": max(workers, 1), "kind": kind})
    if args.dask:
        rows += dask_rows(study, (1, args.workers), args.repeat)

    table = Table(title=f"{n} runs of {args.first} KTH jobs ({jobs:,} jobs in all)")
    for col in ("how", "seconds", "runs/min", "jobs/s", "x ref", "overhead/run vs loop"):
        table.add_column(col, justify="left" if col == "how" else "right")
    for row in rows:
        row["runs_per_min"] = 60.0 * n / row["seconds"]
        row["jobs_per_s"] = jobs / row["seconds"]
        row["x_ref"] = row["jobs_per_s"] / reference["jobs_per_s"]
        # Worker time beyond the loop's: N workers have N x seconds of it between them.
        row["overhead_per_run_s"] = (row["workers"] * row["seconds"] - loop_s) / n
        table.add_row(
            row["how"],
            f"{row['seconds']:.2f}",
            f"{row['runs_per_min']:.0f}",
            f"{row['jobs_per_s']:,.0f}",
            f"{row['x_ref']:.2f}",
            "-" if row["kind"] == "loop" else f"{1000 * row['overhead_per_run_s']:+.0f} ms",
        )
    console.print(table)
    console.print(
        f"reference: EASY on the first 5000 KTH jobs, {reference['jobs_per_s']:,.0f} jobs/s"
    )

    scalings = [s for kind in ("local pool", "dask") if (s := scaling(rows, kind, args.workers))]
    verdicts = Table(
        title=f"scaling: {args.workers} workers against 1",
        caption=f"target: ratio >= {SCALING_TARGET} x {args.workers} = "
        f"{SCALING_TARGET * args.workers:.1f}; overhead per run of 1 worker against the loop",
    )
    for col in ("pool", "runs/min, 1", f"runs/min, {args.workers}", "ratio", "", "overhead/run"):
        verdicts.add_column(col, justify="left" if col in ("pool", "") else "right")
    for s in scalings:
        verdicts.add_row(
            "Dask LocalCluster" if s["kind"] == "dask" else "local pool",
            f"{s['runs_per_min_1']:.0f}",
            f"{s['runs_per_min_n']:.0f}",
            f"{s['ratio']:.2f}",
            "[green]pass[/green]" if s["ok"] else "[red]FAIL[/red]",
            f"{1000 * s['overhead_per_run_s']:+.0f} ms",
        )
    console.print(verdicts)
    # The whole sweep on N workers against the time its runs spend simulating.
    sweep_n = min(pool_times[args.workers])
    against_simulating = sweep_n / simulating_s
    sweep_ok = against_simulating <= SWEEP_TARGET
    console.print(
        f"sweep on {args.workers} workers: {sweep_n:.2f} s for {n} runs, "
        f"{against_simulating:.2f} x the sum of their simulation times ({simulating_s:.2f} s, "
        f"Simulation.run() alone); target at most {SWEEP_TARGET:.1f} x: "
        + ("[green]met[/green]" if sweep_ok else "[red]not met[/red]")
    )
    if args.json:
        doc = {
            "environment": env,
            "reference": reference,
            "runs": n,
            "jobs": jobs,
            "rows": rows,
            "scaling": scalings,
            "simulating_s": simulating_s,
            "sweep_vs_simulating": against_simulating,
        }
        args.json.write_text(json.dumps(doc, indent=2) + "\n")
    return 0 if sweep_ok and all(s["ok"] for s in scalings) else 1


if __name__ == "__main__":
    sys.exit(main())
