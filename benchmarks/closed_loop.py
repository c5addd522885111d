"""Speed of the closed loop: CREASY under Feitelson & Shmueli 2009's users, its passes in
Python and compiled, in alternating turns.

    python benchmarks/closed_loop.py                     # 250 users, 45 days, daily cycle
    python benchmarks/closed_loop.py --users 50 --days 60 --no-cycle --alpha 6000
    python benchmarks/closed_loop.py --repeat 5 --json closed_loop.json

One run of the 180-day study (`papers/feitelson2009/study-full.toml`) is a closed loop of this kind,
only longer: users drawn from the shipped KTH log, each job longer than an hour running
for the hour (``max_runtime_as = "cap"``), the users' own estimates, CREASY at
``--alpha`` (0 is EASY). The same simulation is made two ways, in alternating turns in
this process:

- **python**: every pass in Python (numpy's order, then EASY's loop): CREASY's budget
  (`schedsim.policies.creasy.policy.PYTHON_BUDGET`) never spent;
- **compiled**: as shipped, the budget counted from zero as in a fresh study worker:
  the first ``--budget`` passes (the shipped budget by default) in Python, the rest in
  one compiled loop (`schedsim.policies.creasy.kernels.creasy_pass`). Loading numba and the
  loop (about half a second) falls in the first compiled turn only.

Each way's figures are those of its fastest turn of ``--repeat``: the simulation's CPU
time (``Simulation.run()``, the result tables included; CPU rather than wall time, which
the machine's other load moves more), and within it the policy's own time, summed over
the calls to ``CREASY.schedule`` (wall time around each call, which costs well under a
microsecond a pass, the same in both ways: a pass is too short for another process to
take much of it). The two ways must give the same schedule: every job's start time is compared, and
a difference is an error. Building the users (before the run) is timed in neither.
"""

from __future__ import annotations

import argparse
import gc
import json
import math
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
from rich.table import Table

sys.path.insert(0, str(Path(__file__).resolve().parent))
from run import _json_safe, _positive_int, environment, environment_table, make_console

from schedsim.app.study import RunConfig
from schedsim.model.gc_tuning import tuned_gc
from schedsim.policies.creasy import policy as creasy

#: The two ways, in the order each round runs them.
WAYS: tuple[str, ...] = ("python", "compiled")
#: The seed of the runs (any: both ways use the same).
SEED = 5


def config(
    users: int,
    days: float,
    cycle: bool,
    alpha: float,
    *,
    trace: str = "kth",
    policy: str = "creasy",
) -> RunConfig:
    """One run of the 180-day study's kind (`papers/feitelson2009/study-full.toml`), shorter:
    ``users`` users drawn from ``trace``'s (a shipped name), jobs longer than an hour
    running for the hour, under ``policy`` (``alpha`` for CREASY)."""
    return RunConfig(
        workload=trace,
        policy=policy,
        params={"alpha": alpha} if policy == "creasy" else None,
        users=users,
        days=days,
        daily_cycle=cycle,
        max_runtime_as="cap",
        seed=SEED,
    )


def measure(cfg: RunConfig, budget: int) -> dict[str, Any]:
    """Make ``cfg``'s simulation once with CREASY's budget at ``budget`` passes, counted
    from zero: the run's CPU seconds, the policy's seconds, the jobs, the passes and
    each job's start (for comparing the two ways)."""
    saved = creasy.PYTHON_BUDGET, creasy._spent
    schedule: Callable[..., Any] = creasy.CREASY.schedule
    spent = [0.0]
    wall = time.perf_counter

    def timed(policy: creasy.CREASY, view: Any) -> Any:
        t = wall()
        try:
            return schedule(policy, view)
        finally:
            spent[0] += wall() - t

    sim = cfg.simulation()
    creasy.PYTHON_BUDGET, creasy._spent = budget, 0
    creasy.CREASY.schedule = timed  # type: ignore[method-assign]
    gc.collect()
    try:
        t = time.process_time()
        with tuned_gc():  # as the schedsim command runs
            result = sim.run()
        cpu = time.process_time() - t
    finally:
        creasy.CREASY.schedule = schedule  # type: ignore[method-assign]
        creasy.PYTHON_BUDGET, creasy._spent = saved
    jobs = len(result.jobs)
    return {
        "jobs": jobs,
        "passes": int(result.meta["passes"]),
        "cpu_s": cpu,
        "policy_s": spent[0],
        "starts": result.jobs.sort_values("id")["start"].to_numpy(),
    }


