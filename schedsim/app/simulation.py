"""`Simulation` with policies given by name: the facade notebooks and scripts use.

The model's `schedsim.model.simulation.ModelSimulation` takes a policy object;
this subclass, the one ``Simulation``, also takes a registered name (``"easy"``), a plug-in spec
(``"path/to/module.py:ClassName"``, ``"package.module:ClassName"``) and the
policy's parameters, resolved by `schedsim.app.registry`::

    from schedsim import Simulation, load

    Simulation(load("kth"), "easy", params={"order": "sjf"}, seed=1).run()
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from schedsim.app import registry
from schedsim.model.policy import Policy
from schedsim.model.results import Result
from schedsim.model.simulation import ModelSimulation

if TYPE_CHECKING:  # pragma: no cover
    from rich.console import Console

__all__ = ["Simulation"]


class Simulation(ModelSimulation):
    """One run: a workload replayed on a machine under a policy, given by name or object.

    ``policy`` is a `Policy` instance or a name `schedsim.app.registry.make`
    resolves (a registered name or a ``module:Class`` spec), built with
    ``params`` (strings are converted by the constructor's type hints).
    ``meta`` is merged into the result's ``meta`` (so written into
    ``summary.json``): what the caller knows of the run that the model does not,
    such as the run id and configuration of a `schedsim.app.study.RunConfig`
    (`RunConfig.record`). Its keys may not be ones the model writes (a ValueError
    when the result is made; a key's value must be JSON-ready for ``summary.json``).
    Every other argument is the model's (`schedsim.model.simulation.ModelSimulation`).
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

    def run(
        self,
        until: float | None = None,
        progress: bool = False,
        *,
        delay: float = 0.0,
        console: Console | None = None,
    ) -> Result:
        """As the model's `run`; ``progress`` shows a progress bar (rich) on ``console``,
        standard error by default, so that it never mixes with what a command prints.

        The bar counts finished jobs for a trace, simulated time for a
        closed-loop population (whose jobs are not known in advance). It shows
        once the run has taken ``delay`` seconds (a short run shows none: the
        command line waits 2 s) and goes when the run ends, or is stopped.
        """
        if progress and until is None and self._result is None:
            self._show_progress(delay, console)
        return super().run(until)

    def _show_progress(self, delay: float, console: Console | None, steps: int = 200) -> None:
        from rich.console import Console
        from rich.progress import Progress

        pop = self.population
        if pop is not None:
            first, last, total = 0.0, pop.horizon, steps
        else:
            first, last = self.workload[0].submit, self.workload[-1].submit
            total = len(self.workload)
        bar = Progress(transient=True, console=console or Console(stderr=True))
        task = bar.add_task(f"{self.policy.name} on {self.workload.name}", total=total)
        began, shown = time.monotonic(), False
        try:
            for k in range(1, steps + 1):
                until = first + (last - first) * k / steps
                if until > self.now and self.env.peek() <= until:
                    self.advance(until)
                    done = k if pop is not None else len(self.scheduler.finished)
                    bar.update(task, completed=done)
                if not shown and time.monotonic() - began >= delay:
                    bar.start()
                    shown = True
        finally:
            if shown:
                bar.update(task, completed=total)
                bar.stop()
