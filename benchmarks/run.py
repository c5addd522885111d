"""Speed of the simulator on whole real traces: FCFS, EASY, conservative, SS and PFCFS1.

Run from the repository root (or anywhere: the project is installed)::

    python benchmarks/run.py                       # CTC-SP2 and SDSC-SP2, five policies
    python benchmarks/run.py --first 5000          # a quick look
    python benchmarks/run.py --traces kth hpc2n --policies easy --repeat 3
    python benchmarks/run.py --traces ctc --policies easy --profile easy
    python benchmarks/run.py --json bench.json

For every (trace, policy) it prints the jobs simulated, the wall seconds of
the simulation, jobs per second, and that speed divided by the speed of a
fixed reference run made at the start, in the same process: EASY on the
first 5000 jobs of the shipped KTH trace. The ratio cancels most of the
machine's own speed, so numbers measured on different computers can be
compared (a ratio of 1.2 means 20 % more jobs per second than the reference).

Choices, written down:

- Reading the trace (SWF parsing and cleaning) is timed on its own, once per
  trace, and is not part of jobs/s.
- "sim s" is ``Simulation(...)`` construction plus ``.run()``: fitting the
  workload to the machine, the event loop, and building the `Result` tables.
  The event loop alone is saved as ``loop_s`` in the JSON file.
- Best of ``--repeat`` K runs (the minimum is the least disturbed by other
  load on the machine). The reference is always best of at least 3 (it takes
  a fraction of a second), so the ratio does not hinge on one noisy timing.
- Garbage is collected before each timed run; the collector stays enabled
  during the run, as in real use.
- Each policy first runs untimed on the first 500 jobs of the trace: one-off
  costs (SS's compiled loops, loaded from numba's cache or compiled on a
  machine's first run: about 0.5 s, or 4 s) are not part of its speed.
- The machine size is the trace header's (MaxProcs, else MaxNodes), the
  `Simulation` default; jobs wider than it are an error unless ``--wide``.
- Traces named by a short name (``ctc``, ``sdsc-sp2``, ``kth``, ...) are read
  from ``<repo>/../shared/traces/`` when that folder exists, else from the
  copies shipped in ``workloads/data/``. A name may also be the beginning of
  a file name in that folder (``hpc2n``, ``sdsc-blue``), or a path.

This script is never part of the test run (pytest does not collect
``benchmarks/``).
"""

from __future__ import annotations

import argparse
import cProfile
import gc
import io
import json
import math
import os
import platform
import pstats
import subprocess
import sys
import time
from dataclasses import asdict, dataclass
from importlib import metadata
from pathlib import Path
from typing import Any, Literal, cast

from rich.console import Console
from rich.table import Table

from schedsim import Simulation
from schedsim.app import registry
from schedsim.model.gc_tuning import tuned_gc
from schedsim.model.results import Result
from schedsim.workloads import catalog
from schedsim.workloads.swf import read_swf
from schedsim.workloads.transforms import first
from schedsim.workloads.workload import Workload

REPO: Path = Path(__file__).resolve().parent.parent
#: Where the full Parallel Workloads Archive logs live, beside the repository.
SHARED_TRACES: Path = REPO.parent / "shared" / "traces"

DEFAULT_TRACES: tuple[str, ...] = ("ctc", "sdsc-sp2")
#: The classic three, then the preemptive schemes of seeds 000 (SS) and 004 (PFCFS1).
DEFAULT_POLICIES: tuple[str, ...] = ("fcfs", "easy", "conservative", "ss", "pfcfs1")

#: The reference run every speed is divided by.
REFERENCE_TRACE: str = "kth"
REFERENCE_POLICY: str = "easy"
REFERENCE_JOBS: int = 5000
REFERENCE_MIN_REPEAT: int = 3
#: Jobs of a warm-up run, untimed, before each (trace, policy) is timed.
WARMUP_JOBS: int = 500

