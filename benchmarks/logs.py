"""schedsim against the plain-Python EASY on every log, and what a run costs whatever its size.

Run from the repository root::

    python benchmarks/logs.py                       # every log below, best of 3 rounds
    python benchmarks/logs.py --logs kth sdsc-par --repeat 5 --json logs.json

A speed target met on one log says little of the others: the plain loop's cost per job
falls with the length of the queue, schedsim's is flat, and a short run pays the
interpreter's start, the imports and the writing of its files whatever its size. So
for each log (the four shipped ones, LANL-CM5 and HPC2N from ``../shared/traces`` when
it is there, and the first 2,000 jobs of KTH as a study-sized run) this times, in
alternating rounds as `benchmarks/process.py` does (`process.processes`,
`process.in_process`), and gives every figure as a ratio to the reference
(`benchmarks/reference_easy.py`) measured in the same round:

- **whole process**: ``schedsim run --policy easy`` with the reference's two files
  (``--only jobs.csv,schedule.swf``) and with every file, against the reference's
  process (issue target: at most 2.5 times);
- **simulation alone**: ``Simulation(workload, "easy").run()`` against the reference's
  loop, in this process;
- whether both made the same schedule (every start time equal).

Then, per log, what the target leaves the simulation (`budget`): 2.5 times the reference
process, less what the run spends outside the simulation (the whole process less the
simulation alone), against the simulation's time now and the floor of SimPy's events
for the same schedule (`simpy_floor.py`), in microseconds per job.

Then, from ``schedsim run`` phase by phase (`run_phases.measure`, every file) on the
2,000-job slice and on whole KTH, the **fixed cost** of a run (the interpreter's
start, the imports, the exit: what a run of no jobs would pay) against its **cost per
job** (everything else over the jobs), in seconds and microseconds.

Never part of the test run (pytest does not collect ``benchmarks/``).
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path
from typing import Any

from rich.table import Table

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from process import in_process, processes  # noqa: E402  (the sibling scripts)
from run import (  # noqa: E402
    SHARED_TRACES,
    _json_safe,
    _positive_int,
    environment,
    environment_table,
    make_console,
    resolve_trace,
)
from run_phases import measure  # noqa: E402

#: (label, trace name, first jobs): every log the issue names, and a study-sized run.
LOGS: tuple[tuple[str, str, int | None], ...] = (
    ("KTH-SP2", "kth", None),
    ("CTC-SP2", "ctc", None),
    ("SDSC-SP2", "sdsc-sp2", None),
    ("SDSC-Par", "sdsc-par", None),
    ("LANL-CM5", "lanl-cm5", None),
    ("HPC2N", "hpc2n", None),
    ("KTH, 2,000 jobs", "kth", 2000),
)


def chosen(names: list[str] | None, first: int | None) -> list[tuple[str, str, int | None]]:
    """The `LOGS` named (all when ``names`` is None), each with the jobs it keeps:
    ``first`` for every one when given, and then a log's study-sized run is the log
    itself cut the same way, so it is left out rather than measured twice."""
    out: dict[tuple[str, int | None], tuple[str, str, int | None]] = {}
    for label, name, cut in LOGS:
        if names is None or name in names:
            out.setdefault((name, first or cut), (label, name, first or cut))
    return list(out.values())


#: Phases of ``schedsim run`` a run pays whatever its jobs (`run_phases`).
FIXED_PHASES = ("imports", "exit", "start-up and the rest")
TARGET = 2.5  # whole process, with the reference's files, over the reference's


def measure_log(trace: Path, first: int | None, repeat: int) -> dict[str, Any]:
    """The whole processes and the simulation alone on one log, best of ``repeat``."""
    with tempfile.TemporaryDirectory(prefix="schedsim-logs-") as tmp:
        procs = processes(trace, first, repeat, Path(tmp))
    inproc, ref_trace, _, same = in_process(trace, first, repeat)
    best = {name: min(times) for name, times in {**procs, **inproc}.items()}
    return {"jobs": len(ref_trace.submit), "best": best, "same_schedule": same,
            "timings": {**procs, **inproc}}  # fmt: skip


def logs_table(measured: dict[str, dict[str, Any]], repeat: int) -> Table:
    table = Table(title=f"schedsim's EASY against the plain-Python reference, best of {repeat}")
    for name, justify in (("log", "left"), ("jobs", "right"), ("reference process (s)", "right"),
                          ("schedsim run, its files (s)", "right"), ("x ref", "right"),
                          ("every file (s)", "right"), ("x ref", "right"),
                          ("reference loop (s)", "right"), ("simulation (s)", "right"),
                          ("x ref", "right"), ("same schedule", "left"),
                          (f"<= {TARGET}x", "left")):  # fmt: skip
        table.add_column(name, justify=justify)  # type: ignore[arg-type]
    for label, m in measured.items():
        b = m["best"]
        whole = b["run"] / b["reference"]
        table.add_row(
            label, f"{m['jobs']:,}", f"{b['reference']:.2f}", f"{b['run']:.2f}", f"{whole:.2f}",
            f"{b['run all']:.2f}", f"{b['run all'] / b['reference']:.2f}", f"{b['ref loop']:.3f}",
            f"{b['easy']:.3f}", f"{b['easy'] / b['ref loop']:.2f}",
            "yes" if m["same_schedule"] else "NO", "pass" if whole <= TARGET else "FAIL",
        )  # fmt: skip
    return table


def budget(best: dict[str, float]) -> dict[str, float]:
    """What the whole-process target leaves the simulation on one log, in seconds: the
    target's time (`TARGET` times the reference process), the run outside the simulation
    (the whole process less the simulation alone), and what is left for the simulation;
    and the cut of the simulation's time it asks (a share; 0 where it asks none)."""
    target = TARGET * best["reference"]
    outside = best["run"] - best["easy"]
    left = target - outside
    return {"target": target, "outside": outside, "left": left,
            "cut": max(1.0 - left / best["easy"], 0.0)}  # fmt: skip


