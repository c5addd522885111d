"""The job clock and the scheduler's mechanics, driven by a scripted policy.

`Scripted` is a policy registered for these tests only (the `scripted`
fixture registers it and takes it out of the registry again afterwards). It
returns given decisions at given clock times, asking for a pass at each of
them with `WakeAt`, and records what every pass saw. Each test then checks
the job records to the second.

Times are integers, so every expectation is exact.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import pytest

from schedsim import Simulation
from schedsim.app import registry
from schedsim.model.cluster import Allocation
from schedsim.model.job import JobRun
from schedsim.model.overhead import MemoryOverhead
from schedsim.model.policy import (
    REGISTRY,
    Decision,
    Kill,
    Policy,
    PolicyError,
    Requeue,
    Resume,
    SetRate,
    Start,
    Suspend,
    View,
    WakeAt,
    register,
)
from schedsim.workloads.job import Job
from schedsim.workloads.workload import Workload

from invariants import check_invariants

#: One scripted action: ``("start", id)``, ``("start", id, [nodes])``,
#: ``("suspend", id)``, ``("resume", id)``, ``("kill", id)``, ``("requeue", id)``,
#: ``("rate", id, r)``, ``("wake", t)``; or a callable ``view -> decisions``.
Action = tuple | Callable[[View], Sequence[Decision]]


@dataclass(frozen=True)
class Seen:
    """What one pass saw (ids, not the live JobRun objects, which keep changing)."""

    now: float
    arrived: tuple[int, ...]
    ended: tuple[int, ...]
    queue: tuple[int, ...]
    running: tuple[int, ...]
    suspended: tuple[int, ...]
    free_cores: int


class Scripted(Policy):
    """Test policy: the decisions of ``script[t]`` at clock time ``t``; records every pass."""

    def __init__(self, script: Mapping[float, Sequence[Action]] | None = None) -> None:
        self.script = {float(t): list(actions) for t, actions in (script or {}).items()}
        self.seen: list[Seen] = []
        self._armed = False

    def schedule(self, view: View) -> list[Decision]:
        ids = lambda runs: tuple(r.id for r in runs)  # noqa: E731
        self.seen.append(
            Seen(
                view.now,
                ids(view.arrived),
                ids(view.ended),
                ids(view.queue),
                ids(view.running),
                ids(view.suspended),
                view.free_cores,
            )
        )
        out: list[Decision] = []
        if not self._armed:
            self._armed = True
            out.extend(WakeAt(t) for t in sorted(self.script) if t > view.now)
        for action in self.script.pop(view.now, []):
            out.extend(self._decide(view, action))
        return out

    def at(self, t: float) -> list[Seen]:
        return [s for s in self.seen if s.now == t]

    @staticmethod
    def _decide(view: View, action: Action) -> list[Decision]:
        if callable(action):
            return list(action(view))
        verb, *args = action
        if verb == "wake":
            return [WakeAt(float(args[0]))]
        job = find(view, args[0])
        if verb == "start":
            return [Start(job, Allocation.on(args[1]) if len(args) > 1 else None)]
        if verb == "rate":
            return [SetRate(job, float(args[1]))]
        kinds = {"suspend": Suspend, "resume": Resume, "kill": Kill, "requeue": Requeue}
        return [kinds[verb](job)]


def find(view: View, jid: int) -> JobRun:
    for run in (*view.queue, *view.running, *view.suspended):
        if run.id == jid:
            return run
    raise AssertionError(f"job {jid} is not live at {view.now}")


@pytest.fixture
def scripted(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Register `Scripted` as "scripted" for one test (undone afterwards)."""
    monkeypatch.setitem(REGISTRY, "scripted", Scripted)
    register("scripted")(Scripted)
    assert registry.get("scripted") is Scripted
    yield


def job(jid: int, submit: float, size: int, work: float, estimate: float = 1000.0) -> Job:
    return Job(jid, float(submit), float(work), size, float(estimate))


def simulate(
    jobs: list[Job],
    nodes: int,
    script: Mapping[float, Sequence[Action]],
    unit_rate: bool = True,
    **kwargs: Any,
) -> tuple[Simulation, Scripted, Any]:
    """Run ``jobs`` on ``nodes`` one-core nodes under the scripted policy; check invariants."""
    w = Workload.from_jobs(jobs, max_procs=nodes)
    sim = Simulation(w, "scripted", nodes=nodes, params={"script": script}, **kwargs)
    assert isinstance(sim.policy, Scripted)
    result = sim.run()
    check_invariants(result, sim.workload, nodes, unit_rate=unit_rate)
    return sim, sim.policy, result


