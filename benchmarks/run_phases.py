"""Where the time of one ``schedsim run`` process goes, phase by phase.

Run from the repository root (or anywhere: the project is installed)::

    python benchmarks/run_phases.py                          # EASY on whole CTC-SP2, 3 rounds
    python benchmarks/run_phases.py --trace kth --policy ss --repeat 5
    python benchmarks/run_phases.py --first 5000 --json phases.json
    python benchmarks/run_phases.py --only jobs.csv,schedule.swf   # the reference's outputs

Each round starts two processes in turn, both of ``schedsim run --workload TRACE
--policy POLICY --out DIR --no-progress`` with its output to /dev/null and DIR emptied
first (`process.run_process`, as ``benchmarks/process.py`` times it): the command
itself (``schedsim``'s script, as a user runs it), and the same command through
`schedsim.app.cli.console_main` in a process that first wraps the functions each
phase is made of in a timer:

- **imports**: every ``import`` statement and `importlib.import_module` call
  (pandas, pyarrow, numpy, SimPy, rich, the policy's module, ...);
- **reading the log**: `schedsim.workloads.swf.read_swf`;
- **building the run**: the simulation's constructor (the policy, the machine, the
  jobs' records);
- **simulating**: `Simulation.run`, without its result tables;
- **result tables**: the job table and the series made into columns, the piece log
  into its DataFrame;
- **printing**: the summary and the per-category table (computed and rendered);
- **jobs.csv**, **Parquet files** (``jobs``, ``series``, ``pieces``: the rest of
  `Result.save`, the DataFrames made from the columns and written), **summary.json**
  and **schedule.swf**: each output file made and written;
- **exit**: from the command's return to the process's end (the interpreter's
  shutdown), timed by this script from the clock time the process reports last;
- **start-up and the rest**: the rest of the whole process (the interpreter's
  start, parsing the options, anything no phase covers).

Each phase's time is its own: a phase inside another (an import made while the
run is built) counts once, for itself, as in a profile's own time, so the phases
add up to the whole process. The timers cost a few calls per phase and one per
``import`` statement met while the process runs; the table gives both processes'
times, so what the timers add is seen. Phases are those of the instrumented round
with the shortest whole process; the uninstrumented process is the best of its
rounds. `benchmarks/process.py` sets the whole command beside the reference EASY.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

#: The phases, in the order the table lists them (those timed inside the process).
PHASES: tuple[str, ...] = (
    "imports",
    "reading the log",
    "building the run",
    "simulating",
    "result tables",
    "printing",
    "jobs.csv",
    "Parquet files",
    "summary.json",
    "schedule.swf",
)


class Clock:
    """Own time per phase: a phase entered inside another is taken out of the outer's."""

    def __init__(self) -> None:
        self.own: dict[str, float] = dict.fromkeys(PHASES, 0.0)
        self._stack: list[list[Any]] = []  # [phase, start, time of inner phases]

    def enter(self, phase: str) -> None:
        self._stack.append([phase, time.perf_counter(), 0.0])

    def leave(self) -> None:
        phase, start, inner = self._stack.pop()
        took = time.perf_counter() - start
        self.own[phase] += took - inner
        if self._stack:
            self._stack[-1][2] += took


def timed(clock: Clock, phase: str, func: Any) -> Any:
    """``func``, its calls counted as ``phase``."""

    def wrapper(*args: Any, **kwargs: Any) -> Any:
        clock.enter(phase)
        try:
            return func(*args, **kwargs)
        finally:
            clock.leave()

    wrapper.__wrapped__ = func  # type: ignore[attr-defined]
    return wrapper


def instrument(clock: Clock) -> None:
    """Wrap the functions the phases are made of (imports first, so that what the rest
    imports is counted as imports)."""
    import builtins
    import importlib

    builtins.__import__ = timed(clock, "imports", builtins.__import__)
    importlib.import_module = timed(clock, "imports", importlib.import_module)

    import schedsim.app.cli as cli
    import schedsim.app.exports as exports
    import schedsim.app.simulation as app
    import schedsim.model.results as results
    import schedsim.model.simulation as simulation
    import schedsim.workloads.swf as swf
    from schedsim.model import tablefile

    model = simulation.ModelSimulation
    # Each module's own name for a function: `from x import f` copies the reference.
    swf.read_swf = timed(clock, "reading the log", swf.read_swf)
    app.Simulation.__init__ = timed(clock, "building the run", app.Simulation.__init__)  # type: ignore[method-assign]
    model.run = timed(clock, "simulating", model.run)  # type: ignore[method-assign]
    model._collect = timed(clock, "result tables", model._collect)  # type: ignore[method-assign]
    for name in ("print_summary", "print_categories"):
        setattr(cli, name, timed(clock, "printing", getattr(cli, name)))
    results.write_csv = timed(clock, "jobs.csv", tablefile.write_csv)
    # The rest of `Result.save`: the frames made (pandas imported: "imports") and written.
    results.Result.save = timed(clock, "Parquet files", results.Result.save)  # type: ignore[method-assign]
    results.Result.summary_json = timed(clock, "summary.json", results.Result.summary_json)  # type: ignore[method-assign]
    # The command imports the writer when it writes: its module's attribute is the one run.
    exports.write_schedule_swf = timed(clock, "schedule.swf", exports.write_schedule_swf)


