"""Immediate Service (IS, seed 000 section 2.3): every arrival runs at once for a slice.

The thesis's related work (section 2.3, after Chiang and Vernon's study of
shared-memory machines) describes IS: "each arriving job was given an
immediate time-slice of 10 minutes, by suspending one or more running jobs
if needed", choosing those of lowest instantaneous xfactor, (wait + total
accumulated run time) / total accumulated run time. The thesis compares SS
(`schedsim.policies.selective_suspension.rule`) against it, on a distributed-memory
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
arrivals preempt. Placement is SS's (`schedsim.policies.preemption.Idle`):
a fresh job keeps off the suspended jobs' homes while it can.
"""

from __future__ import annotations

import math
from collections.abc import Iterable

import numpy as np

from schedsim.model.cluster import Allocation
from schedsim.model.policy import Decision, Policy, Resume, Suspend, View, WakeAt, register
from schedsim.model.view import JobView, State
from schedsim.policies.preemption import Idle, compiled, minimal_victims, suspend

__all__ = ["ImmediateService", "instantaneous_xfactor"]

#: No homes (int64, as the homes' arrays).
_NONE = np.zeros(0, dtype=np.int64)
#: The need a struck-out home is checked on first (`_Homes.drop`): more than any node holds.
_STRUCK = np.iinfo(np.int64).max


def instantaneous_xfactor(job: JobView, now: float) -> float:
    """(wait + run so far) / run so far of an idle ``job`` now; inf if it has not run."""
    done = job.run_time_done
    return (now - job.submit) / done if done > 0 else math.inf