def row(result: Any, jid: int) -> dict[str, Any]:
    return result.jobs.set_index("id").loc[jid].to_dict()


def series_after(result: Any, t: float) -> dict[str, Any]:
    """The system state recorded by the last pass at time ``t``."""
    s = result.series
    return s[s["time"] == t].iloc[-1].to_dict()


pytestmark = pytest.mark.usefixtures("scripted")


# --------------------------------------------------------------------------- #
# Suspend and resume
# --------------------------------------------------------------------------- #


def test_suspend_then_resume_on_the_same_nodes() -> None:
    # Four nodes. A (2 nodes, work 100) starts at 0 on nodes 1-2 and is suspended
    # at 10; B (2 nodes, work 5) then starts by first fit on nodes 0-1, which
    # proves A's nodes were freed. B ends at 15; A resumes at 20 on 1-2.
    jobs = [job(1, 0, 2, 100), job(2, 0, 2, 5)]
    script = {0: [("start", 1, [1, 2])], 10: [("suspend", 1), ("start", 2)], 20: [("resume", 1)]}
    _, policy, result = simulate(jobs, 4, script)
    a, b = row(result, 1), row(result, 2)
    assert a["nodes"] == "1-2"
    assert b["nodes"] == "0-1" and b["start"] == 10.0 and b["end"] == 15.0
    assert a["suspensions"] == 1
    assert a["suspended_time"] == 10.0
    assert a["run"] == a["work"] == 100.0
    assert a["start"] == a["submit"] == 0.0
    assert a["end"] == a["submit"] + a["work"] + a["suspended_time"] == 110.0
    assert a["wait"] == 10.0
    assert a["outcome"] == "completed"
    # While suspended, A is neither running nor holding cores.
    assert policy.at(15.0)[0].suspended == (1,)
    assert series_after(result, 10.0)["busy_cores"] == 2  # B only
    assert series_after(result, 10.0)["suspended"] == 1
    assert series_after(result, 20.0)["busy_cores"] == 2  # A again


def test_a_resumed_job_takes_back_its_own_cores_where_they_are_free() -> None:
    # One node of 3 cores. A, B, C (1 core each) start at 0 on cores 0, 1, 2.
    # C is suspended at 10 and resumed at 20, when cores 0 and 2 are free (A was
    # suspended at 15): it takes its own core 2 back, not the lowest free one.
    # D (1 core) starts at 25 on core 0; at 30 A resumes while its core is taken:
    # it gets another core of its node, core 1 once B is suspended.
    jobs = [job(i, 0, 1, 100) for i in (1, 2, 3)] + [job(4, 0, 1, 100)]
    script = {
        0: [("start", 1), ("start", 2), ("start", 3)],
        10: [("suspend", 3)],
        15: [("suspend", 1)],
        20: [("resume", 3)],
        25: [("start", 4)],
        30: [("suspend", 2), ("resume", 1)],
        200: [("resume", 2)],
    }
    w = Workload.from_jobs(jobs, max_procs=3)
    sim = Simulation(w, "scripted", nodes=1, cores_per_node=3, params={"script": script})
    result = sim.run()
    check_invariants(result, sim.workload, 3)
    pieces = result.pieces
    cores = {(int(p.job), float(p.start)): p.cores for p in pieces.itertuples() if p.kind == "run"}
    assert cores[(3, 0.0)] == "2" and cores[(3, 20.0)] == "2"
    assert cores[(4, 25.0)] == "0"
    assert cores[(1, 0.0)] == "0" and cores[(1, 30.0)] == "1"


def test_resume_refused_while_its_nodes_are_busy() -> None:
    # A suspended at 10 frees nodes 0-1, B takes them by first fit. At 12 two
    # other nodes are free, but A may only resume on its own: no migration.
    jobs = [job(1, 0, 2, 100), job(2, 0, 2, 100)]
    script = {0: [("start", 1)], 10: [("suspend", 1), ("start", 2)], 12: [("resume", 1)]}
    with pytest.raises(PolicyError, match=r"resume of job 1: its nodes 0-1 are not free"):
        simulate(jobs, 4, script)


