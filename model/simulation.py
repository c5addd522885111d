"""The Simulation facade: wires a workload, a policy and a cluster; run(); Result.

    >>> from schedsim.policies.backfilling import EASY
    >>> from schedsim.workloads.catalog import load
    >>> from schedsim.workloads.transforms import first
    >>> result = Simulation(first(load("kth"), 200), EASY(), seed=1).run()
    >>> len(result.jobs)
    200

Conventions (DESIGN.md): the clock starts at the first submit and keeps the
trace's own seconds, so ``header.to_datetime(t)`` gives the local time of
day; a job whose run time exceeds its estimate is killed at the estimate
unless ``kill_at_estimate=False``; a job wider than the machine is an error
unless ``wide="drop"`` or ``"clamp"`` (counted in the cleaning steps).
Randomness comes from `Simulation.rng`, one independent numpy stream per
named component derived from the run's seed, so the same seed gives the
same result bit for bit, and a component's draws do not depend on which
other components drew before it.
"""

from __future__ import annotations

import dataclasses
import time
from typing import Any, Literal

import numpy as np
import pandas as pd
import simpy
from schedsim.model.cluster import Cluster, compact_ranges
from schedsim.model.job import JobRun
from schedsim.model.overhead import MemoryOverhead
from schedsim.model.policy import Policy
from schedsim.model.results import Result
from schedsim.model.scheduler import OverheadModel, Scheduler
from schedsim.model.sessions import SESSION_COLUMNS
from schedsim.model.sources import Population, SessionLog, population, replay
from schedsim.workloads.streams import stream_seed
from schedsim.workloads.transforms import fit_machine
from schedsim.workloads.workload import Header, Workload


def _describe_overhead(overhead: object) -> str | None:
    """The overhead model for the metadata: its parameters, or a function's name
    (never a repr with a memory address, which would differ from run to run)."""
    if overhead is None:
        return None
    if isinstance(overhead, MemoryOverhead):
        return repr(overhead)
    return getattr(overhead, "__qualname__", type(overhead).__name__)


