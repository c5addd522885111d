"""First come, first served without backfilling (the reference of seed 004).

Jobs start strictly in submit order (ties by job id): the scheduler starts
queued jobs while the first of them fits the free cores, and stops at the
first one that does not, even when later, smaller jobs would fit. Placement
is first fit (`schedsim.model.cluster.Cluster.first_fit`).
"""

from __future__ import annotations

from schedsim.model.machine import Machine
from schedsim.model.policy import Policy, Start, View, register
from schedsim.policies.planning.nodes import Demand, Room


@register("fcfs")
class FCFS(Policy):
    """First come, first served, first fit, no backfilling."""

    preempts = False  # every job runs in one stretch, start to end

    def check_machine(self, machine: Machine) -> None:
        """Any machine: on node groups, memory or partitions each job is placed on its
        partition's nodes with its memory (`schedsim.policies.planning.nodes`), in the
        same strict order (a job that does not fit stops the queue, whatever its
        partition)."""

    def check_outages(self, windows: bool, machine: Machine | None) -> None:
        """Any outages: the free cores are read afresh at every pass. FCFS does not plan,
        so it does not plan around maintenance windows either: the scheduler places a
        job off the nodes of a window it would run into where it can, and a window
        kills the jobs still on its nodes when it opens."""

    def schedule(self, view: View) -> list[Start]:
        if view.machine is not None and view.machine.constrained:
            return self._on_nodes(view)
        free, starts = view.free_cores, []
        for job in view.queue:
            if job.size > free:
                break
            starts.append(Start(job))
            free -= job.size
        return starts

    def _on_nodes(self, view: View) -> list[Start]:
        assert view.machine is not None
        room, starts = Room.of(view), []
        for job in view.queue:
            d = Demand.of(view.machine, job)
            alloc = room.place(d)
            if alloc is None:
                break
            room.take(alloc, d)
            starts.append(Start(job, allocation=alloc))
        return starts
