"""The workload models a run may name, each with its declared parameters.

A run's workload is a trace (a shipped log, an archive log, an SWF or Parquet file:
`schedsim.workloads.catalog`) or a model that generates one. Each model registers
itself here, in the module that holds its generator, with

- its name (what ``workload = "NAME"`` and ``schedsim run --workload NAME`` say),
- the parameters it takes as configuration keys of their own (`Declared`: name,
  type, unit, default, help and bounds; ``jobs``, ``lublin_alpha``),
- the generator whose remaining keyword parameters the ``workload_params`` table
  reaches (`schedsim.app.param_tables`), and the machine it is made for,
- a build function from the run's seed, machine and those values to the `Workload`.

The application layer reads nothing else about a model: the study file's validation
(a key a model does not declare "applies only to" the ones that do), ``schedsim run``'s
options (``--jobs``, ``--lublin-alpha``: one per declared key, in the workload group
of ``--help``) and `RunConfig.build_workload`'s dispatch are made from the registry.
So a new model is one file and one `register` call; a study or a command line
loads it with ``imports = ["my_model"]`` / ``--import my_model``.

This module is light (no numpy): ``schedsim run --help`` reads the declarations.
The built-in models register when their modules are first imported, which
`registered` does on first use (`_BUILTINS`).
"""

from __future__ import annotations

import importlib
import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # pragma: no cover
    from schedsim.workloads.workload import Workload

__all__ = [
    "MAX_JOBS",
    "Declared",
    "Inputs",
    "ModelMachine",
    "WorkloadModel",
    "declarations",
    "get",
    "register",
    "registered",
]

#: Most jobs a run generates (``jobs``), keeps (``first``) or needs of a trace user
#: (``user_params.min_jobs``): eight times the largest run of the growth benchmark
#: (1,280,000 generated jobs) and forty times the longest log the project replays
#: (250,000 jobs); a workload of that size already takes gigabytes of memory.
#: (`schedsim.app.limits` holds the other bounds and re-exports this one.)
MAX_JOBS = 10_000_000

#: The modules whose import registers the built-in models, in listing order.
_BUILTINS = ("schedsim.workloads.lublin", "schedsim.workloads.multicore")


def _always(value: Any) -> bool:
    return True


@dataclass(frozen=True)
class Declared:
    """One declared parameter: a configuration key of its own (a flat key of the study
    file, an option of ``schedsim run``).

    ``kind`` is the value's type (bool, int or float; an int stands for a float, a bool
    for neither); ``default`` the value the model uses when the key is left out (None
    unset: what the model does then, ``default_text`` says); ``unit`` is printed after
    values in help; ``check`` bounds the value beyond its type and ``expects`` says
    what it expects, as an error names it (``expected EXPECTS, got VALUE``);
    ``metavar`` names the value in ``--help``.
    """

    name: str
    kind: type
    help: str
    expects: str
    default: Any = None
    default_text: str = ""
    unit: str = ""
    check: Callable[[Any], bool] = _always
    metavar: str = "X"

    @property
    def option(self) -> str:
        """The ``schedsim run`` option: ``--`` and the name with dashes."""
        return "--" + self.name.replace("_", "-")

    def accepts(self, value: Any) -> bool:
        """Whether ``value`` is of the declared type and within the bounds (NaN is not)."""
        if isinstance(value, bool) and self.kind is not bool:
            return False
        if self.kind is float:
            ok = isinstance(value, (int, float)) and not math.isnan(value)
        else:
            ok = isinstance(value, self.kind)
        return ok and self.check(value)

    def convert(self, value: Any) -> Any:
        """The canonical value: a float for a float parameter (``2`` and ``2.0`` are one)."""
        return float(value) if self.kind is float and value is not None else value

    def describe(self) -> str:
        """The help line: what it is, its default and unit."""
        default = self.default_text or (
            f"{self.default:g}" if isinstance(self.default, (int, float)) else ""
        )
        unit = f" {self.unit}" if self.unit and default else ""
        return f"{self.help} (default {default}{unit})" if default else self.help


