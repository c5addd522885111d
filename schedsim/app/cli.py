"""The ``schedsim`` command line.

``schedsim run`` simulates a workload under a policy, writes ``jobs.parquet``,
``jobs.csv``, ``series.parquet``, ``pieces.parquet``, ``schedule.swf`` and
``summary.json`` into its folder (``--out``, or ``results/WORKLOAD-POLICY-ID``
named by the configuration's hash), whole and never over another run
(`schedsim.app.run_folder`), and then prints a summary and the per-category
table. Ctrl-C and a closed pipe (``| head``) end it with one line.
``schedsim policies`` and ``schedsim workloads`` list what is available.
``schedsim sweep STUDY.toml`` runs a parameter study (`schedsim.app.study`,
`schedsim.app.sweep`) and ``schedsim report DIR`` aggregates it (`schedsim.app.report`);
``schedsim reproduce PAPER`` does both for each study of a paper's full study.

Bad input (a malformed trace line, an unknown policy or parameter, a job
wider than the machine) exits with status 2 and one line naming the file,
line and field; ``--debug`` shows the traceback instead.

Only the standard library and the workload catalog are imported with this
module: each command imports what it needs (pandas, rich, the study and
sweep machinery, the reports, the policies) when it runs, so that
``schedsim --help`` and every ``schedsim COMMAND --help`` answer at once
instead of after a second or two of imports (tests/test_lazy_imports.py).
"""

from __future__ import annotations

import argparse
import contextlib
import gc
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn

from schedsim.app import run_options
from schedsim.app.closed_pipe import PipeGuard
from schedsim.app.report.quantities import (
    DAILY_CYCLES,
    MULTIPLE_QUEUES,
    PREEMPTIVE_FCFS,
    SELECTIVE_PREEMPTION,
)
from schedsim.app.run_folder import OPTIONAL_FILES, RUN_FILES  # noqa: F401  (--only's names)
from schedsim.model.gc_tuning import paused_gc, tuned_gc
from schedsim.workloads import catalog

if TYPE_CHECKING:  # pragma: no cover
    from rich.console import Console

    from schedsim.app.study import RunConfig, Study
    from schedsim.model.results import Result

# The papers the options' help names: `quantities` is a light module (the report
# package imports its heavy modules on first use), so --help imports no pandas.
SELECTIVE_PREEMPTION_LONG = SELECTIVE_PREEMPTION.long
DAILY_CYCLES_LONG = DAILY_CYCLES.long

#: The console's width when stdout is not a terminal: wider than any line schedsim
#: prints, so that piped output keeps every table row and message on one line.
PIPE_WIDTH = 10_000

#: The files ``schedsim run`` writes itself rather than through `Result.save`.
CLI_FILES: frozenset[str] = frozenset({"schedule.swf", "batsim_jobs.csv"})
#: Seconds a run goes before its progress bar shows: a short run prints no bar at all.
PROGRESS_DELAY = run_options.PROGRESS_DELAY
#: The exit status of a command stopped by Ctrl-C (128 + SIGINT, as a shell says).
INTERRUPTED = 130


class Interrupted(Exception):
    """A command stopped by Ctrl-C; the message says what was kept."""


class Parser(argparse.ArgumentParser):
    """argparse's parser, but a mistake on the command line is one line: the error and
    where to read the options, not the whole usage (17 lines for ``schedsim run``)."""

    def error(self, message: str) -> NoReturn:
        # The prefix of every error schedsim prints, so that one pattern finds them all.
        self.exit(2, f"schedsim: error: {message} (see `{self.prog} --help`)\n")


def make_console() -> Console:
    """The console the commands print to. On a terminal, rich's own (the terminal's
    width: a table too wide for it folds its cells). Piped or redirected, one
    `PIPE_WIDTH` wide, whatever COLUMNS says: rich would otherwise wrap at 80
    columns, breaking table rows over lines and cutting cells short, and a file
    or a pipe (grep, less -S, a notebook's capture) has no width to fit. The
    tables keep their box characters, so that the output reads as on a terminal;
    a machine reads the CSV files instead. It writes through a `PipeGuard`, so that a
    reader that goes away early (``| head``) costs nothing but the output
    (``console.file.closed`` then says so)."""
    from rich.console import Console

    out = PipeGuard(sys.stdout)
    console = Console(file=out)  # type: ignore[arg-type]  # a text stream, as rich needs
    return console if console.is_terminal else Console(file=out, width=PIPE_WIDTH)  # type: ignore[arg-type]


_trim = run_options.trim


class _Version(argparse.Action):
    """``--version``: argparse's own action, but the version is read (from the package
    metadata, `schedsim._version`) when asked for, not on every start."""

    def __init__(self, option_strings: Sequence[str], dest: str, **kwargs: object) -> None:
        super().__init__(
            option_strings,
            dest=argparse.SUPPRESS,
            default=argparse.SUPPRESS,
            nargs=0,
            help="show program's version number and exit",
        )

    def __call__(
        self,
        parser: argparse.ArgumentParser,
        namespace: argparse.Namespace,
        values: object,
        option_string: str | None = None,
    ) -> None:
        from schedsim._version import __version__

        print(f"schedsim {__version__}")
        parser.exit()


