"""The ``schedsim`` command line.

``schedsim run`` simulates a workload under a policy, writes ``jobs.parquet``,
``jobs.csv``, ``series.parquet``, ``pieces.parquet``, ``schedule.swf`` and
``summary.json`` into its folder (``--out``, or ``results/WORKLOAD-POLICY-ID``
named by the configuration's hash), whole and never over another run
(`schedsim.app.run_folder`), and then prints a summary and the per-category
table. Ctrl-C and a closed pipe (``| head``) end it with one line.
``schedsim policies`` and ``schedsim workloads`` list what is available.
``schedsim sweep STUDY.toml`` runs a parameter study (`schedsim.app.study`,
`schedsim.app.sweep`) and ``schedsim report DIR`` aggregates it (`schedsim.app.report`).

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
import secrets
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn

from schedsim.app.closed_pipe import PipeGuard
from schedsim.app.report.quantities import (
    DAILY_CYCLES,
    LOOKAHEAD,
    MULTIPLE_QUEUES,
    PREEMPTIVE_FCFS,
    SELECTIVE_PREEMPTION,
)
from schedsim.app.run_folder import OPTIONAL_FILES, RUN_FILES
from schedsim.model.contention import CONTENTION
from schedsim.workloads import catalog

if TYPE_CHECKING:  # pragma: no cover
    from rich.console import Console

    from schedsim.app.study import RunConfig
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
PROGRESS_DELAY = 2.0
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


def _trim(value: str) -> int | float:
    """``--warmup``/``--cooldown``: a job count (``500``) or a fraction (``0.05``)."""
    try:
        return int(value)
    except ValueError:
        try:
            return float(value)
        except ValueError:
            raise argparse.ArgumentTypeError(
                f"{value!r} is neither a job count nor a fraction"
            ) from None


def _files(value: str) -> tuple[str, ...]:
    """``--only``: comma-separated names among `RUN_FILES`, each once."""
    names = tuple(name.strip() for name in value.split(","))
    for name in names:
        if name not in RUN_FILES:
            raise argparse.ArgumentTypeError(
                f"{name!r} is no file schedsim run writes; choose among {', '.join(RUN_FILES)}"
            )
    if len(set(names)) != len(names):
        raise argparse.ArgumentTypeError(f"{value!r} names a file twice")
    return names


def _param(value: str) -> tuple[str, str]:
    """``--param`` and the other ``KEY=VALUE`` options: (key, value)."""
    key, sep, val = value.partition("=")
    if not sep or not key.strip():
        raise argparse.ArgumentTypeError(f"expected KEY=VALUE, got {value!r}")
    return key.strip(), val.strip()


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

    run = sub.add_parser(
        "run",
        help="simulate a workload under a policy",
        description=(
            "Simulate a workload under a policy. Transforms apply in this order: "
            "--month, --first, --exact-estimates, --load-factor."
        ),
    )
    run.add_argument(
        "--workload",
        default=catalog.DEFAULT,
        metavar="NAME|PATH",
        help=f"a shipped trace ({', '.join(catalog.SHIPPED)}), an SWF file "
        f"(.swf or .swf.gz), lublin (generate the Lublin-Feitelson model for --nodes, "
        f"default 128), or zeng-w1 / zeng-w2 (generate {LOOKAHEAD}'s W1 / W2 for --nodes, "
        f"default 128, of 4 cores); default {catalog.DEFAULT}",
    )
    run.add_argument(
        "--jobs",
        type=int,
        metavar="N",
        help="with --workload lublin, zeng-w1 or zeng-w2: jobs to generate (10000)",
    )
    run.add_argument(
        "--lublin-alpha",
        type=float,
        metavar="A",
        help="with --workload lublin: the gamma shape of log interarrival times, the load "
        f"knob (default 10.46; {LOOKAHEAD} use 10.33 and 9.83; lower = more load)",
    )
    run.add_argument(
        "--policy",
        default="easy",
        metavar="NAME",
        help="scheduling policy: a name from `schedsim policies` (default easy), or a policy "
        "class of your own as FILE.py:CLASS or MODULE:CLASS",
    )
    run.add_argument(
        "--import",
        dest="imports",
        action="append",
        default=[],
        metavar="MODULE",
        help="import a module (a dotted name or a .py file) that registers policies, "
        "repeatable; then --policy NAME finds them",
    )
    run.add_argument(
        "--nodes",
        type=int,
        metavar="N",
        help="nodes (default: the trace header's MaxProcs, else MaxNodes, / cores per node)",
    )
    run.add_argument(
        "--cores-per-node",
        type=int,
        default=1,
        metavar="C",
        help="cores per node (default 1; 4 for --workload zeng-w1 and zeng-w2, the only value "
        "they take)",
    )
    run.add_argument(
        "--contention",
        choices=CONTENTION,
        default="none",
        help="slowdowns of jobs that share a node: none (default) or statistical "
        f"({LOOKAHEAD}'s Table 4, drawn from --seed, which then seeds ssp's and glts's "
        "predictions too unless --param seed=S is given)",
    )
    run.add_argument(
        "--load-factor",
        type=float,
        metavar="X",
        help="divide inter-arrival times by X (X > 1 raises the load)",
    )
    run.add_argument(
        "--month", metavar="YYYY-MM", help="keep the jobs submitted in this calendar month"
    )
    run.add_argument("--first", type=int, metavar="N", help="keep the first N jobs")
    run.add_argument(
        "--strict",
        action="store_true",
        help="read an SWF trace strictly: refuse, rather than clean and count, unusual values "
        "in the fields a run does not use (e.g. a status of -4) and lines without a submit "
        "time (see schedsim.workloads.swf)",
    )
    run.add_argument("--seed", type=int, default=0, metavar="S", help="random seed (default 0)")
    run.add_argument(
        "--out",
        metavar="DIR",
        help="output directory, checked writable before the run (default "
        "results/WORKLOAD-POLICY-ID, ID the start of the run id: a hash of the whole "
        "configuration); a folder holding another run is refused without --force",
    )
    run.add_argument(
        "--force",
        action="store_true",
        help="replace the run the output directory holds (only schedsim's own files go; "
        "anything else there stays)",
    )
    run.add_argument(
        "--param",
        type=_param,
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="policy parameter, repeatable (see `schedsim policies`)",
    )
    for option, key, what in (
        ("--workload-param", "workload_params", "the generated workload's (--workload lublin, "
         "zeng-w1, zeng-w2): e.g. rounding=nodes, alpha_means=shape"),
        ("--contention-param", "contention_params", "the contention model's (--contention "
         "statistical): e.g. mates=product"),
        ("--user-param", "user_params", "the closed-loop users' (--users): e.g. "
         "session_gap=1800, day_start=9"),
    ):  # fmt: skip
        run.add_argument(
            option,
            dest=key,
            type=_param,
            action="append",
            default=[],
            metavar="KEY=VALUE",
            help=f"a parameter of {what}; repeatable (schedsim.app.study, the "
            f"{key} table: its keys, units and defaults)",
        )
    run.add_argument(
        "--priorities",
        type=float,
        metavar="SHARE",
        help="mark this share of the jobs high priority at random, the rest low "
        "(Lawson and Smirni 2002: 0.75, 0.95; read by multiqueue and singlequeue)",
    )
    run.add_argument(
        "--reservations",
        type=float,
        metavar="SHARE",
        help="let this share of the jobs request a reservation at their submit time plus a "
        "lead uniform in [0, --reservation-lead] (Lawson and Smirni 2002: 0.01, 0.05, 0.25)",
    )
    run.add_argument(
        "--reservation-lead",
        type=float,
        metavar="S",
        help="longest lead of a requested reservation, in seconds (default 7200)",
    )
    run.add_argument(
        "--keep-run-times",
        action="store_true",
        help="run jobs for their trace run time even past their estimate "
        "(default: kill at the estimate, as a batch system would)",
    )
    run.add_argument(
        "--exact-estimates", action="store_true", help="set every estimate to the run time"
    )
    run.add_argument(
        "--limit-in",
        choices=("run", "work"),
        default="run",
        help="what a job's limit (its estimate) counts: run time (default, as a batch "
        "system does) or work (a job slowed down by contention is not killed with work left)",
    )
    run.add_argument(
        "--wide",
        choices=("error", "drop", "clamp"),
        default="error",
        help="jobs wider than the machine: error (default), drop or clamp them",
    )
    overhead = run.add_argument_group(
        "suspension overhead",
        f"{SELECTIVE_PREEMPTION}'s model (section 4.1): suspending or resuming a job costs "
        "the time to write or read its memory, drawn uniformly in [LOW, HIGH] MB per job, at "
        "RATE MB/s per processor. Off by default; any of these options turns it on, the "
        "others keeping the paper's values.",
    )
    overhead.add_argument(
        "--overhead",
        action="store_true",
        help="charge the overhead with the paper's parameters (100-1000 MB, 2 MB/s, per job)",
    )
    overhead.add_argument(
        "--overhead-low-mb", type=float, metavar="LOW", help="smallest memory in MB (100)"
    )
    overhead.add_argument(
        "--overhead-high-mb", type=float, metavar="HIGH", help="largest memory in MB (1000)"
    )
    overhead.add_argument(
        "--overhead-rate",
        type=float,
        metavar="RATE",
        help="transfer rate in MB/s per processor (2)",
    )
    overhead.add_argument(
        "--overhead-per",
        choices=("job", "processor"),
        help="whose memory LOW-HIGH is: the whole job's, written by its processors in "
        "parallel (job, default), or each processor's (processor)",
    )
    run.add_argument(
        "--estimates",
        metavar="MODEL",
        help="replace the estimates: exact, f:F (uniform in [run, (1+F) run]), tsafrir "
        "(modal model), ... (see schedsim.workloads.estimates); drawn from the seed's own stream",
    )
    users = run.add_argument_group(
        f"closed-loop users ({DAILY_CYCLES_LONG})",
        "--users N makes the workload a population of N users who submit, wait for the job, "
        "think, and go on with their session with a probability that falls with the response "
        "time; their jobs and think times are resampled from the --workload trace's users.",
    )
    users.add_argument("--users", type=int, metavar="N", help="simulate N closed-loop users")
    users.add_argument(
        "--days", type=float, metavar="D", help="simulated days of user activity (default 180)"
    )
    users.add_argument(
        "--no-daily-cycle",
        action="store_true",
        help="users submit at any hour (default: only 8:00-18:00, arriving 8:00-10:00)",
    )
    users.add_argument(
        "--weekly-cycle", action="store_true", help="users work Monday to Friday only"
    )
    users.add_argument(
        "--max-runtime",
        type=float,
        metavar="S",
        help="users' jobs run at most S seconds (default 3600; inf: no limit)",
    )
    users.add_argument(
        "--max-runtime-as",
        choices=("cap", "filter"),
        help="trace jobs that ran longer than --max-runtime: cap (run for it) or filter "
        "(left out; the default)",
    )
    run.add_argument(
        "--warmup",
        type=_trim,
        default=0,
        metavar="N|F",
        help="leave the first N jobs (or fraction F) out of the summaries",
    )
    run.add_argument(
        "--cooldown",
        type=_trim,
        default=0,
        metavar="N|F",
        help="leave the last N jobs (or fraction F) out of the summaries",
    )
    run.add_argument(
        "--by",
        metavar="COLUMN",
        help="also print the summary per value of this job-table column (priority, "
        "queue_class, user, ...; the utilization is the machine's)",
    )
    outputs = run.add_argument_group("outputs")
    outputs.add_argument(
        "--no-pieces",
        action="store_true",
        help="keep no piece log (pieces.parquet: every run, overhead, suspended and lost "
        "piece of every job, on which nodes and cores): a little faster on long runs",
    )
    outputs.add_argument(
        "--log-decisions",
        action="store_true",
        help="keep every decision of every pass (decisions.parquet)",
    )
    outputs.add_argument(
        "--log-reservations",
        action="store_true",
        help="keep every reservation the policy holds after each pass (reservations.parquet;"
        " the backfilling policies' promises, drawn by the schedule view)",
    )
    outputs.add_argument(
        "--batsim",
        action="store_true",
        help="also write batsim_jobs.csv: the jobs in Batsim's jobs CSV layout (evalys reads it)",
    )
    outputs.add_argument(
        "--only",
        type=_files,
        metavar="FILE,...",
        help="write only these of the run's files (comma-separated: jobs.parquet, jobs.csv, "
        "series.parquet, pieces.parquet, schedule.swf, summary.json; decisions.parquet, "
        "reservations.parquet, sessions.parquet and batsim_jobs.csv with the options that "
        "make them; policy-*.parquet for the policy's own tables). Without pieces.parquet, "
        "batsim_jobs.csv or (for a policy that may preempt) schedule.swf among them the run "
        "keeps no piece log. The summary is printed all the same",
    )
    run.add_argument(
        "--no-progress",
        action="store_true",
        help="never show the progress bar (shown on standard error, when it is a terminal, "
        f"once a run has taken {PROGRESS_DELAY:g} s)",
    )
    _debug_option(run)

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
    sweep.add_argument(
        "--workers",
        type=int,
        metavar="N",
        help="local worker processes (default: all cores; 0 runs in this process)",
    )
    sweep.add_argument(
        "--cluster",
        metavar="ADDRESS",
        help="run on an existing Dask cluster, e.g. tcp://scheduler:8786",
    )
    sweep.add_argument("--no-progress", action="store_true", help="no progress bar")
    _debug_option(sweep)

    report = sub.add_parser(
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

    compare = sub.add_parser(
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
    # The same per-category options for both; report's --metric names summary metrics.
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

    sub.add_parser("policies", help="list the scheduling policies and their parameters")
    sub.add_parser(
        "workloads", help="list the workload logs: shipped, cached, or downloaded on first use"
    )
    return parser


def overhead_config(args: argparse.Namespace) -> dict[str, object] | None:
    """``RunConfig.overhead`` from the ``--overhead*`` options: None when none is given."""
    given = {
        key: value
        for key, value in (
            ("low_mb", args.overhead_low_mb),
            ("high_mb", args.overhead_high_mb),
            ("rate_mb_s", args.overhead_rate),
            ("per", args.overhead_per),
        )
        if value is not None
    }
    return given if args.overhead or given else None


#: How ``schedsim run`` spells each configuration key (`RunConfig.from_dict`'s ``names``),
#: so that an error names the option its user typed (``--days``, not ``days``).
OPTION_NAMES: dict[str, str] = {
    "workload": "--workload",
    "month": "--month",
    "first": "--first",
    "strict": "--strict",
    "exact_estimates": "--exact-estimates",
    "load_factor": "--load-factor",
    "policy": "--policy",
    "params": "--param",
    "nodes": "--nodes",
    "cores_per_node": "--cores-per-node",
    "kill_at_estimate": "--keep-run-times",
    "wide": "--wide",
    "overhead": "--overhead",
    "overhead.low_mb": "--overhead-low-mb",
    "overhead.high_mb": "--overhead-high-mb",
    "overhead.rate_mb_s": "--overhead-rate",
    "overhead.per": "--overhead-per",
    "warmup": "--warmup",
    "cooldown": "--cooldown",
    "seed": "--seed",
    "estimates": "--estimates",
    "users": "--users",
    "days": "--days",
    "daily_cycle": "--no-daily-cycle",
    "weekdays": "--weekly-cycle",
    "max_runtime": "--max-runtime",
    "max_runtime_as": "--max-runtime-as",
    "jobs": "--jobs",
    "lublin_alpha": "--lublin-alpha",
    "limit_in": "--limit-in",
    "pieces": "--no-pieces",
    "log_decisions": "--log-decisions",
    "log_reservations": "--log-reservations",
    "priorities": "--priorities",
    "reservations": "--reservations",
    "reservation_lead": "--reservation-lead",
    "contention": "--contention",
    "workload_params": "--workload-param",
    "contention_params": "--contention-param",
    "user_params": "--user-param",
}


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
    """The configuration ``schedsim run``'s options describe."""
    from schedsim.app.study import RunConfig

    return RunConfig.from_dict(
        {
            "workload": args.workload,
            "month": args.month,
            "first": args.first,
            "strict": args.strict,
            "exact_estimates": args.exact_estimates,
            "load_factor": args.load_factor,
            "policy": args.policy,
            "params": dict(args.param),
            "nodes": args.nodes,
            "cores_per_node": args.cores_per_node,
            "kill_at_estimate": not args.keep_run_times,
            "wide": args.wide,
            "overhead": overhead_config(args),
            "warmup": args.warmup,
            "cooldown": args.cooldown,
            "seed": args.seed,
            "estimates": args.estimates,
            "users": args.users,
            "days": args.days,
            "daily_cycle": False if args.no_daily_cycle else None,
            "weekdays": [0, 1, 2, 3, 4] if args.weekly_cycle else None,
            "max_runtime": args.max_runtime,
            "max_runtime_as": args.max_runtime_as,
            "jobs": args.jobs,
            "lublin_alpha": args.lublin_alpha,
            "limit_in": args.limit_in,
            "pieces": keeps_pieces(args),
            "log_decisions": args.log_decisions,
            "log_reservations": args.log_reservations,
            "priorities": args.priorities,
            "reservations": args.reservations,
            "reservation_lead": args.reservation_lead,
            "contention": args.contention,
            "workload_params": dict(args.workload_params),
            "contention_params": dict(args.contention_params),
            "user_params": dict(args.user_params),
        },
        names=OPTION_NAMES,
    )


