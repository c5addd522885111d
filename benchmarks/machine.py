"""A run on node groups against a plain run: what placing jobs node by node costs.

Run from the repository root::

    python benchmarks/machine.py                          # KTH-SP2 and SDSC-SP2, best of 5
    python benchmarks/machine.py --logs kth --repeat 3 --no-processes
    python benchmarks/machine.py --first 2000 --repeat 1 --json machine.json   # a smoke run

On each log EASY runs three ways, on the log's own processors (each a node of one core):

- **plain**: the header's machine, ``nodes`` identical nodes: EASY counts free cores;
- **ten groups, counted**: the same nodes in ten node groups (as even in size as they
  can be) without memory: where a job fits is still a count
  (`schedsim.model.machine.Machine.constrained` is false), so EASY counts, as plain;
- **ten groups with memory**: the same groups with 64 GB per node: EASY places every
  job node by node (`schedsim.policies.planning.nodes`), though the logs' jobs ask
  for no memory (SWF field 10), so the schedule is the plain one.

Each is timed in this process (`Simulation(...).run()`: building the run, the events
and the result tables; jobs per second) and as a whole process (``schedsim run
--workload LOG --policy easy --out DIR [--machine FILE]``, every file written, as a
user runs it), and divided by the plain run's time. Each of ``--repeat`` K rounds runs
the three in turn, and each figure is the best of its K, so a change in the machine's
load touches every side of a ratio alike; each runs once untimed first (bytecode, page
cache, a first run's imports). The three runs must start every job at the same time
(said when they do not: the ratios would compare different schedules).

Target (issue 40, item 6): on every log, the whole process with memory at most 1.5
times the plain one (exit status 1 when missed). ``--first N`` keeps the first N jobs
of each log: a smoke run, whose ratios are not the target's (start-up weighs more).

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

from schedsim import Simulation
from schedsim.model.machine import Machine, read_machine
from schedsim.workloads import catalog
from schedsim.workloads.transforms import first
from schedsim.workloads.workload import Workload

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from process import run_process, schedsim_command, timed  # noqa: E402  (sibling scripts)
from run import (  # noqa: E402
    SHARED_TRACES,
    WARMUP_JOBS,
    _json_safe,
    _positive_int,
    environment,
    environment_table,
    make_console,
    resolve_trace,
)

DEFAULT_LOGS = ("kth", "sdsc-sp2")
DEFAULT_REPEAT = 5
#: Node groups of the two runs on groups, and each node's memory in the run with memory.
GROUPS = 10
MEMORY = "64G"
#: The runs, in the order each round times them; the first is what the others divide by.
RUNS = ("plain", "ten groups, counted", "ten groups with memory")
#: Issue 40, item 6: the run with memory, whole process, at most this times the plain one.
TARGET = 1.5


def groups_file(nodes: int, memory: str | None) -> str:
    """A machine file (TOML) of `GROUPS` groups of one-core nodes, ``nodes`` in all (the
    first groups one node larger when they do not divide evenly), ``memory`` per node."""
    per_node = "" if memory is None else f'memory = "{memory}"\n'
    tables = []
    for k in range(GROUPS):
        size = nodes // GROUPS + (k < nodes % GROUPS)
        tables.append(f'[[group]]\nname = "g{k}"\nnodes = {size}\ncores = 1\n{per_node}')
    return "\n".join(tables)


def machine_files(nodes: int, folder: Path) -> dict[str, Path | None]:
    """Each run's machine file, written in ``folder`` (None: the header's machine)."""
    files: dict[str, Path | None] = {"plain": None}
    for name, memory in ((RUNS[1], None), (RUNS[2], MEMORY)):
        path = folder / f"{name.replace(' ', '-').replace(',', '')}.toml"
        path.write_text(groups_file(nodes, memory), encoding="utf-8")
        files[name] = path
    return files


def in_process(
    workload: Workload, machines: dict[str, Machine | None], repeat: int
) -> tuple[dict[str, list[float]], bool]:
    """K rounds of each run in this process, and whether all start every job alike."""
    for machine in machines.values():
        Simulation(first(workload, WARMUP_JOBS), "easy", machine=machine).run()
    times: dict[str, list[float]] = {name: [] for name in machines}
    starts: dict[str, list[float]] = {}
    for _ in range(repeat):
        for name, machine in machines.items():

            def once(machine: Machine | None = machine) -> Any:
                return Simulation(workload, "easy", machine=machine).run()

            seconds, result = timed(once)
            times[name].append(seconds)
            starts[name] = result.jobs["start"].tolist()
    same = all(s == starts["plain"] for s in starts.values())
    return times, same


def processes(
    trace: Path, files: dict[str, Path | None], cut: int | None, repeat: int, scratch: Path
) -> dict[str, list[float]]:
    """K rounds of each run as a whole ``schedsim run`` process (each once untimed first)."""
    schedsim = schedsim_command()
    out = scratch / "out"
    commands: dict[str, list[str]] = {}
    for name, machine in files.items():
        argv = [*schedsim, "run", "--workload", str(trace), "--policy", "easy",
                "--out", str(out), "--no-progress"]  # fmt: skip
        if machine is not None:
            argv += ["--machine", str(machine)]
        if cut:
            argv += ["--first", str(cut)]
        commands[name] = argv
    for argv in commands.values():
        run_process(argv, out)
    times: dict[str, list[float]] = {name: [] for name in commands}
    for _ in range(repeat):
        for name, argv in commands.items():
            times[name].append(run_process(argv, out))
    return times


def rows(log: str, jobs: int, where: str, times: dict[str, list[float]]) -> list[dict[str, Any]]:
    """One row per run: best seconds, jobs/s, and the ratio to the plain run's best."""
    plain = min(times["plain"])
    out = []
    for name, ts in times.items():
        best = min(ts)
        target = where == "process" and name == RUNS[2]
        out.append({"log": log, "where": where, "run": name, "jobs": jobs, "seconds": best,
                    "jobs_per_s": jobs / best, "x_plain": best / plain,
                    "target": TARGET if target else None,
                    "met": best / plain <= TARGET if target else None})  # fmt: skip
    return out