def _debug_option(parser: argparse.ArgumentParser) -> None:
    # Also accepted after the command; SUPPRESS keeps the top-level value otherwise.
    parser.add_argument(
        "--debug", action="store_true", default=argparse.SUPPRESS, help="show tracebacks on errors"
    )


def build_parser() -> argparse.ArgumentParser:
    parser = Parser(
        prog="schedsim",
        description="Simulate parallel-job scheduling policies on real and synthetic workloads.",
        epilog="Run `schedsim COMMAND --help` for a command's options, e.g. `schedsim run --help`.",
    )
    parser.add_argument("--debug", action="store_true", help="show tracebacks on errors")
    parser.add_argument("--version", action=_Version)
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")

    _run_parser(sub)
    _sweep_parser(sub)
    report, compare = _report_parser(sub), _compare_parser(sub)
    _reproduce_parser(sub)
    _category_options(report, compare)
    sub.add_parser("policies", help="list the scheduling policies and their parameters")
    sub.add_parser(
        "workloads", help="list the workload logs: shipped, cached, or downloaded on first use"
    )
    _convert_parser(sub)
    return parser


def _convert_parser(sub: Any) -> None:
    """``schedsim convert``: a workload written in another format (`schedsim.workloads.convert`)."""
    convert = sub.add_parser(
        "convert",
        help="write a workload (SWF, Parquet, Slurm sacct, Batsim JSON) in another format",
        description="Write a workload as the jobs it records, in the format OUT's name ends "
        "in: .swf or .swf.gz (SWF, the log's own waits and run times), .parquet, .json "
        "(Batsim's JSON workload). The input is a shipped trace's name or a file of any "
        "format schedsim reads, told by its content.",
    )
    convert.add_argument("workload", metavar="WORKLOAD", help="a trace's name or a workload file")
    convert.add_argument(
        "out", metavar="OUT", help="the file to write (.swf, .swf.gz, .parquet, .json)"
    )
    convert.add_argument("--force", action="store_true", help="overwrite OUT if it exists")
    _debug_option(convert)


def _run_parser(sub: Any) -> None:
    """``schedsim run``: its options are `schedsim.app.run_options`'s, grouped by part."""
    run = sub.add_parser(
        "run",
        help="simulate a workload under a policy",
        description="Simulate a workload under a policy. Options are grouped by the part of "
        "the run they describe: the workload, the machine, the policy, the run's options and "
        "its output.",
    )
    run_options.add_options(run)
    _debug_option(run)


def _sweep_parser(sub: Any) -> None:
    sweep = sub.add_parser(
        "sweep",
        help="run a parameter study (a TOML file) in parallel, resumably",
        description=(
            "Run every run of a study that DIR does not hold yet, on a local process pool "
            "or a Dask cluster. Re-running the same command resumes a killed study."
        ),
    )
    sweep.add_argument("study", type=Path, metavar="STUDY.toml", help="the study definition")
    sweep.add_argument("--out", metavar="DIR", help="study directory (default results/STUDY-NAME)")
    _workers_option(sweep)
    sweep.add_argument(
        "--cluster",
        metavar="ADDRESS",
        help="run on an existing Dask cluster, e.g. tcp://scheduler:8786",
    )
    sweep.add_argument("--no-progress", action="store_true", help="no progress bar")
    _debug_option(sweep)


def _workers_option(parser: argparse.ArgumentParser) -> None:
    """``--workers N``, the local process pool's size (``schedsim sweep``, ``reproduce``)."""
    parser.add_argument(
        "--workers",
        type=int,
        metavar="N",
        help="local worker processes (default: all cores; 0 runs in this process)",
    )


def _reproduce_parser(sub: Any) -> None:
    reproduce = sub.add_parser(
        "reproduce",
        help="run and report a paper's full study with its readings (e.g. zeng2009)",
        description=(
            "Sweep each study file of a paper's full study with its readings "
            "(schedsim.papers.STUDIES) into results/STUDY-NAME, then report it, as "
            "`schedsim sweep` and `schedsim report` would; a paper whose readings span "
            "several studies also gets their readings x claims table scored together "
            "(readings-all.md in the first study's report). Re-running the same command "
            "resumes: finished runs are skipped."
        ),
    )
    reproduce.add_argument("paper", metavar="PAPER", help="the paper's package, e.g. zeng2009")
    _workers_option(reproduce)
    reproduce.add_argument(
        "--list", action="store_true", help="list the study files and their runs, run nothing"
    )
    reproduce.add_argument("--no-progress", action="store_true", help="no progress bar")
    _debug_option(reproduce)