def compare(cfg: RunConfig, repeat: int, budget: int) -> dict[str, dict[str, Any]]:
    """Both ways, ``repeat`` rounds in alternating turns: the best CPU time of each."""
    budgets = {"python": 2**62, "compiled": budget}
    best: dict[str, dict[str, Any]] = {}
    for _ in range(repeat):
        for way in WAYS:
            row = measure(cfg, budgets[way])
            if way in best and not np.array_equal(
                row["starts"], best[way]["starts"], equal_nan=True
            ):
                raise RuntimeError(f"{way}: two turns gave different schedules")
            if way not in best or row["cpu_s"] < best[way]["cpu_s"]:
                best[way] = row
    python, compiled = best["python"]["starts"], best["compiled"]["starts"]
    if not np.array_equal(python, compiled, equal_nan=True):
        raise RuntimeError("the compiled passes gave another schedule than the passes in Python")
    for way in WAYS:
        row = best[way]
        row["jobs_per_cpu_s"] = row["jobs"] / row["cpu_s"]
        row["us_per_pass_policy"] = 1e6 * row["policy_s"] / row["passes"]
        row["speedup"] = best["python"]["cpu_s"] / row["cpu_s"]
        del row["starts"]
    return best


def results_table(best: dict[str, dict[str, Any]], title: str) -> Table:
    """One row per way."""
    table = Table(title=title, caption="CPU time, best of the turns; speed-up: python / this")
    for heading in ("way", "jobs", "passes", "run CPU s", "jobs / CPU s", "policy s",
                    "policy us / pass", "speed-up"):  # fmt: skip
        table.add_column(heading, justify="right")
    for way in WAYS:
        r = best[way]
        table.add_row(
            way,
            f"{r['jobs']:,}",
            f"{r['passes']:,}",
            f"{r['cpu_s']:.2f}",
            f"{r['jobs_per_cpu_s']:,.0f}",
            f"{r['policy_s']:.2f}",
            f"{r['us_per_pass_policy']:.1f}",
            f"{r['speedup']:.2f}x",
        )
    return table


def _checked(
    convert: Callable[[str], Any], what: str, ok: Callable[[Any], bool], rule: str
) -> Callable[[str], Any]:
    """An argparse type: ``convert`` the text, and refuse it unless ``ok``, naming ``rule``."""

    def parse(text: str) -> Any:
        try:
            value = convert(text)
        except ValueError:
            kind = "a whole number" if convert is int else "a number"
            raise argparse.ArgumentTypeError(f"{what}: not {kind}: {text!r}") from None
        if not ok(value):
            raise argparse.ArgumentTypeError(f"{what} must be {rule}, got {text}")
        return value

    return parse


_days = _checked(float, "days", lambda v: 0 < v < math.inf, "positive")
_alpha = _checked(float, "alpha", lambda v: 0 <= v < math.inf, "0 or more")
_budget = _checked(int, "the budget", lambda v: v >= 0, "0 or more passes")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="benchmarks/closed_loop.py", description=__doc__.split("\n")[0]
    )
    parser.add_argument("--users", type=_positive_int, default=250, help="users (default: 250)")
    parser.add_argument("--days", type=_days, default=45.0, help="simulated days (default: 45)")
    parser.add_argument(
        "--no-cycle", dest="cycle", action="store_false", help="users submit at any hour"
    )
    parser.add_argument(
        "--alpha", type=_alpha, default=3000.0, help="CREASY's alpha (default: 3000)"
    )
    parser.add_argument(
        "--repeat", type=_positive_int, default=3, help="rounds of turns (default: 3)"
    )
    parser.add_argument(
        "--budget",
        type=_budget,
        default=creasy.PYTHON_BUDGET,
        help=f"passes in Python before the compiled ones (default: {creasy.PYTHON_BUDGET})",
    )
    parser.add_argument("--json", type=Path, help="save the results as JSON")
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    console = make_console(150)
    env = environment()
    console.print(environment_table(env))
    cfg = config(args.users, args.days, args.cycle, args.alpha)
    cycle = "daily cycle" if args.cycle else "no cycle"
    with console.status(f"{args.users} users, {args.days:g} days"):
        best = compare(cfg, args.repeat, args.budget)
    title = (
        f"CREASY (alpha {args.alpha:g}) under {args.users} users of the KTH log, "
        f"{args.days:g} days, {cycle}; compiled after {args.budget:,} passes; "
        f"best of {args.repeat}"
    )
    console.print(results_table(best, title))
    if args.json:
        arguments = {**vars(args), "json": str(args.json)}
        doc = {"environment": env, "arguments": arguments, "results": best}
        args.json.write_text(json.dumps(_json_safe(doc), indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