def test_suspend_and_resume_in_the_same_pass_costs_nothing() -> None:
    jobs = [job(1, 0, 2, 100)]
    _, _, result = simulate(jobs, 2, {0: [("start", 1)], 10: [("suspend", 1), ("resume", 1)]})
    a = row(result, 1)
    assert (a["end"], a["run"], a["suspensions"], a["suspended_time"]) == (100.0, 100.0, 1, 0.0)


@pytest.mark.parametrize(
    ("script", "message"),
    [
        ({0: [("resume", 1)]}, "resume of job 1, which is queued"),
        ({0: [("suspend", 1)]}, "suspend of job 1, which is queued"),
        ({0: [("kill", 1)]}, "kill of job 1, which is queued"),
        ({0: [("rate", 1, 0.5)]}, "rate change of job 1, which is queued"),
        ({0: [("start", 1), ("start", 1)]}, "start of job 1, which is running"),
        ({0: [("start", 1), ("rate", 1, 0.0)]}, "must be positive"),
        ({0: [("wake", 0.0)]}, r"WakeAt\(0.0\) is not in the future"),
    ],
)
def test_decisions_that_cannot_be_applied(script: dict, message: str) -> None:
    with pytest.raises(PolicyError, match=message):
        simulate([job(1, 0, 1, 10)], 1, script)


# --------------------------------------------------------------------------- #
# Kill, rate, requeue
# --------------------------------------------------------------------------- #


def test_kill_a_running_job() -> None:
    jobs = [job(1, 0, 1, 100), job(2, 40, 1, 5)]
    script = {0: [("start", 1)], 30: [("kill", 1)], 40: [("start", 2)]}
    _, policy, result = simulate(jobs, 1, script)
    a = row(result, 1)
    assert a["outcome"] == "killed"
    assert (a["start"], a["end"], a["run"]) == (0.0, 30.0, 30.0)
    # The kill frees the core at once but asks for no pass of its own: the
    # killed job is reported in `ended` by the next pass, at the next event.
    assert [s.now for s in policy.seen] == [0.0, 30.0, 40.0, 45.0]
    assert policy.at(40.0)[0].ended == (1,)
    assert policy.at(40.0)[0].free_cores == 1


def test_kill_a_suspended_job() -> None:
    script = {0: [("start", 1)], 10: [("suspend", 1)], 25: [("kill", 1)]}
    _, _, result = simulate([job(1, 0, 1, 100)], 1, script)
    a = row(result, 1)
    assert a["outcome"] == "killed"
    assert (a["end"], a["run"], a["suspended_time"], a["suspensions"]) == (25.0, 10.0, 15.0, 1)


def test_set_rate_half_doubles_the_remaining_time() -> None:
    # Work 100 at rate 1 until 20 (20 done), then 80 left at rate 0.5: 160 s.
    script = {0: [("start", 1)], 20: [("rate", 1, 0.5)]}
    _, _, result = simulate([job(1, 0, 1, 100)], 1, script, unit_rate=False)
    a = row(result, 1)
    assert a["end"] == 20.0 + 2 * 80.0 == 180.0
    assert a["run"] == 180.0  # wall-clock time spent running
    assert a["outcome"] == "completed"


def test_set_rate_changes_compose() -> None:
    # 20 s at 1 (20 done), 40 s at 0.5 (20 more), then 60 left at 2: 30 s.
    script = {0: [("start", 1)], 20: [("rate", 1, 0.5)], 60: [("rate", 1, 2.0)]}
    _, _, result = simulate([job(1, 0, 1, 100)], 1, script, unit_rate=False)
    assert row(result, 1)["end"] == 90.0


def test_the_limit_is_on_wall_clock_run_time() -> None:
    # The estimate bounds the run time, not the work: slowed to half speed, a job
    # whose estimate equals its work is killed at the estimate with work left.
    script = {0: [("start", 1)], 20: [("rate", 1, 0.5)]}
    _, _, result = simulate([job(1, 0, 1, 100, estimate=100)], 1, script, unit_rate=False)
    a = row(result, 1)
    assert (a["outcome"], a["end"], a["run"]) == ("killed_at_limit", 100.0, 100.0)


