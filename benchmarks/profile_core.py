"""Where a run's time goes: the simulation core's cost per job and per pass, by part.

Run from the repository root (or anywhere: the project is installed)::

    python benchmarks/profile_core.py                      # EASY on whole CTC-SP2
    python benchmarks/profile_core.py --trace kth --policy ss
    python benchmarks/profile_core.py --first 20000 --json core.json
    python benchmarks/profile_core.py --trace kth --policy creasy --users 250 --days 30

With ``--users N`` the run is a closed loop instead of a replay: N users drawn from
the trace's own users for ``--days`` days (a run of the Feitelson & Shmueli 2009
study's kind, `papers/feitelson2009/study-full.toml`; ``--no-cycle``, ``--alpha`` for CREASY).
The profiled run is the process's second or later, so a policy that goes compiled
after a budget of passes (CREASY, conservative's compression) has usually spent it,
as in a study worker after its first run (give ``--repeat 2`` or more for the
timed runs to include one such); the users' processes are the part "source".

It times one run without a profiler (best of ``--repeat``), then profiles one
more with cProfile and splits the profiled own time ("tottime") among the
parts of the core:

- **SimPy**: the event loop, events and processes (``simpy/*``);
- **pass and View**: the scheduler daemon, the pass, the snapshots and pools
  a View is made of (``model/scheduler.py``'s pass functions, ``JobRun.snapshot``);
- **decisions**: applying starts, ends, suspensions (the rest of
  ``model/scheduler.py``);
- **job clock**: the timeouts that end running intervals, and the accounting (``model/job.py``);
- **cluster**: allocation and release of cores (``model/cluster.py``);
- **piece log**, **contention**, **source** (replay or users), **results** (the
  tables built at the end, pandas included) and **policy** (``policies/*``);
- **other**: whatever is left (numpy's Python wrappers are counted with the
  part that called them, see below).

A C function (a numpy method, ``sorted``, a heap push) has no file of its
own: its time is shared among its callers in proportion to the time each
spent in it, and so goes to the part of the caller. The profiler slows a run
down unevenly (it charges a fixed cost per call, so many small calls look
dearer than they are), so each part's share of the profiled time is applied
to the unprofiled wall time to give microseconds per job and per pass: read
them as an estimate of where the time goes, and the shares before and after a
change as what moved.
"""

from __future__ import annotations

import argparse
import cProfile
import gc
import json
import pstats
import sys
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

from rich.table import Table

sys.path.insert(0, str(Path(__file__).resolve().parent))

from closed_loop import config as closed_loop
from run import SHARED_TRACES, environment, make_console, read_trace

from schedsim import Simulation
from schedsim.model.gc_tuning import tuned_gc

#: The parts, in the order the table lists them.
PARTS: tuple[str, ...] = (
    "SimPy",
    "pass and View",
    "decisions",
    "job clock",
    "cluster",
    "piece log",
    "contention",
    "source",
    "policy",
    "results",
    "other",
)

#: Functions of model/scheduler.py that make a pass and its View (the rest apply decisions).
_PASS_FUNCTIONS = frozenset(
    {
        "_daemon",
        "_pass",
        "snapshot",
        "add",
        "remove",
        "refresh",
        "sort",
        "wake",
        "fire",
        "submit",
        "_take",
        "_final",
        "current_view",
        "__init__",
        "__len__",
        "__contains__",
    }
)


def part_of(filename: str, function: str) -> str | None:
    """The part a profiled function belongs to; None for a C function (no file)."""
    path = filename.replace("\\", "/")
    if filename == "~" or path.startswith("<built-in"):
        return None
    if "/simpy/" in path:
        return "SimPy"
    if "/pandas/" in path or "/pyarrow/" in path:
        return "results"
    if "/policies/" in path:
        return "policy"
    if path.endswith("model/scheduler.py"):
        return "pass and View" if function in _PASS_FUNCTIONS else "decisions"
    if path.endswith("model/job.py"):
        return "pass and View" if function == "snapshot" else "job clock"
    if path.endswith("model/view.py"):
        return "pass and View"
    if path.endswith("model/cluster.py"):
        return "cluster"
    if path.endswith("model/pieces.py"):
        return "piece log"
    if path.endswith("model/contention.py"):
        return "contention"
    if path.endswith("model/sources.py"):
        return "source"
    if path.endswith(("model/results.py", "model/slowdowns.py", "model/sessions.py")):
        return "results"
    return "other"


def split_profile(stats: pstats.Stats) -> Counter[str]:
    """Profiled own seconds per part; C functions' time shared among their callers.

    A numpy wrapper written in Python (``numpy/_core/*.py``) is not a part
    either: like a C function, its time goes to whoever called it.
    """
    table: dict[tuple[str, int, str], Any] = stats.stats  # type: ignore[attr-defined]
    own: Counter[str] = Counter()
    memo: dict[tuple[str, int, str], Counter[str]] = {}

    def owner_shares(key: tuple[str, int, str], depth: int = 0) -> Counter[str]:
        """How a function's time divides among parts (its own, or its callers')."""
        if key in memo:
            return memo[key]
        filename, _, function = key
        part = None if "/numpy/" in filename else part_of(filename, function)
        shares: Counter[str] = Counter()
        if part is not None:
            shares[part] = 1.0
        else:
            callers = table[key][4]
            total = sum(edge[2] for edge in callers.values())
            if depth > 20 or not callers or total <= 0:
                shares["other"] = 1.0
            else:
                for caller, edge in callers.items():
                    for p, s in owner_shares(caller, depth + 1).items():
                        shares[p] += s * edge[2] / total
        memo[key] = shares
        return shares

    for key, (_, _, tottime, _, _) in table.items():
        for part, share in owner_shares(key).items():
            own[part] += tottime * share
    return own