def _report_parser(sub: Any) -> argparse.ArgumentParser:
    report: argparse.ArgumentParser = sub.add_parser(
        "report",
        help="aggregate a study directory (tables with 95%% CIs, ratios, plots), or "
        "compare run folders",
        description=(
            "Aggregate a study's finished runs across replications (mean and 95%% confidence "
            "interval), compare policies against a baseline, and write tables (CSV) and "
            "plots (PNG, SVG) into DIR/report. Defaults come from the study's [report] table. "
            "Given run folders (schedsim run --out DIR) instead, print what `schedsim compare` "
            "prints and write its two tables and a per-category bar chart "
            "(compare-summary.csv, compare-categories.csv, compare-categories.png)."
        ),
    )
    report.add_argument(
        "directories",
        type=Path,
        nargs="+",
        metavar="DIR",
        help="a study directory, or one or more run folders",
    )
    report.add_argument(
        "--metric",
        action="append",
        metavar="NAME",
        help="summary metric to report, repeatable (e.g. mean_bounded_slowdown)",
    )
    report.add_argument(
        "--x", metavar="KEY", help="x axis of the plots (e.g. load_factor; none: no such plots)"
    )
    report.add_argument(
        "--baseline", metavar="LABEL", help="compare every other policy label against this one"
    )
    report.add_argument(
        "--kind",
        choices=("R", "ratio", "percent", "difference"),
        help=f"comparison: R = (s1 - sm) / min(s1, sm) ({MULTIPLE_QUEUES}), ratio, percent "
        f"change ({PREEMPTIVE_FCFS}), difference (default R)",
    )
    report.add_argument(
        "--categories",
        action="store_true",
        help=f"also write the per-category tables and bar charts of {SELECTIVE_PREEMPTION} "
        "(average and worst bounded slowdown and turnaround per category; the study's "
        "[report] categories table, if any, says which)",
    )
    report.add_argument(
        "--out",
        metavar="DIR",
        help="where to write (default DIR/report; for several run folders, report/ beside "
        "the first: FIRST/../report)",
    )
    _debug_option(report)
    return report


def _compare_parser(sub: Any) -> argparse.ArgumentParser:
    compare: argparse.ArgumentParser = sub.add_parser(
        "compare",
        help="compare run folders side by side: summary and per-category tables",
        description=(
            "Read run folders written by `schedsim run --out DIR` and print side by side, one "
            "column per run (named by its policy when the policies differ, else by its "
            "folder): the summary metrics with their units, and the per-category table of "
            f"{SELECTIVE_PREEMPTION_LONG} (Table 2.1) of one job metric. `schedsim report "
            "DIR...` prints the same and also draws it."
        ),
    )
    compare.add_argument(
        "directories", type=Path, nargs="+", metavar="DIR", help="run folders to compare"
    )
    compare.add_argument(
        "--out",
        metavar="DIR",
        help="also write the tables into DIR: compare-summary.csv, compare-categories.csv",
    )
    _debug_option(compare)
    return compare


def _category_options(report: argparse.ArgumentParser, compare: argparse.ArgumentParser) -> None:
    """The same per-category options for both; report's --metric names summary metrics."""
    for command, metric_option in ((compare, "--metric"), (report, "--category-metric")):
        options = command.add_argument_group(
            "per-category table" + (" (run folders only)" if command is report else ""),
        )
        options.add_argument(
            metric_option,
            dest="category_metric",
            metavar="NAME",
            help="jobs column per category (default bounded_slowdown; e.g. wait, turnaround)",
        )
        options.add_argument(
            "--stat", metavar="STAT", help="mean (default), max, median, count, p95, ..."
        )
        options.add_argument(
            "--scheme",
            choices=("16", "4"),
            help=f"16 categories ({SELECTIVE_PREEMPTION}, Table 2.1; default) or 4 (Table 4.1)",
        )
        options.add_argument(
            "--estimate",
            choices=("well", "poor"),
            help="only the well or the poorly estimated jobs (default: all jobs)",
        )
        options.add_argument(
            "--warmup",
            type=_trim,
            metavar="N|F",
            help="leave the first N jobs (or fraction F) out of both tables",
        )
        options.add_argument(
            "--cooldown",
            type=_trim,
            metavar="N|F",
            help="leave the last N jobs (or fraction F) out of both tables",
        )


#: How ``schedsim run`` spells each configuration key (`RunConfig.from_dict`'s ``names``),
#: so that an error names the option its user typed (``--days``, not ``days``): from the
#: option declarations (`schedsim.app.run_options.names`), a workload model's included.
OPTION_NAMES: dict[str, str] = run_options.names()


def keeps_pieces(args: argparse.Namespace) -> bool:
    """Whether the run keeps its piece log: unless ``--no-pieces``, or ``--only`` names
    no file made from it: ``pieces.parquet``, ``batsim_jobs.csv`` (its rows are the
    cores each job held, stretch by stretch) or ``schedule.swf`` for a policy that
    may preempt (`Policy.preempts`: a preempted job's partial executions)."""
    only = args.only
    if args.no_pieces:
        return False
    if only is None or "pieces.parquet" in only or "batsim_jobs.csv" in only:
        return True
    if "schedule.swf" not in only:
        return False
    from schedsim.app import registry

    try:
        return registry.get(args.policy).preempts
    except ValueError:  # an unknown policy: the configuration says so, in its words
        return True