def print_summary(console: Console, result: Result, summary: dict[str, object]) -> None:
    from schedsim.app.report.console import show, summary_table

    meta = result.meta
    console.print(
        f"[bold]{meta['policy']}[/bold] on [bold]{meta['workload']}[/bold]: "
        f"{meta['nodes']} nodes x {meta['cores_per_node']} cores, seed {meta['seed']}, "
        f"simulated in {meta['wall_time']:.2f} s"
    )
    if meta.get("overhead"):
        console.print(f"  suspension overhead: {meta['overhead']}")
    if meta.get("contention"):
        console.print(f"  contention: {meta['contention']}", soft_wrap=True)
    for step in meta["cleaning"]:
        console.print(f"  cleaning: {step}", soft_wrap=True)
    # The same table as `schedsim compare` prints, with the run's policy as its column.
    show(console, summary_table({str(meta["policy"]): summary}))


def print_categories(
    console: Console, result: Result, warmup: int | float, cooldown: int | float
) -> None:
    from schedsim.app.report.console import category_stats_table, show

    stats = result.category_stats(warmup=warmup, cooldown=cooldown)
    show(console, category_stats_table(stats))


def check_machine_options(args: argparse.Namespace) -> None:
    """``--nodes`` x ``--cores-per-node`` within the model's bound (`MAX_CORES`, 2**24
    cores: why there), checked before the trace is read; ValueError naming them beyond."""
    from schedsim.model.cluster import MAX_CORES

    nodes, cores = args.nodes, args.cores_per_node
    if nodes is None:
        if cores > MAX_CORES:
            raise ValueError(
                f"--cores-per-node {cores:,}: more than the {MAX_CORES:,} cores (2**24) a "
                "simulated machine may have"
            )
    elif nodes > 0 and cores > 0 and nodes * cores > MAX_CORES:
        raise ValueError(
            f"--nodes {nodes:,} x --cores-per-node {cores:,} = {nodes * cores:,} cores: more "
            f"than the {MAX_CORES:,} (2**24) a simulated machine may have"
        )


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
        probe = directory / f".schedsim-probe-{secrets.token_hex(6)}"
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
        "batsim_jobs.csv": args.batsim,
    }
    for name, option in OPTIONAL_FILES.items():
        if name in only and not made[name]:
            raise ValueError(f"--only {name}: the run writes it only with {option}")
        if made[name] and name not in only and name != "sessions.parquet":
            raise ValueError(f"{option} makes {name}, which --only leaves out")


