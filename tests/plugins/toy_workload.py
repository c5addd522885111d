"""A workload model in one file and one registration (tests/test_workload_models.py).

``workload = "toy"`` makes ``toy_jobs`` jobs of one core each, submitted ``toy_gap``
seconds apart, each running 60 s: what a plug-in model needs to say, and nothing else.
"""

from __future__ import annotations

from schedsim.workloads import models
from schedsim.workloads.job import Job
from schedsim.workloads.workload import Header, Workload


def build(inputs: models.Inputs) -> Workload:
    n = inputs.values.get("toy_jobs") or 3
    gap = inputs.values.get("toy_gap")
    gap = 10.0 if gap is None else gap
    jobs = tuple(Job(i + 1, i * gap, 60.0, 1, 60.0) for i in range(n))
    nodes = inputs.nodes or 4
    return Workload(jobs, Header(max_nodes=nodes, max_procs=nodes), name="toy")


models.register(
    models.WorkloadModel(
        "toy",
        "the toy model",
        build,
        params=(
            models.Declared(
                "toy_jobs",
                int,
                "jobs to make",
                "a number of jobs from 1 to 100",
                default=3,
                unit="jobs",
                check=lambda v: 1 <= v <= 100,
                metavar="N",
            ),
            models.Declared(
                "toy_gap",
                float,
                "seconds between submits",
                "a number of seconds >= 0",
                default=10.0,
                unit="s",
                check=lambda v: v >= 0,
                metavar="S",
            ),
        ),
        machine=models.ModelMachine(nodes=4),
    )
)