def test_requeue_restarts_from_zero() -> None:
    # Runs 0-20 on node 0, requeued (its 20 s are lost); job 2 takes node 0 at
    # 20; job 1 restarts at 30 on node 1 and needs its full 50 s again: ends at 80.
    jobs = [job(1, 0, 1, 50), job(2, 0, 1, 50)]
    script = {0: [("start", 1)], 20: [("requeue", 1), ("start", 2)], 30: [("start", 1)]}
    _, policy, result = simulate(jobs, 2, script)
    a = row(result, 1)
    assert a["requeues"] == 1 and a["lost_work"] == 20.0
    assert a["start"] == 0.0  # the first start
    assert (a["end"], a["run"], a["outcome"]) == (80.0, 50.0, "completed")
    assert a["nodes"] == "1"  # the new allocation
    assert a["wait"] == 80.0 - 50.0
    assert policy.at(25.0) == [] and policy.at(30.0)[0].queue == (1,)


# --------------------------------------------------------------------------- #
# Suspension overhead
# --------------------------------------------------------------------------- #


def overhead(run: JobRun) -> tuple[float, float]:
    return (5.0, 7.0)


def test_overhead_holds_the_nodes_then_delays_the_restart() -> None:
    # Two nodes. A (2 nodes, work 100) is suspended at 10: its image is written
    # out until 15 and it keeps its nodes meanwhile; resumed at 15 (as soon as
    # the write-out ends), it reloads for 7 s without progress, runs from 22
    # and ends at 22 + 90 = 112: 12 s later than without overhead.
    script = {0: [("start", 1)], 10: [("suspend", 1)], 12: [], 15: [("resume", 1)]}
    _, policy, result = simulate([job(1, 0, 2, 100)], 2, script, overhead=overhead)
    a = row(result, 1)
    assert a["overhead_time"] == 12.0
    assert a["end"] == 100.0 + 12.0
    assert a["run"] == a["work"] == 100.0
    assert a["suspensions"] == 1
    # Suspended time starts when the write-out has freed the nodes (at 15), and
    # it is resumed at once: the 12 s are overhead, not suspension.
    assert a["suspended_time"] == 0.0
    assert a["wait"] == 12.0
    # The nodes stay busy during the write-out.
    assert series_after(result, 10.0)["busy_cores"] == 2
    assert series_after(result, 12.0)["busy_cores"] == 2
    assert policy.at(12.0)[0].free_cores == 0
    assert policy.at(12.0)[0].suspended == (1,)

    # The same script without overhead; and suspend+resume at one instant.
    _, _, plain = simulate([job(1, 0, 2, 100)], 2, script)
    assert row(plain, 1)["end"] == 105.0
    instant = {0: [("start", 1)], 10: [("suspend", 1), ("resume", 1)]}
    _, _, zero = simulate([job(1, 0, 2, 100)], 2, instant)
    assert row(zero, 1)["end"] + 12.0 == a["end"]


def test_a_rate_change_during_the_reload_leaves_the_reload_as_it_is() -> None:
    # As above, reloading from 15 to 22; set to rate 0.5 at 18, during the reload,
    # and again at 20: the reload still ends at 22 (a rate does not shorten it), then
    # the 90 left take 180 s at the new rate: the end at 202, not at 112 (the first
    # end planned) nor at 22 + 90.
    script = {0: [("start", 1)], 10: [("suspend", 1)], 15: [("resume", 1)],
              18: [("rate", 1, 0.25)], 20: [("rate", 1, 0.5)]}  # fmt: skip
    _, _, result = simulate([job(1, 0, 2, 100)], 2, script, overhead=overhead, unit_rate=False)
    a = row(result, 1)
    assert a["overhead_time"] == 12.0
    assert a["end"] == 22.0 + 90.0 / 0.5 == 202.0
    assert a["outcome"] == "completed"


def test_run_suspended_and_overhead_times_add_up() -> None:
    # Suspended at 10 with a 5 s write-out (nodes free at 15), resumed at 20
    # with a 7 s reload: run 100 + suspended 5 (15..20) + overhead 12 = 117.
    script = {0: [("start", 1)], 10: [("suspend", 1)], 20: [("resume", 1)]}
    _, _, result = simulate([job(1, 0, 2, 100)], 2, script, overhead=overhead)
    a = row(result, 1)
    assert (a["run"], a["suspended_time"], a["overhead_time"]) == (100.0, 5.0, 12.0)
    assert a["end"] - a["start"] == a["run"] + a["suspended_time"] + a["overhead_time"] == 117.0


