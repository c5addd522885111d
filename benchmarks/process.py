"""schedsim against a plain-Python EASY, as whole processes and phase by phase.

Run from the repository root::

    python benchmarks/process.py                            # CTC-SP2, best of 5 (long)
    python benchmarks/process.py --quick --repeat 2         # first 3000 jobs: a smoke run
    python benchmarks/process.py --policies conservative ssp --json process.json

The yardstick is `benchmarks/reference_easy.py`, a minimal EASY simulator in
plain Python that gives the same schedule as schedsim's EASY (checked job by job
by ``tests/test_reference_easy.py``). Every figure is a ratio to it, measured in
the same run, so that the ratios hold on other machines and under other load:

- **whole process**: ``python benchmarks/reference_easy.py TRACE --out DIR``
  against ``schedsim run --workload TRACE --policy easy --out DIR --no-progress
  --only jobs.csv,schedule.swf``: the same outputs, the reference's two files
  (the same job table and the same SWF job lines), asked for as a user asks for
  them (target: at most 2.5 times the reference's). Beside it, with no target,
  the command as it runs by default, writing ``jobs.parquet``, ``jobs.csv``,
  ``series.parquet``, ``pieces.parquet`` (keeping the piece log for it),
  ``schedule.swf`` and ``summary.json``. Both print their summary tables. And
  ``schedsim --help`` (target: 0.3 s). Every process's output goes to /dev/null.
- **reading the log**: `schedsim.workloads.swf.read_swf` in this process
  against the reference's reader (target: 0.3 s).
- **the simulation alone**: ``Simulation(workload, "easy").run()`` (building the
  simulation, the event loop and the result tables) against the reference's
  scheduling loop alone (target: at most 2 times the reference's). Beside it,
  with no target, `simpy_floor.replay`: the SimPy events of the reference's
  schedule made and nothing else (a source, a scheduler woken once per pass, a
  process per job), what any design that keeps them as SimPy processes costs.
- **each policy** against schedsim's own EASY on the same log, in this process
  (target: at most 3 times EASY's time). The multi-core policies of Zeng &
  Sodan 2009 (SSP, G-LOMARC-TS and its variants, CST, Scojo-PECT) need nodes of
  several cores: they run on workload W1 (`schedsim.workloads.multicore.w1`,
  seed 1) on 128 nodes of 4 cores with Table 4's statistical contention and
  jobs not killed at their estimate, as `benchmarks/multicore.py` runs them, and
  EASY runs on the same workload, machine and contention as their base. Their
  ``x ref`` compares time per job with the reference loop's on the trace. SS, TSS
  and multiqueue (``--on-w1``) run on W1 as well as on the trace, against the same
  base: issue 41 asks them within 3 times EASY on both.

How it measures:

- Alternating pairs: each of ``--repeat`` K rounds runs the reference, then
  schedsim (for the processes: the reference, ``schedsim run`` with the
  reference's outputs, then with every file, ``schedsim --help``; for the
  policies: EASY, then each policy in turn), and each figure is the best
  (minimum) of its K timings, so slow drifts in the machine's load touch both
  sides alike.
- Before the rounds, each process runs once untimed (Python's bytecode cache,
  the page cache), and each policy runs untimed on the first 500 jobs (SS's
  compiled loops load from numba's cache then). Processes run without
  ``PYTHONDONTWRITEBYTECODE`` (`process_environment`), so that schedsim's
  modules are compiled once, as on a user's machine, not at every start.
- Garbage is collected before each in-process timing; output folders are
  emptied before each process runs, so every run writes fresh files.
- ``--quick [N]`` keeps the first N jobs (3000) of the trace and of W1 for a
  smoke run; its ratios are not the targets' (start-up costs weigh more).

Never part of the test run (pytest does not collect ``benchmarks/``).
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from rich.table import Table

from schedsim import Simulation
from schedsim.app import registry
from schedsim.model.gc_tuning import tuned_gc
from schedsim.model.slowdowns import StatisticalContention
from schedsim.workloads.multicore import CORES_PER_NODE, NODES, w1
from schedsim.workloads.swf import read_swf
from schedsim.workloads.transforms import first
from schedsim.workloads.workload import Workload

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import reference_easy as reference  # noqa: E402  (the sibling scripts)
import simpy_floor  # noqa: E402
from run import (  # noqa: E402
    SHARED_TRACES,
    WARMUP_JOBS,
    _json_safe,
    _positive_int,
    environment,
    environment_table,
    make_console,
    resolve_trace,
    trace_label,
)
from run import _policy as run_policy  # noqa: E402
from run_phases import command as run_command  # noqa: E402

REFERENCE_SCRIPT: Path = HERE / "reference_easy.py"
DEFAULT_TRACE = "ctc"
DEFAULT_REPEAT = 5
QUICK_JOBS = 3000
#: Single-core policies timed on the trace, then multi-core ones on W1.
DEFAULT_POLICIES: tuple[str, ...] = (
    "conservative", "ss", "tss", "is", "pfcfs1", "creasy", "multiqueue",
    "ssp", "glts", "cst", "cstws", "scojo",
)  # fmt: skip
#: Modules of Zeng & Sodan 2009's schedulers, which need nodes of several cores.
MULTICORE_MODULES: frozenset[str] = frozenset(
    {"schedsim.policies.spacesharing", "schedsim.policies.glts", "schedsim.policies.scojo"}
)
MULTICORE_JOBS = 10_000
#: Single-core policies also timed on W1 (issue 41, item 3: within 3x EASY on CTC and W1).
ON_W1: tuple[str, ...] = ("ss", "tss", "multiqueue")
MULTICORE_SEED = 1

# The targets the project set itself.
PROCESS_TARGET = 2.5  # schedsim run --out DIR --only REFERENCE_FILES, x the reference process
#: The files the reference writes, which ``schedsim run --only`` asks for in the target row.
REFERENCE_FILES = "jobs.csv,schedule.swf"
SIMULATION_TARGET = 2.0  # Simulation(...).run(), x the reference loop
READ_TARGET_S = 0.3  # read_swf, seconds
HELP_TARGET_S = 0.3  # schedsim --help, seconds
POLICY_TARGET = 3.0  # each policy, x schedsim's EASY on the same log


@dataclass
class Row:
    """One figure: its best time, its ratio to the reference, and its target."""

    figure: str
    jobs: int | None
    seconds: float
    timings: list[float]
    x_ref: float | None
    ref: str  # what x_ref divides by
    target: str
    value: float  # the measured quantity the target bounds
    unit: str  # "s" or "x"
    limit: float | None  # None: a base the other rows are divided by, no target
    ok: bool | None = field(init=False)

    def __post_init__(self) -> None:
        self.ok = None if self.limit is None else self.value <= self.limit


# ---- timing -----------------------------------------------------------------------


def timed(fn: Callable[[], Any]) -> tuple[float, Any]:
    """Wall seconds of one call (garbage collected first; the collector tuned inside, as
    the ``schedsim`` command runs, `tuned_gc`) and its value."""
    gc.collect()
    t0 = time.perf_counter()
    with tuned_gc():
        value = fn()
    return time.perf_counter() - t0, value


def process_environment() -> dict[str, str]:
    """This process's environment without ``PYTHONDONTWRITEBYTECODE``.

    With it set (some sandboxes and containers do), Python never writes the
    bytecode of the modules it compiles, so an editable install compiles every
    one of schedsim's modules from source at every start (about 0.1 s of
    ``schedsim run`` here), which no user's ``pip install`` or first import
    leaves to do. Without it, the untimed first run writes that cache, as a
    user's first run does.
    """
    env = dict(os.environ)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    return env


def run_process(argv: list[str], out: Path | None = None) -> float:
    """Wall seconds of one process (in `process_environment`), its output discarded;
    ``out`` is emptied first."""
    if out is not None:
        shutil.rmtree(out, ignore_errors=True)
    env = process_environment()
    t0 = time.perf_counter()
    done = subprocess.run(
        argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, env=env
    )
    seconds = time.perf_counter() - t0
    if done.returncode != 0:
        raise RuntimeError(f"{' '.join(argv)} failed ({done.returncode}): {done.stderr[-2000:]}")
    return seconds


def schedsim_command() -> list[str]:
    """The ``schedsim`` console script of this environment (``python -m schedsim`` else)."""
    script = Path(sys.executable).parent / "schedsim"
    if script.is_file():
        return [str(script)]
    found = shutil.which("schedsim")
    return [found] if found else [sys.executable, "-m", "schedsim"]


def processes(trace: Path, quick: int | None, repeat: int, scratch: Path) -> dict[str, list[float]]:
    """K rounds of: the reference process, ``schedsim run --out`` with the reference's
    outputs (``--only``) and with every file, ``schedsim --help``."""
    cut = ["--first", str(quick)] if quick else []
    ref_out, sim_out = scratch / "reference", scratch / "schedsim"
    schedsim = schedsim_command()
    commands = {
        "reference": ([sys.executable, str(REFERENCE_SCRIPT), str(trace), "--out", str(ref_out),
                       *cut], ref_out),
        # `schedsim run ...` as run_phases.py times it, with the reference's files and all.
        "run": ([*schedsim, *run_command(str(trace), "easy", sim_out, quick, REFERENCE_FILES)],
                sim_out),
        "run all": ([*schedsim, *run_command(str(trace), "easy", sim_out, quick)], sim_out),
        "help": ([*schedsim, "--help"], None),
    }  # fmt: skip
    for argv, out in commands.values():  # untimed: bytecode and page caches
        run_process(argv, out)
    times: dict[str, list[float]] = {name: [] for name in commands}
    for _ in range(repeat):
        for name, (argv, out) in commands.items():
            times[name].append(run_process(argv, out))
    return times


def in_process(
    trace: Path, quick: int | None, repeat: int
) -> tuple[dict[str, list[float]], reference.Trace, Workload, bool]:
    """K rounds of: the reference's read, loop and write; read_swf; schedsim's EASY; and
    whether schedsim's EASY started every job when the reference did."""
    times: dict[str, list[float]] = {
        k: [] for k in ("ref read", "read", "ref loop", "simpy floor", "easy", "ref write")
    }
    ref_trace = reference.read(trace, quick)
    machine = ref_trace.machine
    assert machine is not None
    workload = read_swf(trace)
    if quick:
        workload = first(workload, quick)
    Simulation(first(workload, WARMUP_JOBS), "easy").run()
    args = (ref_trace.submit, ref_trace.size, ref_trace.run, ref_trace.estimate, machine)
    sched = reference.easy(*args)
    starts_ends = (sched.start, sched.end)
    starts: list[float] = []

    def write(out: Path) -> None:
        reference.write_jobs_csv(out / "jobs.csv", ref_trace, sched)
        reference.write_schedule_swf(out / "schedule.swf", ref_trace, sched)

    with tempfile.TemporaryDirectory(prefix="schedsim-process-") as tmp:
        for _ in range(repeat):
            for name, fn in (
                ("ref read", lambda: reference.read(trace, quick)),
                ("read", lambda: read_swf(trace)),
                ("ref loop", lambda: reference.easy(*args)),
                ("simpy floor", lambda: simpy_floor.replay(ref_trace.submit, *starts_ends)),
                ("easy", lambda: Simulation(workload, "easy").run()),
                ("ref write", lambda: write(Path(tmp))),
            ):
                seconds, value = timed(fn)
                times[name].append(seconds)
                if name == "easy":
                    starts = value.jobs["start"].tolist()
    # The ratios mean something only while both make the same schedule (checked by
    # tests/test_reference_easy.py; checked again here on the log timed).
    same = starts == sched.start
    return times, ref_trace, workload, same


