"""Immediate Service (IS, seed 000 section 2.3): every arrival runs at once for a slice.

The thesis's related work (section 2.3, after Chiang and Vernon's study of
shared-memory machines) describes IS: "each arriving job was given an
immediate time-slice of 10 minutes, by suspending one or more running jobs
if needed", choosing those of lowest instantaneous xfactor, (wait + total
accumulated run time) / total accumulated run time. The thesis compares SS
(`schedsim.policies.selective`) against it, on a distributed-memory
machine without migration: a suspended job resumes only on its own nodes.

Here an arrival gets its slice of ``quantum`` seconds (10 min) by
suspending a minimal set of running jobs, those of lowest instantaneous
xfactor first (`schedsim.policies.preemption.minimal_victims`). Jobs
within their own slice are not suspended for another; an arrival that
cannot get its slice that way waits like any idle job. The thesis does not
say what happens when the slice ends; here the job gives the processors
back: if any job it suspended is still suspended, it is suspended itself,
and otherwise it simply runs on. Idle jobs (queued, or suspended) then
start or resume whenever their processors are free, in decreasing
instantaneous xfactor (a job that has not run yet has an infinite one),
without reservations, and a suspended job only on its own nodes. Only
arrivals preempt. Placement is SS's (`schedsim.policies.selective.Idle`):
a fresh job keeps off the suspended jobs' homes while it can.
"""

from __future__ import annotations

import math
from operator import attrgetter

import numpy as np

from schedsim.model.policy import Decision, Policy, Suspend, View, WakeAt, register
from schedsim.model.view import JobView, State
from schedsim.policies.preemption import minimal_victims, suspend
from schedsim.policies.selective import Idle, home_cores

#: A job's id, as ``map`` takes it (the keys of the suspended jobs, at every pass).
_ID = attrgetter("id")

__all__ = ["ImmediateService", "instantaneous_xfactor"]


def instantaneous_xfactor(job: JobView, now: float) -> float:
    """(wait + run so far) / run so far of an idle ``job`` now; inf if it has not run."""
    done = job.run_time_done
    return (now - job.submit) / done if done > 0 else math.inf


