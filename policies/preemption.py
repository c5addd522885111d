"""What the preemptive policies share: choosing victims, placing jobs, claims.

Seeds 000 and 004 preempt rigid jobs without migration: a suspended job
keeps its nodes as its *home* and may only resume there
(`schedsim.model.policy.Resume`). Four pieces of bookkeeping follow, used by
Selective Suspension (`schedsim.policies.selective_suspension`), Immediate Service
(`schedsim.policies.immediate`) and gang scheduling (`schedsim.policies.gang`):

* a **minimal victim set** (`minimal_victims`, `home_victims`): the jobs a
  job suspends so that it can run, none of which could be left out;
* a **placement** that prefers the victims' cores (`place`): suspending a
  job and then leaving its cores idle would waste the suspension;
* **idle jobs** (`Idle`, for SS, TSS and IS): the queued jobs and the suspended
  ones ready to re-enter, a fresh job placed off the suspended jobs' homes while it
  can (`fit_avoiding`, `home_cores`), a suspended one only on its home (`fits_home`);
* **claims** (`Claims`): with a suspension overhead (seed 000 section 4.1)
  or a context-switch penalty (seed 004 section 2) a suspended job holds
  its cores while its memory is written out. The job that suspended it
  waits for those cores; its claim keeps every other start off the cores
  it will use, and starts (or resumes) it the moment the last victim lets
  go. Without overhead a claim is settled within the pass that makes it.
  Claims follow the view's events (`View.released`, ``ended``,
  ``requeued``) to know when a victim has let go, rather than asking the
  jobs again: a policy holds snapshots, which do not change.

Every free-core array here is per node, like `View.free_per_node`, and
every function leaves its inputs unchanged unless it says otherwise. An
allocation names each node once (`schedsim.model.cluster.Cluster.valid`), so adding
its cores with a fancy-indexed ``+=`` is exact (and much faster than
``np.add.at``).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from functools import cache
from types import ModuleType

import numpy as np

from schedsim.model.cluster import Allocation, first_fit
from schedsim.model.policy import Decision, Resume, Start, Suspend, View
from schedsim.model.view import JobView, State

__all__ = [
    "Claims",
    "Idle",
    "compiled",
    "cores_of",
    "fit_avoiding",
    "fits_home",
    "home_cores",
    "home_victims",
    "minimal_victims",
    "place",
    "suspend",
    "switch_in",
]


@cache
def compiled() -> ModuleType:
    """`schedsim.policies.preemption_kernels`, imported at the first call.

    Numba takes about a second to import, and listing the policies imports this module
    without needing it. An import statement inside a function costs microseconds at
    every call, which the checks of a home, made every pass, would pay hundreds of
    thousands of times a run; a cached call costs a tenth of that.
    """
    return importlib.import_module("schedsim.policies.preemption_kernels")


def cores_of(jobs: Iterable[JobView], nodes: int) -> np.ndarray:
    """Cores per node the jobs' allocations hold."""
    out = np.zeros(nodes, dtype=np.int64)
    for job in jobs:
        alloc = job.allocation
        if alloc is not None:
            out[alloc.nodes] += alloc.cores
    return out


def minimal_victims(need: int, free: int, candidates: Sequence[JobView]) -> list[JobView] | None:
    """Victims from ``candidates`` (most expendable first) that free ``need`` cores.

    Candidates are taken in the order given until ``free`` plus their cores
    reach ``need``; then every chosen job that can be left out is left out,
    the least expendable first, so that no job of the result could be
    spared (seed 000 section 3.3: the set P with f_t + sum of n_k - n_m <
    n_i for every member m). None when all candidates together are not
    enough; an empty list when ``free`` already is.
    """
    if free >= need:
        return []
    chosen: list[JobView] = []
    total = free
    for job in candidates:
        chosen.append(job)
        total += job.size
        if total >= need:
            break
    else:
        return None
    kept: list[JobView] = []
    # The last job taken is always needed; earlier ones may be covered by it.
    for job in reversed(chosen):
        if total - job.size >= need:
            total -= job.size
        else:
            kept.append(job)
    kept.reverse()
    return kept


def home_victims(
    home: Allocation,
    avail: np.ndarray,
    running: Iterable[JobView],
    allowed: Callable[[JobView], bool],
) -> list[JobView] | None:
    """The running jobs a suspended job must suspend to get its own cores back.

    ``avail`` are the cores free to it per node. Jobs holding cores the home
    needs are considered in the order of ``running`` (most expendable
    first); a job that is not ``allowed`` (not a candidate) and whose cores
    are needed makes re-entry impossible (None). With one core per node
    every job on the home nodes must go; with several, a minimal set that
    covers each node's shortfall (seed 000 section 3.3: N_i must lie within
    the free processors and those of the suspended jobs).
    """
    short = np.zeros(len(avail), dtype=np.int64)
    short[home.nodes] = np.maximum(home.cores - avail[home.nodes], 0)
    if not short.any():
        return []
    chosen: list[tuple[JobView, np.ndarray, np.ndarray]] = []
    for job in running:
        alloc = job.allocation
        if alloc is None:
            continue
        give = np.minimum(alloc.cores, short[alloc.nodes])
        if not give.any():
            continue
        if not allowed(job):
            return None
        chosen.append((job, alloc.nodes, alloc.cores))
        short[alloc.nodes] -= give
        if not short.any():
            break
    else:
        return None
    # Leave out any chosen job whose cores the others already make up for.
    freed = np.zeros(len(avail), dtype=np.int64)
    for _, nodes, cores in chosen:
        freed[nodes] += cores
    need = np.zeros(len(avail), dtype=np.int64)
    need[home.nodes] = np.maximum(home.cores - avail[home.nodes], 0)
    kept = []
    for job, nodes, cores in reversed(chosen):
        if (freed[nodes] - cores >= need[nodes]).all():
            freed[nodes] -= cores
        else:
            kept.append(job)
    kept.reverse()
    return kept


