"""How run time and memory grow with the workload: EASY and SS on 10k to 1.28M jobs.

    python benchmarks/growth.py                          # 10k, 40k, 160k, 640k, 1.28M jobs
    python benchmarks/growth.py --sizes 10000 20000 40000 --policies easy
    python benchmarks/growth.py --sizes 160000 1280000 --generate-only
    python benchmarks/growth.py --json growth.json

For each policy (EASY backfilling, and Kettimuthu 2003's Selective Suspension)
and each size, a workload of the Lublin & Feitelson 2003 model is generated and
simulated in a fresh Python process of its own, so that the peak memory
reported is that run's alone. The table gives, per (policy, jobs), the wall
seconds of generating the workload and of simulating it, the simulated jobs
per second, and the process's peak resident memory; then, per policy, the
growth exponent k of time ~ jobs**k and of memory ~ jobs**k, fitted by least
squares on the logarithms over the sizes. Targets: k <= 1.1
for both, and the largest run's peak under 4 GiB. The exit status is 1 when a
target is missed.

Choices, written down:

- **Workload.** ``RunConfig(workload="lublin", jobs=N, nodes=128,
  load_factor=2.0, seed=S).build_workload()``, which is what ``schedsim run
  --workload lublin --jobs N --nodes 128 --load-factor 2 --seed S`` builds: the
  model with job types and its published parameters, drawn from the seed's
  ``"lublin"`` stream, so every size comes from the same seed (a size is not a
  prefix of the next: the model draws its arrays N at a time). Estimates are
  the model's own, equal to run times.
- **Machine: 128 nodes**, the machine the model's published size parameters
  describe (`schedsim.workloads.lublin.REFERENCE_NODES`), so nothing is
  rescaled.
- **Load factor 2.0** (inter-arrival times halved): the published model offers
  only 0.36 of 128 nodes, where queues stay short and a scheduler has little
  to do; at 2.0 it offers 0.72 (sum of size x run time over nodes x span, on
  40,000 jobs of seed 1), near what the shipped real logs offer (KTH 0.70,
  SDSC SP2 0.83), and a queue builds up in the busy hours. The load must stay
  below what the machine can carry: on a saturated machine the queue, and so
  the work of every scheduling pass, grows with the number of jobs, and the
  time would grow faster than linearly because of the workload, not the
  simulator. (At 2.0 the mean wait of EASY per eighth of a 40,000-job run goes
  up and down between 1.2 and 8.7 hours without a trend.)
- **Timing.** Generation (`RunConfig.build_workload`) and simulation
  (``Simulation(...)`` plus ``.run()``, with the piece log on, the default)
  are timed apart; jobs/s is jobs over the simulation alone. Each child first
  simulates a 500-job workload untimed, so that one-off costs (imports, SS's
  compiled loops loaded from numba's cache) are in neither time. Wall and CPU
  seconds are both kept; the verdict is on wall time (the target's), and the
  CPU exponent beside it is less moved by other load on the machine. One
  timing per (policy, size) unless ``--repeat K`` (the fastest of K fresh
  processes): on a quiet machine noise of a few percent moves the exponent
  little, as the sizes differ by 4x; on a loaded one it moves it by more than
  the 0.1 of margin.
- **Memory.** Peak RSS is ``resource.getrusage(RUSAGE_SELF).ru_maxrss`` in the
  child, read after generating (``gen peak``) and after the run (``peak``):
  the run's peak includes the workload, which is alive throughout, and the
  interpreter with schedsim loaded; the 4 GiB target is checked on it. The
  baseline is the resident memory of the same child after its imports and
  warm-up, before the workload exists: an empty process with schedsim loaded
  (``/proc/self/statm``, after ``malloc_trim`` has returned what the warm-up
  freed, so that the run's first megabytes are not served from the warm-up's
  leftovers). The memory exponent is fitted on peak minus
  baseline, the memory the jobs cost. Two Linux details are dealt with: a
  child's ``ru_maxrss`` starts from its parent's resident memory at the
  ``exec`` (the kernel carries the old peak over), so each child is started
  by a bare interpreter (about 10 MiB) rather than by this process (which has
  schedsim loaded); and the warm-up's own peak is cleared after it (writing 5
  to ``/proc/self/clear_refs`` resets the peak to the current size). Where
  that file cannot be written the peaks include the warm-up's (a few MiB;
  ``peak_reset`` is false in the JSON).
- The 1.28M extrapolation printed when the sizes stop below it is
  ``baseline + c * 1.28M**k`` from the fit: a guide, not a measurement, and
  given only when the largest size reaches 10,000 jobs (`EXTRAPOLATE_FROM`).

This script is never part of the test run (pytest does not collect
``benchmarks/``).
"""