@register("is")
class ImmediateService(Policy, Idle):
    """Immediate Service (Kettimuthu 2003): an arrival runs at once for a slice, suspending others.

    ``quantum`` is the slice in seconds (10 min in seed 000 section 2.3).
    Victims are the running jobs of lowest instantaneous xfactor; see
    `schedsim.policies.immediate` for what happens when the slice ends.
    """

    def __init__(self, quantum: float = 600.0) -> None:
        Idle.__init__(self)
        if not (quantum > 0 and math.isfinite(quantum)):
            raise ValueError(f"quantum must be a positive number of seconds, got {quantum}")
        self.quantum = float(quantum)
        #: job id -> clock time its slice ends, for jobs in their slice.
        self._slice: dict[int, float] = {}
        #: job id -> the jobs it suspended to get its slice.
        self._displaced: dict[int, tuple[JobView, ...]] = {}
        #: Arrivals waiting on a claim: their slice starts when they do.
        self._pending: set[int] = set()
        #: The suspended jobs' ids and their homes' cores per node (as of the last pass).
        self._homes: tuple[tuple[int, ...], np.ndarray] = ((), np.zeros(0, dtype=np.int64))
        #: The held jobs' ids, their homes' nodes and cores end to end, and where each
        #: home starts there (`_fitting`).
        self._held: tuple[tuple[int, ...], np.ndarray, np.ndarray, np.ndarray] | None = None

    def params(self) -> dict[str, float]:
        return {"quantum": self.quantum}

    def _fitting(self, held: list[JobView], avail: np.ndarray) -> list[JobView]:
        """The suspended jobs of ``held`` whose whole home is in ``avail``, in order.

        `schedsim.policies.selective.fits_home` for every job at once: the homes'
        nodes and cores are laid end to end (kept while the same jobs are held: a
        suspended job's home does not change) and checked in one expression, instead
        of one small numpy call per job at every pass (dozens of jobs wait for their
        homes on a loaded log).
        """
        if not held:
            return []
        key = tuple(map(_ID, held))
        if self._held is None or self._held[0] != key:
            homes = [j.home for j in held]
            sizes = [len(h.nodes) for h in homes]  # type: ignore[union-attr]
            self._held = (
                key,
                np.concatenate([h.nodes for h in homes]),  # type: ignore[union-attr]
                np.concatenate([h.cores for h in homes]),  # type: ignore[union-attr]
                np.cumsum([0, *sizes[:-1]]),
            )
        _, nodes, cores, starts = self._held
        fits = np.logical_and.reduceat(avail[nodes] >= cores, starts)
        return [j for j, ok in zip(held, fits.tolist(), strict=True) if ok]

    def schedule(self, view: View) -> list[Decision]:
        now = view.now
        for job in view.ended:
            self._slice.pop(job.id, None)
            self._displaced.pop(job.id, None)
        settled = self.claims.settle(view)
        for s in settled:
            if s.job.id in self._pending:
                self._pending.discard(s.job.id)
                self._slice[s.job.id] = now + self.quantum
        avail = self.claims.avail(view, settled)
        out: list[Decision] = [*settled]

        # Fresh jobs keep off the nodes suspended jobs must re-enter on.
        waiting = [j for j in view.suspended if j.allocation is None]
        key = tuple(map(_ID, waiting))
        if self._homes[0] != key or len(self._homes[1]) != view.nodes:
            self._homes = (key, home_cores(waiting, view.nodes))
        homes = self._homes[1]

        # Slices that ended: give the processors back to the jobs displaced.
        suspended: set[int] | None = None  # the ids suspended now, when first needed
        for job in view.running:
            end = self._slice.get(job.id)
            if end is None or end > now:
                continue
            del self._slice[job.id]
            displaced = self._displaced.pop(job.id, ())
            if suspended is None:
                suspended = {j.id for j in view.suspended}
            if any(v.id in suspended for v in displaced):
                decisions, _ = suspend(view, [job], avail)
                out.extend(decisions)

        # Arrivals get their slice now.
        suspended_now = {d.job.id for d in out if isinstance(d, Suspend)}
        for job in view.arrived:
            if job.state is not State.QUEUED or job.id in self.claims:
                continue
            started = self.start_if_free(job, avail, view, homes)
            if started is not None:
                out.append(started)
                self._slice[job.id] = now + self.quantum
                continue
            cands = sorted(
                (
                    r
                    for r in view.running
                    if r.id not in self._slice
                    and r.id not in suspended_now
                    and r.allocation is not None
                ),
                key=lambda r: (r.instantaneous_xfactor(now), -r.submit, -r.id),
            )
            victims = minimal_victims(job.size, int(avail.sum()), cands)
            if not victims:
                continue  # no slice to be had: it waits like any idle job
            out.extend(self.preempt(job, victims, avail, view))
            suspended_now.update(v.id for v in victims)
            self._displaced[job.id] = tuple(victims)
            if job.id in self.claims:
                self._pending.add(job.id)
            else:
                self._slice[job.id] = now + self.quantum

        # Everyone else, highest instantaneous xfactor first, where there is room.
        # Cores only get fewer during the pass: only the jobs that fit now are tried.
        fresh, held = self.idle(view, {d.job.id for d in out if not isinstance(d, WakeAt)})
        free = int(avail.sum())
        ready = [j for j in fresh if j.size <= free] + self._fitting(held, avail)
        ready.sort(key=lambda j: (-instantaneous_xfactor(j, now), j.submit, j.id))
        for job in ready:
            started = self.start_if_free(job, avail, view, homes)
            if started is not None:
                out.append(started)
        ends = [t for t in self._slice.values() if t > now]
        if ends:
            out.append(WakeAt(min(ends)))
        return out
