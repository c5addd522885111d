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
from schedsim.model.results import Result
from schedsim.model.simulation import Simulation as _ModelSimulation

__all__ = ["Simulation"]


class Simulation(_ModelSimulation):
    """One run: a workload replayed on a machine under a policy, given by name or object.

    ``policy`` is a `Policy` instance or a name `schedsim.app.registry.make`
    resolves (a registered name or a ``module:Class`` spec), built with
    ``params`` (strings are converted by the constructor's type hints).
    ``meta`` is merged into the result's ``meta`` (so written into
    ``summary.json``): what the caller knows of the run that the model does not,
    such as the run id and configuration of a `schedsim.app.study.RunConfig`
    (`RunConfig.record`). Its keys may not be ones the model writes (a ValueError
    when the result is made; a key's value must be JSON-ready for ``summary.json``).
    Every other argument is the model's (`schedsim.model.simulation.Simulation`).
    """

    def __init__(
        self,
        workload: Any,
        policy: Policy | str = "easy",
        *,
        params: Mapping[str, Any] | None = None,
        meta: Mapping[str, Any] | None = None,
        **options: Any,
    ) -> None:
        if meta is not None and not (
            isinstance(meta, Mapping) and all(isinstance(k, str) for k in meta)
        ):
            raise TypeError(f"meta must be a mapping with string keys, got {meta!r}")
        if isinstance(policy, str):
            policy = registry.make(policy, params)
        elif params:
            raise ValueError("params= only applies when the policy is given by name")
        super().__init__(workload, policy, **options)
        self.extra_meta: dict[str, Any] = dict(meta or {})

    def _collect(self, partial: bool) -> Result:
        result = super()._collect(partial)
        clash = sorted(set(self.extra_meta) & set(result.meta))
        if clash:
            raise ValueError(f"meta= would replace the model's own meta keys {clash}")
        result.meta.update(self.extra_meta)
        return result

    def run(self, until: float | None = None, progress: bool = False) -> Result:
        """As the model's `run`; ``progress`` shows a progress bar on the console (rich).

        The bar counts finished jobs for a trace, simulated time for a
        closed-loop population (whose jobs are not known in advance).
        """
        if progress and until is None and self._result is None:
            self._show_progress()
        return super().run(until)

    def _show_progress(self, steps: int = 200) -> None:
        from rich.progress import Progress

        pop = self.population
        if pop is not None:
            first, last, total = 0.0, pop.horizon, steps
        else:
            first, last = self.workload[0].submit, self.workload[-1].submit
            total = len(self.workload)
        with Progress(transient=True) as bar:
            task = bar.add_task(f"{self.policy.name} on {self.workload.name}", total=total)
            for k in range(1, steps + 1):
                until = first + (last - first) * k / steps
                if until > self.now and self.env.peek() <= until:
                    self.advance(until)
                    done = k if pop is not None else len(self.scheduler.finished)
                    bar.update(task, completed=done)
            bar.update(task, completed=total)