from __future__ import annotations

import argparse
import contextlib
import ctypes
import gc
import json
import math
import os
import resource
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np
from rich.table import Table

sys.path.insert(0, str(Path(__file__).resolve().parent))
from run import _json_safe, _policy, _positive_int, environment, environment_table, make_console

from schedsim.app.simulation import Simulation
from schedsim.app.study import RunConfig
from schedsim.model.gc_tuning import tuned_gc
from schedsim.workloads.workload import Workload

DEFAULT_SIZES: tuple[int, ...] = (10_000, 40_000, 160_000, 640_000, 1_280_000)
DEFAULT_POLICIES: tuple[str, ...] = ("easy", "ss")
#: The Lublin-Feitelson model's reference machine (module docstring).
NODES: int = 128
#: Offered load 0.72 of the 128 nodes instead of the model's 0.36 (module docstring).
LOAD_FACTOR: float = 2.0
SEED: int = 1
#: Jobs of the untimed warm-up run each child makes first.
WARMUP_JOBS: int = 500
#: The targets the project set itself.
MAX_EXPONENT: float = 1.1
MAX_PEAK_MIB: float = 4096.0
#: The size the 4 GiB target speaks of, for the extrapolation.
TARGET_JOBS: int = 1_280_000
#: The largest size measured must reach this for the extrapolation to be printed: below
#: it the fixed costs of a run (imports, tables) bend the fit, and a fit over 500 and
#: 1,000 jobs once put 1.28M jobs at 10 TiB.
EXTRAPOLATE_FROM: int = 10_000

MIB: int = 2**20
#: Runs its arguments as a command and exits with its status (see `run_child`).
_LAUNCHER: str = "import subprocess, sys; sys.exit(subprocess.run(sys.argv[1:]).returncode)"


# ---- measuring (in the child) ------------------------------------------------------


def peak_rss_mib() -> float:
    """This process's peak resident memory so far, in MiB.

    ``ru_maxrss`` is in KiB on Linux and in bytes on macOS.
    """
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return peak / MIB if sys.platform == "darwin" else peak / 1024


def current_rss_mib() -> float:
    """This process's resident memory now, in MiB (the peak so far where /proc is missing)."""
    try:
        pages = int(Path("/proc/self/statm").read_text().split()[1])
    except (OSError, IndexError, ValueError):
        return peak_rss_mib()
    return pages * os.sysconf("SC_PAGE_SIZE") / MIB


def reset_peak_rss() -> bool:
    """Make the peak resident memory the current one (Linux); whether it could.

    ``ru_maxrss`` is the larger of the peak carried over at ``exec`` and the
    address space's high-water mark, which this resets.
    """
    try:
        Path("/proc/self/clear_refs").write_text("5")
    except OSError:
        return False
    return True


def _trim_heap() -> None:
    """Return the C heap's free memory to the system (glibc's ``malloc_trim``; else nothing)."""
    with contextlib.suppress(OSError, AttributeError):
        ctypes.CDLL("libc.so.6").malloc_trim(0)


def lublin_config(
    jobs: int, policy: str, seed: int = SEED, nodes: int = NODES, load_factor: float = LOAD_FACTOR
) -> RunConfig:
    """The run configuration of one (policy, size): ``schedsim run --workload lublin ...``."""
    return RunConfig(
        workload="lublin",
        jobs=jobs,
        nodes=nodes,
        load_factor=load_factor,
        seed=seed,
        policy=policy,
    )