class _Homes:
    """The homes of the suspended jobs done writing out, in suspension order: their
    cores per node, and their nodes and cores laid end to end for the compiled check
    of which fit (`schedsim.policies.preemption_kernels.homes_fitting`).

    On a loaded log hundreds of jobs wait suspended for their homes (about 500 on
    CTC-SP2, 50,000 nodes laid end to end), and a few come or go at a time. Copying
    the arrays at every change was a tenth of IS's time, so a home that goes is only
    struck out: the need it is checked on first is made more than any node holds, and
    the check leaves it at once. The arrays are made again without the struck-out
    homes once these are half of them (of the homes, or of their nodes), and grow by
    doubling: a change costs about its own homes' size.
    """

    def __init__(self, nodes: int) -> None:
        #: Cores per node of the homes (for placing fresh jobs off them).
        self.per_node = np.zeros(nodes, dtype=np.int64)
        #: Slot -> job, None once struck out; job id -> slot of those not struck out.
        self._jobs: list[JobView | None] = []
        self._slot: dict[int, int] = {}
        #: The homes' nodes and cores end to end (``_used`` of them are set), where
        #: each slot's home starts, and the node the check last found it short on and
        #: the cores it needs there (`homes_fitting` looks there first); ``_gone`` of
        #: the entries are struck out.
        self._nodes = _NONE
        self._cores = _NONE
        self._starts = _NONE
        self._short_node = _NONE
        self._short_need = _NONE
        self._used = 0
        self._gone = 0

    def __len__(self) -> int:
        return len(self._slot)

    def __contains__(self, job_id: int) -> bool:
        return job_id in self._slot

    def jobs(self) -> list[JobView]:
        """The jobs whose homes these are, in suspension order."""
        return [j for j in self._jobs if j is not None]

    def add(self, jobs: Iterable[JobView]) -> None:
        """The homes of ``jobs`` (suspended, done writing out) at the end."""
        for job in jobs:
            home = self._lay(job)
            self.per_node[home.nodes] += home.cores  # (a home's nodes differ)

    def drop(self, ids: Iterable[int]) -> None:
        """Strike out the homes of the jobs ``ids``."""
        for job_id in ids:
            slot = self._slot.pop(job_id)
            job = self._jobs[slot]
            assert job is not None and job.home is not None
            home = job.home
            self.per_node[home.nodes] -= home.cores
            self._short_need[slot] = _STRUCK
            self._jobs[slot] = None
            self._gone += len(home.nodes)
        # (Many small homes may go while a few large ones stay: either half counts.)
        if 2 * self._gone > self._used or 2 * len(self._slot) < len(self._jobs):
            self._rebuild()

    def fitting(self, avail: np.ndarray) -> list[JobView]:
        """The jobs whose whole home is in ``avail``, in suspension order."""
        if not self._slot:
            return []
        used, count = self._used, len(self._jobs)
        fits = compiled().homes_fitting(
            avail,
            self._nodes[:used],
            self._cores[:used],
            self._starts[:count],
            self._short_node,
            self._short_need,
        )
        return list(map(self._jobs.__getitem__, fits.tolist()))  # type: ignore[arg-type]

    def _lay(self, job: JobView) -> Allocation:
        """``job``'s home laid at the end of the arrays; returns it."""
        home = job.home
        assert home is not None
        slot, first = len(self._jobs), self._used
        end = first + len(home.nodes)
        self._reserve(slot + 1, end)
        self._nodes[first:end] = home.nodes
        self._cores[first:end] = home.cores
        self._starts[slot] = first
        self._short_node[slot] = home.nodes[0]
        self._short_need[slot] = home.cores[0]
        self._used = end
        self._jobs.append(job)
        self._slot[job.id] = slot
        return home

    def _reserve(self, slots: int, entries: int) -> None:
        """Room for ``slots`` homes of ``entries`` nodes in all, doubling what is short."""
        if entries > len(self._nodes):
            size = max(entries, 2 * len(self._nodes))
            self._nodes = _grown(self._nodes, size, self._used)
            self._cores = _grown(self._cores, size, self._used)
        if slots > len(self._starts):
            size = max(slots, 2 * len(self._starts))
            self._starts = _grown(self._starts, size, len(self._jobs))
            self._short_node = _grown(self._short_node, size, len(self._jobs))
            self._short_need = _grown(self._short_need, size, len(self._jobs))

    def _rebuild(self) -> None:
        """The arrays made again, in place, from the homes not struck out (in order)."""
        count, used = len(self._jobs), self._used
        live = np.array([j is not None for j in self._jobs], dtype=bool)
        sizes = np.diff(self._starts[:count], append=used)
        keep = np.repeat(live, sizes)
        used = used - self._gone
        self._nodes[:used] = self._nodes[: self._used][keep]
        self._cores[:used] = self._cores[: self._used][keep]
        sizes, slots = sizes[live], int(live.sum())
        self._starts[:slots] = np.cumsum(sizes) - sizes
        self._short_node[:slots] = self._short_node[:count][live]
        self._short_need[:slots] = self._short_need[:count][live]
        self._jobs = [j for j in self._jobs if j is not None]
        self._slot = {j.id: slot for slot, j in enumerate(self.jobs())}
        self._used, self._gone = used, 0


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
        #: The view's suspended jobs at the last pass, and the homes of those done
        #: writing out (`_suspended_now`; made at the first pass, which tells the nodes).
        self._suspended: tuple[JobView, ...] | None = None
        self._homes: _Homes | None = None
        #: The ids of the view's suspended jobs at the last pass (writing out or not).
        self._ids: set[int] = set()
        #: The jobs the last pass suspended (in decision order) and the ids it
        #: resumed: what changed the tuple since, without an overhead (`_suspended_now`).
        self._changes: tuple[list[JobView], set[int]] | None = None

    def params(self) -> dict[str, float]:
        return {"quantum": self.quantum}

    def _suspended_now(self, view: View) -> _Homes:
        """The homes of the suspended jobs done writing out, brought up to this pass.

        The scheduler makes the view's tuple of suspended jobs anew only when one
        is suspended, resumes, leaves or finishes writing out its memory; most
        passes (an arrival, an end elsewhere) see the same tuple, and then nothing
        here is made again. On a loaded log hundreds of jobs wait suspended for
        their homes, and walking them whenever the tuple changes (one pass in
        twelve on CTC) was a fifth of IS's time. Without a suspension overhead only
        this policy's own decisions change it, so the last pass's suspensions and
        resumptions (`_changes`) say what changed, and only those homes are
        touched (`_apply_changes`); otherwise, or when the tuple is not what they
        make, it is compared with the last one (`_compare`).
        """
        suspended = view.suspended
        changes, self._changes = self._changes, None
        homes = self._homes
        if homes is None or len(homes.per_node) != view.nodes:
            self._homes = homes = _Homes(view.nodes)
            self._ids = set()
        elif suspended is self._suspended:
            return homes
        if changes is None or not self._apply_changes(view, homes, *changes):
            self._compare(view, homes)
        self._suspended = suspended
        return homes

    def _apply_changes(
        self, view: View, homes: _Homes, added: list[JobView], resumed: set[int]
    ) -> bool:
        """The last pass's suspensions (``added``, in decision order) and resumptions
        onto the homes; False, with nothing changed, unless the view's tuple is what
        they make of the last one: the jobs that stayed, then those added."""
        suspended = view.suspended
        stay = len(homes) - len(resumed)
        if (
            view.overhead is not None
            or len(suspended) != stay + len(added)
            or not all(i in homes for i in resumed)
        ):
            return False
        new = suspended[stay:]
        if any(a.id != b.id for a, b in zip(new, added, strict=True)) or any(
            j.allocation is not None for j in new
        ):
            return False
        homes.drop(resumed)
        homes.add(new)
        self._ids.difference_update(resumed)
        self._ids.update(j.id for j in new)
        return True

    def _compare(self, view: View, homes: _Homes) -> None:
        """The homes brought up to the view's tuple by comparing it with the last one.

        The tuple keeps its order (the order of suspension), so a change mostly
        drops some homes and adds new ones at the end: only those are then touched.
        """
        suspended = view.suspended
        self._ids = {j.id for j in suspended}
        waiting = [j for j in suspended if j.allocation is None]
        still = {j.id for j in waiting}
        old = homes.jobs()
        kept = [j for j in old if j.id in still]
        if not all(a.id == b.id for a, b in zip(waiting, kept, strict=False)):
            kept = []  # a job done writing out joins in the middle: all laid again
        stays = {j.id for j in kept}
        homes.drop([j.id for j in old if j.id not in stays])
        homes.add(waiting[len(kept) :])

    def _slices_ended(self, view: View) -> list[JobView]:
        """The running jobs whose slice has ended by now, in the view's order.

        Every job in its slice is running, and entered the running jobs within a
        slice of now: they are looked for from the end of the running jobs, until
        all are found (most passes end none and walk no running job).
        """
        now = view.now
        due = {job_id for job_id, end in self._slice.items() if end <= now}
        found: list[JobView] = []
        for job in reversed(view.running) if due else ():
            if job.id in due:
                found.append(job)
                if len(found) == len(due):
                    break
        found.reverse()
        return found

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
        waiting = self._suspended_now(view)
        homes = waiting.per_node

        # Slices that ended: give the processors back to the jobs displaced.
        for job in self._slices_ended(view):
            del self._slice[job.id]
            displaced = self._displaced.pop(job.id, ())
            if any(v.id in self._ids for v in displaced):
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
        # (Most passes have no queue: the free cores are counted only for one.)
        skip = self.claims.ids() | {d.job.id for d in out if not isinstance(d, WakeAt)}
        fresh: list[JobView] = []
        if view.queue:
            free = int(avail.sum())
            fresh = [j for j in view.queue if j.size <= free and j.id not in skip]
        ready = fresh + [j for j in waiting.fitting(avail) if j.id not in skip]
        ready.sort(key=lambda j: (-instantaneous_xfactor(j, now), j.submit, j.id))
        for job in ready:
            started = self.start_if_free(job, avail, view, homes)
            if started is not None:
                out.append(started)
        ends = [t for t in self._slice.values() if t > now]
        if ends:
            out.append(WakeAt(min(ends)))
        self._changes = (
            [d.job for d in out if isinstance(d, Suspend)],
            {d.job.id for d in out if isinstance(d, Resume)},
        )
        return out


def _grown(array: np.ndarray, size: int, keep: int) -> np.ndarray:
    """A new array of ``size`` with the first ``keep`` entries of ``array``."""
    out = np.empty(size, dtype=np.int64)
    out[:keep] = array[:keep]
    return out
