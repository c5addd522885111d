"""The configuration keys that hold keyword parameters of the generators and models a run uses.

A run reaches callables whose keyword parameters change its schedule but are
no configuration key of their own: the workload generator, the contention model,
the user model. Three table keys of `schedsim.app.study.RunConfig` reach them, each
holding parameters named as in the callable's signature (its docstring says what
they mean):

``workload_params``
    The generator of the workload model the workload names (`workload_table`; each
    registered model names its own: `schedsim.workloads.models`): for ``"zeng-w1"``/``"zeng-w2"``
    `schedsim.workloads.multicore.paper_workload` (``alpha_means``, ``rounding``,
    ``max_sl``, ``self_sl2``), for ``"lublin"`` `schedsim.workloads.lublin.generate`
    (``job_types``, ``start_hour``).
``contention_params``
    `schedsim.model.slowdowns.StatisticalContention` (``cpus_per_node``, ``mates``,
    ``self_and_cos``, ``pair``).
``user_params``
    `schedsim.workloads.users.fit_users` (``session_gap``, ``max_break``,
    ``min_jobs``; Equation 1's reading: ``response_unit``, ``continue_at_zero``,
    ``continue_slope``), `schedsim.workloads.users.DailyCycle` (``day_start``,
    ``day_end``, ``arrive_until``) and `schedsim.model.sources.Population`
    (``unix_start_time``).

A table's parameters are read from the signatures (`ParamTable`): those with a
default and a plain type (bool, int, float, str or a choice of strings), less
those another configuration key sets or that are no plain value, which the table
names with the reason (`ParamTable.withheld`), so that writing one gives an error
that says where it goes. Values are converted by the type hints as policy
parameters are (`schedsim.app.registry`: ``"2"`` and ``2`` are one value, an int
stands for a float), then checked against the parameter's bounds (`CHECKS`;
`schedsim.app.limits` says why each bound is where it is).
"""

from __future__ import annotations

import dataclasses
import inspect
import typing
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from schedsim.app import limits
from schedsim.app.registry import convert_value
from schedsim.model.slowdowns import StatisticalContention
from schedsim.model.sources import Population
from schedsim.workloads import models
from schedsim.workloads.models import WorkloadModel
from schedsim.workloads.users import DailyCycle, fit_users

__all__ = [
    "CHECKS",
    "CONTENTION_PARAMS",
    "TABLE_KEYS",
    "USER_PARAMS",
    "WORKLOAD_PARAMS",
    "Param",
    "ParamTable",
    "describe",
    "workload_table",
]

_PLAIN_KINDS = (inspect.Parameter.POSITIONAL_OR_KEYWORD, inspect.Parameter.KEYWORD_ONLY)


@dataclass(frozen=True)
class Param:
    """One parameter of a table: its default and type hint, and the callable it goes to."""

    name: str
    default: Any
    hint: Any
    source: Callable[..., Any]


def describe(hint: Any) -> str:
    """What a value of type ``hint`` is, as an error message says it."""
    choices = [a for a in typing.get_args(hint) if isinstance(a, str)]
    if choices:
        return "one of " + ", ".join(f"'{c}'" for c in choices)
    return {bool: "true or false", int: "an integer", float: "a number", str: "a string"}.get(
        hint, str(hint)
    )


def _plain(hint: Any) -> bool:
    """Whether values of ``hint`` are plain TOML values: bool, int, float, str, a Literal."""
    if hint in (bool, int, float, str):
        return True
    args = typing.get_args(hint)
    return typing.get_origin(hint) is Literal and all(isinstance(a, str) for a in args)


def _hints(source: Callable[..., Any]) -> dict[str, Any]:
    if dataclasses.is_dataclass(source):
        return typing.get_type_hints(source)
    if isinstance(source, type):
        return typing.get_type_hints(source.__init__)  # type: ignore[misc]  # the class's own
    return typing.get_type_hints(source)