def simulate(config: RunConfig, workload: Workload, observer: Any = None) -> Any:
    """The run of ``config`` on an already built workload (as `RunConfig.simulation` does),
    told of every pass by ``observer`` if given (`benchmarks/drift.py`)."""
    return Simulation(
        workload,
        config.policy.name,
        nodes=config.nodes,
        seed=config.seed,
        params=config.params,
        observer=observer,
    )


def offered_load(workload: Workload, nodes: int) -> float:
    """Sum of size x run time over nodes x the span of submit times."""
    jobs = workload.jobs
    span = jobs[-1].submit - jobs[0].submit
    work = math.fsum(j.size * j.run_time for j in jobs)
    return work / (nodes * span) if span > 0 else math.nan


def measure(
    policy: str,
    jobs: int,
    seed: int = SEED,
    nodes: int = NODES,
    load_factor: float = LOAD_FACTOR,
    generate_only: bool = False,
    warmup: int = WARMUP_JOBS,
) -> dict[str, Any]:
    """Generate and simulate one workload in this process; times and memory as a dict.

    Meant to run in a fresh process (`run_child`), where the peaks are this
    run's alone; called in a longer-lived process the peaks are that process's.
    Raises RuntimeError if the run kept no piece log (it must: the default).
    """
    if warmup and not generate_only:
        small = lublin_config(warmup, policy, seed, nodes, load_factor)
        simulate(small, small.build_workload()).run()
    gc.collect()
    # Give back what the warm-up freed, so that the baseline is the memory in use and
    # the run's first megabytes are not served from the warm-up's leftovers.
    _trim_heap()
    reset = reset_peak_rss()
    base = current_rss_mib()
    config = lublin_config(jobs, policy, seed, nodes, load_factor)
    t0, c0 = time.perf_counter(), time.process_time()
    workload = config.build_workload()
    gen_s, gen_cpu_s = time.perf_counter() - t0, time.process_time() - c0
    row: dict[str, Any] = {
        "policy": "-" if generate_only else policy,
        "jobs": len(workload),
        "gen_s": gen_s,
        "gen_cpu_s": gen_cpu_s,
        "base_mib": base,
        "gen_peak_mib": peak_rss_mib(),
        "peak_reset": reset,
        "offered_load": offered_load(workload, nodes),
    }
    if generate_only:
        row["peak_mib"] = row["gen_peak_mib"]
        return row
    gc.collect()
    t0, c0 = time.perf_counter(), time.process_time()
    with tuned_gc():  # as the schedsim command runs
        result = simulate(config, workload).run()
    row["run_s"], row["run_cpu_s"] = time.perf_counter() - t0, time.process_time() - c0
    row["peak_mib"] = peak_rss_mib()
    # The piece log is part of what a run costs: at least one piece per job when on.
    row["pieces"] = 0 if result.pieces is None else len(result.pieces)
    if row["pieces"] < row["jobs"]:
        raise RuntimeError(f"the piece log is off or short: {row['pieces']} pieces")
    summary = result.summary()
    row["utilization"] = float(summary["utilization"])
    row["mean_bounded_slowdown"] = float(summary["mean_bounded_slowdown"])
    row["passes"] = int(result.meta["passes"])
    return row


def run_child(
    policy: str,
    jobs: int,
    seed: int = SEED,
    nodes: int = NODES,
    load_factor: float = LOAD_FACTOR,
    generate_only: bool = False,
) -> dict[str, Any]:
    """`measure` in a fresh Python process; its row, or one with an ``error``."""
    spec = {
        "policy": policy,
        "jobs": jobs,
        "seed": seed,
        "nodes": nodes,
        "load_factor": load_factor,
        "generate_only": generate_only,
    }
    worker = [sys.executable, str(Path(__file__).resolve()), "--worker", json.dumps(spec)]
    done = subprocess.run(
        # A bare interpreter starts the worker: a child's ru_maxrss begins at its
        # parent's resident memory, and this process has schedsim loaded.
        [sys.executable, "-c", _LAUNCHER, *worker],
        capture_output=True,
        text=True,
        check=False,
    )
    lines = done.stdout.strip().splitlines()
    if done.returncode != 0 or not lines:
        # A child killed for memory has no traceback: say how it ended.
        why = done.stderr.strip().splitlines()[-1:] or [f"exit status {done.returncode}"]
        return {"policy": "-" if generate_only else policy, "jobs": jobs, "error": why[0]}
    row: dict[str, Any] = json.loads(lines[-1])
    return row


