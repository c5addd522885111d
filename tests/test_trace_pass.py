"""scripts/trace_pass.py: the count of the files one scheduling pass visits."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

SCRIPT = Path(__file__).resolve().parent.parent / "scripts" / "trace_pass.py"


def _script() -> ModuleType:
    spec = importlib.util.spec_from_file_location("trace_pass", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)  # importing it changes nothing (numba's JIT stays on)
    return module


def test_a_return_is_a_move_into_a_file_already_left() -> None:
    follower = _script().Follower()
    for name in ["a.py", "a.py", "b.py", "a.py", "c.py", "b.py", None, "b.py", "a.py"]:
        follower._move(name)  # None: control outside the project, which does not count
    assert follower.visited == ["a.py", "b.py", "c.py"]
    assert follower.returns == 3  # back to a, to b, to a; staying in b is no move


def test_the_follower_sees_the_project_files_a_call_goes_through() -> None:
    # SS's victims: the rule's candidates (rule.py), a minimal set (preemption.py), back.
    import numpy as np

    from schedsim.model.view import JobView
    from schedsim.policies.selective_suspension.rule import choose_victims, width_rule
    from schedsim.workloads.job import Job

    idle = JobView.of(Job(1, 0.0, 60.0, 1, 60.0))
    running = [(1.0, JobView.of(Job(2, 0.0, 600.0, 1, 600.0)))]
    follower = _script().Follower()
    sys.setprofile(follower)
    try:
        victims = choose_victims(idle, 3.0, np.zeros(1, np.int64), running, 2.0, width_rule("text"))
    finally:
        sys.setprofile(None)
    assert victims == [running[0][1]]
    assert follower.visited == [
        "policies/selective_suspension/rule.py",
        "policies/preemption.py",
    ]
    assert follower.returns == 1