def run_config(args: argparse.Namespace) -> RunConfig:
    """The configuration ``schedsim run``'s options describe (`schedsim.app.run_options`)."""
    from schedsim.app.study import RunConfig

    values = {**run_options.flat_config(args), "pieces": keeps_pieces(args)}
    return RunConfig.from_dict(values, names=run_options.names())


def print_summary(console: Console, result: Result, summary: dict[str, object]) -> None:
    from schedsim.app.report.console import show, summary_table

    meta = result.meta
    machine = meta.get("machine") or f"{meta['nodes']} nodes x {meta['cores_per_node']} cores"
    console.print(
        f"[bold]{meta['policy']}[/bold] on [bold]{meta['workload']}[/bold]: "
        f"{machine}, seed {meta['seed']}, simulated in {meta['wall_time']:.2f} s",
        soft_wrap=True,
    )
    if meta.get("overhead"):
        console.print(f"  suspension overhead: {meta['overhead']}")
    if meta.get("contention"):
        console.print(f"  contention: {meta['contention']}", soft_wrap=True)
    if meta.get("outages"):
        o = meta["outages"]
        said = [o["model"]] if o["model"] else []
        if o["listed"]:
            said.append(f"{o['listed']} listed ({o['maintenance_windows']} maintenance windows)")
        fate = {"requeue": "requeued", "lose": "lost"}[o["on_failure"]]
        console.print(f"  outages: {'; '.join(said)}; the jobs they kill are {fate}",
                      soft_wrap=True)  # fmt: skip
    for step in meta["cleaning"]:
        console.print(f"  cleaning: {step}", soft_wrap=True)
    # The same table as `schedsim compare` prints, with the run's policy as its column.
    show(console, summary_table({str(meta["policy"]): summary}))


def print_categories(
    console: Console, result: Result, warmup: int | float, cooldown: int | float
) -> None:
    from schedsim.app.report.console import category_stats_table, show

    records = result.category_records(warmup=warmup, cooldown=cooldown)
    show(console, category_stats_table(records))


def output_directory(value: str | None, option: str = "--out") -> Path | None:
    """An output directory option as a Path (None when not given); ValueError for an
    empty name, which Path would read as the current directory."""
    if value is None:
        return None
    if not value.strip():
        raise ValueError(
            f"{option} {value!r}: an empty directory name (leave {option} out for the default)"
        )
    return Path(value)