PROFILE_TOP: int = 20
WideMode = Literal["error", "drop", "clamp"]
WIDE_MODES: tuple[WideMode, ...] = ("error", "drop", "clamp")
_SWF_SUFFIXES: tuple[str, ...] = (".swf", ".swf.gz")


@dataclass
class TraceInfo:
    """One trace as read: where from, how many jobs, how long the read took."""

    label: str
    name: str
    path: str
    jobs: int
    machine: int | None
    read_s: float
    cleaning: list[str]


@dataclass
class RunTiming:
    """The best of K timed runs of one policy on one trace."""

    trace: str
    policy: str
    jobs: int
    sim_s: float
    loop_s: float
    jobs_per_s: float
    vs_ref: float
    repeat: int
    passes: int
    mean_bounded_slowdown: float
    utilization: float


# ---- traces -------------------------------------------------------------------


def _swf_files(folder: Path) -> list[Path]:
    return sorted(p for p in folder.iterdir() if p.is_file() and p.name.endswith(_SWF_SUFFIXES))


def resolve_trace(spec: str, traces_dir: Path | None = SHARED_TRACES) -> Path:
    """The SWF file behind a trace name or path.

    In order: a shipped short name (``catalog.SHIPPED``), taken from
    ``traces_dir`` when that folder holds the same file, else the shipped copy;
    an existing file path; the single file in ``traces_dir`` whose name starts
    with ``spec`` (case-insensitive). Anything else is a `ValueError` listing
    what could have been meant.
    """
    key = spec.strip().lower()
    folder = traces_dir if traces_dir is not None and traces_dir.is_dir() else None
    if key in catalog.SHIPPED:
        if folder is not None and (folder / catalog.SHIPPED[key]).is_file():
            return folder / catalog.SHIPPED[key]
        return catalog.resolve(key)
    path = Path(spec).expanduser()
    if path.is_file():
        return path
    available = list(catalog.SHIPPED)
    if folder is not None:
        files = _swf_files(folder)
        matches = [p for p in files if p.name.lower().startswith(key)]
        if len(matches) == 1:
            return matches[0]
        if len(matches) > 1:
            names = ", ".join(p.name for p in matches)
            raise ValueError(f"trace {spec!r} is ambiguous in {folder}: {names}")
        available += [p.name for p in files]
    raise ValueError(
        f"unknown trace {spec!r}: not a shipped name, an existing file, or the start of a "
        f"file name in the traces folder; available: {', '.join(available)}"
    )


def trace_label(spec: str) -> str:
    """A short label for tables: the name as given, or a path's file name without suffix."""
    name = Path(spec).name
    for suffix in (".gz", ".swf"):
        name = name.removesuffix(suffix)
    return name


def read_trace(
    spec: str, traces_dir: Path | None, first_n: int | None
) -> tuple[Workload, TraceInfo]:
    """Read (and optionally cut) one trace, timing the read alone."""
    path = resolve_trace(spec, traces_dir)
    t0 = time.perf_counter()
    with tuned_gc():  # as the schedsim command reads it
        workload = read_swf(path)
    read_s = time.perf_counter() - t0
    if first_n is not None:
        workload = first(workload, first_n)
    info = TraceInfo(
        label=trace_label(spec),
        name=workload.name,
        path=_display_path(path),
        jobs=len(workload),
        machine=workload.header.machine_size,
        read_s=read_s,
        cleaning=[str(step) for step in workload.cleaning],
    )
    return workload, info


def _display_path(path: Path) -> str:
    try:
        return os.path.relpath(path, Path.cwd())
    except ValueError:  # another drive on Windows
        return str(path)


# ---- timing -------------------------------------------------------------------


def time_once(workload: Workload, policy: str, wide: WideMode = "error") -> tuple[float, Result]:
    """Wall seconds of one simulation (construction + run) and its result, with the
    collector tuned as the ``schedsim`` command runs it (`tuned_gc`)."""
    gc.collect()
    t0 = time.perf_counter()
    with tuned_gc():
        result = Simulation(workload, policy, wide=wide).run()
    return time.perf_counter() - t0, result


