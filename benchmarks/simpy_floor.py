"""The cost of SimPy's events alone for a given schedule: a floor under any SimPy design.

schedsim runs a workload source, the scheduler and every job on SimPy events
(DESIGN.md): the source's timeouts, the scheduler's wake-ups and the jobs' clock, each
an event with a callback, no process. Whatever else it does, a run cannot cost less
than those events. `replay` makes the same events for a schedule already known (the
reference's EASY schedule, `benchmarks/reference_easy.py`) and does nothing
else: no queue, no decisions, no accounting, no results. Timed beside the
reference's own scheduling loop (`benchmarks/process.py` does), it tells how much
of the target "the simulation within 2x the reference loop" SimPy itself takes.

The events are those of one schedsim run with no suspension, no timer and no
overhead:

- the source: one timeout per distinct submit time, whose callback asks for a pass
  and sets the next (`schedsim.model.sources.Replay`);
- the scheduler: a wake-up event per pass, scheduled after every other event of its
  instant, so that arrivals and completions at one instant make one pass (as
  `schedsim.model.scheduler` does), whose callback starts the jobs the schedule
  starts then;
- the jobs: one timeout per job for its run time, whose callback asks for a pass
  (`schedsim.model.job.JobClock`).

Run alone it prints its time and the pass count for a trace::

    python benchmarks/simpy_floor.py ctc
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Any

import simpy

sys.path.insert(0, str(Path(__file__).resolve().parent))
import reference_easy as reference  # the sibling script

#: After every NORMAL (0) event of the same instant, as schedsim's wake-up.
LATE = 2


def replay(submit: list[float], start: list[float], end: list[float]) -> int:
    """Make, in SimPy, the events of a run that gives jobs these starts and ends.

    ``submit`` is in ascending order; ``start[j]`` must be an instant at which
    a job arrives or ends (as in any schedule made by one pass per instant).
    Returns the number of passes. Jobs that start at one instant all start at
    its first pass, where a scheduler may start some at a later pass of that
    instant, once jobs of no length it started end: so the count can be a little
    under the reference's (whole CTC: 152,271 against 152,272).
    """
    env = simpy.Environment()
    starts_at: dict[float, list[int]] = {}
    for j, s in enumerate(start):
        starts_at.setdefault(s, []).append(j)
    # The scheduler's wake-up event for its next pass, and whether it was fired.
    state: dict[str, Any] = {"wake": None, "fired": False, "passes": 0, "next": 0}

    def ask(_event: simpy.Event | None = None) -> None:
        if not state["fired"]:
            state["fired"] = True
            ev = state["wake"]
            ev._ok = True  # succeed(), but after the instant's NORMAL events
            ev._value = None
            env.schedule(ev, LATE)

    def wake_up() -> None:
        state["wake"] = ev = env.event()
        ev.callbacks.append(scheduler)
        state["fired"] = False

    def scheduler(_event: simpy.Event) -> None:
        state["passes"] += 1
        for j in starts_at.pop(env.now, ()):
            env.timeout(end[j] - start[j]).callbacks.append(ask)
        wake_up()

    def source(_event: simpy.Event | None = None) -> None:
        i, n = state["next"], len(submit)
        if i < n:
            t = submit[i]
            while i < n and submit[i] == t:
                i += 1
            state["next"] = i
            ask()
        if i < n:
            env.timeout(max(submit[i] - env.now, 0.0)).callbacks.append(source)

    wake_up()
    first = env.timeout(max(submit[0], 0.0)) if submit else None
    if first is not None:
        first.callbacks.append(source)
    env.run()
    if starts_at:
        raise ValueError(f"{len(starts_at)} start times fell on no pass: not such a schedule")
    return int(state["passes"])


def main(argv: list[str] | None = None) -> int:
    """Time the reference's loop and the replay of its schedule on one trace."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("trace", help="a path, or a shipped trace by the start of its name")
    parser.add_argument("--first", type=int, metavar="N", help="the first N jobs only")
    args = parser.parse_args(argv)
    trace = reference.read(reference.resolve(args.trace), args.first)
    assert trace.machine is not None
    t0 = time.perf_counter()
    sched = reference.easy(trace.submit, trace.size, trace.run, trace.estimate, trace.machine)
    t1 = time.perf_counter()
    passes = replay(trace.submit, sched.start, sched.end)
    t2 = time.perf_counter()
    print(f"{len(trace.submit):,} jobs, {passes:,} passes (reference: {sched.passes:,})")
    print(
        f"reference loop {t1 - t0:.2f} s; SimPy's events alone {t2 - t1:.2f} s "
        f"= {(t2 - t1) / (t1 - t0):.2f}x the loop"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