def budget_table(measured: dict[str, dict[str, Any]]) -> Table:
    table = Table(title=f"What {TARGET}x the reference process leaves the simulation")
    for name in ("log", "target (s)", "outside the simulation (s)", "left to it (s)",
                 "left (us/job)", "simulation now (us/job)", "SimPy's floor (us/job)",
                 "cut asked (%)"):  # fmt: skip
        table.add_column(name, justify="left" if name == "log" else "right")
    for label, m in measured.items():
        b, jobs = m["best"], m["jobs"]
        got = budget(b)
        table.add_row(
            label, f"{got['target']:.2f}", f"{got['outside']:.2f}", f"{got['left']:.2f}",
            f"{1e6 * got['left'] / jobs:.1f}", f"{1e6 * b['easy'] / jobs:.1f}",
            f"{1e6 * b['simpy floor'] / jobs:.1f}", f"{100 * got['cut']:.0f}",
        )  # fmt: skip
    return table


def costs(trace: str, first: int | None, repeat: int) -> dict[str, Any]:
    """``schedsim run`` (every file) phase by phase: its fixed and its per-job cost."""
    got = measure(trace, "easy", repeat, first)
    phases = got["instrumented"]["phases"]
    fixed = sum(phases.get(p, 0.0) for p in FIXED_PHASES)
    return {"whole": got["plain"], "phases": phases, "fixed": fixed,
            "variable": got["instrumented"]["whole"] - fixed}  # fmt: skip


def costs_table(rows: dict[str, tuple[int, dict[str, Any]]]) -> Table:
    table = Table(title="What a schedsim run costs: fixed (start-up, imports, exit) and per job")
    for name in ("run", "jobs", "whole process (s)", "fixed (s)", "fixed share (%)",
                 "rest (s)", "rest per job (us)"):  # fmt: skip
        table.add_column(name, justify="left" if name == "run" else "right")
    for label, (jobs, c) in rows.items():
        whole = c["fixed"] + c["variable"]
        table.add_row(
            label, f"{jobs:,}", f"{c['whole']:.2f}", f"{c['fixed']:.2f}",
            f"{100 * c['fixed'] / whole:.0f}", f"{c['variable']:.2f}",
            f"{1e6 * c['variable'] / jobs:.0f}",
        )  # fmt: skip
    return table


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="benchmarks/logs.py", description=__doc__.split("\n")[0])
    known = ", ".join(dict.fromkeys(name for _, name, _ in LOGS))
    parser.add_argument("--logs", nargs="*", default=None, metavar="LOG",
                        help=f"the logs to time (default: all of {known})")  # fmt: skip
    parser.add_argument("--repeat", type=_positive_int, default=3, metavar="K",
                        help="rounds; each figure is the best of K (default: 3)")  # fmt: skip
    parser.add_argument("--first", type=_positive_int, default=None, metavar="N",
                        help="keep the first N jobs of every log: a smoke run")  # fmt: skip
    parser.add_argument("--traces-dir", type=Path, default=SHARED_TRACES, metavar="DIR")
    parser.add_argument("--json", type=Path, metavar="FILE", help="save the results as JSON")
    args = parser.parse_args(argv)
    console = make_console(160)
    env = environment()
    console.print(environment_table(env))
    measured: dict[str, dict[str, Any]] = {}
    for label, name, first in chosen(args.logs, args.first):
        try:
            trace = resolve_trace(name, args.traces_dir)
        except ValueError:
            console.print(f"[yellow]{label}: not found (no {args.traces_dir}); skipped[/yellow]")
            continue
        with console.status(f"{label}"):
            measured[label] = m = measure_log(trace, first, args.repeat)
        console.log(f"{label}: " + ", ".join(f"{k} {v:.2f} s" for k, v in m["best"].items()))
    console.print(logs_table(measured, args.repeat))
    console.print(budget_table(measured))
    rows: dict[str, tuple[int, dict[str, Any]]] = {}
    for label, name, first in (("KTH, 2,000 jobs", "kth", 2000), ("KTH-SP2", "kth", None)):
        if label in measured:  # (the jobs the reference read)
            with console.status(f"{label}, phase by phase"):
                cut = args.first or first
                rows[label] = (measured[label]["jobs"], costs(name, cut, args.repeat))
    console.print(costs_table(rows))
    if args.json is not None:
        doc = {"environment": env, "repeat": args.repeat, "logs": measured,
               "costs": {k: {"jobs": j, **c} for k, (j, c) in rows.items()}}  # fmt: skip
        args.json.write_text(json.dumps(_json_safe(doc), indent=2, allow_nan=False) + "\n")
        console.print(f"saved {args.json}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