def time_best(
    workload: Workload, policy: str, repeat: int, wide: WideMode = "error"
) -> tuple[float, Result]:
    """Best (minimum) wall seconds of ``repeat`` runs, with the last run's result."""
    best = float("inf")
    result: Result | None = None
    for _ in range(repeat):
        seconds, result = time_once(workload, policy, wide)
        best = min(best, seconds)
    assert result is not None
    return best, result


def reference_speed(repeat: int) -> dict[str, Any]:
    """Jobs per second of the reference run (EASY, first 5000 jobs of shipped KTH)."""
    workload = first(catalog.load(REFERENCE_TRACE), REFERENCE_JOBS)
    k = max(repeat, REFERENCE_MIN_REPEAT)
    seconds, result = time_best(workload, REFERENCE_POLICY, k)
    jobs = len(result.jobs)
    return {
        "trace": REFERENCE_TRACE,
        "policy": REFERENCE_POLICY,
        "jobs": jobs,
        "sim_s": seconds,
        "jobs_per_s": jobs / seconds,
        "repeat": k,
    }


def benchmark(
    workload: Workload,
    policy: str,
    repeat: int,
    ref_jobs_per_s: float,
    wide: WideMode = "error",
    label: str | None = None,
) -> RunTiming:
    """Time one (trace, policy) pair and express its speed against the reference.

    The policy first runs untimed on the trace's first `WARMUP_JOBS` jobs, so
    that one-off costs (SS loading its compiled loops, or compiling them on a
    machine's first run) are not part of the timing.
    """
    Simulation(first(workload, WARMUP_JOBS), policy, wide=wide).run()
    seconds, result = time_best(workload, policy, repeat, wide)
    jobs = len(result.jobs)
    speed = jobs / seconds
    summary = result.summary()
    return RunTiming(
        trace=label or workload.name,
        policy=policy,
        jobs=jobs,
        sim_s=seconds,
        loop_s=float(result.meta["wall_time"]),
        jobs_per_s=speed,
        vs_ref=speed / ref_jobs_per_s,
        repeat=repeat,
        passes=int(result.meta["passes"]),
        mean_bounded_slowdown=float(summary["mean_bounded_slowdown"]),
        utilization=float(summary["utilization"]),
    )


def profile_run(
    workload: Workload, policy: str, top: int = PROFILE_TOP, wide: WideMode = "error"
) -> str:
    """cProfile one run; the ``top`` functions by total (own) time, as text."""
    profiler = cProfile.Profile()
    profiler.enable()
    Simulation(workload, policy, wide=wide).run()
    profiler.disable()
    out = io.StringIO()
    pstats.Stats(profiler, stream=out).sort_stats("tottime").print_stats(top)
    return out.getvalue()


# ---- environment ----------------------------------------------------------------


def _version(dist: str) -> str:
    try:
        return metadata.version(dist)
    except metadata.PackageNotFoundError:
        return "?"


def _git_commit() -> str | None:
    try:
        out = subprocess.run(
            ["git", "-C", str(REPO), "describe", "--always", "--dirty"],
            capture_output=True,
            text=True,
            timeout=10,
            check=True,
        )
    except (OSError, subprocess.SubprocessError):
        return None
    return out.stdout.strip() or None


def environment() -> dict[str, Any]:
    """Python, platform, CPU count and library versions of this run."""
    affinity = getattr(os, "sched_getaffinity", None)
    return {
        "python": platform.python_version(),
        "implementation": platform.python_implementation(),
        "platform": platform.platform(),
        "machine": platform.machine(),
        "processor": platform.processor() or None,
        "cpu_count": os.cpu_count(),
        "cpus_usable": len(affinity(0)) if affinity else None,
        "simpy": _version("simpy"),
        "numpy": _version("numpy"),
        "pandas": _version("pandas"),
        "schedsim_commit": _git_commit(),
    }


