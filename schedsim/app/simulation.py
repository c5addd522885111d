"""`Simulation` with policies given by name: the facade notebooks and scripts use.

The model's `schedsim.model.simulation.Simulation` takes a policy object;
this subclass also takes a registered name (``"easy"``), a plug-in spec
(``"path/to/module.py:ClassName"``, ``"package.module:ClassName"``) and the
policy's parameters, resolved by `schedsim.app.registry`::

    from schedsim import Simulation, load

    Simulation(load("kth"), "easy", params={"order": "sjf"}, seed=1).run()
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from schedsim.app import registry
from schedsim.model.policy import Policy
from schedsim.model.simulation import Simulation as _ModelSimulation

__all__ = ["Simulation"]


class Simulation(_ModelSimulation):
    """One run: a workload replayed on a machine under a policy, given by name or object.

    ``policy`` is a `Policy` instance or a name `schedsim.app.registry.make`
    resolves (a registered name or a ``module:Class`` spec), built with
    ``params`` (strings are converted by the constructor's type hints).
    Every other argument is the model's (`schedsim.model.simulation.Simulation`).
    """

    def __init__(
        self,
        workload: Any,
        policy: Policy | str = "easy",
        *,
        params: Mapping[str, Any] | None = None,
        **options: Any,
    ) -> None:
        if isinstance(policy, str):
            policy = registry.make(policy, params)
        elif params:
            raise ValueError("params= only applies when the policy is given by name")
        super().__init__(workload, policy, **options)