def best_of(rows: list[dict[str, Any]]) -> dict[str, Any]:
    """One row from repeated children: the fastest, with the highest peak of all.

    The schedule is the same in each (same seed), so the least disturbed time
    is the minimum; the peaks differ only by the allocator's luck, and the
    target is on the worst. An error in any repeat is the row.
    """
    failed = [r for r in rows if "error" in r]
    if failed:
        return failed[0]
    key = "gen_s" if "run_s" not in rows[0] else "run_s"
    best = dict(min(rows, key=lambda r: r[key]))
    for field in ("gen_s", "gen_cpu_s", "run_cpu_s"):
        if field in best:
            best[field] = min(r[field] for r in rows)
    for field in ("gen_peak_mib", "peak_mib"):
        best[field] = max(r[field] for r in rows)
    best["base_mib"] = min(r["base_mib"] for r in rows)
    best["repeat"] = len(rows)
    return best


# ---- fitting ----------------------------------------------------------------------


def growth_exponent(jobs: list[float], values: list[float]) -> float:
    """k of values ~ c * jobs**k: least squares on log(values) against log(jobs).

    NaN with fewer than two distinct sizes or any value <= 0 (no logarithm).
    """
    x = np.asarray(jobs, dtype=float)
    y = np.asarray(values, dtype=float)
    if x.size < 2 or np.unique(x).size < 2 or np.any(y <= 0) or np.any(x <= 0):
        return math.nan
    slope, _ = np.polyfit(np.log(x), np.log(y), 1)
    return float(slope)


def extrapolate(jobs: list[float], values: list[float], to: float) -> float:
    """The least-squares power law of ``values`` on ``jobs``, evaluated at ``to``."""
    k = growth_exponent(jobs, values)
    if math.isnan(k):
        return math.nan
    x, y = np.log(np.asarray(jobs, dtype=float)), np.log(np.asarray(values, dtype=float))
    return float(np.exp(y.mean() + k * (math.log(to) - x.mean())))


def fit(rows: list[dict[str, Any]], generate_only: bool = False) -> dict[str, Any]:
    """Exponents and target checks of one policy's rows (those without an error).

    The verdict on time is the wall-clock exponent (the target's); the CPU-time
    exponent is also given, as a check that is less moved by other load.
    """
    ok = [r for r in rows if "error" not in r]
    jobs = [float(r["jobs"]) for r in ok]
    stage = "gen" if generate_only else "run"
    seconds = [r[f"{stage}_s"] for r in ok]
    memory = [r["peak_mib"] - r["base_mib"] for r in ok]
    time_k = growth_exponent(jobs, seconds)
    memory_k = growth_exponent(jobs, memory)
    largest = max(rows, key=lambda r: r["jobs"]) if rows else None
    peak = math.nan if largest is None or "error" in largest else largest["peak_mib"]
    out: dict[str, Any] = {
        "time_exponent": time_k,
        "cpu_time_exponent": growth_exponent(jobs, [r[f"{stage}_cpu_s"] for r in ok]),
        "memory_exponent": memory_k,
        "gen_time_exponent": growth_exponent(jobs, [r["gen_s"] for r in ok]),
        "largest_jobs": None if largest is None else largest["jobs"],
        "largest_peak_mib": peak,
        "time_ok": time_k <= MAX_EXPONENT,  # NaN compares False: no fit is no pass
        "memory_ok": memory_k <= MAX_EXPONENT,
        "peak_ok": peak < MAX_PEAK_MIB,
    }
    # Extrapolated only from a fit (two sizes at least) that reaches far enough.
    if len(set(jobs)) >= 2 and EXTRAPOLATE_FROM <= max(jobs) < TARGET_JOBS:
        base = sum(r["base_mib"] for r in ok) / len(ok)
        out["extrapolated_peak_mib"] = base + extrapolate(jobs, memory, TARGET_JOBS)
        out["extrapolated_s"] = extrapolate(jobs, seconds, TARGET_JOBS)
    return out


