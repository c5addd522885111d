"""Speed of seed 003's schedulers on one W1 workload: GLTS against SSP, with and without Scojo-PECT.

Run from the repository root::

    python benchmarks/multicore.py                  # W1 (10,000 jobs), seed 1, best of 1
    python benchmarks/multicore.py --jobs 3000 --repeat 3
    python benchmarks/multicore.py --policies ssp glts scojo:ssp scojo:glts

Zeng & Sodan's schedulers (`schedsim.policies.spacesharing`,
`schedsim.policies.glts`, `schedsim.policies.scojo`) run on 128 nodes of 4
cores with Table 4's contention (`schedsim.model.slowdowns`), on workload W1
of the given seed (`schedsim.workloads.multicore.w1`: generated once, not
timed). ``scojo:INNER`` is Scojo-PECT with INNER in each virtual machine.
For each it prints the wall seconds of the simulation (construction and run,
best of ``--repeat``), jobs per second, the ratio of its time to SSP's (the
issue's budget: GLTS within 10x SSP) and its speed against the reference
run of `benchmarks/run.py` (EASY on the first 5000 jobs of the shipped KTH
trace), made in the same process. Never part of the test run.
"""

from __future__ import annotations

import argparse
import gc
import sys
import time
from pathlib import Path

from rich.console import Console
from rich.table import Table

from schedsim.app.simulation import Simulation
from schedsim.model.gc_tuning import tuned_gc
from schedsim.model.slowdowns import StatisticalContention
from schedsim.policies.glts import GLTS
from schedsim.policies.scojo import INNER, ScojoPECT
from schedsim.policies.spacesharing import SSP, NodePlanner
from schedsim.workloads.multicore import CORES_PER_NODE, NODES, w1
from schedsim.workloads.workload import Workload

sys.path.insert(0, str(Path(__file__).resolve().parent))
from run import reference_speed  # the sibling script's reference run

PLAIN = {"ssp": SSP, "glts": GLTS}


def make_policy(spec: str, seed: int) -> NodePlanner | ScojoPECT:
    """``ssp``, ``glts`` (alone) or ``scojo:INNER``."""
    if spec.startswith("scojo:"):
        return ScojoPECT(inner=spec.split(":", 1)[1], seed=seed)
    return PLAIN[spec](seed=seed)


def time_run(w: Workload, spec: str, seed: int, repeat: int) -> float:
    """Best wall seconds of ``repeat`` runs of ``spec`` on ``w``."""
    best = float("inf")
    for _ in range(repeat):
        gc.collect()
        t0 = time.perf_counter()
        policy, contention = make_policy(spec, seed), StatisticalContention(seed)
        sim = Simulation(w, policy, nodes=NODES, cores_per_node=CORES_PER_NODE,
                         contention=contention, kill_at_estimate=False)  # fmt: skip
        with tuned_gc():  # as the schedsim command runs
            sim.run()
        best = min(best, time.perf_counter() - t0)
    return best


def _spec(text: str) -> str:
    inner = text.split(":", 1)[1] if text.startswith("scojo:") else None
    if text in PLAIN or inner in INNER:
        return text
    raise argparse.ArgumentTypeError(f"expected ssp, glts or scojo:INNER, got {text!r}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="benchmarks/multicore.py", description=__doc__)
    parser.add_argument("--jobs", type=int, default=10_000, help="jobs of W1 (%(default)s)")
    parser.add_argument("--seed", type=int, default=1, help="the workload's and run's seed")
    parser.add_argument("--repeat", type=int, default=1, help="best of K runs (%(default)s)")
    parser.add_argument("--policies", nargs="+", type=_spec,
                        default=["ssp", "glts", "scojo:ssp", "scojo:glts"])  # fmt: skip
    args = parser.parse_args(argv)
    console = Console()
    reference = reference_speed(args.repeat)
    w = w1(args.seed, n_jobs=args.jobs)
    seconds = {spec: time_run(w, spec, args.seed, args.repeat) for spec in args.policies}
    table = Table(title=f"W1, seed {args.seed}, {len(w.jobs):,} jobs, 128 x 4 cores")
    for column in ("policy", "sim s", "jobs/s", "time / SSP's", "speed / reference"):
        table.add_column(column, justify="left" if column == "policy" else "right")
    base = seconds.get("ssp")
    for spec, s in seconds.items():
        speed = len(w.jobs) / s
        ratio = f"{s / base:.2f}" if base else "-"
        table.add_row(spec, f"{s:.1f}", f"{speed:,.0f}", ratio,
                      f"{speed / reference['jobs_per_s']:.3f}")  # fmt: skip
    console.print(table)
    ref = reference["jobs_per_s"]
    console.print(f"reference: EASY on KTH's first 5000 jobs, {ref:,.0f} jobs/s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
