"""Planning around node outages (`schedsim.model.outages`): a plan node by node that
knows which nodes are out, until when, and which the maintenance windows will take.

A plan of the running jobs (`schedsim.policies.planning.node_profile.NodeProfile`)
built from a view's free cores lacks the nodes out now, for good. `node_plan` puts
each node of an outage back and blocks it over the union of its outages instead
(`NodeProfile.block`): a node out now returns at the end of the last outage that holds
it, and a node up now leaves the plan over each window ahead. A failed node's repair
time is unknown (its outage ends at inf in the view): it stays blocked until it
returns, when the policy plans again.

Why node by node: a count of free cores over time says a job fits when enough cores
are free throughout its run, but a job keeps the nodes it starts on, and a window
takes particular nodes; a job that starts when only a window's nodes are free would
run into the window though the count of cores never ran short. A plan of nodes
places it where it can stay, or not yet.
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np

from schedsim.model.machine import Machine, job_memory
from schedsim.model.view import View
from schedsim.policies.planning.node_profile import Held, NodeProfile
from schedsim.policies.planning.profile import planned_end

__all__ = ["machine_of", "node_plan", "outage_spans", "running_held", "windows_announced"]


def windows_announced(view: View) -> bool:
    """Whether the view shows a maintenance window (under way or ahead)."""
    return any(o.planned for o in view.outages)


def machine_of(view: View) -> Machine:
    """The view's machine: its `Machine`, or identical nodes as one group."""
    if view.machine is not None:
        return view.machine
    return Machine.uniform(view.nodes, view.cores_per_node)


def running_held(view: View) -> list[Held]:
    """The view's running jobs as a plan reads them: planned end, cores, KB per core."""
    now = view.now
    return [
        (planned_end(j.expected_end, now), j.allocation, job_memory(j.job))
        for j in view.running
        if j.allocation is not None
    ]


def outage_spans(view: View) -> dict[int, list[tuple[float, float]]]:
    """Each node of the view's outages, and the union of its outages from now on as
    disjoint intervals in order (a failure's to inf)."""
    now = view.now
    spans: dict[int, list[tuple[float, float]]] = {}
    for outage in view.outages:
        for node in outage.nodes:
            spans.setdefault(node, []).append((max(outage.start, now), outage.end))
    return {node: _union(intervals) for node, intervals in sorted(spans.items())}


def node_plan(view: View, running: Iterable[Held]) -> NodeProfile:
    """The plan node by node of the running jobs (`NodeProfile.of_running`) with the
    view's outages blocked (module docstring)."""
    machine = machine_of(view)
    spans = outage_spans(view)
    free = view.free_per_node.copy()
    memory = None if view.free_memory is None else view.free_memory.copy()
    out = [node for node, merged in spans.items() if merged[0][0] <= view.now]
    if out:
        # A node out now holds no job (its jobs were killed): all of it is back once its
        # outages are over, which the blocks below say.
        free[out] = machine.capacity[out]
        if memory is not None and machine.memory is not None:
            memory[out] = machine.memory[out]
    plan = NodeProfile.of_running(machine, view.now, free, memory, running)
    for node, merged in spans.items():
        for start, end in merged:
            plan.block(np.array([node]), start, end)
    return plan


def _union(intervals: list[tuple[float, float]]) -> list[tuple[float, float]]:
    """The union of ``intervals`` as disjoint intervals in order."""
    out: list[tuple[float, float]] = []
    for start, end in sorted(intervals):
        if out and start <= out[-1][1]:
            out[-1] = (out[-1][0], max(out[-1][1], end))
        else:
            out.append((start, end))
    return out