def test_resume_refused_during_the_write_out() -> None:
    script = {0: [("start", 1)], 10: [("suspend", 1)], 12: [("resume", 1)]}
    with pytest.raises(PolicyError, match="suspension overhead is under way"):
        simulate([job(1, 0, 2, 100)], 2, script, overhead=overhead)


def test_end_of_write_out_asks_for_a_pass() -> None:
    # Nothing is scripted and nothing ends or arrives at 15: the pass there comes
    # from the nodes being released at the end of the write-out.
    script = {0: [("start", 1)], 10: [("suspend", 1)], 30: [("resume", 1)]}
    _, policy, result = simulate([job(1, 0, 2, 100)], 2, script, overhead=overhead)
    (seen,) = policy.at(15.0)
    assert seen.free_cores == 2 and seen.suspended == (1,)
    assert row(result, 1)["end"] == 30.0 + 7.0 + 90.0


# Regression: when the write-out timer of a suspension fired, it released
# whatever allocation the job held by then; a job requeued during its write-out
# and restarted before it ended lost its new allocation, and its cores counted
# as free while it ran.
def test_requeue_during_write_out_then_restart_keeps_the_new_nodes() -> None:
    # Two nodes. A (2 nodes) suspended at 10 with a 5 s write-out, requeued and
    # restarted at once. At 16 A is running on both nodes: none may be free.
    script = {0: [("start", 1)], 10: [("suspend", 1), ("requeue", 1), ("start", 1)], 16: []}
    _, policy, result = simulate([job(1, 0, 2, 100)], 2, script, overhead=overhead)
    assert policy.at(16.0)[0].running == (1,)
    assert policy.at(16.0)[0].free_cores == 0
    assert series_after(result, 16.0)["busy_cores"] == 2


# --------------------------------------------------------------------------- #
# The wall-clock limit
# --------------------------------------------------------------------------- #


@pytest.mark.parametrize("policy", ["fcfs", "easy", "conservative"])
def test_killed_at_estimate(policy: str) -> None:
    w = Workload.from_jobs([job(1, 0, 1, 100, estimate=60)], max_procs=1)
    a = row(Simulation(w, policy).run(), 1)
    assert (a["outcome"], a["run"], a["end"]) == ("killed_at_limit", 60.0, 60.0)
    b = row(Simulation(w, policy, kill_at_estimate=False).run(), 1)
    assert (b["outcome"], b["run"], b["end"]) == ("completed", 100.0, 100.0)


def test_limit_counts_run_time_across_a_suspension() -> None:
    # Estimate 60: 10 s before the suspension, 50 s after it; suspended 10-20.
    script = {0: [("start", 1)], 10: [("suspend", 1)], 20: [("resume", 1)]}
    _, _, result = simulate([job(1, 0, 1, 100, estimate=60)], 1, script)
    a = row(result, 1)
    assert (a["outcome"], a["run"], a["end"]) == ("killed_at_limit", 60.0, 70.0)


def test_job_exactly_at_its_estimate_completes() -> None:
    w = Workload.from_jobs([job(1, 0, 1, 60, estimate=60)], max_procs=1)
    assert row(Simulation(w, "fcfs").run(), 1)["outcome"] == "completed"


# --------------------------------------------------------------------------- #
# One instant: completions, then arrivals, then one pass
# --------------------------------------------------------------------------- #


def test_completion_and_arrival_at_one_instant_make_one_pass() -> None:
    # A ends at 10; B and C arrive at 10; the script also has a timer at 10.
    jobs = [job(1, 0, 2, 10), job(2, 10, 1, 5), job(3, 10, 1, 5)]
    script = {0: [("start", 1)], 10: [("start", 2), ("start", 3)]}
    sim, policy, _ = simulate(jobs, 2, script)
    at10 = policy.at(10.0)
    assert len(at10) == 1
    seen = at10[0]
    assert seen.ended == (1,)
    assert seen.arrived == (2, 3)
    assert seen.free_cores == 2  # A's cores are already back
    assert seen.running == ()
    # Passes: 0 (arrival of A), 10 (everything), 15 (B and C end together).
    assert [s.now for s in policy.seen] == [0.0, 10.0, 15.0]
    assert sim.scheduler.passes == 3


