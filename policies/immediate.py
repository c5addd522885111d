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
from collections.abc import Sequence
from itertools import compress

import numpy as np

from schedsim.model.policy import Decision, Policy, Resume, Suspend, View, WakeAt, register
from schedsim.model.view import JobView, State
from schedsim.policies.preemption import Idle, minimal_victims, suspend

__all__ = ["ImmediateService", "instantaneous_xfactor"]

#: No homes (int64, as the homes' arrays).
_NONE = np.zeros(0, dtype=np.int64)


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
        #: The view's suspended jobs at the last pass, and what is derived from them
        #: (`_suspended_now`): those done writing out, their homes' cores per node, and
        #: their homes' nodes and cores end to end with each home's size and start there.
        self._suspended: tuple[JobView, ...] | None = None
        self._waiting: list[JobView] = []
        self._homes = np.zeros(0, dtype=np.int64)
        self._home_nodes = np.zeros(0, dtype=np.int64)
        self._home_cores = np.zeros(0, dtype=np.int64)
        self._home_starts = np.zeros(0, dtype=np.int64)
        self._home_sizes = np.zeros(0, dtype=np.int64)
        #: The ids of the view's suspended jobs at the last pass (writing out or not).
        self._ids: set[int] = set()
        #: The jobs the last pass suspended (in decision order) and the ids it
        #: resumed: what changed the tuple since, without an overhead (`_suspended_now`).
        self._changes: tuple[list[JobView], set[int]] | None = None
        #: Job id -> place in ``_waiting`` of the jobs `_fitting` offered this pass.
        self._offered: dict[int, int] = {}

    def params(self) -> dict[str, float]:
        return {"quantum": self.quantum}

    def _suspended_now(self, view: View) -> None:
        """Bring the suspended jobs' homes up to this pass.

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
        if suspended is self._suspended and len(self._homes) == view.nodes:
            return
        if changes is None or not self._apply_changes(view, *changes):
            self._compare(view)
        self._suspended = suspended
        self._home_starts = np.cumsum(self._home_sizes) - self._home_sizes

    def _apply_changes(self, view: View, added: list[JobView], resumed: set[int]) -> bool:
        """The last pass's suspensions (``added``, in decision order) and resumptions
        onto the homes; False, with nothing changed, unless the view's tuple is what
        they make of the last one: the jobs that stayed, then those added."""
        suspended = view.suspended
        waiting = self._waiting
        stay = len(waiting) - len(resumed)
        if (
            view.overhead is not None
            or len(self._homes) != view.nodes
            or len(suspended) != stay + len(added)
            or not resumed <= self._ids
        ):
            return False
        new = suspended[stay:]
        if any(a.id != b.id for a, b in zip(new, added, strict=True)) or any(
            j.allocation is not None for j in new
        ):
            return False
        if resumed:
            # Only jobs `_fitting` offered resume, so their places are known.
            where = self._offered
            if not all(i in where for i in resumed):
                return False
            gone = sorted(where[i] for i in resumed)
            self._drop(gone)
            for k in reversed(gone):
                del waiting[k]
            self._ids.difference_update(resumed)
        self._add(new, view)
        self._waiting.extend(new)
        self._ids.update(j.id for j in new)
        return True

    def _compare(self, view: View) -> None:
        """The homes brought up to the view's tuple by comparing it with the last one.

        The tuple keeps its order (the order of suspension), so a change mostly
        drops some homes and adds new ones at the end: only those are then touched.
        """
        suspended = view.suspended
        self._ids = {j.id for j in suspended}
        old = self._waiting
        waiting = self._waiting = [j for j in suspended if j.allocation is None]
        still = {j.id for j in waiting}
        keep = [j.id in still for j in old]
        kept = sum(keep)
        in_order = len(self._homes) == view.nodes and all(
            a.id == b.id for a, b in zip(waiting, compress(old, keep), strict=False)
        )
        if not in_order:  # a job done writing out joins in the middle: made again
            self._homes = np.zeros(view.nodes, dtype=np.int64)
            self._home_nodes = self._home_cores = self._home_sizes = _NONE
            kept = 0
        elif kept < len(old):
            self._drop([k for k, stays in enumerate(keep) if not stays])
        self._add(waiting[kept:], view)

    def _drop(self, gone: list[int]) -> None:
        """The homes laid end to end, but those at places ``gone`` (ascending): the
        stretches between theirs are joined (a few of hundreds go, most often one)."""
        homes, nodes, cores = self._homes, self._home_nodes, self._home_cores
        kept_nodes, kept_cores = [], []
        end = 0
        for first, size in zip(
            self._home_starts[gone].tolist(), self._home_sizes[gone].tolist(), strict=True
        ):
            kept_nodes.append(nodes[end:first])
            kept_cores.append(cores[end:first])
            end = first + size
            homes[nodes[first:end]] -= cores[first:end]  # (a home's nodes differ)
        kept_nodes.append(nodes[end:])
        kept_cores.append(cores[end:])
        self._home_nodes = np.concatenate(kept_nodes)
        self._home_cores = np.concatenate(kept_cores)
        self._home_sizes = np.delete(self._home_sizes, gone)

    def _add(self, jobs: Sequence[JobView], view: View) -> None:
        """The homes of ``jobs`` laid at the end."""
        homes = [j.home for j in jobs]
        if not homes:
            return
        nodes = np.concatenate([h.nodes for h in homes])  # type: ignore[union-attr]
        cores = np.concatenate([h.cores for h in homes])  # type: ignore[union-attr]
        sizes = np.array([len(h.nodes) for h in homes], dtype=np.int64)  # type: ignore[union-attr]
        self._homes += self._per_node(nodes, cores, view)
        self._home_nodes = np.concatenate([self._home_nodes, nodes])
        self._home_cores = np.concatenate([self._home_cores, cores])
        self._home_sizes = np.concatenate([self._home_sizes, sizes])

    @staticmethod
    def _per_node(nodes: np.ndarray, cores: np.ndarray, view: View) -> np.ndarray:
        """Cores per node of homes laid end to end (`schedsim.policies.preemption.home_cores`)."""
        return np.bincount(nodes, weights=cores, minlength=view.nodes).astype(np.int64)

    def _fitting(self, avail: np.ndarray, skip: set[int]) -> list[JobView]:
        """The suspended jobs done writing out whose whole home is in ``avail``, in
        suspension order, but those in ``skip``.

        `schedsim.policies.preemption.fits_home` for every job at once, in one compiled
        loop over the homes laid end to end (`schedsim.policies.preemption_kernels.homes_fitting`):
        a hundred homes of dozens of nodes each wait on a loaded log, and most fail at
        their first busy node.
        """
        if not self._waiting:
            self._offered = {}
            return []
        from schedsim.policies.preemption_kernels import homes_fitting

        fits = homes_fitting(avail, self._home_nodes, self._home_cores, self._home_starts)
        waiting = self._waiting
        places = fits.tolist()
        offered = [j for j in map(waiting.__getitem__, places) if j.id not in skip]
        # Where each is, for `_apply_changes` at the next pass (only these may resume).
        self._offered = {waiting[k].id: k for k in places}
        return offered

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
        self._suspended_now(view)
        homes = self._homes

        # Slices that ended: give the processors back to the jobs displaced. (Every job
        # in its slice is running: most passes see none ended and walk no running job.)
        due = any(end <= now for end in self._slice.values())
        for job in view.running if due else ():
            end = self._slice.get(job.id)
            if end is None or end > now:
                continue
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
        skip = self.claims.ids() | {d.job.id for d in out if not isinstance(d, WakeAt)}
        free = int(avail.sum())
        fresh = [j for j in view.queue if j.size <= free and j.id not in skip]
        if free:
            ready = fresh + self._fitting(avail, skip)
        else:  # no core free: no home fits either, and none is looked at
            ready = []
            self._offered = {}
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