def cmd_run(args: argparse.Namespace, console: Console) -> int:
    """``schedsim run``. The machine size and the output directory are checked before
    anything is read or simulated (a folder holding another run is refused then,
    unless ``--force``); folders made for the output go again if the run fails.
    The files are written, whole (`schedsim.app.run_folder.write_run`), before
    anything is printed, so a reader that closes the pipe early or a Ctrl-C after
    the simulation loses nothing; a Ctrl-C during it leaves no folder behind."""
    check_machine_options(args)
    check_only(args)
    out = output_directory(args.out)
    made = check_writable(out) if out is not None else []
    from schedsim.model.simulation import young_collections_only

    try:
        # The outputs too: the run's records stay alive until they are written, and a full
        # pass of the collector over them, right after the run, cost 0.2 s on whole CTC.
        with young_collections_only():
            return _run_and_write(args, console, out, made)
    except BaseException:
        remove_empty(made)
        raise


def _run_and_write(
    args: argparse.Namespace, console: Console, out: Path | None, made: list[Path]
) -> int:
    from schedsim.app import registry
    from schedsim.app.run_folder import check_folder, deferred_interrupts, write_run

    for module in args.imports:
        try:
            registry.import_module(module)
        except ValueError as exc:  # the module, and why
            raise ValueError(f"--import {exc}") from None
    config = run_config(args)
    run_id = config.run_id()
    if out is not None:  # checked before the trace is read
        check_folder(out, run_id, force=args.force, option=f"--out {out}")
    try:
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
    from schedsim.app.report.study_results import MIN_REPLICATIONS
    from schedsim.app.study import load_study
    from schedsim.app.sweep import sweep

    if args.workers is not None and args.workers < 0:
        raise ValueError(f"--workers {args.workers}: expected 0 (run in this process) or more")
    if args.cluster is not None and not args.cluster.strip():
        raise ValueError(f"--cluster {args.cluster!r}: an empty address (e.g. tcp://host:8786)")
    study = load_study(args.study)
    out = output_directory(args.out) or Path("results") / study.name
    runs = study.runs()
    where = f"Dask cluster {args.cluster}" if args.cluster else "this machine"
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
        workers=args.workers,
        cluster=args.cluster,
        progress=not args.no_progress and console.is_terminal,
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
    from schedsim.app.report import folder_kind, print_report
    from schedsim.app.report import load_study as load_results

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

    results = load_results(args.directories[0])
    if results.counts["done"] == 0:
        # Nothing to aggregate: show the counts and the failures, then say what to run
        # (rather than that the metrics, which come from finished runs, are unknown).
        print_report(console, results)
        raise ValueError(results.nothing_finished())
    # Options left out fall back to the study's [report] table (in schedsim.app.report).
    print_report(console, results, metrics=args.metric, baseline=args.baseline, kind=args.kind)
    written = results.write(
        args.out,
        metrics=args.metric,
        x=args.x,
        baseline=args.baseline,
        kind=args.kind,
        categories=True if args.categories else None,
    )
    claims = [p for p in written.get("tables", []) if p.name == "claims.csv"]
    if claims:
        import pandas as pd

        from schedsim.app.report.console import print_claims

        print_claims(console, pd.read_csv(claims[0]), results.report_defaults.get("paper"))
    for what, paths in written.items():
        if paths:
            console.print(f"wrote {len(paths)} {what} into {paths[0].parent}/")
    return 0


def cmd_compare(args: argparse.Namespace, console: Console, plot: bool = False) -> int:
    """``schedsim compare``, and ``schedsim report`` on run folders (``plot``: with the
    per-category bar chart; its --metric then picks the summary's rows)."""
    from schedsim.app.report import compare_folders

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


def main(argv: Sequence[str] | None = None) -> int:
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
    if args.command == "policies":
        return cmd_policies(console)
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