def place(
    size: int, avail: np.ndarray, victims: Sequence[JobView], cores_per_node: int
) -> Allocation:
    """Cores for a job that suspends ``victims``: theirs first, then first fit on ``avail``.

    ``avail`` excludes the victims' cores. The caller has checked that
    ``avail`` and the victims together hold at least ``size`` cores.
    """
    theirs = cores_of(victims, len(avail))
    own = int(theirs.sum())
    if own >= size:
        alloc = first_fit(theirs, size, cores_per_node)
        assert alloc is not None
        return alloc
    rest = first_fit(avail, size - own, cores_per_node)
    assert rest is not None, "not enough cores for the placement"
    theirs[rest.nodes] += rest.cores
    nodes = np.flatnonzero(theirs)
    return Allocation(nodes, theirs[nodes])


def fit_avoiding(
    avail: np.ndarray, size: int, cores_per_node: int, avoid: np.ndarray | None
) -> Allocation | None:
    """First fit on ``avail`` that takes the cores in ``avoid`` (per node) only when it must."""
    if cores_per_node == 1 and avoid is not None:
        nodes = compiled().first_fit_avoiding(avail, avoid, size)  # a new array, ascending
        return Allocation.one_core_each(nodes) if len(nodes) else None
    if avoid is None or not avoid.any():
        return first_fit(avail, size, cores_per_node)
    spare = np.maximum(avail - avoid, 0)
    alloc = first_fit(spare, size, cores_per_node)
    if alloc is not None:
        return alloc
    if int(avail.sum()) < size:
        return None
    rest = first_fit(avail - spare, size - int(spare.sum()), cores_per_node)
    assert rest is not None
    take = spare.copy()
    take[rest.nodes] += rest.cores
    nodes = np.flatnonzero(take)
    return Allocation(nodes, take[nodes])


def suspend(
    view: View, victims: Iterable[JobView], avail: np.ndarray, penalty: float = 0.0
) -> tuple[list[Suspend], bool]:
    """Suspensions of ``victims``; adds to ``avail`` the cores freed at once.

    Returns the decisions and whether every victim frees its cores now (no
    write-out): only then may the suspender start in the same pass.
    """
    out, at_once = [], True
    for job in victims:
        out.append(Suspend(job, penalty))
        if view.suspend_cost(job, penalty) > 0:
            at_once = False
        else:
            alloc = job.allocation
            assert alloc is not None
            avail[alloc.nodes] += alloc.cores
    return out, at_once


def switch_in(
    job: JobView,
    victims: Sequence[JobView],
    avail: np.ndarray,
    view: View,
    claims: Claims,
    penalty: float = 0.0,
) -> list[Decision]:
    """Suspend ``victims`` and start (or resume) ``job`` on their cores; updates ``avail``.

    A queued job is placed on the victims' cores first (`place`); a
    suspended one resumes on its home. When a victim must first write out
    its memory (or pay ``penalty``), ``job`` gets a claim instead and
    starts the moment the last victim lets go.
    """
    if job.state is State.SUSPENDED:
        alloc = job.home
        assert alloc is not None
    else:
        alloc = place(job.size, avail, victims, view.cores_per_node)
    staying = [v for v in victims if view.suspend_cost(v, penalty) > 0]
    out: list[Decision] = []
    decisions, at_once = suspend(view, victims, avail, penalty)
    out.extend(decisions)
    held = cores_of(staying, len(avail))
    avail[alloc.nodes] -= np.maximum(alloc.cores - held[alloc.nodes], 0)
    if at_once:
        out.append(Resume(job) if job.state is State.SUSPENDED else Start(job, alloc))
    else:
        claims.add(job, alloc, staying)
    return out


@dataclass(slots=True)
class _Claim:
    job: JobView
    #: Where a queued job will start (a suspended job resumes on its home).
    allocation: Allocation
    #: The jobs whose cores must be let go first, as they were when suspended.
    victims: tuple[JobView, ...]
    #: Whether the claimant resumes (it was suspended) rather than starts.
    resume: bool