def measure(
    workload: Any, policy: str, repeat: int, make: Callable[[], Simulation] | None = None
) -> dict[str, Any]:
    """Wall time of a run (best of ``repeat``), then one profiled run split by part.

    ``make`` builds the simulation (a closed loop, say); by default ``policy`` on
    ``workload``. Building it is part of each run, timed and profiled.
    """
    if make is None:

        def make() -> Simulation:
            return Simulation(workload, policy)

    best = float("inf")
    result = None
    for _ in range(repeat):
        gc.collect()
        t0 = time.perf_counter()
        with tuned_gc():  # as the schedsim command runs
            result = make().run()
        best = min(best, time.perf_counter() - t0)
    assert result is not None
    jobs, passes = len(result.jobs), int(result.meta["passes"])
    profiler = cProfile.Profile()
    gc.collect()
    profiler.enable()
    make().run()
    profiler.disable()
    parts = split_profile(pstats.Stats(profiler))
    profiled = sum(parts.values())
    rows = []
    for part in PARTS:
        share = parts.get(part, 0.0) / profiled
        seconds = share * best
        rows.append(
            {
                "part": part,
                "share": share,
                "seconds": seconds,
                "us_per_job": seconds / jobs * 1e6,
                "us_per_pass": seconds / passes * 1e6,
            }
        )
    return {
        "policy": policy,
        "jobs": jobs,
        "passes": passes,
        "wall_s": best,
        "profiled_s": profiled,
        "us_per_job": best / jobs * 1e6,
        "us_per_pass": best / passes * 1e6,
        "parts": rows,
    }


def parts_table(doc: dict[str, Any], trace: str) -> Table:
    """One row per part: share of the time, seconds, microseconds per job and per pass."""
    table = Table(
        title=(
            f"{doc['policy']} on {trace}: {doc['jobs']:,} jobs, {doc['passes']:,} passes, "
            f"{doc['wall_s']:.2f} s ({doc['us_per_job']:.1f} us per job, "
            f"{doc['us_per_pass']:.1f} us per pass)"
        ),
        caption="shares of the profiled own time, applied to the unprofiled wall time",
    )
    for name, justify in (
        ("part", "left"),
        ("share %", "right"),
        ("seconds", "right"),
        ("us / job", "right"),
        ("us / pass", "right"),
    ):
        table.add_column(name, justify=justify)  # type: ignore[arg-type]
    for row in doc["parts"]:
        table.add_row(
            row["part"],
            f"{100 * row['share']:.1f}",
            f"{row['seconds']:.2f}",
            f"{row['us_per_job']:.1f}",
            f"{row['us_per_pass']:.1f}",
        )
    return table


def main(argv: list[str] | None = None) -> int:
    """Profile one run and print where its time goes; returns the exit status."""
    parser = argparse.ArgumentParser(prog="benchmarks/profile_core.py", description=__doc__)
    parser.add_argument("--trace", default="ctc", help="trace name or path (default: ctc)")
    parser.add_argument("--policy", default="easy", help="policy name (default: easy)")
    parser.add_argument("--first", type=int, metavar="N", help="only the first N jobs")
    parser.add_argument("--repeat", type=int, default=1, help="unprofiled runs, best kept")
    parser.add_argument(
        "--users",
        type=int,
        metavar="N",
        help="a closed loop of N users drawn from --trace's users instead of a replay",
    )
    parser.add_argument("--days", type=float, default=30.0, help="closed loop: days (default: 30)")
    parser.add_argument(
        "--no-cycle", dest="cycle", action="store_false", help="closed loop: no daily cycle"
    )
    parser.add_argument(
        "--alpha", type=float, default=3000.0, help="closed loop, CREASY: alpha (default: 3000)"
    )
    parser.add_argument("--json", type=Path, metavar="FILE", help="save the table as JSON")
    args = parser.parse_args(argv)
    console = make_console(100)
    if args.users is not None:
        cfg = closed_loop(
            args.users, args.days, args.cycle, args.alpha, trace=args.trace, policy=args.policy
        )
        label = f"{args.users} users of {args.trace} for {args.days:g} days"
        doc = measure(None, args.policy, max(args.repeat, 1), make=cfg.simulation)
    else:
        workload, info = read_trace(args.trace, SHARED_TRACES, args.first)
        label = info.label
        doc = measure(workload, args.policy, max(args.repeat, 1))
    console.print(parts_table(doc, label))
    if args.json is not None:
        doc["trace"] = label
        doc["environment"] = environment()
        args.json.write_text(json.dumps(doc, indent=2) + "\n")
        console.print(f"saved {args.json}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
