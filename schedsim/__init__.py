"""schedsim: a SimPy simulator of parallel-job scheduling on supercomputers and clusters.

The main API, for notebooks and scripts::

    import schedsim

    kth = schedsim.load("kth")                             # a shipped trace
    result = schedsim.Simulation(kth, "easy", seed=1).run()
    result.summary()

    study = schedsim.load_study("studies/example.toml")  # a parameter study
    schedsim.sweep(study, "results/example")
    schedsim.load_results("results/example").aggregate()

The packages beneath, in layers that never import upwards (README,
"Architecture"): `schedsim.workloads` (job records, SWF, transforms,
workload models), `schedsim.model` (the SimPy world, the View a policy reads
and the decisions it returns), `schedsim.policies` (the policies and their
planning library) and `schedsim.app` (command line, studies, sweeps,
reports). Names here are imported on first use, so ``import schedsim`` stays
cheap.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # pragma: no cover
    from schedsim._version import __version__
    from schedsim.app.report import load_results
    from schedsim.app.simulation import Simulation
    from schedsim.app.study import RunConfig, Study, load_study
    from schedsim.app.sweep import sweep
    from schedsim.model.results import Result, compare
    from schedsim.workloads.catalog import load
    from schedsim.workloads.swf import read_swf, write_swf
    from schedsim.workloads.workload import Workload

#: Public name -> (module, attribute), imported on first access. The version too:
#: reading it from the package metadata imports importlib.metadata (tens of ms).
_API: dict[str, tuple[str, str]] = {
    "__version__": ("schedsim._version", "__version__"),
    "Simulation": ("schedsim.app.simulation", "Simulation"),
    "Result": ("schedsim.model.results", "Result"),
    "compare": ("schedsim.model.results", "compare"),
    "Workload": ("schedsim.workloads.workload", "Workload"),
    "load": ("schedsim.workloads.catalog", "load"),
    "read_swf": ("schedsim.workloads.swf", "read_swf"),
    "write_swf": ("schedsim.workloads.swf", "write_swf"),
    "RunConfig": ("schedsim.app.study", "RunConfig"),
    "Study": ("schedsim.app.study", "Study"),
    "load_study": ("schedsim.app.study", "load_study"),
    "sweep": ("schedsim.app.sweep", "sweep"),
    "load_results": ("schedsim.app.report", "load_results"),
}

__all__ = [
    "Result",
    "RunConfig",
    "Simulation",
    "Study",
    "Workload",
    "__version__",
    "compare",
    "load",
    "load_results",
    "load_study",
    "read_swf",
    "sweep",
    "write_swf",
]


def __getattr__(name: str) -> Any:
    try:
        module, attribute = _API[name]
    except KeyError:
        raise AttributeError(f"module 'schedsim' has no attribute {name!r}") from None
    value = getattr(importlib.import_module(module), attribute)
    globals()[name] = value  # later lookups skip this function
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_API))