def check_writable(directory: Path, option: str = "--out") -> list[Path]:
    """Make ``directory`` (and its missing parents) and write and remove a probe file
    there: ValueError naming it if that fails. Done before a run, so that a long
    simulation is not lost to a folder it cannot write. Returns the folders it made,
    deepest first (`remove_empty` takes them back if the run fails)."""
    if directory.exists() and not directory.is_dir():
        raise ValueError(f"{option} {directory}: not a directory")
    made = [p for p in (directory, *directory.parents) if not p.exists()]
    try:
        directory.mkdir(parents=True, exist_ok=True)
        probe = directory / f".schedsim-probe-{os.urandom(6).hex()}"
        fd = os.open(probe, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
        try:
            os.write(fd, b"schedsim")
        finally:
            os.close(fd)
            probe.unlink()
    except OSError as exc:
        remove_empty(made)
        raise ValueError(
            f"{option} {directory}: cannot write there ({exc.strerror or exc})"
        ) from exc
    return made


def remove_empty(folders: Sequence[Path]) -> None:
    """Remove ``folders`` (deepest first) as long as they are empty."""
    for folder in folders:
        try:
            folder.rmdir()
        except OSError:
            return


def check_only(args: argparse.Namespace) -> None:
    """``--only`` against the options that make files: a file named there that no
    option makes, or an output option (``--log-decisions``, ``--log-reservations``,
    ``--batsim``) whose file it leaves out, is a ValueError (before the trace is read).
    ``--users`` is more than an output option: with it, ``--only`` may leave
    ``sessions.parquet`` out."""
    only = args.only
    if only is None:
        return
    if "pieces.parquet" in only and args.no_pieces:
        raise ValueError("--only pieces.parquet: the run writes it only without --no-pieces")
    made = {
        "decisions.parquet": args.log_decisions,
        "reservations.parquet": args.log_reservations,
        "sessions.parquet": args.users is not None,
        "outages.parquet": args.failures is not None or args.outages is not None,
        "batsim_jobs.csv": args.batsim,
    }
    for name, option in OPTIONAL_FILES.items():
        if name in only and not made[name]:
            raise ValueError(f"--only {name}: the run writes it only with {option}")
        if made[name] and name not in only and name not in ("sessions.parquet", "outages.parquet"):
            raise ValueError(f"{option} makes {name}, which --only leaves out")


def cmd_run(args: argparse.Namespace, console: Console) -> int:
    """``schedsim run``. The machine size and the output directory are checked before
    anything is read or simulated (a folder holding another run is refused then,
    unless ``--force``); folders made for the output go again if the run fails.
    The files are written, whole (`schedsim.app.run_folder.write_run`), before
    anything is printed, so a reader that closes the pipe early or a Ctrl-C after
    the simulation loses nothing; a Ctrl-C during it leaves no folder behind."""
    config = run_config(args)  # checked first: the machine's size among the rest
    check_only(args)
    out = output_directory(args.out)
    made = check_writable(out) if out is not None else []
    try:
        # Reading, the run and the outputs: the run's records stay alive until they are
        # written, and a full pass of the collector over them cost 0.2 s on whole CTC.
        with tuned_gc():
            return _run_and_write(args, config, console, out, made)
    except BaseException:
        remove_empty(made)
        raise


def _run_and_write(
    args: argparse.Namespace,
    config: RunConfig,
    console: Console,
    out: Path | None,
    made: list[Path],
) -> int:
    from schedsim.app import registry
    from schedsim.app.run_folder import check_folder, deferred_interrupts, write_run

    run_id = config.run_id()
    if out is not None:  # checked before the trace is read
        check_folder(out, run_id, force=args.force, option=f"--out {out}")
    try:
        with paused_gc():  # the workload's records all live on: nothing to collect
            sim = config.simulation()
    except KeyboardInterrupt:
        raise Interrupted("interrupted while reading the workload; nothing was written") from None
    if out is None:
        out = Path("results") / f"{sim.workload.name}-{sim.policy.name}-{run_id[:8]}"
        made.extend(check_writable(out))
        check_folder(out, run_id, force=args.force, option=f"the default folder {out}")
    # SS, TSS and IS run loops numba compiles on a machine's first run (seconds,
    # silently): say so rather than seem to hang.
    if registry.compiles_kernels(type(sim.policy)):
        from schedsim.policies import compiled

        if compiled.cache_is_cold():
            console.print(registry.KERNELS_NOTICE, highlight=False, soft_wrap=True)
    progress = not args.no_progress and sys.stderr.isatty()
    try:
        result = sim.run(progress=progress, delay=PROGRESS_DELAY)
    except KeyboardInterrupt:
        raise Interrupted("interrupted during the simulation; nothing was written") from None
    # From here the run is done: its files come first, whole, a Ctrl-C held until they are.
    with deferred_interrupts() as interrupts:
        try:
            written = write_run(out, lambda folder: _write_files(args, sim, result, folder))
        except OSError as exc:
            # The probe passed, so the folder went away or the disk filled up meanwhile;
            # pyarrow's and write()'s errors do not always name the file.
            where = exc.filename or out
            raise ValueError(
                f"{where}: cannot write the run's results ({exc.strerror or exc})"
            ) from exc
    if isinstance(console.file, PipeGuard):
        console.file.kept = f"the run's files are whole in {out}/"
    if interrupts:
        raise Interrupted(f"interrupted; the run was finished and its files are whole in {out}/")
    if args.by and args.by not in result.jobs.columns:
        # Known only now: a policy adds columns of its own (multiqueue's queue_class).
        raise ValueError(
            f"--by {args.by}: the job table has no such column (it has "
            f"{', '.join(map(str, result.jobs.columns))}); the run's files are whole in {out}/"
        )
    try:
        _print_run(args, console, result)
    except KeyboardInterrupt:
        raise Interrupted(f"interrupted; the run's files are whole in {out}/") from None
    console.print(f"wrote {out}/: {', '.join(written)}", soft_wrap=True)
    return 0


def _write_files(args: argparse.Namespace, sim: Any, result: Result, folder: Path) -> list[str]:
    """Write the run's files into ``folder``; their names, in order."""
    only = args.only
    written = result.files(None if only is None else set(only) - CLI_FILES)
    result.save(folder, warmup=args.warmup, cooldown=args.cooldown, only=written)
    if only is None or "schedule.swf" in only:
        from schedsim.app.exports import write_schedule_swf

        path = folder / "schedule.swf"
        write_schedule_swf(result, sim.jobs_submitted(), path, policy=sim.policy.name)
        written.append("schedule.swf")
    if args.batsim:
        from schedsim.app.batsim import write_batsim_jobs

        write_batsim_jobs(result, folder / "batsim_jobs.csv", workload_name=sim.workload.name)
        written.append("batsim_jobs.csv")
    return written


def _print_run(args: argparse.Namespace, console: Console, result: Result) -> None:
    """The summary, ``--by``'s tables and the per-category table of a finished run."""
    from schedsim.app.report.console import show, summary_table

    summary = result.summary(warmup=args.warmup, cooldown=args.cooldown)
    print_summary(console, result, summary)
    if args.by:
        groups = result.summary_by(args.by, warmup=args.warmup, cooldown=args.cooldown)
        show(console, summary_table({f"{args.by} {k}": r.to_dict() for k, r in groups.iterrows()}))
    print_categories(console, result, args.warmup, args.cooldown)


def cmd_sweep(args: argparse.Namespace, console: Console) -> int:
    from schedsim.app.study import load_study

    if args.workers is not None and args.workers < 0:
        raise ValueError(f"--workers {args.workers}: expected 0 (run in this process) or more")
    if args.cluster is not None and not args.cluster.strip():
        raise ValueError(f"--cluster {args.cluster!r}: an empty address (e.g. tcp://host:8786)")
    study = load_study(args.study)
    out = output_directory(args.out) or Path("results") / study.name
    return _sweep_study(console, study, out, args.workers, args.cluster, args.no_progress)


def _sweep_study(
    console: Console,
    study: Study,
    out: Path,
    workers: int | None,
    cluster: str | None,
    no_progress: bool,
) -> int:
    """``schedsim sweep``'s work on one loaded study: run it into ``out``, say how it went."""
    from schedsim.app.report.study_results import MIN_REPLICATIONS
    from schedsim.app.sweep import sweep

    runs = study.runs()
    where = f"Dask cluster {cluster}" if cluster else "this machine"
    console.print(f"[bold]{study.name}[/bold]: {len(runs)} runs into {out}/ on {where}")
    if study.replications < MIN_REPLICATIONS:
        # Said before the runs, when the study can still be changed.
        console.print(
            f"[yellow]warning: confidence intervals need at least {MIN_REPLICATIONS} "
            f"replications; this study has {study.replications}[/yellow]",
            soft_wrap=True,
        )
    outcome = sweep(
        study,
        out,
        workers=workers,
        cluster=cluster,
        progress=not no_progress and console.is_terminal,
    )
    console.print(
        f"{outcome.finished} runs finished now, {outcome.skipped} already done, "
        f"{len(outcome.failed)} failed, {outcome.missing - len(outcome.failed)} not reached "
        f"({outcome.wall_time:.1f} s)"
    )
    if outcome.nothing_to_do:
        console.print("nothing to do: every run of the study is finished")
    for label, error in outcome.failed:
        console.print(f"  [red]failed[/red] {label}: {error}", markup=True, highlight=False)
    if outcome.failed:
        console.print(f"  tracebacks: {out}/failures/; run the same command again to retry")
    if outcome.interrupted:
        console.print("interrupted: run the same command again to resume")
        return 130
    console.print(f"next: schedsim report {out}")
    return 1 if outcome.failed else 0


def cmd_report(args: argparse.Namespace, console: Console) -> int:
    from schedsim.app.report import folder_kind

    args.out = output_directory(args.out)
    kinds = [folder_kind(d) for d in args.directories]
    runs_only = {
        "--category-metric": args.category_metric,
        "--stat": args.stat,
        "--scheme": args.scheme,
        "--estimate": args.estimate,
        "--warmup": args.warmup,
        "--cooldown": args.cooldown,
    }
    study_only = {
        "--x": args.x,
        "--baseline": args.baseline,
        "--kind": args.kind,
        "--categories": args.categories or None,
    }
    if "study" not in kinds:
        given = [option for option, value in study_only.items() if value is not None]
        if given:
            raise ValueError(f"{', '.join(given)}: for a study directory, not run folders")
        if args.out is None:
            first = args.directories[0]
            args.out = first / "report" if len(kinds) == 1 else first.parent / "report"
        return cmd_compare(args, console, plot=True)
    if len(kinds) > 1:
        study = args.directories[kinds.index("study")]
        raise ValueError(f"{study}: a study directory is reported alone, not with other folders")
    given = [option for option, value in runs_only.items() if value is not None]
    if given:
        raise ValueError(f"{', '.join(given)}: for run folders, not a study directory")
    return _report_study(
        console,
        args.directories[0],
        args.out,
        metrics=args.metric,
        x=args.x,
        baseline=args.baseline,
        kind=args.kind,
        categories=True if args.categories else None,
    )


def _report_study(
    console: Console,
    directory: Path,
    out: Path | None,
    *,
    metrics: list[str] | None = None,
    x: str | None = None,
    baseline: str | None = None,
    kind: str | None = None,
    categories: bool | None = None,
) -> int:
    """``schedsim report`` on a study directory: print the report, write its files."""
    from schedsim.app.report import load_results, print_report

    results = load_results(directory)
    if results.counts["done"] == 0:
        # Nothing to aggregate: show the counts and the failures, then say what to run
        # (rather than that the metrics, which come from finished runs, are unknown).
        print_report(console, results)
        raise ValueError(results.nothing_finished())
    # Options left out fall back to the study's [report] table (in schedsim.app.report).
    print_report(console, results, metrics=metrics, baseline=baseline, kind=kind)
    written = results.write(
        out, metrics=metrics, x=x, baseline=baseline, kind=kind, categories=categories
    )
    claims = [p for p in written.get("tables", []) if p.name == "claims.csv"]
    if claims:
        import pandas as pd

        from schedsim.app.claims import print_claims

        print_claims(console, pd.read_csv(claims[0]), results.report_defaults.get("paper"))
    for what, paths in written.items():
        if paths:
            console.print(f"wrote {len(paths)} {what} into {paths[0].parent}/")
    return 0


def cmd_reproduce(args: argparse.Namespace, console: Console) -> int:
    """``schedsim reproduce PAPER``: each study file of the paper's full study swept into
    ``results/<study name>`` and reported; then, for a paper whose package scores several
    studies' readings together (``readings_of``, over the studies ``READINGS_FROM``
    names), that table as ``readings-all.md`` in the first study's report."""
    import importlib

    from schedsim.app.reproduce import paper_studies
    from schedsim.app.study import load_study, paper_analyses

    if args.workers is not None and args.workers < 0:
        raise ValueError(f"--workers {args.workers}: expected 0 (run in this process) or more")
    paths = paper_studies(args.paper)
    studies = [load_study(path) for path in paths]  # every file checked before any run
    outs = [Path("results") / study.name for study in studies]
    if args.list:
        for path, study, out in zip(paths, studies, outs, strict=True):
            console.print(f"{path}: {study.name}, {len(study.runs())} runs, into {out}/")
        return 0
    code = 0
    for study, out in zip(studies, outs, strict=True):
        done = _sweep_study(console, study, out, args.workers, None, args.no_progress)
        if done == INTERRUPTED:
            return done
        code = max(code, done)
        if done == 0:
            code = max(code, _report_study(console, out, None))
    package = importlib.import_module(paper_analyses()[args.paper])
    together = getattr(package, "READINGS_FROM", ())
    if code == 0 and len(together) > 1:
        names = [path.name for path in paths]
        table = package.readings_of([outs[names.index(name)] for name in together])
        written = outs[0] / "report" / "readings-all.md"
        written.write_text(table + "\n", encoding="utf-8")
        console.print(f"wrote the readings x claims table of {len(together)} studies: {written}")
    return code


def cmd_compare(args: argparse.Namespace, console: Console, plot: bool = False) -> int:
    """``schedsim compare``, and ``schedsim report`` on run folders (``plot``: with the
    per-category bar chart; its --metric then picks the summary's rows)."""
    from schedsim.app.compare import compare_folders

    if not plot:  # from cmd_report, --out is a Path already
        args.out = output_directory(args.out)
    written = compare_folders(
        console,
        args.directories,
        args.out,
        plot=plot,
        metrics=args.metric if args.command == "report" else None,
        metric=args.category_metric or "bounded_slowdown",
        stat=args.stat or "mean",
        scheme=args.scheme or "16",
        estimate=args.estimate,
        warmup=args.warmup or 0,
        cooldown=args.cooldown or 0,
    )
    for paths in written.values():
        if paths:
            names = ", ".join(p.name for p in paths)
            console.print(f"wrote {names} into {paths[0].parent}/", highlight=False)
    return 0


def cmd_policies(console: Console) -> int:
    from rich.table import Table

    from schedsim.app import registry
    from schedsim.app.report.console import show
    from schedsim.app.report.quantities import parameter_unit

    table = Table(title="Policies (schedsim run --policy NAME --param KEY=VALUE)")
    table.add_column("name", no_wrap=True)  # what a user copies: never broken
    table.add_column("description", overflow="fold")
    table.add_column("parameters (default and unit)", overflow="fold")
    for name, doc in registry.describe():
        params = ", ".join(
            f"{k}={p.default!r}" + (f" {unit}" if (unit := parameter_unit(k)) else "")
            for k, p in registry.listed_parameters(name).items()
        )
        table.add_row(name, doc, params or "-")
    show(console, table)
    return 0


def cmd_convert(args: argparse.Namespace, console: Console) -> int:
    """Read WORKLOAD, say its cleaning steps, write OUT (`schedsim.workloads.convert`)."""
    from schedsim.workloads.convert import FORMATS, convert, format_of

    workload = catalog.load(args.workload)
    for step in workload.cleaning:
        console.print(f"cleaning: {step}", soft_wrap=True)
    out = convert(workload, args.out, force=args.force)
    console.print(f"wrote {out}: {len(workload):,} jobs, {FORMATS[format_of(out)]}", soft_wrap=True)
    return 0


def cmd_workloads(console: Console) -> int:
    from rich import box
    from rich.table import Table

    from schedsim.workloads import archive

    table = Table(
        title="Workload logs (schedsim run --workload NAME)", box=box.SIMPLE_HEAD, pad_edge=False
    )
    # Names, counts and statuses never wrap: they are what a user copies and scans.
    table.add_column("name", no_wrap=True)
    table.add_column("machine", overflow="fold")
    table.add_column("procs", justify="right", no_wrap=True)
    table.add_column("jobs", justify="right", no_wrap=True)
    table.add_column("status", no_wrap=True)
    table.add_column("donors; paper", overflow="fold")
    for entry in catalog.listing():
        log = entry.log
        jobs = "-" if log.jobs is None else f"{log.jobs:,}" + ("" if log.jobs_counted else "*")
        credit = [log.donors or "see the header's Acknowledge line"]
        if log.paper:
            credit.append(log.paper)
        table.add_row(
            log.name + (" (default)" if entry.default else ""),
            log.machine,
            "-" if log.processors is None else f"{log.processors:,}",
            jobs,
            entry.status,
            "; ".join(credit),
        )
    console.print(table)
    # Plain lines, not a caption: they must stay whole for copying, whatever the width.
    for line in (
        "jobs: counted in the file; * the archive's count for the whole log, before cleaning",
        f"cite every log with: {archive.ARCHIVE_CITATION}; and acknowledge its donors",
        f"cache: {archive.cache_dir()} (set {archive.CACHE_VARIABLE} to move it; copy a log "
        f"there by hand to use it offline); archive: {archive.base_url()} "
        f"(set {archive.URL_VARIABLE} for a mirror)",
    ):
        console.print(line, soft_wrap=True, markup=False, highlight=False)
    return 0


def import_modules(argv: Sequence[str]) -> None:
    """Import the modules ``schedsim run --import`` names, before the parser is built:
    a module may register a workload model, whose declared parameters are options
    (`schedsim.app.run_options.model_options`). ValueError naming the module."""
    if "run" not in argv:
        return
    from schedsim.app import registry

    for i, arg in enumerate(argv):
        module = None
        if arg == "--import" and i + 1 < len(argv):
            module = argv[i + 1]
        elif arg.startswith("--import="):
            module = arg.partition("=")[2]
        if module is not None:
            try:
                registry.import_module(module)
            except ValueError as exc:  # the module, and why
                raise ValueError(f"--import {exc}") from None


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    try:
        import_modules(argv)
    except ValueError as exc:
        if "--debug" in argv:
            raise
        _say(f"schedsim: error: {exc}")
        return 2
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command is None:
        parser.print_help()
        return 0
    console = make_console()
    try:
        code = _command(args, console)
    except Interrupted as exc:  # Ctrl-C, with what was kept
        if args.debug:
            raise
        _say(f"schedsim: {exc}")
        code = INTERRUPTED
    except KeyboardInterrupt:
        if args.debug:
            raise
        _say("schedsim: interrupted")
        code = INTERRUPTED
    except reported_errors() as exc:
        # Bad input and the environment's faults (a folder that cannot be written, a full
        # disk, a study another sweep holds, too little memory): one line, no traceback.
        if args.debug:
            raise
        _say(f"schedsim: error: {error_line(exc)}")
        return 2
    out = console.file
    if isinstance(out, PipeGuard) and out.closed:
        kept = f"; {out.kept}" if out.kept else ""
        _say(f"schedsim: output cut short: its reader closed the pipe{kept}")
    return code


def _command(args: argparse.Namespace, console: Console) -> int:
    if args.command == "run":
        return cmd_run(args, console)
    if args.command == "sweep":
        return cmd_sweep(args, console)
    if args.command == "report":
        return cmd_report(args, console)
    if args.command == "compare":
        return cmd_compare(args, console)
    if args.command == "reproduce":
        return cmd_reproduce(args, console)
    if args.command == "policies":
        return cmd_policies(console)
    if args.command == "convert":
        return cmd_convert(args, console)
    return cmd_workloads(console)


def _say(line: str) -> None:
    """One line on standard error, unless that is closed too."""
    with contextlib.suppress(OSError, ValueError):
        print(line, file=sys.stderr, flush=True)


def console_main() -> int:
    """The ``schedsim`` command and ``python -m schedsim``: `main`, then the process ends.

    Everything the command made is frozen out of the garbage collector's reach
    (`gc.freeze`) before the interpreter shuts down, whose last collection would
    otherwise walk and free it: 0.4 s of a 4.7 s ``schedsim run`` on whole CTC.
    The operating system takes the memory back at once. Files are written and
    closed inside the commands, and ``atexit`` handlers still run; what is skipped
    is finalizing objects left in reference cycles, which Python does not
    promise at exit anyway. Code that calls `main` in a process that goes on
    (a notebook, the tests) collects as usual. A Ctrl-C before a command has begun
    (while the parser is built) is one line too, as inside `main`.
    """
    try:
        code = main()
    except KeyboardInterrupt:
        _say("schedsim: interrupted")
        return INTERRUPTED
    gc.freeze()
    return code


def reported_errors() -> tuple[type[BaseException], ...]:
    """The exceptions `main` prints as one ``schedsim: error:`` line (a malformed trace's
    SWFError is a ValueError). A function, which the ``except`` clause calls only once
    a command has raised, so that a start does not import the sweep's and the model's
    modules for their exception classes."""
    from schedsim.app.sweep import SweepLocked
    from schedsim.model.policy import PolicyError

    return (ValueError, PolicyError, OSError, SweepLocked, MemoryError)


def error_line(exc: BaseException) -> str:
    """An error as the line ``schedsim: error:`` prints: an OSError that names its file
    as ``FILE: what went wrong`` (not Python's ``[Errno 28] ...: 'FILE'``), a bare
    MemoryError as "out of memory", anything else as its message."""
    if isinstance(exc, OSError) and exc.strerror and exc.filename is not None:
        where = f"{exc.filename}" + (f" -> {exc.filename2}" if exc.filename2 is not None else "")
        return f"{where}: {exc.strerror}"
    if isinstance(exc, MemoryError):
        return str(exc) or "out of memory"
    return str(exc)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(console_main())
