"""The four parts of a run configuration, and the flat keys a study file spells them by.

A run (`schedsim.app.study.RunConfig`) is composed of

`WorkloadSpec`
    what jobs arrive: a trace or a registered model (`schedsim.workloads.models`)
    with the model's declared parameters and its generator's ``workload_params``,
    the transforms (month, first, exact estimates, an estimate model, the load
    factor, priorities, reservations), or a closed-loop population of users
    fitted from it (``users``, ``days``, ... ``user_params``);
`MachineSpec`
    the machine: nodes, cores per node, the contention between jobs on a node;
`PolicySpec`
    the policy's name and its parameters;
`RunOptions`
    how the run is run and recorded: seed, limits, wide jobs, the suspension
    overhead, the summary's trim, the logs kept.

The study file, ``summary.json``'s ``meta.config`` and the run id speak the flat
keys of `LAYOUT` (``load_factor = 1.2``, ``policy = "ss"``): `flatten` and `split`
go between the two. Each spec holds values already checked and made canonical by
`RunConfig`, which is what builds them.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from typing import Any

from schedsim.workloads import catalog

__all__ = ["LAYOUT", "MachineSpec", "PolicySpec", "RunOptions", "WorkloadSpec", "flatten", "split"]


@dataclass(frozen=True)
class WorkloadSpec:
    """The workload: its source and the transforms applied in order (``month``,
    ``first``, ``exact_estimates``, ``estimates``, ``load_factor``, then ``priorities``,
    ``reservations`` and ``large_memory``), or a population of ``users`` fitted from it.

    ``name`` is the flat key ``workload``; ``model`` the values of the registered
    model's declared parameters that the configuration gives (``jobs``,
    ``lublin_alpha``: each its own flat key); ``params`` the flat ``workload_params``."""

    name: str = catalog.DEFAULT
    model: Mapping[str, Any] = field(default_factory=dict)
    params: Mapping[str, Any] = field(default_factory=dict)
    strict: bool | None = None
    month: str | None = None
    first: int | None = None
    exact_estimates: bool = False
    estimates: str | None = None
    load_factor: float | None = None
    priorities: float | None = None
    reservations: float | None = None
    reservation_lead: float | None = None
    large_memory: float | None = None
    large_memory_partition: str | None = None
    users: int | None = None
    days: float | None = None
    daily_cycle: bool | None = None
    weekdays: tuple[int, ...] | None = None
    max_runtime: float | None = None
    max_runtime_as: str | None = None
    user_params: Mapping[str, Any] = field(default_factory=dict)
    user_logs: tuple[str, ...] | None = None


@dataclass(frozen=True)
class MachineSpec:
    """The machine: ``nodes`` (None: the trace's or the model's), ``cores_per_node``,
    ``contention`` (None or ``"statistical"``) with its ``contention_params``, and
    ``machine``: a machine of node groups, memory and partitions, a TOML file's path or
    its tables (`schedsim.model.machine`), in place of ``nodes`` and ``cores_per_node``;
    its outages (`schedsim.model.outages`): ``failures``, a failure model
    (``"mtbf=30d,repair=4h"``), ``outages``, an outage file's path (failures and
    maintenance windows), and ``on_failure``, ``"requeue"`` (None: the default) or
    ``"lose"``."""

    nodes: int | None = None
    cores_per_node: int = 1
    contention: str | None = None
    contention_params: Mapping[str, Any] = field(default_factory=dict)
    machine: str | Mapping[str, Any] | None = None
    failures: str | None = None
    outages: str | None = None
    on_failure: str | None = None


@dataclass(frozen=True)
class PolicySpec:
    """The policy: ``name`` (the flat key ``policy``) and its ``params``."""

    name: str = "easy"
    params: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class RunOptions:
    """How the run is run and what it keeps: its ``seed``, whether a job is killed at its
    estimate and what its limit counts (``limit_in``), jobs wider than the machine
    (``wide``), the suspension ``overhead``, the summary's ``warmup``/``cooldown`` and
    the logs (``pieces``, ``log_decisions``, ``log_reservations``)."""

    seed: int = 0
    kill_at_estimate: bool = True
    wide: str = "error"
    overhead: str | Mapping[str, Any] | None = None
    limit_in: str | None = None
    warmup: int | float = 0
    cooldown: int | float = 0
    pieces: bool | None = None
    log_decisions: bool | None = None
    log_reservations: bool | None = None


#: Flat key -> (the `RunConfig` part, the spec's field), in the order of the flat
#: dictionary (`RunConfig.to_dict`, ``meta.config``, the report's columns), which is
#: the order the keys had as fields of the flat record before the specs. ``model``:
#: a workload model's declared parameter (`schedsim.workloads.models`); these two
#: are always in the flat dictionary (None when unset), as before the registry; other
#: models' parameters follow the rest, when given.
LAYOUT: dict[str, tuple[str, str]] = {
    "workload": ("workload", "name"),
    "month": ("workload", "month"),
    "first": ("workload", "first"),
    "exact_estimates": ("workload", "exact_estimates"),
    "load_factor": ("workload", "load_factor"),
    "policy": ("policy", "name"),
    "params": ("policy", "params"),
    "nodes": ("machine", "nodes"),
    "cores_per_node": ("machine", "cores_per_node"),
    "kill_at_estimate": ("options", "kill_at_estimate"),
    "wide": ("options", "wide"),
    "overhead": ("options", "overhead"),
    "warmup": ("options", "warmup"),
    "cooldown": ("options", "cooldown"),
    "seed": ("options", "seed"),
    "estimates": ("workload", "estimates"),
    "users": ("workload", "users"),
    "days": ("workload", "days"),
    "daily_cycle": ("workload", "daily_cycle"),
    "weekdays": ("workload", "weekdays"),
    "max_runtime": ("workload", "max_runtime"),
    "jobs": ("workload", "model"),
    "lublin_alpha": ("workload", "model"),
    "limit_in": ("options", "limit_in"),
    "pieces": ("options", "pieces"),
    "log_decisions": ("options", "log_decisions"),
    "strict": ("workload", "strict"),
    "log_reservations": ("options", "log_reservations"),
    "priorities": ("workload", "priorities"),
    "reservations": ("workload", "reservations"),
    "reservation_lead": ("workload", "reservation_lead"),
    "contention": ("machine", "contention"),
    "max_runtime_as": ("workload", "max_runtime_as"),
    "workload_params": ("workload", "params"),
    "contention_params": ("machine", "contention_params"),
    "user_params": ("workload", "user_params"),
    "user_logs": ("workload", "user_logs"),
    "machine": ("machine", "machine"),
    "failures": ("machine", "failures"),
    "outages": ("machine", "outages"),
    "on_failure": ("machine", "on_failure"),
    "large_memory": ("workload", "large_memory"),
    "large_memory_partition": ("workload", "large_memory_partition"),
}

_SPECS = {"workload": WorkloadSpec, "machine": MachineSpec, "policy": PolicySpec,
          "options": RunOptions}  # fmt: skip


def defaults() -> dict[str, Any]:
    """Every flat key of `LAYOUT` with its default (a model's parameters: None)."""
    out: dict[str, Any] = {}
    for key, (part, name) in LAYOUT.items():
        if name == "model":
            out[key] = None
            continue
        f = next(f for f in fields(_SPECS[part]) if f.name == name)
        out[key] = f.default_factory() if callable(f.default_factory) else f.default
    return out


def split(flat: Mapping[str, Any]) -> dict[str, Any]:
    """The four specs of canonical flat values (every `LAYOUT` key given; the keys
    outside it are declared model parameters): ``{"workload": WorkloadSpec, ...}``."""
    values: dict[str, dict[str, Any]] = {part: {} for part in _SPECS}
    model: dict[str, Any] = {}
    for key, value in flat.items():
        part, name = LAYOUT.get(key, ("workload", "model"))
        if name == "model":
            if value is not None:
                model[key] = value
        else:
            values[part][name] = value
    values["workload"]["model"] = model
    return {part: spec(**values[part]) for part, spec in _SPECS.items()}


def flatten(specs: Mapping[str, Any]) -> dict[str, Any]:
    """The flat dictionary of the specs, in `LAYOUT`'s order (the inverse of `split`)."""
    workload: WorkloadSpec = specs["workload"]
    out: dict[str, Any] = {}
    for key, (part, name) in LAYOUT.items():
        out[key] = workload.model.get(key) if name == "model" else getattr(specs[part], name)
    out.update({k: v for k, v in workload.model.items() if k not in out})
    return out