# ---- output ---------------------------------------------------------------------


def make_console(width: int) -> Console:
    """The console a benchmark prints to: the terminal's own, or, piped or redirected,
    one at least ``width`` columns wide, so that its tables are not squeezed into 80."""
    console = Console()
    return console if console.is_terminal else Console(width=max(console.width, width))


def environment_table(env: dict[str, Any]) -> Table:
    """A two-column table of the environment."""
    table = Table(title="environment", show_header=False)
    table.add_column(style="bold")
    table.add_column()
    for key, value in env.items():
        table.add_row(key, "-" if value is None else str(value))
    return table


def traces_table(infos: list[TraceInfo]) -> Table:
    """The traces read, with their read times (the cleaning is printed below it)."""
    table = Table(title="traces (read time is not part of jobs/s)")
    table.add_column("trace")
    table.add_column("file")
    table.add_column("jobs", justify="right")
    table.add_column("machine", justify="right")
    table.add_column("read s", justify="right")
    for info in infos:
        table.add_row(
            info.label,
            info.path,
            f"{info.jobs:,}",
            str(info.machine or "-"),
            f"{info.read_s:.2f}",
        )
    return table


def runs_table(runs: list[RunTiming], reference: dict[str, Any]) -> Table:
    """The benchmark table: one row per (trace, policy)."""
    table = Table(
        title=f"simulation speed, best of {runs[0].repeat if runs else 1}",
        caption=f"x ref = jobs/s / {reference['jobs_per_s']:,.0f} (reference jobs/s)",
    )
    table.add_column("trace")
    table.add_column("policy")
    table.add_column("jobs", justify="right")
    table.add_column("sim s", justify="right")
    table.add_column("jobs/s", justify="right")
    table.add_column("x ref", justify="right")
    # Time over EASY's on the same trace: seed 000's SS must stay within 3x.
    table.add_column("time / easy", justify="right")
    table.add_column("mean bsld", justify="right")
    table.add_column("util", justify="right")
    easy = {run.trace: run.sim_s for run in runs if run.policy == "easy"}
    for run in runs:
        table.add_row(
            run.trace,
            run.policy,
            f"{run.jobs:,}",
            f"{run.sim_s:.2f}",
            f"{run.jobs_per_s:,.0f}",
            f"{run.vs_ref:.2f}",
            f"{run.sim_s / easy[run.trace]:.2f}" if run.trace in easy else "-",
            f"{run.mean_bounded_slowdown:.2f}",
            f"{run.utilization:.3f}",
        )
    return table