def trace_simulation(w: Workload, policy: str) -> Simulation:
    """``policy`` on the trace's machine, with every default (as ``schedsim run``)."""
    return Simulation(w, policy)


def multicore_simulation(w: Workload, policy: str, seed: int = MULTICORE_SEED) -> Simulation:
    """``policy`` on Zeng & Sodan's machine and contention (as `schedsim.app.study` builds it)."""
    params = {"seed": seed} if "seed" in registry.parameters(policy) else None
    return Simulation(
        w, policy, params=params, nodes=NODES, cores_per_node=CORES_PER_NODE, seed=seed,
        kill_at_estimate=False, contention=StatisticalContention(seed),
    )  # fmt: skip


def policies(
    make: Callable[[Workload, str], Simulation], w: Workload, names: list[str], repeat: int
) -> dict[str, list[float]]:
    """K rounds of EASY, then each policy, on ``w`` (each warmed up untimed first)."""
    order = ["easy", *names]
    for name in order:
        make(first(w, WARMUP_JOBS), name).run()
    times: dict[str, list[float]] = {name: [] for name in order}
    for _ in range(repeat):
        for name in order:

            def once(name: str = name) -> Any:  # construction and run, as benchmarks/run.py
                return make(w, name).run()

            times[name].append(timed(once)[0])
    return times