def test_ends_at_one_instant_come_in_the_order_their_jobs_started_or_changed() -> None:
    # Jobs 1 and 2 start in that order at 0 and both end at 100: the pass at 100 sees
    # them end in that order. A rate change (even to the same rate) moves a job's end
    # to a new timeout: job 1's, changed at 50, now comes after job 2's.
    jobs = [job(1, 0, 1, 100), job(2, 0, 1, 100)]
    plain = {0: [("start", 1), ("start", 2)]}
    _, policy, _ = simulate(jobs, 2, plain)
    assert policy.at(100.0)[0].ended == (1, 2)
    changed = {0: [("start", 1), ("start", 2)], 50: [("rate", 1, 1.0)]}
    _, policy, _ = simulate(jobs, 2, changed)
    assert policy.at(100.0)[0].ended == (2, 1)


def test_one_pass_per_instant_under_fcfs() -> None:
    # Three jobs end at 10 and three arrive at 10: still one pass at 10.
    jobs = [job(i, 0, 1, 10) for i in (1, 2, 3)] + [job(i, 10, 1, 10) for i in (4, 5, 6)]
    sim = Simulation(Workload.from_jobs(jobs, max_procs=3), "fcfs")
    result = sim.run()
    assert sim.scheduler.passes == 3  # at 0, 10, 20
    assert result.series["time"].tolist() == [0.0, 10.0, 20.0]


def test_a_timer_the_policy_no_longer_wants_brings_no_pass() -> None:
    # Timers at 5 and 7; the policy lets the one at 5 go (Policy.wants_pass).
    class Forgetful(Scripted):
        def wants_pass(self, time: float) -> bool:
            return time != 5.0

    w = Workload.from_jobs([job(1, 0, 1, 20)], max_procs=1)
    policy = Forgetful({0: [("start", 1)], 5: [], 7: []})
    sim = Simulation(w, policy)
    sim.run()
    assert [s.now for s in policy.seen] == [0.0, 7.0, 20.0]
    assert sim.scheduler.passes == 3


def test_zero_length_job_frees_its_cores_in_a_second_pass() -> None:
    # On one core, two jobs of run 0 arrive together: the first holds the core
    # until its process ends, which is after the pass; a second pass at the same
    # instant starts the other.
    jobs = [job(1, 5, 1, 0, estimate=0), job(2, 5, 1, 0, estimate=0)]
    sim = Simulation(Workload.from_jobs(jobs, max_procs=1), "fcfs")
    result = sim.run()
    assert result.jobs["start"].tolist() == [5.0, 5.0]
    assert sim.scheduler.passes == 3


# --------------------------------------------------------------------------- #
# Starting jobs that do not fit
# --------------------------------------------------------------------------- #


def test_start_that_does_not_fit() -> None:
    jobs = [job(1, 0, 2, 10), job(2, 0, 1, 10)]
    with pytest.raises(PolicyError, match=r"start of job 2 \(1 cores\) with only 0 cores free"):
        simulate(jobs, 2, {0: [("start", 1), ("start", 2)]})


def test_start_with_an_allocation_of_the_wrong_size() -> None:
    with pytest.raises(PolicyError, match="job 1 needs 2 cores, allocation has 1"):
        simulate([job(1, 0, 2, 10)], 2, {0: [("start", 1, [0])]})


# Regression: Scheduler.apply promises PolicyError for a decision that cannot be
# applied, but a Start on an explicit allocation whose nodes were busy raised
# schedsim.model.cluster.AllocationError from Cluster.allocate.
def test_start_on_busy_nodes_is_a_policy_error() -> None:
    jobs = [job(1, 0, 1, 10), job(2, 0, 1, 10)]
    with pytest.raises(PolicyError, match="start of job 2 on nodes 0"):
        simulate(jobs, 2, {0: [("start", 1, [0]), ("start", 2, [0])]})


@pytest.mark.parametrize("nodes", [[2], [-1], [0, 0]], ids=["missing", "negative", "twice"])
def test_start_on_nodes_that_do_not_exist_is_a_policy_error(nodes: list[int]) -> None:
    size = len(nodes)
    with pytest.raises(PolicyError, match="not a valid allocation"):
        simulate([job(1, 0, size, 10)], 2, {0: [("start", 1, nodes)]})