# ---- output -------------------------------------------------------------------------


def _verdict(ok: bool) -> str:
    return "[green]pass[/green]" if ok else "[red]FAIL[/red]"


def _exponent(k: float) -> str:
    return "-" if math.isnan(k) else f"{k:.2f}"


def _mib(value: float) -> str:
    return "-" if math.isnan(value) else f"{value:,.0f}"


def growth_table(
    rows: list[dict[str, Any]], fits: dict[str, dict[str, Any]], generate_only: bool, title: str
) -> Table:
    """One row per (policy, jobs), then one exponent row per policy with pass/fail."""
    table = Table(
        title=title,
        caption=f"k: exponent of a least-squares fit of log(value) on log(jobs); targets: "
        f"k <= {MAX_EXPONENT} for time and for peak - base, largest peak < "
        f"{MAX_PEAK_MIB / 1024:.0f} GiB",
    )
    columns = ["policy", "jobs", "offered load", "gen s"]
    if not generate_only:
        columns += ["run s", "run CPU s", "jobs/s", "gen peak MiB"]
    columns += ["peak MiB", "peak - base MiB"]
    for col in columns:
        table.add_column(col, justify="left" if col == "policy" else "right")
    for policy, fitted in fits.items():
        for r in (r for r in rows if r["policy"] == policy):
            if "error" in r:
                table.add_row(policy, f"{r['jobs']:,}", f"[red]{r['error']}[/red]")
                continue
            cells = [policy, f"{r['jobs']:,}", f"{r['offered_load']:.2f}", f"{r['gen_s']:.2f}"]
            if not generate_only:
                cells += [
                    f"{r['run_s']:.2f}",
                    f"{r['run_cpu_s']:.2f}",
                    f"{r['jobs'] / r['run_s']:,.0f}",
                    _mib(r["gen_peak_mib"]),
                ]
            cells += [_mib(r["peak_mib"]), _mib(r["peak_mib"] - r["base_mib"])]
            table.add_row(*cells)
        k_time, k_cpu = fitted["time_exponent"], fitted["cpu_time_exponent"]
        wall = f"k {_exponent(k_time)} {_verdict(fitted['time_ok'])}"
        cpu = f"k {_exponent(k_cpu)} {_verdict(k_cpu <= MAX_EXPONENT)}"
        if generate_only:
            cells = [f"{policy}: exponent", "", "", f"{wall}, CPU {cpu}"]
        else:
            gen = f"k {_exponent(fitted['gen_time_exponent'])}"
            cells = [f"{policy}: exponent", "", "", gen, wall, cpu, "", ""]
        cells += [
            f"{_mib(fitted['largest_peak_mib'])} {_verdict(fitted['peak_ok'])}",
            f"k {_exponent(fitted['memory_exponent'])} {_verdict(fitted['memory_ok'])}",
        ]
        table.add_row(*cells, style="bold", end_section=True)
    return table


# ---- command line -----------------------------------------------------------------