# ---- the table ------------------------------------------------------------------------


def rows(
    procs: dict[str, list[float]],
    inproc: dict[str, list[float]],
    single: dict[str, list[float]],
    multi: dict[str, list[float]],
    jobs: int,
    w1_jobs: int,
) -> tuple[dict[str, float], list[Row]]:
    """The reference's figures and one `Row` per figure."""
    best = {k: min(v) for k, v in {**procs, **inproc}.items()}
    ref = {
        "process": best["reference"],
        "read": best["ref read"],
        "loop": best["ref loop"],
        "write": best["ref write"],
    }
    out = [
        Row(f"schedsim run --out --only {REFERENCE_FILES} (whole process)", jobs, best["run"],
            procs["run"], best["run"] / ref["process"], "ref process",
            f"<= {PROCESS_TARGET:g}x ref process", best["run"] / ref["process"], "x",
            PROCESS_TARGET),
        Row("schedsim run --out, every file (whole process)", jobs, best["run all"],
            procs["run all"], best["run all"] / ref["process"], "ref process",
            "none: four files more than the reference", best["run all"] / ref["process"], "x",
            None),
        Row("schedsim --help (whole process)", None, best["help"], procs["help"],
            best["help"] / ref["process"], "ref process", f"<= {HELP_TARGET_S:g} s",
            best["help"], "s", HELP_TARGET_S),
        Row("read_swf (reading the log)", jobs, best["read"], inproc["read"],
            best["read"] / ref["read"], "ref read", f"<= {READ_TARGET_S:g} s",
            best["read"], "s", READ_TARGET_S),
        Row("Simulation(easy).run() (simulation alone)", jobs, best["easy"], inproc["easy"],
            best["easy"] / ref["loop"], "ref loop", f"<= {SIMULATION_TARGET:g}x ref loop",
            best["easy"] / ref["loop"], "x", SIMULATION_TARGET),
        Row("SimPy's events alone (the floor of the row above)", jobs, best["simpy floor"],
            inproc["simpy floor"], best["simpy floor"] / ref["loop"], "ref loop",
            "none: what any SimPy design costs", best["simpy floor"] / ref["loop"], "x", None),
    ]  # fmt: skip
    for times, n, where in ((single, jobs, "trace"), (multi, w1_jobs, "W1")):
        if not times:
            continue
        easy = min(times["easy"])
        for name, ts in times.items():
            if name == "easy" and where == "trace":
                continue  # the simulation-alone row above is the same measurement
            s = min(ts)
            # Per job: W1 is not the trace, so time per job against the loop's per job.
            x_ref = (s / n) / (ref["loop"] / jobs)
            label = f"{name} (W1)" if where == "W1" else name
            base = name == "easy"  # EASY on W1: the base of the multi-core rows
            out.append(
                Row(label, n, s, ts, x_ref, "ref loop" if where == "trace" else "ref loop per job",
                    "base of the W1 rows" if base else
                    f"<= {POLICY_TARGET:g}x easy" + (" on W1" if where == "W1" else ""),
                    s / easy, "x", None if base else POLICY_TARGET)
            )  # fmt: skip
    return ref, out


