"""How many of the project's files one scheduling pass of a policy visits.

How far must a reader follow one pass of a policy through the calls? The files of
the project it enters, and how often it comes back to a file it had already left,
say it; this script measures both: it runs the policy on
KTH's first 2,000 jobs (100 nodes), picks one pass, and follows that call of the
policy's ``schedule`` under `sys.setprofile`:

* the pass traced is the first, from the run's 1,000th pass on, whose decisions
  include a suspension (for a policy that never suspends: a start), found by a
  first run, so that the pass does the policy's whole work (for ``ss``: the
  preemption routine), and is the same pass on every layout of the code;
* numba's JIT is disabled (``NUMBA_DISABLE_JIT=1``, set before numba is
  imported), so that the compiled loops run as the Python they are written in and
  the files they live in are followed like any other (the schedules are the same);
* a project file is one under the folder that holds the installed ``schedsim``
  packages (model/, policies/, workloads/, schedsim/): numpy, numba or the standard
  library are not followed, and control inside them stays in the project file
  that called them;
* *files visited*: the distinct project files control is in during the pass (the
  policy's own included); *returns*: how many times control moves into a project
  file it had been in and left during the pass (back from a callee, or a second
  call into a file already visited).

Run it with an installation's Python to measure that code: ``python
scripts/trace_pass.py ss ss-plain easy``. Prints one line per policy.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from types import FrameType
from typing import Any

import schedsim.model
from schedsim import Simulation
from schedsim.model.policy import Start, Suspend
from schedsim.workloads.catalog import load
from schedsim.workloads.transforms import first

#: The folder of the installed model/, policies/, workloads/ and schedsim/, and those.
ROOT = str(Path(schedsim.model.__file__).resolve().parent.parent) + os.sep
PACKAGES = tuple(ROOT + name + os.sep for name in ("model", "policies", "workloads", "schedsim"))
JOBS, NODES, FROM_PASS = 2_000, 100, 1_000


def _project(frame: FrameType | None) -> str | None:
    """The file of the innermost project frame from ``frame`` outwards, relative to ROOT."""
    while frame is not None:
        name = frame.f_code.co_filename
        if name.startswith(PACKAGES):
            return name[len(ROOT) :]
        frame = frame.f_back
    return None


class Follower:
    """A `sys.setprofile` hook: the project files control is in, in order."""

    def __init__(self) -> None:
        self.visited: list[str] = []  # distinct, in the order first entered
        self.returns = 0
        self._current: str | None = None
        self._left: set[str] = set()

    def _move(self, file: str | None) -> None:
        if file is None or file == self._current:
            return
        if self._current is not None:
            self._left.add(self._current)
        if file in self._left:
            self.returns += 1
        if file not in self.visited:
            self.visited.append(file)
        self._current = file

    def __call__(self, frame: FrameType, event: str, arg: Any) -> None:
        if event == "call":
            self._move(_project(frame))
        elif event == "return":
            self._move(_project(frame.f_back))


def _simulation(policy: str) -> Simulation:
    return Simulation(first(load("kth"), JOBS), policy, nodes=NODES)


def _chosen_pass(policy: str) -> int:
    """The index of the pass to trace (module docstring)."""
    sim = _simulation(policy)
    schedule = sim.policy.schedule
    passes: list[tuple[bool, bool]] = []

    def counting(view: Any) -> Any:
        out = schedule(view)
        kinds = {type(d) for d in out}
        passes.append((Suspend in kinds, Start in kinds))
        return out

    sim.policy.schedule = counting  # type: ignore[method-assign]
    sim.run()
    for want in (0, 1):  # a suspension, else a start
        for i in range(FROM_PASS, len(passes)):
            if passes[i][want]:
                return i
    raise SystemExit(f"{policy}: no pass from the {FROM_PASS}th on starts or suspends a job")


def trace(policy: str) -> tuple[int, list[str], int]:
    """(pass index, files visited, returns) of the chosen pass of ``policy``."""
    index = _chosen_pass(policy)
    sim = _simulation(policy)
    schedule = sim.policy.schedule
    follower = Follower()
    count = 0

    def traced(view: Any) -> Any:
        nonlocal count
        count += 1
        if count - 1 != index:
            return schedule(view)
        sys.setprofile(follower)
        try:
            return schedule(view)
        finally:
            sys.setprofile(None)

    sim.policy.schedule = traced  # type: ignore[method-assign]
    sim.run()
    return index, follower.visited, follower.returns


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("policies", nargs="+", help="registered policy names (ss, easy, ...)")
    parser.add_argument("--files", action="store_true", help="list the files visited")
    args = parser.parse_args(argv)
    # Before numba is first imported (the policies import it at their first pass):
    # follow the compiled loops as the Python they are written in.
    if "numba" in sys.modules and os.environ.get("NUMBA_DISABLE_JIT") != "1":
        raise SystemExit("numba is imported already: run this script in a process of its own")
    os.environ["NUMBA_DISABLE_JIT"] = "1"
    print(f"code in {ROOT}; KTH's first {JOBS:,} jobs, {NODES} nodes, numba's JIT disabled")
    for policy in args.policies:
        index, visited, returns = trace(policy)
        print(f"{policy:10s} pass {index:5d}: {len(visited):2d} files, {returns:3d} returns")
        if args.files:
            for name in visited:
                print(f"    {name}")


if __name__ == "__main__":
    main()