@dataclass(frozen=True)
class ModelMachine:
    """The machine a model is made for: ``nodes`` when the run leaves them unset; and
    ``cores_per_node`` when it is the only value the model takes (the run's default, 1,
    is then taken as it), else None (any)."""

    nodes: int
    cores_per_node: int | None = None


#: The earlier name of `ModelMachine`, kept for workload models written against it (not
#: to be confused with `schedsim.model.machine.Machine`, a run's machine of node groups).
Machine = ModelMachine


@dataclass(frozen=True)
class Inputs:
    """What a model's build function gets: the run's ``seed``, its machine (``nodes``
    None when the run leaves it to the model) and the values of the model's declared
    parameters (None when left out) and of its generator's ``workload_params``."""

    seed: int
    nodes: int | None
    cores_per_node: int
    values: Mapping[str, Any]
    generator: Mapping[str, Any]


@dataclass(frozen=True)
class WorkloadModel:
    """A registered workload model (module docstring).

    ``what`` names it in errors ("applies only to the Lublin-Feitelson model");
    ``params`` are its declared parameters; ``generator`` is the callable whose other
    keyword parameters ``workload_params`` reaches, with ``withheld`` those it may not
    (the parameter -> why: the key that sets it); ``build`` makes the workload.
    """

    name: str
    what: str
    build: Callable[[Inputs], Workload]
    params: tuple[Declared, ...] = ()
    machine: ModelMachine = field(default_factory=lambda: ModelMachine(nodes=128))
    generator: Callable[..., Any] | None = None
    withheld: Mapping[str, str] = field(default_factory=dict)
    help: str = ""


_MODELS: dict[str, WorkloadModel] = {}
_loaded = False


def register(model: WorkloadModel) -> WorkloadModel:
    """Make ``model`` a workload a run may name (lower-case names; case-insensitive).

    A declared parameter another model declares too (``jobs``) must be declared the
    same way: the key means one thing in a study file. ValueError otherwise, and for a
    name taken by another model or by a shipped trace. The same model registered again
    from the same code (its build function of the same module and qualified name: a
    notebook cell run twice) replaces the first registration."""
    from schedsim.workloads.catalog import SHIPPED

    name = model.name.strip().lower()
    if name != model.name:
        raise ValueError(f"workload model {model.name!r}: names are lower-case, unpadded")
    if name in SHIPPED:
        raise ValueError(f"workload model {name!r}: the name of a shipped trace")
    other = _MODELS.get(name)
    if other is not None and other != model and not _same_source(other, model):
        raise ValueError(f"workload model {name!r} is registered already")
    for p in model.params:
        for m in _MODELS.values():
            if m.name == name:
                continue  # the registration this one replaces
            for q in m.params:
                if q.name == p.name and q != p:
                    raise ValueError(
                        f"workload model {name!r}: parameter {p.name!r} is declared "
                        f"otherwise by {m.name!r}"
                    )
    _MODELS[name] = model
    return model


def _same_source(old: WorkloadModel, new: WorkloadModel) -> bool:
    """Whether ``new`` is ``old`` made again by the same code: a notebook cell or a module
    run twice defines its build function anew, under the same module and qualified name,
    and its registration then replaces the first rather than failing."""
    a, b = old.build, new.build
    return (getattr(a, "__module__", None), getattr(a, "__qualname__", None)) == (
        getattr(b, "__module__", None),
        getattr(b, "__qualname__", None),
    )


def _load_builtins() -> None:
    global _loaded
    if not _loaded:
        _loaded = True
        for module in _BUILTINS:
            importlib.import_module(module)


def registered() -> dict[str, WorkloadModel]:
    """Every registered model by name, the built-in ones first."""
    _load_builtins()
    return dict(_MODELS)


def get(name: str) -> WorkloadModel | None:
    """The model ``name`` names (case and surrounding blanks ignored), or None: a trace."""
    return registered().get(name.strip().lower()) if isinstance(name, str) else None


def declarations() -> dict[str, tuple[Declared, list[str]]]:
    """Every declared parameter by name, with the models that take it (in order)."""
    out: dict[str, tuple[Declared, list[str]]] = {}
    for model in registered().values():
        for p in model.params:
            out.setdefault(p.name, (p, []))[1].append(model.name)
    return out