def build_parser() -> argparse.ArgumentParser:
    """The command-line interface."""
    parser = argparse.ArgumentParser(
        prog="benchmarks/growth.py", description=__doc__.splitlines()[0]
    )
    parser.add_argument(
        "--sizes",
        nargs="+",
        type=_positive_int,
        default=list(DEFAULT_SIZES),
        metavar="N",
        help="jobs per workload (default: %(default)s)",
    )
    parser.add_argument(
        "--policies",
        nargs="+",
        type=_policy,
        default=list(DEFAULT_POLICIES),
        metavar="POLICY",
        help="policies to time (default: %(default)s)",
    )
    parser.add_argument("--seed", type=int, default=SEED, help="seed (default: %(default)s)")
    parser.add_argument(
        "--nodes", type=_positive_int, default=NODES, help="machine nodes (default: %(default)s)"
    )
    parser.add_argument(
        "--load-factor",
        type=float,
        default=LOAD_FACTOR,
        help="divide inter-arrival times by this (default: %(default)s)",
    )
    parser.add_argument(
        "--generate-only",
        action="store_true",
        help="time and measure only the generation of each workload (no policy)",
    )
    parser.add_argument(
        "--repeat",
        type=_positive_int,
        default=1,
        metavar="K",
        help="K fresh processes per (policy, size); the fastest time, the highest peak "
        "(default: %(default)s)",
    )
    parser.add_argument("--json", type=Path, metavar="FILE", help="save the results as JSON")
    parser.add_argument("--worker", metavar="SPEC", help=argparse.SUPPRESS)
    return parser


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark; the exit status is 1 when a target is missed."""
    args = build_parser().parse_args(argv)
    if args.worker is not None:
        print(json.dumps(measure(**json.loads(args.worker))))
        return 0
    console = make_console(150)
    env = environment()
    console.print(environment_table(env))

    sizes = sorted(set(args.sizes))
    policies = ["-"] if args.generate_only else list(dict.fromkeys(args.policies))
    rows: list[dict[str, Any]] = []
    for policy in policies:
        for n in sizes:
            what = "generating" if args.generate_only else f"{policy} on"
            with console.status(f"{what} {n:,} jobs"):
                row = best_of(
                    [
                        run_child(
                            policy, n, args.seed, args.nodes, args.load_factor, args.generate_only
                        )
                        for _ in range(args.repeat)
                    ]
                )
            rows.append(row)
            if "error" in row:
                console.log(f"{what} {n:,} jobs: [red]{row['error']}[/red]")
            elif args.generate_only:
                console.log(f"generated {n:,} jobs in {row['gen_s']:.2f} s")
            else:
                console.log(
                    f"{policy} on {n:,} jobs: generated in {row['gen_s']:.2f} s, "
                    f"run {row['run_s']:.2f} s, peak {row['peak_mib']:,.0f} MiB, "
                    f"{row['pieces']:,} pieces"
                )
    fits = {p: fit([r for r in rows if r["policy"] == p], args.generate_only) for p in policies}
    title = (
        f"Lublin-Feitelson 2003 workloads, {args.nodes} nodes, load factor "
        f"{args.load_factor:g}, seed {args.seed}; each run in a fresh process"
        + (f", best of {args.repeat}" if args.repeat > 1 else "")
    )
    console.print(growth_table(rows, fits, args.generate_only, title))
    for policy, fitted in fits.items():
        if "extrapolated_peak_mib" in fitted:
            console.print(
                f"{policy}: extrapolated to {TARGET_JOBS:,} jobs from the fit: "
                f"{fitted['extrapolated_s']:,.0f} s, peak {_mib(fitted['extrapolated_peak_mib'])} "
                "MiB (not measured)"
            )
    if rows and max(r["jobs"] for r in rows) < EXTRAPOLATE_FROM:
        console.print(
            f"no extrapolation to {TARGET_JOBS:,} jobs: the largest size is below "
            f"{EXTRAPOLATE_FROM:,} jobs, where a run's fixed costs bend the fit"
        )
    ok = all(f["time_ok"] and f["memory_ok"] and f["peak_ok"] for f in fits.values())

    if args.json is not None:
        doc = {
            "argv": sys.argv[1:] if argv is None else list(argv),
            "environment": env,
            "nodes": args.nodes,
            "load_factor": args.load_factor,
            "seed": args.seed,
            "generate_only": args.generate_only,
            "targets": {"max_exponent": MAX_EXPONENT, "max_peak_mib": MAX_PEAK_MIB},
            "rows": rows,
            "fits": fits,
            "pass": ok,
        }
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(_json_safe(doc), indent=2, allow_nan=False) + "\n")
        console.print(f"saved {args.json}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