# --------------------------------------------------------------------------- #
# Jobs wider than the machine
# --------------------------------------------------------------------------- #


WIDE = [job(1, 0, 2, 10), job(2, 0, 5, 10), job(3, 1, 4, 10)]


def test_wide_job_is_an_error_by_default() -> None:
    w = Workload.from_jobs(WIDE, max_procs=4)
    with pytest.raises(ValueError, match=r"wider than the machine's 4 cores \(first: job 2"):
        Simulation(w, "fcfs")


def test_wide_job_dropped() -> None:
    w = Workload.from_jobs(WIDE, max_procs=4)
    sim = Simulation(w, "fcfs", wide="drop")
    result = sim.run()
    assert result.jobs["id"].tolist() == [1, 3]
    assert any("wider than machine: 1 jobs" in c for c in result.meta["cleaning"])
    check_invariants(result, sim.workload, 4)


def test_wide_job_clamped() -> None:
    w = Workload.from_jobs(WIDE, max_procs=4)
    sim = Simulation(w, "fcfs", wide="clamp")
    result = sim.run()
    jobs = result.jobs.set_index("id")
    assert jobs.at[2, "size"] == 4
    assert jobs["start"].to_dict() == {1: 0.0, 2: 10.0, 3: 20.0}
    assert any("clamped" in c for c in result.meta["cleaning"])
    check_invariants(result, sim.workload, 4)


def test_jobrun_derived_quantities() -> None:
    # The quantities a policy reads from a job's snapshot: a job (work 100, estimate
    # 200) submitted at 0, started at 10, suspended at 40 (30 s run), read at 50.
    from schedsim.model.view import State

    r = JobRun(job(1, 0, 2, 100, estimate=200), limit=200.0)
    v = r.snapshot()
    assert v.instantaneous_xfactor(5.0) == float("inf")  # has not run yet
    assert v.xfactor(10.0) == (10.0 + 200.0) / 200.0
    r.state, r.allocation, r.since = State.RUNNING, object(), 10.0  # type: ignore[assignment]
    v = r.snapshot()
    assert v.accumulated_run(25.0) == 15.0 and v.wait(25.0) == 10.0
    r.account(40.0)
    r.state = State.SUSPENDED
    v = r.snapshot()
    assert (v.work_done, v.run_time_done, v.work - v.work_done) == (30.0, 30.0, 70.0)
    assert v.remaining_estimate() == 170.0
    assert v.accumulated_run(50.0) == 30.0 and v.wait(50.0) == 20.0
    assert v.xfactor(50.0) == (20.0 + 30.0 + 170.0) / 200.0
    assert v.instantaneous_xfactor(50.0) == (20.0 + 30.0) / 30.0
    # A snapshot does not change afterwards, and cannot be assigned to.
    r.account(60.0)
    assert v.run_time_done == 30.0
    with pytest.raises(AttributeError):
        v.state = State.RUNNING  # type: ignore[misc]


def test_memory_overhead_of_seed_000() -> None:
    # Memory fixed at 600 MB, written at 2 MB/s by each of A's 2 processors:
    # 600 / (2 x 2) = 150 s to write out at 10 and 150 s to read back from 160.
    model = MemoryOverhead(low_mb=600.0, high_mb=600.0, rate_mb_s=2.0)
    script = {0: [("start", 1)], 10: [("suspend", 1)], 160: [("resume", 1)]}
    _, _, result = simulate([job(1, 0, 2, 100)], 2, script, overhead=model)
    a = row(result, 1)
    assert (a["run"], a["suspended_time"], a["overhead_time"]) == (100.0, 0.0, 300.0)
    assert a["end"] == 400.0
    assert result.meta["overhead"] == repr(model)
    # Per processor, each of the 2 processors moves its own 600 MB: 300 s each way.
    per_cpu = MemoryOverhead(low_mb=600.0, high_mb=600.0, per="processor")
    script = {0: [("start", 1)], 10: [("suspend", 1)], 310: [("resume", 1)]}
    _, _, result = simulate([job(1, 0, 2, 100)], 2, script, overhead=per_cpu)
    assert row(result, 1)["overhead_time"] == 600.0