#: Bounds beyond the type: (table key, parameter) -> (check of the converted value, what
#: it expects). Cross-parameter rules (day_start <= arrive_until <= day_end,
#: session_gap < max_break, cpus_per_node dividing the cores of a node) are
#: `schedsim.app.study`'s, which sees the whole configuration.
CHECKS: dict[tuple[str, str], tuple[Callable[[Any], bool], str]] = {
    ("workload_params", "start_hour"): (lambda v: 0.0 <= v < 24.0, "an hour in [0, 24)"),
    ("workload_params", "max_sl"): (
        lambda v: limits.SLOWDOWN_THRESHOLD_RANGE[0] <= v <= limits.SLOWDOWN_THRESHOLD_RANGE[1],
        "a slowdown in [{:g}, {:g}]".format(*limits.SLOWDOWN_THRESHOLD_RANGE),
    ),
    ("workload_params", "self_sl2"): (
        lambda v: limits.SLOWDOWN_THRESHOLD_RANGE[0] <= v <= limits.SLOWDOWN_THRESHOLD_RANGE[1],
        "a slowdown in [{:g}, {:g}]".format(*limits.SLOWDOWN_THRESHOLD_RANGE),
    ),
    ("contention_params", "cpus_per_node"): (
        lambda v: 1 <= v <= limits.MAX_CORES,
        f"a positive number of CPUs (at most {limits.MAX_CORES:,})",
    ),
    ("user_params", "session_gap"): (
        lambda v: 0.0 < v <= limits.MAX_USER_GAP,
        f"a number of seconds above 0, at most {limits.MAX_USER_GAP:g} (a week)",
    ),
    ("user_params", "max_break"): (
        lambda v: 0.0 < v <= limits.MAX_USER_GAP,
        f"a number of seconds above 0, at most {limits.MAX_USER_GAP:g} (a week)",
    ),
    ("user_params", "min_jobs"): (
        lambda v: 1 <= v <= limits.MAX_JOBS,
        f"a positive number of jobs, at most {limits.MAX_JOBS:,}",
    ),
    ("user_params", "continue_at_zero"): (
        lambda v: 0.0 < v <= 1.0,
        "a probability in (0, 1] (Equation 1's at an instant response)",
    ),
    ("user_params", "continue_slope"): (
        lambda v: 0.0 <= v < float("inf"),
        "a finite number >= 0 (Equation 1's slope per unit of response time)",
    ),
    ("user_params", "day_start"): (lambda v: 0.0 <= v <= 24.0, "an hour in [0, 24]"),
    ("user_params", "day_end"): (lambda v: 0.0 <= v <= 24.0, "an hour in [0, 24]"),
    ("user_params", "arrive_until"): (lambda v: 0.0 <= v <= 24.0, "an hour in [0, 24]"),
    ("user_params", "unix_start_time"): (
        lambda v: 0 <= v < limits.MAX_UNIX_START and v % int(limits.DAY) == 0,
        "a UTC midnight in Unix seconds (a multiple of 86400, below 2**32)",
    ),
}