def results_table(out: list[dict[str, Any]], repeat: int) -> Table:
    table = Table(title=f"EASY on node groups against a plain run, best of {repeat}")
    for column, justify in (("log", "left"), ("timed", "left"), ("run", "left"),
                            ("jobs", "right"), ("seconds", "right"), ("jobs/s", "right"),
                            ("x plain", "right"), ("target", "left")):  # fmt: skip
        table.add_column(column, justify=justify)  # type: ignore[arg-type]
    for r in out:
        verdict = "-"
        if r["target"] is not None:
            mark = "[green]pass[/green]" if r["met"] else "[red]FAIL[/red]"
            verdict = f"<= {r['target']:g}x: {mark}"
        table.add_row(r["log"], r["where"], r["run"], f"{r['jobs']:,}", f"{r['seconds']:.2f}",
                      f"{r['jobs_per_s']:,.0f}", f"{r['x_plain']:.2f}", verdict)  # fmt: skip
    return table


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="benchmarks/machine.py",
        description="Time EASY on ten node groups, counted and with memory, against a plain "
        "run of the same log: in this process and as whole processes.",
    )
    parser.add_argument(
        "--logs",
        nargs="+",
        default=list(DEFAULT_LOGS),
        metavar="LOG",
        help="shipped trace names or SWF paths (default: %(default)s)",
    )
    parser.add_argument(
        "--repeat",
        type=_positive_int,
        default=DEFAULT_REPEAT,
        metavar="K",
        help="rounds; each figure is the best of K (default: %(default)s)",
    )
    parser.add_argument(
        "--first", type=_positive_int, metavar="N", help="keep the first N jobs of each log"
    )
    parser.add_argument(
        "--no-processes",
        dest="processes",
        action="store_false",
        help="time in this process only",
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
    """Run the benchmark; the exit status is 1 when a whole log misses the target."""
    args = build_parser().parse_args(argv)
    console = make_console(130)
    env = environment()
    console.print(environment_table(env))
    out: list[dict[str, Any]] = []
    timings: dict[str, Any] = {}
    same: dict[str, bool] = {}
    with tempfile.TemporaryDirectory(prefix="schedsim-machine-") as tmp:
        scratch = Path(tmp)
        for spec in args.logs:
            try:
                trace = resolve_trace(spec, args.traces_dir)
            except ValueError as err:
                console.print(f"[red]error:[/red] {err}")
                return 2
            workload = catalog.load(trace)
            if args.first:
                workload = first(workload, args.first)
            nodes = workload.header.machine_size
            if nodes is None:
                console.print(f"[red]error:[/red] {spec}: its header gives no machine size")
                return 2
            files = machine_files(nodes, scratch)
            machines = {name: None if f is None else read_machine(f) for name, f in files.items()}
            jobs = len(workload.jobs)
            times, same[spec] = in_process(workload, machines, args.repeat)
            console.log(
                f"{spec}: in this process "
                + ", ".join(f"{k} {min(v):.2f} s" for k, v in times.items())
            )
            if not same[spec]:
                console.print(f"[red]{spec}: the runs started jobs at different times: the "
                              "ratios compare different schedules[/red]")  # fmt: skip
            out += rows(spec, jobs, "in process", times)
            timings[spec] = {"in process": times}
            if args.processes:
                procs = processes(trace, files, args.first, args.repeat, scratch)
                console.log(
                    f"{spec}: whole processes "
                    + ", ".join(f"{k} {min(v):.2f} s" for k, v in procs.items())
                )
                out += rows(spec, jobs, "process", procs)
                timings[spec]["process"] = procs
    console.print(results_table(out, args.repeat))
    if args.first:
        console.print("[yellow]--first: start-up weighs more on a cut log; the target is for "
                      "whole logs[/yellow]")  # fmt: skip
    if args.json is not None:
        doc = {"argv": sys.argv[1:] if argv is None else list(argv), "environment": env,
               "repeat": args.repeat, "first": args.first, "groups": GROUPS, "memory": MEMORY,
               "same_schedule": same, "timings": timings, "rows": out}  # fmt: skip
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(_json_safe(doc), indent=2, allow_nan=False) + "\n")
        console.print(f"saved {args.json}")
    missed = [r for r in out if r["met"] is False]
    return 1 if missed and not args.first else 0


if __name__ == "__main__":
    sys.exit(main())