class Simulation:
    """One run: a workload replayed on a machine under a policy.

    Parameters
    ----------
    workload:
        The jobs (a `Workload`; see `schedsim.workloads.catalog.load` and
        `schedsim.workloads.swf.read_swf`),
        or a closed-loop `schedsim.model.sources.Population` of users who make them as the
        run goes (seed 002); then ``nodes`` defaults to the users' source trace's
        machine, the clock starts at 0 (midnight of day 0) and `jobs_submitted`
        gives the jobs they made.
    policy:
        A `Policy` instance. The model takes policy objects; names (``"easy"``)
        are resolved by the application layer (`schedsim.Simulation`).
    nodes:
        Number of nodes. Default: the trace header's machine size (MaxProcs, else
        MaxNodes) divided by ``cores_per_node``.
    cores_per_node:
        Cores per node (1 in the classic studies).
    seed:
        Seed of every random stream of the run.
    kill_at_estimate:
        Kill a job when its run time reaches its estimate (default, as a batch
        system would); False runs every job for its trace run time.
    wide:
        What to do with jobs wider than the machine: ``"error"`` (default),
        ``"drop"`` or ``"clamp"`` them.
    overhead:
        Optional cost of suspension and restart: a `schedsim.model.overhead.MemoryOverhead`
        (seed 000, section 4.1; memory sizes from the ``"memory"`` stream) or
        any ``run -> (suspend_cost, resume_cost)`` in seconds.
    """

    def __init__(
        self,
        workload: Workload | Population,
        policy: Policy,
        *,
        nodes: int | None = None,
        cores_per_node: int = 1,
        seed: int = 0,
        kill_at_estimate: bool = True,
        wide: Literal["error", "drop", "clamp"] = "error",
        overhead: OverheadModel | MemoryOverhead | None = None,
    ) -> None:
        self.population = workload if isinstance(workload, Population) else None
        pop = self.population
        if nodes is None:
            size = pop.model.machine if pop is not None else workload.header.machine_size
            if not size:
                raise ValueError(
                    f"workload {workload.name!r} has no MaxProcs/MaxNodes header: give nodes="
                )
            nodes = size // cores_per_node
        self.cluster = Cluster(nodes, cores_per_node)
        if pop is not None:
            if overhead is not None:
                raise ValueError(
                    "suspension overhead is not supported with a closed-loop population"
                )
            self.population = pop = dataclasses.replace(
                pop, model=pop.model.restrict(self.cluster.total_cores)
            )
            # The jobs are made as the run goes; this empty workload carries the clock.
            self.workload = Workload(
                (),
                Header(unix_start_time=pop.unix_start_time, time_zone_string="UTC"),
                name=pop.name,
                source=pop.model.source,
            )
        else:
            self.workload = fit_machine(workload, self.cluster.total_cores, mode=wide)
            if len(self.workload) == 0:
                raise ValueError(f"workload {workload.name!r} has no jobs to simulate")
        if not isinstance(policy, Policy):
            raise TypeError(
                f"policy must be a Policy instance, got {policy!r} "
                "(names are resolved by schedsim.Simulation)"
            )
        self.policy = policy
        self.seed = seed
        self.kill_at_estimate = kill_at_estimate
        self.overhead = overhead
        if isinstance(overhead, MemoryOverhead):
            overhead = overhead.model(self.workload.jobs, self.rng("memory"))
        self.env = simpy.Environment(initial_time=self.start)
        self.scheduler = Scheduler(
            self.env,
            self.cluster,
            policy,
            kill_at_estimate=kill_at_estimate,
            overhead=overhead,
        )
        self.sessions = SessionLog()
        if pop is not None:
            population(self.env, self.scheduler, pop, self.rng, self.sessions)
            self.scheduler.source_done = True  # users stop by themselves at the horizon
        else:
            self.env.process(replay(self.env, self.workload.jobs, self.scheduler))
        self._result: Result | None = None

    @property
    def start(self) -> float:
        """The clock origin: the first submit, or 0 (midnight of day 0) for a population."""
        return 0.0 if self.population is not None else float(self.workload[0].submit)

    def rng(self, component: str) -> np.random.Generator:
        """The random stream of a named component (``"estimates"``, ``"users"``, ...).

        Streams are keyed by name, not by creation order, so adding a
        component never shifts another's draws.
        """
        return np.random.default_rng(stream_seed(self.seed, component))

    def run(self, progress: bool = False) -> Result:
        """Run to the end and return the `Result` (a run happens once)."""
        if self._result is not None:
            return self._result
        t0 = time.perf_counter()
        if progress:
            self._run_with_progress()
        else:
            self.env.run()
        wall = time.perf_counter() - t0
        self._result = self._collect(wall)
        return self._result

    def jobs_submitted(self) -> Workload:
        """The jobs as submitted, in submit order: the trace's, or those the users made.

        For a closed-loop run this is the workload the users generated (known
        only after `run`), with the population's clock header, so it can be
        written as SWF or replayed open loop.
        """
        if self.population is None:
            return self.workload
        jobs = sorted((r.job for r in self.scheduler.finished), key=lambda j: (j.submit, j.id))
        return self.workload.with_jobs(jobs)

    def _run_with_progress(self) -> None:
        from rich.progress import Progress

        steps = 200
        if self.population is not None:
            # Jobs are not known in advance: progress is simulated time, in steps.
            first, last, total = 0.0, self.population.horizon, steps
        else:
            first, last = self.workload[0].submit, self.workload[-1].submit
            total = len(self.workload)

        def done(k: int) -> int:
            return k if self.population is not None else len(self.scheduler.finished)

        with Progress(transient=True) as bar:
            task = bar.add_task(f"{self.policy.name} on {self.workload.name}", total=total)
            for k in range(1, steps + 1):
                until = first + (last - first) * k / steps
                if until > self.env.now and self.env.peek() <= until:
                    self.env.run(until=until)
                    bar.update(task, completed=done(k))
            self.env.run()
            bar.update(task, completed=total)

    def _collect(self, wall: float) -> Result:
        s = self.scheduler
        if not s.idle:
            stuck = [r.id for r in (*s.queue.values(), *s.suspended.values())][:10]
            raise RuntimeError(
                f"simulation under {self.policy.name!r} ended with jobs never finished "
                f"(first ids: {stuck}); the policy left them waiting with nothing running"
            )
        runs: list[JobRun] = sorted(s.finished, key=lambda r: (r.submit, r.id))
        jobs = pd.DataFrame(
            {
                "id": np.array([r.id for r in runs], dtype=np.int64),
                "submit": np.array([r.submit for r in runs], dtype=float),
                "start": np.array([r.first_start for r in runs], dtype=float),
                "end": np.array([r.end for r in runs], dtype=float),
                "run": np.array([r.run_time_done for r in runs], dtype=float),
                "estimate": np.array([r.estimate for r in runs], dtype=float),
                "work": np.array([r.job.work for r in runs], dtype=float),
                "size": np.array([r.size for r in runs], dtype=np.int64),
                "nodes": [compact_ranges(r.home.nodes) if r.home is not None else "" for r in runs],
                "outcome": [r.outcome.value if r.outcome else "" for r in runs],
                "suspensions": np.array([r.suspensions for r in runs], dtype=np.int64),
                "suspended_time": np.array([r.suspended_time for r in runs], dtype=float),
                "overhead_time": np.array([r.overhead_time for r in runs], dtype=float),
                "requeues": np.array([r.requeues for r in runs], dtype=np.int64),
                "lost_work": np.array([r.lost_work for r in runs], dtype=float),
                "user": np.array([r.job.user for r in runs], dtype=np.int64),
            }
        )
        jobs.insert(5, "wait", jobs["end"] - jobs["submit"] - jobs["run"])
        sessions = None
        if self.population is not None:
            of = self.sessions.job_session
            jobs["session"] = np.array([of[i][1] for i in jobs["id"]], dtype=np.int64)
            sessions = pd.DataFrame(self.sessions.sessions, columns=list(SESSION_COLUMNS))
        series = pd.DataFrame(
            s.series,
            columns=["time", "busy_cores", "busy_nodes", "queued", "running", "suspended"],
        )
        header = self.workload.header
        meta: dict[str, Any] = {
            "workload": self.workload.name,
            "source": self.workload.source,
            "policy": self.policy.name,
            "policy_params": self.policy.params(),
            "nodes": self.cluster.nodes,
            "cores_per_node": self.cluster.cores_per_node,
            "total_cores": self.cluster.total_cores,
            "seed": self.seed,
            "kill_at_estimate": self.kill_at_estimate,
            "overhead": _describe_overhead(self.overhead),
            "start": self.start,
            # The last job's end, not the clock: a policy timer left pending
            # when the last job ended still moves the clock, but nothing happens then.
            "end": float(max(jobs["end"].max(), s.series[-1][0] if s.series else -np.inf)),
            "unix_start_time": header.unix_start_time,
            "time_zone_string": header.time_zone_string,
            "cleaning": [str(c) for c in self.workload.cleaning],
            "passes": s.passes,
            "wall_time": wall,
        }
        if self.population is not None:
            pop = self.population
            meta.update(
                users=pop.users,
                days=pop.days,
                horizon=pop.horizon,
                daily_cycle=dataclasses.asdict(pop.cycle),
                user_model=pop.model.describe(),
            )
        return Result(jobs=jobs, series=series, meta=meta, sessions=sessions)