@dataclass(frozen=True)
class ParamTable:
    """A configuration key holding keyword parameters of ``sources`` (module docstring).

    ``params``: the parameters a value may be given for, by name. ``withheld``: the
    others a user might write, with the reason they are not here (the configuration
    key that sets them, or why they are no plain value).
    """

    key: str
    params: Mapping[str, Param]
    withheld: Mapping[str, str]

    @classmethod
    def of(
        cls, key: str, sources: Sequence[Callable[..., Any]], withheld: Mapping[str, str]
    ) -> ParamTable:
        """The table of the keyword parameters of ``sources`` (names unique among them)."""
        params: dict[str, Param] = {}
        why = dict(withheld)
        for source in sources:
            hints = _hints(source)
            for name, p in inspect.signature(source).parameters.items():
                if name in why or p.kind not in _PLAIN_KINDS:
                    continue
                if p.default is inspect.Parameter.empty:
                    continue  # a required argument: the run gives it
                hint = hints.get(name)
                if not _plain(hint):
                    kind = getattr(hint, "__name__", str(hint))
                    why[name] = f"its value is a {kind}, not a plain value"
                    continue
                if name in params:
                    raise ValueError(f"{key}: parameter {name!r} of two callables")
                params[name] = Param(name, p.default, hint, source)
        return cls(key, params, why)

    def defaults(self) -> dict[str, Any]:
        """Every parameter's default."""
        return {name: p.default for name, p in self.params.items()}

    def convert(self, given: Any) -> tuple[dict[str, Any], list[tuple[str, str]]]:
        """(the values converted by type, problems as (``KEY.NAME``, why)).

        An unknown name names the known ones (or, for a withheld one, why it is
        not here); a value of the wrong type or out of bounds says what it expects.
        """
        if not isinstance(given, Mapping) or not all(isinstance(k, str) for k in given):
            return {}, [(self.key, f"expected a table of parameters, got {given!r}")]
        values: dict[str, Any] = {}
        problems: list[tuple[str, str]] = []
        for name, value in given.items():
            where = f"{self.key}.{name}"
            param = self.params.get(name)
            if param is None:
                known = ", ".join(self.params) or "none"
                if name in self.withheld:
                    why = f"not settable here ({self.withheld[name]}; known: {known})"
                else:
                    why = f"unknown key (known: {known})"
                problems.append((where, why))
                continue
            try:
                converted = convert_value(value, param.hint, name, self.key)
            except ValueError:
                problems.append((where, f"expected {describe(param.hint)}, got {value!r}"))
                continue
            check = CHECKS.get((self.key, name))
            if check is not None and not check[0](converted):
                problems.append((where, f"expected {check[1]}, got {value!r}"))
                continue
            values[name] = converted
        return values, problems


#: Made once per model (reading a signature is not free): name -> (model, its table).
_WORKLOAD_TABLES: dict[str, tuple[WorkloadModel, ParamTable | None]] = {}


def _workload_table(model: WorkloadModel) -> ParamTable | None:
    made = _WORKLOAD_TABLES.get(model.name)
    if made is None or made[0] is not model:
        table = None
        if model.generator is not None:
            table = ParamTable.of("workload_params", [model.generator], model.withheld)
        made = _WORKLOAD_TABLES[model.name] = (model, table)
    return made[1]


def workload_table(name: str) -> ParamTable | None:
    """``workload_params`` of the workload ``name``: the keyword parameters of its
    registered model's generator (`schedsim.workloads.models.WorkloadModel.generator`),
    less those the model withholds; None for a trace or a model without a generator."""
    model = models.get(name)
    return None if model is None else _workload_table(model)


#: ``workload_params`` by built-in workload name (module ``__getattr__``, below).
WORKLOAD_PARAMS: dict[str, ParamTable]


def __getattr__(name: str) -> Any:
    """``WORKLOAD_PARAMS``: ``workload_params`` by built-in workload name, the generator's
    table (`workload_table` for any registered model, a plug-in's too). Made when first
    read, since reading the generators' hints imports ``numpy.random``, which a run of a
    log never needs."""
    if name == "WORKLOAD_PARAMS":
        tables = {n: t for n in models.registered() if (t := workload_table(n)) is not None}
        globals()[name] = tables
        return tables
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


#: ``contention_params``: `StatisticalContention`'s (with ``contention = "statistical"``).
CONTENTION_PARAMS = ParamTable.of(
    "contention_params",
    [StatisticalContention],
    {
        "seed": "the run's seed draws the slowdowns",
        # The policies that predict slowdowns and the zeng- workloads' sizes read the
        # default stream; another name would make the run disagree with both.
        "stream_name": "the run's slowdowns come from its named stream 'slowdowns', which "
        "the zeng- workloads' sizes and the policies' predictions share",
    },
)

#: ``user_params``: the user model's, the daily cycle's and the population's (with ``users``).
USER_PARAMS = ParamTable.of(
    "user_params",
    [fit_users, DailyCycle, Population],
    {
        "max_runtime": "the configuration key max_runtime sets it",
        "max_runtime_as": "the configuration key max_runtime_as sets it",
        "weekdays": "the configuration key weekdays sets it",
        "enabled": "the configuration key daily_cycle sets it",
        "users": "the configuration key users sets it",
        "days": "the configuration key days sets it",
    },
)

#: The table keys of a configuration besides the policy's ``params``.
TABLE_KEYS: tuple[str, ...] = ("workload_params", "contention_params", "user_params")
