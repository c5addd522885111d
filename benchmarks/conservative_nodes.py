"""Conservative backfilling node by node against counting: jobs per second on a whole log.

    python benchmarks/conservative_nodes.py                 # whole KTH-SP2
    python benchmarks/conservative_nodes.py --trace sdsc-sp2 --first 10000

On a machine with memory or partitions conservative backfilling plans node by node
(`schedsim.policies.planning.node_profile`); on identical nodes it counts free cores
(`schedsim.policies.planning.profile`). Three runs of the same log in this process,
each timed with ``time.perf_counter`` around ``ModelSimulation(...).run()``:

- ``count``: the header's machine, plain nodes (the count path);
- ``nodes``: the same nodes as 10 groups (the last takes the rest) of one-core
  nodes with 1 TB each: constrained, so planned node by node, but no job asks for
  memory (the shipped logs give none), so the memory arrays are skipped;
- ``nodes+memory``: the same, every job asking 1 GB per core (SWF field 10): the
  memory is planned too, and never binds (a node has 1 TB), so the schedule is the
  one ``nodes`` makes.

Each line gives seconds, jobs per second, the time over ``count``'s, and the mean wait
(node by node a job keeps the same cores for its whole window, so it can wait where a
count would start it). The count path runs first: its compiled compression is loaded
within that run (`schedsim.policies.planning.conservative.PYTHON_BUDGET`), as it
would be in a run of its own.
"""

from __future__ import annotations

import argparse
import dataclasses
import time

from schedsim.model.machine import Machine, NodeGroup
from schedsim.model.simulation import ModelSimulation
from schedsim.policies.backfilling import Conservative
from schedsim.workloads import catalog, transforms
from schedsim.workloads.workload import Workload

GB = 1024.0**2  # KB


def groups_of(nodes: int, count: int = 10) -> Machine:
    """``nodes`` one-core nodes with 1 TB each, as ``count`` groups (the last the rest)."""
    each = max(nodes // count, 1)
    sizes = [each] * (nodes // each)
    sizes[-1] += nodes - sum(sizes)
    return Machine(tuple(NodeGroup(f"g{k}", n, 1, 1024 * GB) for k, n in enumerate(sizes)))


def with_memory(w: Workload, per_core: float) -> Workload:
    """``w`` with every job asking ``per_core`` KB per core (SWF field 10)."""
    jobs = []
    for j in w:
        swf = j.swf if j.swf is not None else (-1.0,) * 18
        jobs.append(dataclasses.replace(j, swf=(*swf[:9], per_core, *swf[10:])))
    return Workload.from_jobs(jobs, name=w.name, max_procs=w.header.machine_size)


def timed(w: Workload, **machine: object) -> tuple[float, float]:
    """Seconds of one conservative run of ``w`` and its mean wait."""
    t = time.perf_counter()
    jobs = ModelSimulation(w, Conservative(), **machine).run().jobs  # type: ignore[arg-type]
    seconds = time.perf_counter() - t
    return seconds, float((jobs["start"] - jobs["submit"]).mean())


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--trace", default="kth", help="a catalog name (default: kth)")
    parser.add_argument("--first", type=int, default=0, help="only the first N jobs")
    args = parser.parse_args(argv)
    w = catalog.load(args.trace)
    if args.first:
        w = transforms.first(w, args.first)
    size = w.header.machine_size
    assert size is not None, "the log's header gives no machine size"
    machine = groups_of(size)
    runs = {
        "count": timed(w, nodes=size),
        "nodes": timed(w, machine=machine),
        "nodes+memory": timed(with_memory(w, GB), machine=machine),
    }
    base = runs["count"][0]
    groups = len(machine.groups)
    print(f"{args.trace}: {len(w):,} jobs; {size} one-core nodes, {groups} groups of 1 TB each")
    for name, (seconds, wait) in runs.items():
        print(f"  {name:13} {seconds:7.2f} s  {len(w) / seconds:8,.0f} jobs/s  "
              f"{seconds / base:4.1f}x count  mean wait {wait:,.0f} s")  # fmt: skip
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