def reference_table(ref: dict[str, float], repeat: int) -> Table:
    """The reference's own figures, which the ratios divide by."""
    table = Table(title=f"the reference (benchmarks/reference_easy.py), best of {repeat}")
    table.add_column("phase")
    table.add_column("seconds", justify="right")
    table.add_row(
        "whole process (read, loop, write jobs.csv and schedule.swf)", f"{ref['process']:.2f}"
    )
    table.add_row("read (in-process)", f"{ref['read']:.2f}")
    table.add_row("scheduling loop (in-process)", f"{ref['loop']:.2f}")
    table.add_row("write (in-process)", f"{ref['write']:.2f}")
    return table


def results_table(out: list[Row], trace: str, repeat: int) -> Table:
    """One row per figure: seconds, ratio to the reference, the target and pass/fail."""
    table = Table(
        title=f"schedsim against the reference on {trace}, best of {repeat} (alternating pairs)",
        caption="x ref: seconds / the reference's (column 'ref'); value: what the target bounds",
    )
    table.add_column("figure")
    table.add_column("jobs", justify="right")
    table.add_column("seconds", justify="right")
    table.add_column("x ref", justify="right")
    table.add_column("ref")
    table.add_column("value", justify="right")
    table.add_column("target")
    table.add_column("pass")
    for r in out:
        value = f"{r.value:.2f} s" if r.unit == "s" else f"{r.value:.2f}x"
        table.add_row(
            r.figure,
            "-" if r.jobs is None else f"{r.jobs:,}",
            f"{r.seconds:.2f}",
            "-" if r.x_ref is None else f"{r.x_ref:.2f}",
            r.ref,
            value,
            r.target,
            "-" if r.ok is None else "[green]pass[/green]" if r.ok else "[red]FAIL[/red]",
        )
    return table