def _json_safe(value: Any) -> Any:
    """NaN and infinities become null, so the file is strict JSON."""
    if isinstance(value, float) and not math.isfinite(value):
        return None
    if isinstance(value, dict):
        return {k: _json_safe(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_json_safe(v) for v in value]
    return value


# ---- command line ---------------------------------------------------------------


def _positive_int(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a positive integer, got {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected a positive integer, got {text!r}")
    return value


def _policy(text: str) -> str:
    name = text.strip().lower()
    known = registry.names()
    if name not in known:
        raise argparse.ArgumentTypeError(f"unknown policy {text!r}; choose from {', '.join(known)}")
    return name


def build_parser() -> argparse.ArgumentParser:
    """The command-line interface."""
    parser = argparse.ArgumentParser(
        prog="benchmarks/run.py",
        description=(
            "Time FCFS, EASY, conservative, SS and PFCFS1 on whole real traces, "
            "relative to a reference run (EASY, first 5000 jobs of the shipped KTH trace)."
        ),
    )
    parser.add_argument(
        "--traces",
        nargs="+",
        default=list(DEFAULT_TRACES),
        metavar="TRACE",
        help=f"trace names (shipped: {', '.join(catalog.SHIPPED)}; or the start of a file "
        "name in the traces folder) or SWF paths (default: %(default)s)",
    )
    parser.add_argument(
        "--policies",
        nargs="+",
        type=_policy,
        default=list(DEFAULT_POLICIES),
        metavar="POLICY",
        help="policies to time (default: %(default)s)",
    )
    parser.add_argument(
        "--first",
        type=_positive_int,
        metavar="N",
        help="keep only the first N jobs of each trace (a quick look)",
    )
    parser.add_argument(
        "--repeat",
        type=_positive_int,
        default=1,
        metavar="K",
        help="time each run K times and keep the best (default: %(default)s)",
    )
    parser.add_argument(
        "--profile",
        type=_policy,
        metavar="POLICY",
        help="after the table, cProfile one run of POLICY on the first trace and print "
        f"the top {PROFILE_TOP} functions by total time",
    )
    parser.add_argument("--json", type=Path, metavar="FILE", help="save the results as JSON")
    parser.add_argument(
        "--traces-dir",
        type=Path,
        default=SHARED_TRACES,
        metavar="DIR",
        help="folder of full traces, used when it exists (default: <repo>/../shared/traces)",
    )
    parser.add_argument(
        "--wide",
        choices=WIDE_MODES,
        default="error",
        help="jobs wider than the machine: error (default), drop or clamp",
    )
    return parser


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark; returns the process exit status."""
    args = build_parser().parse_args(argv)
    wide = cast(WideMode, args.wide)
    console = make_console(110)

    env = environment()
    console.print(environment_table(env))

    # Resolve every trace before spending time on the reference.
    try:
        for spec in args.traces:
            resolve_trace(spec, args.traces_dir)
    except ValueError as err:
        console.print(f"[red]error:[/red] {err}")
        return 2

    with console.status("reference run"):
        reference = reference_speed(args.repeat)
    console.print(
        f"reference: {reference['policy']} on the first {reference['jobs']} jobs of "
        f"{reference['trace']}: {reference['sim_s']:.3f} s (best of {reference['repeat']}), "
        f"{reference['jobs_per_s']:,.0f} jobs/s"
    )

    infos: list[TraceInfo] = []
    runs: list[RunTiming] = []
    first_workload: Workload | None = None
    for spec in args.traces:
        with console.status(f"reading {spec}"):
            workload, info = read_trace(spec, args.traces_dir, args.first)
        infos.append(info)
        console.log(f"read {info.label} ({info.name}): {info.jobs:,} jobs in {info.read_s:.2f} s")
        if first_workload is None:
            first_workload = workload
        for policy in args.policies:
            with console.status(f"{policy} on {info.name}"):
                try:
                    run = benchmark(
                        workload,
                        policy,
                        args.repeat,
                        reference["jobs_per_s"],
                        wide,
                        label=info.label,
                    )
                except ValueError as err:
                    console.print(f"[red]error:[/red] {policy} on {info.name}: {err}")
                    return 1
            runs.append(run)
            console.log(
                f"{policy} on {info.label}: {run.sim_s:.2f} s, {run.jobs_per_s:,.0f} jobs/s"
            )
        del workload

    console.print(traces_table(infos))
    for info in infos:
        for step in info.cleaning:
            console.print(f"  {info.label}: {step}", highlight=False)
    console.print(runs_table(runs, reference))

    profile_text = None
    if args.profile and first_workload is not None:
        with console.status(f"profiling {args.profile} on {first_workload.name}"):
            profile_text = profile_run(first_workload, args.profile, PROFILE_TOP, wide)
        console.rule(f"cProfile: {args.profile} on {first_workload.name}, by total time")
        sys.stdout.flush()
        print(profile_text)  # raw: pstats lines must not be wrapped

    if args.json is not None:
        doc = {
            "argv": sys.argv[1:] if argv is None else list(argv),
            "environment": env,
            "reference": reference,
            "traces": [asdict(i) for i in infos],
            "runs": [asdict(r) for r in runs],
            "profile": profile_text,
        }
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(_json_safe(doc), indent=2, allow_nan=False) + "\n")
        console.print(f"saved {args.json}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