def child(report: Path, argv: list[str]) -> int:
    """The instrumented process: ``schedsim`` with ``argv``; the phases and the clock
    time of the command's return go to ``report`` (JSON)."""
    clock = Clock()
    instrument(clock)
    from schedsim.app import cli

    sys.argv = ["schedsim", *argv]
    code = cli.console_main()
    returned = time.time()
    report.write_text(json.dumps({"code": code, "own": clock.own, "returned": returned}))
    return code


def command(
    trace: str, policy: str, out: Path, first: int | None, only: str | None = None
) -> list[str]:
    argv = ["run", "--workload", trace, "--policy", policy, "--out", str(out), "--no-progress"]
    return argv + (["--first", str(first)] if first else []) + (["--only", only] if only else [])


def measure(
    trace: str, policy: str, repeat: int, first: int | None, only: str | None = None
) -> dict[str, Any]:
    """``repeat`` rounds of the plain command and the instrumented one, in turn (and one
    untimed of each first)."""
    from process import run_process, schedsim_command

    plain: list[float] = []
    rounds: list[dict[str, Any]] = []
    with tempfile.TemporaryDirectory() as scratch:
        out = Path(scratch) / "out"
        report = Path(scratch) / "phases.json"
        argv = command(trace, policy, out, first, only)
        instrumented = [sys.executable, __file__, "--child", str(report), "--", *argv]
        for k in range(repeat + 1):
            took = run_process([*schedsim_command(), *argv], out)
            whole = run_process(instrumented, out)
            ended = time.time()  # (the process ended microseconds ago)
            if k == 0:
                continue  # the first of each: files and caches warm
            plain.append(took)
            got = json.loads(report.read_text())
            own = dict(got["own"])
            own["exit"] = max(ended - got["returned"], 0.0)
            own["start-up and the rest"] = whole - sum(own.values())
            rounds.append({"whole": whole, "phases": own})
    best = min(rounds, key=lambda r: r["whole"])
    return {"plain": min(plain), "plain_all": plain, "instrumented": best, "rounds": rounds}


def phases_table(measured: dict[str, Any], title: str) -> Any:
    from rich.table import Table

    best = measured["instrumented"]
    whole = best["whole"]
    table = Table(title=title)
    table.add_column("phase")
    table.add_column("seconds", justify="right")
    table.add_column("share (%)", justify="right")
    for phase, seconds in best["phases"].items():
        table.add_row(phase, f"{seconds:.3f}", f"{100 * seconds / whole:.1f}")
    table.add_section()
    table.add_row("whole process, timers in", f"{whole:.3f}", "100.0")
    table.add_row("whole process, the command alone", f"{measured['plain']:.3f}", "")
    return table


def main(argv: list[str] | None = None) -> int:
    args_in = sys.argv[1:] if argv is None else argv
    if args_in[:1] == ["--child"]:
        if len(args_in) < 3 or args_in[2] != "--":
            raise SystemExit("usage: run_phases.py --child REPORT -- SCHEDSIM-ARGS...")
        return child(Path(args_in[1]), args_in[3:])
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--trace", default="ctc", help="trace name or path (default: ctc)")
    parser.add_argument("--policy", default="easy", help="policy name (default: easy)")
    parser.add_argument("--first", type=int, metavar="N", help="only the first N jobs")
    parser.add_argument(
        "--only",
        metavar="FILE,...",
        help="the command's --only: write just these files (e.g. jobs.csv,schedule.swf, "
        "the reference's); default: every file it writes",
    )
    parser.add_argument(
        "--repeat", type=int, default=3, help="rounds of the pair of processes (default: 3)"
    )
    parser.add_argument("--json", type=Path, metavar="FILE", help="save the phases as JSON")
    args = parser.parse_args(args_in)
    if args.repeat < 1:
        parser.error("--repeat must be at least 1")
    if args.first is not None and args.first < 1:
        parser.error("--first must be at least 1")

    # Imported here, not at the top: the instrumented process (`child`) must import
    # nothing heavy before its timers are in.
    from run import environment, environment_table, make_console, resolve_trace

    console = make_console(100)
    env = environment()
    console.print(environment_table(env))
    trace = str(resolve_trace(args.trace))
    measured = measure(trace, args.policy, args.repeat, args.first, args.only)
    jobs = f"the first {args.first:,} jobs of " if args.first else ""
    only = f" --only {args.only}" if args.only else ""
    title = (
        f"schedsim run --policy {args.policy}{only} on {jobs}{Path(trace).name}: "
        f"phases of the fastest of {args.repeat} instrumented processes"
    )
    console.print(phases_table(measured, title))
    if args.json:
        doc = {"argv": args_in, "environment": env, "trace": trace, **measured}
        args.json.write_text(json.dumps(doc, indent=2) + "\n")
        console.print(f"saved {args.json}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