# ---- command line ---------------------------------------------------------------------


def _policy(text: str) -> str:
    name = run_policy(text)  # a registered name, or an argparse error listing them
    if name == "easy":
        raise argparse.ArgumentTypeError("easy is the base every policy is divided by")
    return name


def is_multicore(policy: str) -> bool:
    """Whether ``policy`` is one of Zeng & Sodan 2009's (it needs nodes of several cores)."""
    return registry.get(policy).__module__ in MULTICORE_MODULES


def build_parser() -> argparse.ArgumentParser:
    """The command-line interface."""
    parser = argparse.ArgumentParser(
        prog="benchmarks/process.py",
        description="Time schedsim against a plain-Python EASY (benchmarks/reference_easy.py): "
        "whole processes, reading, the simulation alone, and each policy against EASY.",
    )
    parser.add_argument(
        "--trace",
        default=DEFAULT_TRACE,
        help="a shipped trace name, the start of a file name in the traces folder, or an "
        "SWF path (default: %(default)s)",
    )
    parser.add_argument(
        "--repeat",
        type=_positive_int,
        default=DEFAULT_REPEAT,
        metavar="K",
        help="rounds of alternating timings; each figure is the best of K (default: %(default)s)",
    )
    parser.add_argument(
        "--policies",
        nargs="*",
        type=_policy,
        default=list(DEFAULT_POLICIES),
        metavar="POLICY",
        help="policies timed against EASY; Zeng & Sodan's multi-core ones run on W1 "
        "(default: %(default)s; none: only the reference rows)",
    )
    parser.add_argument(
        "--on-w1",
        nargs="*",
        type=_policy,
        default=list(ON_W1),
        metavar="POLICY",
        help="policies of --policies also timed on W1 against EASY on W1 (default: %(default)s)",
    )
    parser.add_argument(
        "--multicore-jobs",
        type=_positive_int,
        default=MULTICORE_JOBS,
        metavar="N",
        help="jobs of W1 for the multi-core policies (default: %(default)s)",
    )
    parser.add_argument(
        "--quick",
        type=_positive_int,
        nargs="?",
        const=QUICK_JOBS,
        metavar="N",
        help=f"keep the first N jobs ({QUICK_JOBS} when N is left out) of the trace and of W1: "
        "a smoke run",
    )
    parser.add_argument("--json", type=Path, metavar="FILE", help="save the results as JSON")
    parser.add_argument(
        "--traces-dir",
        type=Path,
        default=SHARED_TRACES,
        metavar="DIR",
        help="folder of full traces, used when it exists (default: <repo>/../shared/traces)",
    )
    return parser


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark; returns the process exit status."""
    args = build_parser().parse_args(argv)
    console = make_console(140)
    try:
        trace = resolve_trace(args.trace, args.traces_dir)
    except ValueError as err:
        console.print(f"[red]error:[/red] {err}")
        return 2
    env = environment()
    console.print(environment_table(env))
    single = [p for p in args.policies if not is_multicore(p)]
    multi = [p for p in args.policies if is_multicore(p)]
    multi += [p for p in args.on_w1 if p in single and p not in multi]
    quick = args.quick

    with (
        tempfile.TemporaryDirectory(prefix="schedsim-process-") as tmp,
        console.status("whole processes"),
    ):
        procs = processes(trace, quick, args.repeat, Path(tmp))
    console.log("processes: " + ", ".join(f"{k} {min(v):.2f} s" for k, v in procs.items()))
    with console.status("reading and the simulation alone"):
        inproc, ref_trace, workload, same = in_process(trace, quick, args.repeat)
    jobs = len(ref_trace.submit)
    console.log(
        f"in-process: {jobs:,} jobs: " + ", ".join(f"{k} {min(v):.2f} s" for k, v in inproc.items())
    )
    if not same:
        console.print(
            "[red]schedsim's EASY and the reference started jobs at different times on this "
            "log: the ratios below compare different schedules[/red]"
        )
    single_times: dict[str, list[float]] = {}
    if single:
        with console.status(f"{', '.join(single)} against easy"):
            single_times = policies(trace_simulation, workload, single, args.repeat)
        console.log(
            "policies: " + ", ".join(f"{k} {min(v):.2f} s" for k, v in single_times.items())
        )
    multi_times: dict[str, list[float]] = {}
    w1_jobs = min(args.multicore_jobs, quick) if quick else args.multicore_jobs
    if multi:
        with console.status(f"W1 ({w1_jobs:,} jobs)"):
            w = w1(MULTICORE_SEED, n_jobs=w1_jobs)
        with console.status(f"{', '.join(multi)} against easy on W1"):
            multi_times = policies(multicore_simulation, w, multi, args.repeat)
        console.log("W1: " + ", ".join(f"{k} {min(v):.2f} s" for k, v in multi_times.items()))

    ref, out = rows(procs, inproc, single_times, multi_times, jobs, w1_jobs)
    label = trace_label(args.trace) + (f", first {quick:,} jobs" if quick else "")
    console.print(reference_table(ref, args.repeat))
    console.print(results_table(out, label, args.repeat))
    if quick:
        console.print(
            "[yellow]--quick: start-up costs weigh more on a cut trace; the targets are "
            "for the whole log[/yellow]"
        )

    if args.json is not None:
        doc = {
            "argv": sys.argv[1:] if argv is None else list(argv),
            "environment": env,
            "trace": str(trace),
            "jobs": jobs,
            "quick": quick,
            "repeat": args.repeat,
            "w1_jobs": w1_jobs if multi else None,
            "reference": ref,
            "same_schedule": same,
            "timings": {**procs, **inproc},
            # Round by round, EASY's beside each policy's (so ratios can be paired).
            "policies": single_times,
            "w1": multi_times,
            "rows": [asdict(r) for r in out],
        }
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(_json_safe(doc), indent=2, allow_nan=False) + "\n")
        console.print(f"saved {args.json}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
