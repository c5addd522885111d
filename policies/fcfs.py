"""First come, first served without backfilling (the reference of seed 004).

Jobs start strictly in submit order (ties by job id): the scheduler starts
queued jobs while the first of them fits the free cores, and stops at the
first one that does not, even when later, smaller jobs would fit. Placement
is first fit (`schedsim.model.cluster.Cluster.first_fit`).
"""

from __future__ import annotations

from schedsim.model.policy import Policy, Start, View, register


@register("fcfs")
class FCFS(Policy):
    """First come, first served, first fit, no backfilling."""

    preempts = False  # every job runs in one stretch, start to end

    def schedule(self, view: View) -> list[Start]:
        free, starts = view.free_cores, []
        for job in view.queue:
            if job.size > free:
                break
            starts.append(Start(job))
            free -= job.size
        return starts