class Claims:
    """Jobs waiting for the cores of the jobs they suspended to be written out."""

    def __init__(self) -> None:
        self._claims: dict[int, _Claim] = {}
        #: Victims still writing out: they hold their cores until the view says
        #: they let go (released, ended or requeued).
        self._writing: set[int] = set()

    def ids(self) -> set[int]:
        """The ids of the jobs waiting on a claim."""
        return set(self._claims)

    def __contains__(self, job_id: int) -> bool:
        return job_id in self._claims

    def __len__(self) -> int:
        return len(self._claims)

    def add(self, job: JobView, allocation: Allocation, victims: Iterable[JobView]) -> None:
        """``job`` will start on ``allocation`` (resume, if suspended) once ``victims`` let go.

        ``victims`` are jobs being suspended with a write-out (or writing out
        now): each holds its cores until the view reports it released.
        """
        victims = tuple(victims)
        self._claims[job.id] = _Claim(job, allocation, victims, job.state is State.SUSPENDED)
        self._writing.update(v.id for v in victims)

    def settle(self, view: View) -> list[Start | Resume]:
        """Start or resume every claimant whose victims have all freed their cores.

        Call first in every pass, before `avail`: the decisions are applied in
        order, so the cores they take are gone by the time later decisions
        of the same pass are applied.
        """
        if not self._claims:
            self._writing.clear()
            return []
        writing = self._writing
        for group in (view.released, view.ended, view.requeued):
            for job in group:
                writing.discard(job.id)
        out: list[Start | Resume] = []
        for jid, claim in list(self._claims.items()):
            if any(v.id in writing for v in claim.victims):
                continue
            del self._claims[jid]
            job = claim.job
            out.append(Resume(job) if claim.resume else Start(job, claim.allocation))
        return out

    def avail(self, view: View, settled: Iterable[Start | Resume] = ()) -> np.ndarray:
        """Free cores per node that no claim is waiting for, after ``settled``.

        A claim keeps aside the free cores of its allocation that its
        victims do not already hold (those become free only when they let
        go, and go straight to the claimant).
        """
        avail = view.free_per_node.copy()
        for d in settled:
            alloc = d.allocation if isinstance(d, Start) else d.job.home
            assert alloc is not None
            avail[alloc.nodes] -= alloc.cores
        writing = self._writing
        for claim in self._claims.values():
            alloc = claim.allocation
            held = cores_of((v for v in claim.victims if v.id in writing), len(avail))
            avail[alloc.nodes] -= np.maximum(alloc.cores - held[alloc.nodes], 0)
        return avail


# -- idle jobs, placed off the suspended jobs' homes ---------------------------------


def fits_home(avail: np.ndarray, job: JobView) -> bool:
    """Whether every core of suspended ``job``'s home is in ``avail``.

    Compiled (`schedsim.policies.preemption_kernels.home_fits`): the idle jobs are
    offered every pass, and numpy's three calls on a home cost several times its check.
    """
    home = job.home
    assert home is not None
    return bool(compiled().home_fits(avail, home.nodes, home.cores))


def home_cores(jobs: Sequence[JobView], nodes: int) -> np.ndarray:
    """Cores per node of the homes of suspended ``jobs``."""
    out = np.zeros(nodes, dtype=np.int64)
    for job in jobs:
        home = job.home
        assert home is not None
        out[home.nodes] += home.cores
    return out


class Idle:
    """Idle jobs and what starting them costs: the part SS, TSS and IS share."""

    def __init__(self) -> None:
        self.claims = Claims()

    def idle(self, view: View, skip: set[int] | None = None) -> tuple[list[JobView], list[JobView]]:
        """Queued jobs, and suspended jobs done writing out; none on a claim or in ``skip``."""
        skip = self.claims.ids() | (skip or set())
        if skip:
            fresh = [j for j in view.queue if j.id not in skip]
            held = [j for j in view.suspended if j.allocation is None and j.id not in skip]
        else:
            fresh = list(view.queue)
            held = [j for j in view.suspended if j.allocation is None]
        return fresh, held

    @staticmethod
    def start_if_free(
        job: JobView, avail: np.ndarray, view: View, homes: np.ndarray | None = None
    ) -> Start | Resume | None:
        """Start a queued job or resume a suspended one, if its cores are free.

        A queued job is placed first fit, but on the cores of no suspended
        job's home (``homes``, cores per node) while others are free, so
        that it does not keep a suspended job from re-entering: the thesis
        leaves placement open, and re-entry on the same nodes is the
        scheme's bottleneck on a distributed-memory machine. Takes the
        cores from ``avail``.
        """
        if job.state is State.SUSPENDED:
            if not fits_home(avail, job):
                return None
            home = job.home
            assert home is not None
            avail[home.nodes] -= home.cores
            return Resume(job)
        alloc = fit_avoiding(avail, job.size, view.cores_per_node, homes)
        if alloc is None:
            return None
        avail[alloc.nodes] -= alloc.cores
        return Start(job, alloc)

    def preempt(
        self, job: JobView, victims: Sequence[JobView], avail: np.ndarray, view: View
    ) -> list[Decision]:
        """Suspend ``victims`` and start (or resume) ``job`` on their cores (`switch_in`)."""
        return switch_in(job, victims, avail, view, self.claims)
