"""``schedsim run``'s options, declared once: the parser, the configuration they make and
the option an error names are all read from `OPTIONS`.

Each `Option` says the configuration key it sets (`schedsim.app.specs.LAYOUT`; None
for the options of the command itself: ``--out``, ``--force``...), the group of
``schedsim run --help`` it is listed in (one per part of the configuration:
`GROUPS`), its flags and argparse arguments, and how the parsed value becomes the
key's (``--keep-run-times`` is ``kill_at_estimate = false``). A workload model's
declared parameters (`schedsim.workloads.models.Declared`: ``--jobs``,
``--lublin-alpha``, a plug-in's) are options of the workload group made from their
declarations (`model_options`), so a new model brings its options with it.

Light: the standard library, the catalog and the model registry (the
``--help`` of every command must answer at once: tests/test_lazy_imports.py).
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from schedsim.app.report.quantities import DAILY_CYCLES, LOOKAHEAD, SELECTIVE_PREEMPTION
from schedsim.app.run_folder import RUN_FILES
from schedsim.model.contention import CONTENTION
from schedsim.workloads import catalog, models

__all__ = ["GROUPS", "OPTIONS", "Option", "add_options", "flat_config", "model_options", "names"]

#: Seconds a run goes before its progress bar shows: a short run prints no bar at all.
PROGRESS_DELAY = 2.0


def trim(value: str) -> int | float:
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


def files(value: str) -> tuple[str, ...]:
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


def key_value(value: str) -> tuple[str, str]:
    """``--param`` and the other ``KEY=VALUE`` options: (key, value)."""
    key, sep, val = value.partition("=")
    if not sep or not key.strip():
        raise argparse.ArgumentTypeError(f"expected KEY=VALUE, got {value!r}")
    return key.strip(), val.strip()


#: The groups of ``schedsim run --help``, in order: title -> description.
GROUPS: dict[str, str | None] = {
    "workload": "what jobs arrive (schedsim.app.specs.WorkloadSpec). Transforms apply in "
    "this order: --month, --first, --exact-estimates, --estimates, --load-factor, then "
    "--priorities and --reservations.",
    f"closed-loop users ({DAILY_CYCLES.long})": "--users N makes the workload a population "
    "of N users who submit, wait for the job, think, and go on with their session with a "
    "probability that falls with the response time; their jobs and think times are "
    "resampled from the --workload trace's users.",
    "machine": "the nodes, their cores and contention (MachineSpec)",
    "policy": "the scheduling policy and its parameters (PolicySpec)",
    "run options": "seed, limits and the summary's trim (RunOptions)",
    "suspension overhead": f"{SELECTIVE_PREEMPTION}'s model (section 4.1): suspending or "
    "resuming a job costs the time to write or read its memory, drawn uniformly in [LOW, "
    "HIGH] MB per job, at RATE MB/s per processor. Off by default; any of these options "
    "turns it on, the others keeping the paper's values.",
    "output": "what the run writes and prints",
}
_USERS = next(g for g in GROUPS if g.startswith("closed-loop"))


@dataclass(frozen=True)
class Option:
    """One option of ``schedsim run`` (module docstring). ``value`` makes the key's
    value from the parsed arguments (default: the option's own value)."""

    group: str
    flags: tuple[str, ...]
    key: str | None = None
    kwargs: dict[str, Any] = field(default_factory=dict)
    value: Callable[[argparse.Namespace], Any] | None = None

    @property
    def dest(self) -> str:
        return self.kwargs.get("dest") or self.flags[0].lstrip("-").replace("-", "_")


def _overhead(args: argparse.Namespace) -> dict[str, object] | None:
    """``overhead`` from the ``--overhead*`` options: None when none is given."""
    given = {
        key: getattr(args, f"overhead_{name}")
        for key, name in OVERHEAD_TABLE.items()
        if getattr(args, f"overhead_{name}") is not None
    }
    return given if args.overhead or given else None


#: ``overhead`` table key -> the suffix of its option (``--overhead-rate``).
OVERHEAD_TABLE = {"low_mb": "low_mb", "high_mb": "high_mb", "rate_mb_s": "rate", "per": "per"}


def _table(dest: str) -> Callable[[argparse.Namespace], Any]:
    return lambda args: dict(getattr(args, dest))


def _with(what: str, dest: str) -> dict[str, Any]:
    return {"dest": dest, "type": key_value, "action": "append", "default": [],
            "metavar": "KEY=VALUE", "help": f"a parameter of {what}; repeatable "
            f"(schedsim.app.study, the {dest} table: its keys, units and defaults)"}  # fmt: skip


_W, _M, _P, _R, _O = "workload", "machine", "policy", "run options", "output"
_GEN = f"lublin (the Lublin-Feitelson model for --nodes, default 128), zeng-w1 / zeng-w2 " \
       f"({LOOKAHEAD}'s W1 / W2 for --nodes, default 128, of 4 cores)"  # fmt: skip

#: Every option of ``schedsim run`` but the workload models' (`model_options`), by group.
OPTIONS: tuple[Option, ...] = (
    Option(_W, ("--workload",), "workload", {"default": catalog.DEFAULT, "metavar": "NAME|PATH",
           "help": f"a shipped trace ({', '.join(catalog.SHIPPED)}), an SWF file (.swf or "
           f".swf.gz), a workload model: {_GEN} or one a module of --import registers; "
           f"default {catalog.DEFAULT}"}),
    Option(_W, ("--month",), "month", {"metavar": "YYYY-MM",
           "help": "keep the jobs submitted in this calendar month"}),
    Option(_W, ("--first",), "first", {"type": int, "metavar": "N",
           "help": "keep the first N jobs"}),
    Option(_W, ("--exact-estimates",), "exact_estimates", {"action": "store_true",
           "help": "set every estimate to the run time"}),
    Option(_W, ("--estimates",), "estimates", {"metavar": "MODEL",
           "help": "replace the estimates: exact, f:F (uniform in [run, (1+F) run]), tsafrir "
           "(modal model), ... (see schedsim.workloads.estimates); drawn from the seed's own "
           "stream"}),
    Option(_W, ("--load-factor",), "load_factor", {"type": float, "metavar": "X",
           "help": "divide inter-arrival times by X (X > 1 raises the load)"}),
    Option(_W, ("--priorities",), "priorities", {"type": float, "metavar": "SHARE",
           "help": "mark this share of the jobs high priority at random, the rest low "
           "(Lawson and Smirni 2002: 0.75, 0.95; read by multiqueue and singlequeue)"}),
    Option(_W, ("--reservations",), "reservations", {"type": float, "metavar": "SHARE",
           "help": "let this share of the jobs request a reservation at their submit time plus "
           "a lead uniform in [0, --reservation-lead] (Lawson and Smirni 2002: 0.01, 0.05, "
           "0.25)"}),
    Option(_W, ("--reservation-lead",), "reservation_lead", {"type": float, "metavar": "S",
           "help": "longest lead of a requested reservation, in seconds (default 7200)"}),
    Option(_W, ("--large-memory",), "large_memory", {"type": float, "metavar": "SHARE",
           "help": "let this share of the jobs, at random, ask for more memory per core than the "
           "ordinary nodes give and name --large-memory-partition (needs --machine with memory; "
           "see schedsim.workloads.large_memory)"}),
    Option(_W, ("--large-memory-partition",), "large_memory_partition", {"metavar": "NAME",
           "help": "the partition of the machine the large-memory jobs go to"}),
    Option(_W, ("--strict",), "strict", {"action": "store_true",
           "help": "read an SWF trace strictly: refuse, rather than clean and count, unusual "
           "values in the fields a run does not use (e.g. a status of -4) and lines without a "
           "submit time (see schedsim.workloads.swf)"}),
    Option(_W, ("--workload-param",), "workload_params",
           _with("the generated workload's (a workload model's generator): e.g. rounding=nodes, "
                 "alpha_means=shape", "workload_params"), _table("workload_params")),
    Option(_USERS, ("--users",), "users", {"type": int, "metavar": "N",
           "help": "simulate N closed-loop users"}),
    Option(_USERS, ("--days",), "days", {"type": float, "metavar": "D",
           "help": "simulated days of user activity (default 180)"}),
    Option(_USERS, ("--no-daily-cycle",), "daily_cycle", {"action": "store_true",
           "help": "users submit at any hour (default: only 8:00-18:00, arriving 8:00-10:00)"},
           lambda args: False if args.no_daily_cycle else None),
    Option(_USERS, ("--weekly-cycle",), "weekdays", {"action": "store_true",
           "help": "users work Monday to Friday only"},
           lambda args: [0, 1, 2, 3, 4] if args.weekly_cycle else None),
    Option(_USERS, ("--max-runtime",), "max_runtime", {"type": float, "metavar": "S",
           "help": "users' jobs run at most S seconds (default 3600; inf: no limit)"}),
    Option(_USERS, ("--max-runtime-as",), "max_runtime_as", {"choices": ("cap", "filter"),
           "help": "trace jobs that ran longer than --max-runtime: cap (run for it) or filter "
           "(left out; the default)"}),
    Option(_USERS, ("--user-logs",), "user_logs", {"nargs": "+", "metavar": "LOG",
           "help": "draw the users from these logs' users, the workload's first (default: the "
           "workload's alone); the machine is the workload's"}),
    Option(_USERS, ("--user-param",), "user_params", _with("the closed-loop users' (--users): "
           "e.g. session_gap=1800, day_start=9", "user_params"), _table("user_params")),
    Option(_M, ("--nodes",), "nodes", {"type": int, "metavar": "N",
           "help": "nodes (default: the trace header's MaxProcs, else MaxNodes, / cores per "
           "node)"}),
    Option(_M, ("--machine",), "machine", {"metavar": "FILE",
           "help": "a machine of node groups, memory and partitions, described in a TOML "
           "file (schedsim.model.machine), in place of --nodes and --cores-per-node"}),
    Option(_M, ("--failures",), "failures", {"metavar": "MODEL",
           "help": "node failures drawn from --seed: each node's times between failures and "
           "repairs, e.g. mtbf=30d,repair=4h (exponential; shape=K, repair_shape=K for "
           "Weibull) (schedsim.model.outages)"}),
    Option(_M, ("--outages",), "outages", {"metavar": "FILE",
           "help": "node failures and maintenance windows listed in a file, one per line: "
           "start end nodes kind (seconds from the run's start; nodes as 0-3,7; failure or "
           "maintenance)"}),
    Option(_M, ("--on-failure",), "on_failure", {"choices": ("requeue", "lose"),
           "help": "what becomes of a job on a node that goes out: requeue (default; it "
           "starts over) or lose (outcome failed)"}),
    Option(_M, ("--cores-per-node",), "cores_per_node", {"type": int, "default": 1,
           "metavar": "C", "help": "cores per node (default 1; 4 for --workload zeng-w1 and "
           "zeng-w2, the only value they take)"}),
    Option(_M, ("--contention",), "contention", {"choices": CONTENTION, "default": "none",
           "help": "slowdowns of jobs that share a node: none (default) or statistical "
           f"({LOOKAHEAD}'s Table 4, drawn from --seed, which then seeds ssp's and glts's "
           "predictions too unless --param seed=S is given)"}),
    Option(_M, ("--contention-param",), "contention_params", _with("the contention model's "
           "(--contention statistical): e.g. mates=product", "contention_params"),
           _table("contention_params")),
    Option(_P, ("--policy",), "policy", {"default": "easy", "metavar": "NAME",
           "help": "scheduling policy: a name from `schedsim policies` (default easy), or a "
           "policy class of your own as FILE.py:CLASS or MODULE:CLASS"}),
    Option(_P, ("--param",), "params", {"type": key_value, "action": "append", "default": [],
           "metavar": "KEY=VALUE", "help": "policy parameter, repeatable (see `schedsim "
           "policies`)"}, _table("param")),
    Option(_P, ("--import",), None, {"dest": "imports", "action": "append", "default": [],
           "metavar": "MODULE", "help": "import a module (a dotted name or a .py file) that "
           "registers policies or workload models, repeatable; then --policy NAME and "
           "--workload NAME find them"}),
    Option(_R, ("--seed",), "seed", {"type": int, "default": 0, "metavar": "S",
           "help": "random seed (default 0)"}),
    Option(_R, ("--keep-run-times",), "kill_at_estimate", {"action": "store_true",
           "help": "run jobs for their trace run time even past their estimate (default: kill "
           "at the estimate, as a batch system would)"},
           lambda args: not args.keep_run_times),
    Option(_R, ("--limit-in",), "limit_in", {"choices": ("run", "work"), "default": "run",
           "help": "what a job's limit (its estimate) counts: run time (default, as a batch "
           "system does) or work (a job slowed down by contention is not killed with work "
           "left)"}),
    Option(_R, ("--wide",), "wide", {"choices": ("error", "drop", "clamp"), "default": "error",
           "help": "jobs wider than the machine: error (default), drop or clamp them"}),
    Option(_R, ("--warmup",), "warmup", {"type": trim, "default": 0, "metavar": "N|F",
           "help": "leave the first N jobs (or fraction F) out of the summaries"}),
    Option(_R, ("--cooldown",), "cooldown", {"type": trim, "default": 0, "metavar": "N|F",
           "help": "leave the last N jobs (or fraction F) out of the summaries"}),
    Option("suspension overhead", ("--overhead",), "overhead", {"action": "store_true",
           "help": "charge the overhead with the paper's parameters (100-1000 MB, 2 MB/s, per "
           "job)"}, _overhead),
    Option("suspension overhead", ("--overhead-low-mb",), "overhead.low_mb",
           {"type": float, "metavar": "LOW", "help": "smallest memory in MB (100)"}, _overhead),
    Option("suspension overhead", ("--overhead-high-mb",), "overhead.high_mb",
           {"type": float, "metavar": "HIGH", "help": "largest memory in MB (1000)"}, _overhead),
    Option("suspension overhead", ("--overhead-rate",), "overhead.rate_mb_s",
           {"type": float, "metavar": "RATE", "help": "transfer rate in MB/s per processor (2)"},
           _overhead),
    Option("suspension overhead", ("--overhead-per",), "overhead.per",
           {"choices": ("job", "processor"), "help": "whose memory LOW-HIGH is: the whole "
           "job's, written by its processors in parallel (job, default), or each processor's "
           "(processor)"}, _overhead),
    Option(_O, ("--out",), None, {"metavar": "DIR", "help": "output directory, checked "
           "writable before the run (default results/WORKLOAD-POLICY-ID, ID the start of the "
           "run id: a hash of the whole configuration); a folder holding another run is "
           "refused without --force"}),
    Option(_O, ("--force",), None, {"action": "store_true", "help": "replace the run the "
           "output directory holds (only schedsim's own files go; anything else there stays)"}),
    Option(_O, ("--no-pieces",), "pieces", {"action": "store_true", "help": "keep no piece "
           "log (pieces.parquet: every run, overhead, suspended and lost piece of every job, "
           "on which nodes and cores): a little faster on long runs"}),
    Option(_O, ("--log-decisions",), "log_decisions", {"action": "store_true",
           "help": "keep every decision of every pass (decisions.parquet)"}),
    Option(_O, ("--log-reservations",), "log_reservations", {"action": "store_true",
           "help": "keep every reservation the policy holds after each pass "
           "(reservations.parquet; the backfilling policies' promises, drawn by the schedule "
           "view)"}),
    Option(_O, ("--batsim",), None, {"action": "store_true", "help": "also write "
           "batsim_jobs.csv: the jobs in Batsim's jobs CSV layout (evalys reads it)"}),
    Option(_O, ("--only",), None, {"type": files, "metavar": "FILE,...", "help": "write only "
           "these of the run's files (comma-separated: jobs.parquet, jobs.csv, series.parquet, "
           "pieces.parquet, schedule.swf, summary.json; decisions.parquet, "
           "reservations.parquet, sessions.parquet and batsim_jobs.csv with the options that "
           "make them; policy-*.parquet for the policy's own tables). Without pieces.parquet, "
           "batsim_jobs.csv or (for a policy that may preempt) schedule.swf among them the run "
           "keeps no piece log. The summary is printed all the same"}),
    Option(_O, ("--by",), None, {"metavar": "COLUMN", "help": "also print the summary per "
           "value of this job-table column (priority, queue_class, user, ...; the utilization "
           "is the machine's)"}),
    Option(_O, ("--no-progress",), None, {"action": "store_true", "help": "never show the "
           "progress bar (shown on standard error, when it is a terminal, once a run has "
           f"taken {PROGRESS_DELAY:g} s)"}),
)  # fmt: skip


def model_options() -> tuple[Option, ...]:
    """The options of the registered workload models' declared parameters (workload
    group): ``--jobs``, ``--lublin-alpha``, a plug-in's; the help says which models."""
    out = []
    for name, (p, takers) in models.declarations().items():
        kwargs: dict[str, Any] = {"metavar": p.metavar, "help": f"with --workload "
                                  f"{' / '.join(takers)}: {p.describe()}"}  # fmt: skip
        if p.kind is bool:
            kwargs = {"action": "store_true", "default": None, "help": kwargs["help"]}
        else:
            kwargs["type"] = p.kind
        out.append(Option(_W, (p.option,), name, kwargs))
    return tuple(out)


def add_options(parser: argparse.ArgumentParser) -> None:
    """``schedsim run``'s options, in `GROUPS`, the workload models' in the first."""
    groups = {title: parser.add_argument_group(title, what) for title, what in GROUPS.items()}
    for option in (*OPTIONS[:1], *model_options(), *OPTIONS[1:]):
        groups[option.group].add_argument(*option.flags, **option.kwargs)


def flat_config(args: argparse.Namespace) -> dict[str, Any]:
    """The flat configuration (`schedsim.app.study.RunConfig.from_dict`'s keys) the
    parsed options describe. ``pieces`` is left to the caller (it depends on ``--only``)."""
    values: dict[str, Any] = {}
    for option in (*OPTIONS, *model_options()):
        if option.key is None or option.key == "pieces":
            continue
        key = option.key.split(".")[0]
        values[key] = option.value(args) if option.value else getattr(args, option.dest)
    return values


def names() -> dict[str, str]:
    """How ``schedsim run`` spells each configuration key (``RunConfig.from_dict``'s
    ``names``), so that an error names the option its user typed (``--days``)."""
    return {o.key: o.flags[0] for o in (*OPTIONS, *model_options()) if o.key is not None}
