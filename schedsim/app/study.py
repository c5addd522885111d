"""Parameter studies: what one run is, and how a study expands into runs.

A **run configuration** (`RunConfig`) is everything that determines one
simulation: the workload and its transforms, the machine, the policy with
its parameters, the suspension overhead, the summary trimming and the
seed. ``schedsim run`` builds one from its options and a study builds
hundreds, so both go through `RunConfig.simulation`.

A **study** (`Study`) is a base configuration, a grid (every combination of
the listed values: a cartesian product) and/or a list of variants (explicit
partial configurations), times a number of replications::

    runs = variants (or one empty variant) x grid points x replications

A variant or grid point overrides the base. A variant that names a key the
grid varies narrows it: that variant runs only the value, or the list of
values, it gives, each one of the grid's (another value is an error: a
variant never widens the grid). Policy
parameters are the ``params`` table, and a grid may vary one with a dotted
key (``params.order = ["fcfs", "sjf"]``); so may it one of the tables of
parameters below (``workload_params.rounding = ["pow2", "nodes"]``). A
variant's tables merge over the base's, entry by entry.

Seeds: replication ``r`` runs with the seed derived from the study seed and
``r`` (`replication_seed`), the same for every variant and grid point, so
policies are compared on common random numbers and paired differences have
less noise. A configuration may not set ``seed`` itself. Runs of a trace
under deterministic policies are identical across replications; the
replications matter once a component draws random numbers.

Identity: `RunConfig.run_id` is a SHA-256 of the canonical JSON of the whole
configuration, with policy parameters completed by their defaults (so
spelling a default out does not make a new run) and a workload file named
by its content digest rather than its path (so a study directory moves
between machines); shipped traces are named by their short name. The
``label`` of a run (shown in reports) is not part of its identity. A key
added later is left out of the identity while it has its "off" value
(``overhead``), so the runs stored before it existed keep their ids; so is
a policy parameter added later that its class lists, with the value that
behaves as before, in ``LATER_PARAMS``; and so is an entry of a table of
parameters while it holds its default (a table with none is left out).
`RunConfig.record` (the id and the normalized configuration) goes into every
result's ``meta``, so each ``summary.json`` says which run it is.

Suspension overhead (seed 000, section 4.1; `schedsim.model.overhead.MemoryOverhead`)::

    overhead = "memory"                   # the paper's model: 100 MB-1 GB at 2 MB/s
    overhead = { rate_mb_s = 8 }          # the same with other parameters; keys:
                                          # low_mb, high_mb, rate_mb_s, per ("job"|"processor")
    overhead = "none"                     # no overhead (the default; TOML has no null)

A table is completed with the paper's values, and one that ends up equal
to them is ``"memory"``, so both spellings are one run.

Workloads that are made, not read (issue 5)::

    workload = "lublin"                   # the Lublin-Feitelson model (schedsim.workloads.lublin)
    jobs = 20000                          # jobs to generate (10,000); nodes = machine (128)
    lublin_alpha = 9.83                   # its load knob (default 10.46)
    estimates = "f:3"                     # any workload: exact, f:F, tsafrir[:MAX], ...+crash
    users = 250                           # closed loop: users fitted from the workload's users
    days = 14                             # simulated days (180)
    daily_cycle = false                   # users submit at any hour (default: 8:00-18:00)
    weekdays = [0, 1, 2, 3, 4]            # a weekly cycle (default: every day)
    max_runtime = 3600                    # users' jobs run at most this long (inf: no limit)
    max_runtime_as = "cap"                # longer trace jobs run for it ("filter": left out)
    user_logs = ["kth", "ctc", "sdsc-sp2"] # users drawn from these logs' users (default:
                                          # the workload's alone); the first must be the
                                          # workload, whose machine the run has

``days``, ``daily_cycle``, ``weekdays``, ``max_runtime``, ``max_runtime_as`` and
``user_logs`` need ``users``; ``max_runtime_as`` left out is ``"filter"``, as before the key
existed (`schedsim.workloads.users`);
``jobs`` needs a generated workload and ``lublin_alpha`` ``workload =
"lublin"``; ``load_factor`` does not apply to a population (its size sets
the load). ``[report] closed_loop = true`` (or ``{ users = 250, hours =
[10, 16, 23] }``) adds seed 002's Figures 5 and 6
(`StudyResults.closed_loop_figures`).

Multi-core nodes with contention (seed 003, Zeng & Sodan 2009)::

    workload = "zeng-w1"                  # or "zeng-w2": Table 5's W1 / W2
                                          # (schedsim.workloads.multicore), 128 nodes x 4 cores
    jobs = 10000                          # jobs to generate (10,000)
    contention = "statistical"            # Table 4's slowdowns (schedsim.model.slowdowns)
    kill_at_estimate = false              # as the paper: a slowed job outlives its estimate
    policy = "glts"                       # or "ssp", "cst", ...: its seed is the run's

``cores_per_node`` needs no saying for a ``zeng-`` workload (the default, 1,
is taken as 4) and ``nodes`` defaults to 128 (`RunConfig`).

A machine of node groups, memory and partitions (`schedsim.model.machine`), in place
of ``nodes`` and ``cores_per_node`` (a trace's jobs; fcfs, easy and conservative run on it)::

    machine = "cluster.toml"              # a machine file, relative to the study file
    # or its tables inline:
    # [[base.machine.group]]
    # name = "thin"
    # nodes = 96
    # cores = 32
    # memory = "192G"

The run id hashes the machine by its groups and partitions (`machine_identity`), and
a configuration without ``machine`` keeps the id it had before the key existed.

Tables of parameters (`schedsim.app.param_tables`): the keyword parameters of
the generators and models a run uses that are no key of their own, named as in
their signatures, each table checked against the callable's signature, its
values converted by type and bounded::

    workload_params = { alpha_means = "shape", rounding = "nodes" }
        # zeng-w1/zeng-w2 (schedsim.workloads.multicore.paper_workload):
        #   alpha_means "aarr" (default) | "shape": how Table 5's alpha is read
        #   rounding "pow2" (default) | "nodes" | "processes": Equation 7's rounding
        #   max_sl (1.25), self_sl2 (1.12): Equation 7's thresholds, in [0.5, 4]
        # lublin (schedsim.workloads.lublin.generate):
        #   job_types (true: batch + interactive; false: typeless)
        #   start_hour (0): the time of day (UTC) at trace time 0, in hours [0, 24)
    contention_params = { mates = "product" }
        # with contention = "statistical" (schedsim.model.slowdowns.StatisticalContention):
        #   cpus_per_node (2; a divisor of cores_per_node), mates "max" | "product",
        #   self_and_cos "product" | "max", pair "directed" | "symmetric"
    user_params = { session_gap = 600, day_start = 7 }
        # with users (schedsim.workloads.users.fit_users, DailyCycle;
        # schedsim.model.sources.Population):
        #   session_gap (1200 s), max_break (28800 s): think times / breaks, at most a week
        #   min_jobs (5): usable jobs a trace user needs to be imitated
        #   day_start (8), day_end (18), arrive_until (10): the daily cycle's hours
        #   (only with the cycle on), day_start <= arrive_until <= day_end
        #   unix_start_time (1704067200, a Monday): the clock origin, a UTC midnight

A table that does not apply (``workload_params`` for a trace file,
``contention_params`` without contention, ``user_params`` without ``users``)
is an error naming it, as is a parameter another key sets
(``workload_params.alpha``: ``lublin_alpha``).

Bounds (`schedsim.app.limits`, each with its reason): ``users`` at most
100,000, ``days`` an hour to 36,525, ``jobs`` and ``first`` 10,000,000, ``load_factor``
from 0.001 to 1000 (and no stretched time past 2**43 s), ``reservation_lead``
and a finite ``max_runtime`` a year, ``lublin_alpha`` from 5.23 to 20.92, the
machine 2**24 cores, ``estimates`` f:F up to 1000 and tsafrir:MAX up to a year,
the overhead's memory a terabyte and its rate at least 0.1 MB/s, a study's
``replications`` 1,000; ``month`` lies in 0001-01 to 9999-11, and fractions of
``warmup`` and ``cooldown`` add up to less than 1.

A study is written in Python or as a TOML file (`load_study`)::

    [study]
    name = "easy-vs-conservative"
    seed = 1                  # replication seeds derive from it
    replications = 1
    imports = []              # modules to import first (they register policies)

    [base]
    workload = "kth"
    first = 5000

    [grid]
    policy = ["easy", "conservative"]
    load_factor = [1.0, 1.2]

    [[variants]]              # optional; each is a partial configuration
    label = "easy-sjf"
    policy = "easy"
    params = { order = "sjf" }

    [report]                  # defaults for `schedsim report` (schedsim.app.report)
    metrics = ["mean_bounded_slowdown", "utilization"]
    baseline = "easy"
    categories = { schemes = ["16"], estimates = ["all", "well", "poor"] }  # or true

A study needs a ``[base]``, a ``[grid]`` or ``[[variants]]`` (an empty file is
refused rather than run as the default configuration), and ``[report]
metrics`` must name entries of a run's summary
(`schedsim.app.report.reading.known_metrics`: ``summary.jobs`` and
``summary.days``, as the report names them beside the keys ``jobs`` and
``days``). Errors name the file and the key (``study.toml: grid.load_factor:
...``); `RunConfig.from_dict`'s ``names`` spells the keys as a command line
wrote them (``--nodes: ...``).
"""

from __future__ import annotations

import dataclasses
import functools
import hashlib
import importlib
import itertools
import json
import math
import os
import re
import sys
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from schedsim.app import limits, specs
from schedsim.app.param_tables import (
    CONTENTION_PARAMS,
    TABLE_KEYS,
    USER_PARAMS,
    ParamTable,
    workload_table,
)
from schedsim.app.specs import MachineSpec, PolicySpec, RunOptions, WorkloadSpec
from schedsim.model.cluster import MAX_CORES
from schedsim.model.contention import CONTENTION
from schedsim.model.machine import Machine, MachineError, machine_from_table, read_machine
from schedsim.model.outages import (
    Outage,
    OutageError,
    Outages,
    parse_failure_model,
    read_outages,
)
from schedsim.model.overhead import MemoryOverhead
from schedsim.model.slowdowns import StatisticalContention
from schedsim.model.sources import Population
from schedsim.workloads import catalog, models
from schedsim.workloads.estimates import apply_estimates, parse_estimates
from schedsim.workloads.formats import kind
from schedsim.workloads.large_memory import with_large_memory
from schedsim.workloads.transforms import (
    exact_estimates,
    first,
    month,
    scale_load,
    with_priorities,
    with_reservations,
)
from schedsim.workloads.users import DailyCycle, fit_users, merge_models
from schedsim.workloads.workload import Workload

if TYPE_CHECKING:
    from schedsim.model.contention import ContentionModel

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

__all__ = [
    "CATEGORY_KEYS",
    "CONFIG_KEYS",
    "CONTENTION",
    "OVERHEAD_KEYS",
    "Run",
    "RunConfig",
    "Study",
    "StudyError",
    "load_study",
    "paper_analyses",
    "replication_seed",
]

#: Bumped when the meaning of a configuration changes, so old run ids are not reused.
ID_FORMAT = 1


class StudyError(ValueError):
    """A study definition is malformed; the message names the file and key.

    An error about one configuration key also carries it: ``key`` (as the
    configuration names it: ``nodes``, ``overhead.rate_mb_s``) and ``why`` (the
    message after it), so that a caller can name the key as its user wrote it
    (`spelled`; `RunConfig.from_dict`'s ``names``).
    """

    def __init__(self, message: str, key: str | None = None, why: str | None = None) -> None:
        super().__init__(message)
        self.key = key
        self.why = why

    @classmethod
    def about(cls, key: str, why: str, names: Mapping[str, str] | None = None) -> StudyError:
        """The error ``KEY: why``, with the key spelled by ``names`` (`spelled`)."""
        return cls(f"{spelled(key, names)}: {why}", key, why)

    def respelled(self, names: Mapping[str, str] | None) -> str:
        """The message with its key spelled by ``names`` (unchanged without a key)."""
        if self.key is None or self.why is None:
            return str(self)
        return f"{spelled(self.key, names)}: {self.why}"


def spelled(key: str, names: Mapping[str, str] | None) -> str:
    """A configuration key as its user wrote it: ``names[key]``; for a key of a table
    (``TABLE.NAME``) without an entry of its own, ``names[TABLE]`` and the name
    (``--workload-param rounding``); else the key itself."""
    if not names:
        return key
    if key in names:
        return names[key]
    table, dot, name = key.partition(".")
    if dot and table in names:
        return f"{names[table]} {name}"
    return key


def replication_seed(study_seed: int, replication: int) -> int:
    """The seed of replication ``replication`` of a study (a 32-bit integer)."""
    from schedsim.workloads.streams import stream_seed

    return int(stream_seed(study_seed, f"replication {replication}").generate_state(1)[0])


# ---- one run -----------------------------------------------------------------


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _is_number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


@dataclass(frozen=True, init=False)
class RunConfig:
    """Everything that determines one simulation.

    Transforms apply in the order ``month``, ``first``, ``exact_estimates``,
    ``estimates``, ``load_factor`` (as ``schedsim run`` does), then
    ``priorities`` (the share of jobs marked high priority at random, the
    rest low: `schedsim.workloads.transforms.with_priorities`) and
    ``reservations`` (the share of jobs that request a reservation, at their
    submit time plus a lead uniform in ``[0, reservation_lead]`` s, 7200 by
    default: `schedsim.workloads.transforms.with_reservations`), both drawn
    from the seed's own streams. ``warmup``/``cooldown`` only
    trim the summary (`schedsim.model.results.Result.summary`). ``params`` holds the
    policy's parameters; `normalized` completes them with their defaults.
    ``overhead`` is None (no suspension overhead), ``"memory"`` (seed 000's
    model with the paper's parameters) or a table of `MemoryOverhead`
    parameters (completed with the paper's values; one equal to them
    becomes ``"memory"``); ``"none"`` is None. ``limit_in`` is what limits
    count, ``"run"`` time (None, the default) or ``"work"``; ``pieces``
    (default on) keeps the piece log, ``log_decisions`` (default off)
    every decision and ``log_reservations`` (default off) every reservation
    the policy holds after each pass (`schedsim.model.simulation.ModelSimulation`). ``strict``
    (default off; None) reads an SWF workload with
    ``read_swf(..., strict=True)``: unusual values in the fields a run does not
    use are refused rather than cleaned and counted (`schedsim.workloads.swf`).

    ``contention`` is None (``"none"``: jobs run at rate 1 wherever they
    are) or ``"statistical"``: Zeng & Sodan 2009's slowdowns of jobs that
    share a node, `schedsim.model.slowdowns.StatisticalContention` of the
    run's ``seed`` with its defaults. The ``ssp`` and ``glts`` policies
    predict those slowdowns from a ``seed`` of their own, and they predict
    the ones the run applies only when it is the run's seed; so with
    ``contention = "statistical"`` a policy that takes a ``seed`` parameter
    and is not given one in ``params`` gets the run's seed. `normalized`
    sets it (in a study, each replication's seed), so the run id and the
    recorded parameters show the seed the policy used; a ``seed`` given in
    ``params`` is kept, even a different one (to study wrong predictions).

    ``workload = "zeng-w1"`` or ``"zeng-w2"`` generates Table 5's W1 or W2
    (`build_workload`), made for nodes of 4 cores (`multicore.CORES_PER_NODE`).
    So that a study need not say so, ``cores_per_node`` left at its default,
    1, is taken as 4 (a 1-core machine is no machine for them), and any value
    but 1 or 4 is refused; ``nodes`` left unset is the paper's 128. Both are
    written into the configuration, so spelling them out or not is one run
    id; no other workload's configuration changes. The paper's runs also say
    ``kill_at_estimate = false``: a job slowed by contention outlives its
    estimate.
    """

    workload: WorkloadSpec
    machine: MachineSpec
    policy: PolicySpec
    options: RunOptions

    def __init__(
        self,
        workload: str | WorkloadSpec = catalog.DEFAULT,
        machine: MachineSpec | None = None,
        policy: str | PolicySpec = "easy",
        options: RunOptions | None = None,
        **flat: Any,
    ) -> None:
        """From the specs, or from flat keys (``RunConfig(workload="kth", load_factor=1.2)``,
        as the study file spells them: `schedsim.app.specs.LAYOUT`), or both: flat keys
        override the specs' values. Every value is checked (`StudyError` naming the key)
        and made canonical, so that two spellings of one run are one configuration."""
        parts: dict[str, Any] = {
            "workload": WorkloadSpec(),
            "machine": MachineSpec(),
            "policy": PolicySpec(),
            "options": RunOptions(),
        }
        given: dict[str, Any] = {}
        for part, value in (("workload", workload), ("machine", machine),
                            ("policy", policy), ("options", options)):  # fmt: skip
            if isinstance(value, type(parts[part])):
                parts[part] = value
            elif value is not None:
                given[part] = value  # a flat value: the workload's or the policy's name
        values = specs.flatten(parts)
        values.update(given)
        declared = models.declarations()
        for key in flat:
            if key not in specs.LAYOUT and key not in declared:
                raise StudyError.about(key, f"unknown key (known: {', '.join(config_keys())})")
        values.update(flat)
        c = _Flat(values)
        problems = _field_problems(c)
        if problems:
            key, why = problems[0]
            raise StudyError.about(key, why)
        for key in TABLE_KEYS:
            # Converted by type (``"2"`` and 2 are one value); completed in `normalized`.
            table = _param_table(c, key)
            values[key] = table.convert(values[key])[0] if table else {}
        values["overhead"] = _canonical_overhead(values["overhead"])
        if values["contention"] is not None:
            named = values["contention"].lower()
            values["contention"] = None if named == "none" else named
        machine_of = c.model.machine if c.model is not None else None
        if machine_of is not None and machine_of.cores_per_node is not None:
            # A model made for nodes of so many cores (the zeng- workloads; docstring):
            # what is left unsaid is its machine, written into the configuration.
            if values["cores_per_node"] == 1:
                values["cores_per_node"] = machine_of.cores_per_node
            if values["nodes"] is None:
                values["nodes"] = machine_of.nodes
        if ":" not in values["policy"]:  # a MODULE:CLASS spec keeps its case (paths, classes)
            values["policy"] = values["policy"].lower()
        values["params"] = dict(values["params"])
        for key in ("load_factor", "days", "max_runtime", "priorities", "reservations",
                    "reservation_lead", "large_memory"):  # fmt: skip
            if values[key] is not None:
                values[key] = float(values[key])
        for key, (p, _) in declared.items():
            values[key] = p.convert(values.get(key))
        if values["weekdays"] is not None:
            values["weekdays"] = tuple(sorted(set(values["weekdays"])))
        logs = values.get("user_logs")
        if isinstance(logs, (list, tuple)):
            values["user_logs"] = tuple(logs)
            if list(logs) == [values["workload"]]:
                values["user_logs"] = None  # the default spelled out: one run id for both
        # Defaults spelled out are the defaults: one run id for both spellings.
        for key, default in (("limit_in", "run"), ("pieces", True), ("log_decisions", False),
                             ("strict", False), ("log_reservations", False)):  # fmt: skip
            if values[key] is default or values[key] == default:
                values[key] = None
        # A trim of 0.0 is no trim: one value, so both spellings share a run id.
        for key in ("warmup", "cooldown"):
            if values[key] == 0:
                values[key] = 0
        for part, spec in specs.split(values).items():
            object.__setattr__(self, part, spec)

    def __getattr__(self, name: str) -> Any:
        """Flat read access, as the study file names the keys (``config.load_factor`` is
        ``config.workload.load_factor``; a model's ``config.jobs`` is None when unset).
        ``workload`` and ``policy`` are the specs: their names are ``.name``."""
        where = specs.LAYOUT.get(name)
        parts = self.__dict__
        if where is None:
            if name.startswith("_") or name not in models.declarations():
                raise AttributeError(name)
            where = ("workload", "model")
        part, key = where
        if part not in parts:
            raise AttributeError(name)
        return parts[part].model.get(name) if key == "model" else getattr(parts[part], key)

    @classmethod
    def from_dict(
        cls, values: Mapping[str, Any], where: str = "", names: Mapping[str, str] | None = None
    ) -> RunConfig:
        """Build from a mapping; an unknown key or a bad value names ``where`` and the key.

        ``names`` maps a key to the way its user wrote it (``{"nodes": "--nodes",
        "kill_at_estimate": "--keep-run-times"}``; a table's keys may be named one
        by one, ``"overhead.rate_mb_s"``, or by the table, ``"workload_params"``:
        `spelled`): every error about a key then starts with that spelling, those of
        this construction and those the configuration raises later (`normalized`,
        `identity`, `build_workload`, `population`, `simulation`), which it keeps
        the names for.
        """
        prefix = f"{where}: " if where else ""
        keys = config_keys()
        unknown = [k for k in values if k not in keys]
        if unknown:
            known = ", ".join(keys)
            raise StudyError(
                f"{prefix}{spelled(unknown[0], names)}: unknown key (known: {known})",
                unknown[0],
                f"unknown key (known: {known})",
            )
        try:
            config = cls(**values)
        except StudyError as exc:
            raise StudyError(f"{prefix}{exc.respelled(names)}", exc.key, exc.why) from None
        config._keep_names(names)
        return config

    def _keep_names(self, names: Mapping[str, str] | None) -> None:
        # Not a field: the spelling of the keys is no part of the run (equality, id, dict).
        if names:
            object.__setattr__(self, "_names", dict(names))

    def _error(self, key: str, why: str) -> StudyError:
        """The error about ``key``, spelled as `from_dict`'s ``names`` say."""
        return StudyError.about(key, why, getattr(self, "_names", None))

    def to_dict(self) -> dict[str, Any]:
        """The configuration as plain JSON-ready values."""
        out = specs.flatten(self.__dict__)
        for key in ("params", *TABLE_KEYS):
            out[key] = dict(out[key])
        if out["weekdays"] is not None:
            out["weekdays"] = list(out["weekdays"])
        if out.get("user_logs") is not None:
            out["user_logs"] = list(out["user_logs"])
        if isinstance(out["overhead"], Mapping):
            out["overhead"] = dict(out["overhead"])
        if isinstance(out.get("machine"), Mapping):
            out["machine"] = _plain(out["machine"])
        return out

    def machine_of(self) -> Machine | None:
        """The machine of node groups the configuration names (``machine``), read; None
        for ``nodes x cores_per_node``. `StudyError` naming ``machine`` when it cannot be."""
        return _read_machine(self.machine.machine, self._error)

    def replace(self, **changes: Any) -> RunConfig:
        """This configuration with the flat keys ``changes`` changed (checked again)."""
        out = RunConfig(**{**self.to_dict(), **changes})
        out._keep_names(getattr(self, "_names", None))
        return out

    def _flat(self) -> _Flat:
        """The flat view the checks read (`_Flat`)."""
        return _Flat(self.to_dict())

    def normalized(self) -> RunConfig:
        """This configuration with the policy's parameters converted and completed.

        With ``contention = "statistical"`` a policy ``seed`` left unset is the
        run's ``seed`` (class docstring), so a configuration whose ``seed``
        changes must be normalized again, not copied from a normalized one.
        The tables of parameters (``workload_params``, ``contention_params``,
        ``user_params``) are completed with the defaults of the parameters the run
        uses (`table_values`). Raises `StudyError` for an unknown policy or parameter.
        """
        from schedsim.app import registry

        try:
            params = registry.resolve_params(self.policy.name, self.policy_params())
        except ValueError as exc:
            key = "policy" if str(exc).startswith("unknown policy") else "params"
            raise self._error(key, str(exc)) from None
        tables: dict[str, Any] = {key: self.table_values(key) for key in TABLE_KEYS}
        return self.replace(params=params, **tables)

    def table_values(self, key: str) -> dict[str, Any]:
        """The parameters of table ``key`` (``workload_params``, ``contention_params``,
        ``user_params``: `schedsim.app.param_tables`) this run uses: those it gives,
        the defaults of the others; none where the table does not apply (a workload
        read from a file, no contention, an open-loop run). The daily cycle's
        (``day_start``, ``day_end``, ``arrive_until``) apply only with the cycle on."""
        table = _param_table(self._flat(), key)
        if table is None:
            return {}
        values = {
            name: p.default
            for name, p in table.params.items()
            if not (p.source is DailyCycle and self.workload.daily_cycle is False)
        }
        values.update(self.to_dict()[key])
        return values

    def _values_for(self, key: str, source: Callable[..., Any]) -> dict[str, Any]:
        """The `table_values` of ``key`` that go to the callable ``source``."""
        table = _param_table(self._flat(), key)
        if table is None:
            return {}
        return {k: v for k, v in self.table_values(key).items() if table.params[k].source is source}

    def policy_params(self) -> dict[str, Any]:
        """``params`` as given, with the run's seed as the policy's ``seed`` when the
        contention model draws from it and ``params`` does not set one (class docstring).

        Raises ValueError for an unknown policy.
        """
        from schedsim.app import registry

        params = dict(self.policy.params)
        if (
            self.machine.contention == "statistical"
            and "seed" not in params
            and "seed" in registry.parameters(self.policy.name)
        ):
            params["seed"] = self.options.seed
        return params

    def identity(self) -> dict[str, Any]:
        """What `run_id` hashes: the normalized configuration, the workload by content.

        The tables of parameters keep only the values away from their defaults, and
        a table with none is left out: the runs from before the tables existed ran
        with those defaults, and keep their ids.
        """
        values = self.normalized().to_dict()
        try:
            values["workload"] = workload_identity(self.workload.name)
        except StudyError as exc:
            raise self._error(exc.key or "workload", exc.why or str(exc)) from None
        if values["load_factor"] is None:
            values["load_factor"] = 1.0  # the trace's own load, however it is spelled
        machine = self.machine_of()
        if machine is not None:
            # The machine by what it is, not by its file's name or comments.
            values["machine"] = machine_identity(machine)
        if values.get("outages") is not None:
            # The outage file by its content, as a workload file.
            values["outages"] = _digest(values["outages"], *_file_stamp(values["outages"]))
        for key in (*_LATER_KEYS, *models.declarations()):
            if key in values and values[key] is None:
                del values[key]  # as before the key existed: old run ids stay valid
        flat = self._flat()
        for key in TABLE_KEYS:
            table = _param_table(flat, key)
            changed = {
                name: value
                for name, value in values.pop(key).items()
                if table is not None and value != table.params[name].default
            }
            if changed:
                values[key] = changed
        params = values["params"]
        if params:  # a policy parameter added later, likewise (only params can hold one)
            for key, before in _later_params(self.policy.name).items():
                if key in params and params[key] == before:
                    del params[key]
        values["id_format"] = ID_FORMAT
        return values

    def run_id(self) -> str:
        """A stable 16-hex-digit hash of the full configuration."""
        text = json.dumps(self.identity(), sort_keys=True, separators=(",", ":"))
        return hashlib.sha256(text.encode()).hexdigest()[:16]

    @property
    def model(self) -> models.WorkloadModel | None:
        """The registered workload model the workload names (None: a trace)."""
        return models.get(self.workload.name)

    @property
    def synthetic(self) -> bool:
        """Whether the workload is generated (``"lublin"``, ``"zeng-w1"``...), not read."""
        return self.model is not None

    @property
    def multicore(self) -> bool:
        """Whether the workload is a model made for nodes of a fixed number of cores
        (Zeng & Sodan's, of 4: `schedsim.workloads.models.ModelMachine`)."""
        model = self.model
        return model is not None and model.machine.cores_per_node is not None

    def build_workload(self) -> Workload:
        """Load (or generate) the workload and apply the transforms in order.

        A registered model (`schedsim.workloads.models`: ``"lublin"``, ``"zeng-w1"``,
        ``"zeng-w2"``, a plug-in's) builds it from the run's seed, the machine's
        ``nodes`` (None: the model's) and ``cores_per_node``, the values of its
        declared parameters (``jobs``, ``lublin_alpha``) and ``workload_params``
        (`schedsim.app.param_tables`); each model's build function says how (the
        Lublin-Feitelson model from the seed's ``"lublin"`` stream, Table 5's W1 and
        W2 from the keyed slowdown draws the ``"statistical"`` contention of that seed
        applies). Any other name is a trace (`schedsim.workloads.catalog`).

        A load factor that stretches the trace's times to 2**43 s or beyond (where
        a float no longer resolves a millisecond: `schedsim.workloads.swf.MAX_TIME`)
        is a `StudyError` naming ``load_factor``.
        """
        spec, machine = self.workload, self.machine
        seed = self.options.seed
        model = self.model
        if model is not None:
            w = model.build(
                models.Inputs(
                    seed,
                    machine.nodes,
                    machine.cores_per_node,
                    spec.model,
                    self.table_values("workload_params"),
                )
            )
        else:
            # Without a month, the reader keeps the first jobs itself (it makes only those).
            cut = spec.first if spec.month is None else None
            w = _read_workload(*_workload_key(spec.name), strict=bool(spec.strict), head=cut)
        if spec.month is not None:
            w = month(w, spec.month)
        if spec.first is not None:  # a workload already cut to its first jobs stays as it is
            w = first(w, spec.first)
        if spec.exact_estimates:
            w = exact_estimates(w)
        if spec.estimates is not None:
            from schedsim.workloads.streams import stream_seed

            rng = np.random.default_rng(stream_seed(seed, "estimates"))
            w = apply_estimates(w, spec.estimates, rng)
        if spec.load_factor is not None:
            w = scale_load(w, spec.load_factor)
            if spec.load_factor < 1 and w.jobs:
                self._check_stretched(w)
        # After the load factor: a requested reservation is its (scaled) submit plus a lead.
        if spec.priorities is not None:
            w = with_priorities(w, spec.priorities, seed)
        if spec.reservations is not None:
            lead = 7200.0 if spec.reservation_lead is None else spec.reservation_lead
            w = with_reservations(w, spec.reservations, seed, max_lead=lead)
        if spec.large_memory is not None:
            w = self._with_large_memory(w, spec.large_memory, seed)
        return w

    def _with_large_memory(self, w: Workload, share: float, seed: int) -> Workload:
        """``large_memory``: that share of the jobs asking for more memory per core than
        the ordinary nodes give and naming ``large_memory_partition``
        (`schedsim.workloads.large_memory`)."""
        machine = self.machine_of()
        name = self.workload.large_memory_partition
        if machine is None or name is None:
            raise self._error("large_memory", _LARGE_MEMORY_NEEDS)
        try:
            per_core, partition, most = machine.large_memory(name)
        except MachineError as exc:
            raise self._error("large_memory_partition", str(exc)) from None
        return with_large_memory(w, share, per_core, partition, seed, most)

    def _check_stretched(self, w: Workload) -> None:
        """`StudyError` naming ``load_factor`` when a job of ``w`` ends at 2**43 s or later."""
        last = max(j.submit + max(j.run_time, j.estimate) for j in w.jobs)
        if last >= limits.MAX_TIME:
            raise self._error(
                "load_factor",
                f"{self.workload.load_factor!r} stretches the workload's times to {last:.4g} s, "
                "past 2**43 s (8.8e12 s), where a float no longer resolves a millisecond",
            )

    @property
    def closed_loop(self) -> bool:
        """Whether this is a closed-loop run (``users`` set): users make the jobs."""
        return self.workload.users is not None

    def population(self) -> Population:
        """The closed-loop population: ``users`` users fitted from the workload (seed 002).

        ``days`` defaults to the paper's 180, ``daily_cycle`` to on,
        ``weekdays`` to every day (no weekly cycle), ``max_runtime`` to the
        paper's one hour (``inf``: no limit). ``user_params`` gives the other
        parameters of the user model (`fit_users`), the daily cycle (`DailyCycle`)
        and the population (`Population`).
        """
        if self.workload.users is None:
            raise self._error("users", "not a closed-loop configuration")
        limit = 3600.0 if self.workload.max_runtime is None else self.workload.max_runtime
        options: dict[str, Any] = {
            "max_runtime": None if math.isinf(limit) else limit,
            "max_runtime_as": self.workload.max_runtime_as or "filter",
            **self._values_for("user_params", fit_users),
        }
        model = fit_users(self.build_workload(), **options)
        others = (self.workload.user_logs or ())[1:]  # the first is the workload (checked)
        if others:  # users from several logs (seed 002 section 3: five), on the first's machine
            alone = (self.replace(workload=log, user_logs=None) for log in others)
            model = merge_models(
                [model, *(fit_users(c.build_workload(), **options) for c in alone)]
            )
        return Population(
            model,
            self.workload.users,
            self._days(),
            self._cycle(),
            **self._values_for("user_params", Population),
        )

    def _days(self) -> float:
        return 180.0 if self.workload.days is None else self.workload.days

    def _cycle(self) -> DailyCycle:
        options: dict[str, Any] = {"enabled": self.workload.daily_cycle is not False}
        if self.workload.weekdays is not None:
            options["weekdays"] = self.workload.weekdays
        return DailyCycle(**options, **self._values_for("user_params", DailyCycle))

    def size_hint(self) -> float:
        """A number that grows with the jobs this run will simulate, as far as its
        configuration says, for handing out a sweep's largest runs first
        (`schedsim.app.sweep.largest_first`): ``jobs`` or ``first`` when set; for a
        closed loop, users x days x the share of the week the daily cycle lets them
        submit in (user-days, not jobs: a user makes some jobs a day, fewer on a loaded
        machine); infinity when the run's size is a log's length, unknown until read."""
        if self.workload.users is not None:
            cycle = self._cycle()
            share = 1.0
            if cycle.enabled:
                share = (cycle.day_end - cycle.day_start) / 24 * len(cycle.weekdays) / 7
            return self.workload.users * self._days() * share
        jobs = self.workload.model.get("jobs")
        if jobs is not None:
            return float(jobs)
        if self.workload.first is not None:
            return float(self.workload.first)
        return math.inf

    def memory_overhead(self) -> MemoryOverhead | None:
        """The `MemoryOverhead` that ``overhead`` describes, or None."""
        if self.options.overhead is None:
            return None
        if self.options.overhead == "memory":
            return MemoryOverhead()
        return MemoryOverhead(**self.options.overhead)  # type: ignore[arg-type]

    def contention_model(self) -> ContentionModel | None:
        """The `ContentionModel` that ``contention`` names, with ``contention_params``,
        or None."""
        if self.machine.contention is None:
            return None
        return StatisticalContention(self.options.seed, **self.table_values("contention_params"))

    def record(self) -> dict[str, Any]:
        """What a run's result records of its configuration: ``{"run_id": ...,
        "config": ...}``, its `run_id` and its normalized configuration as plain
        JSON values (`to_dict`), which `simulation` puts into the result's ``meta``
        (so into ``summary.json``)."""
        normalized = self.normalized()
        return {"run_id": normalized.run_id(), "config": normalized.to_dict()}

    def simulation(self) -> Any:
        """A ready-to-run `schedsim.Simulation` of this configuration.

        The policy gets `policy_params`: ``schedsim run`` builds its configuration
        without normalizing it, and its policy seed must follow the run's too. The
        result's ``meta`` holds `record` (``run_id``, ``config``).
        """
        from schedsim.app.simulation import Simulation

        # The workload first: a trace that cannot be read is the first thing to say.
        workload = self.population() if self.closed_loop else self.build_workload()
        options, machine = self.options, self.machine
        groups = self.machine_of()
        return Simulation(
            workload,
            self.policy.name,
            nodes=machine.nodes,
            cores_per_node=machine.cores_per_node,
            machine=groups,
            outages=self.outages_of(),
            seed=options.seed,
            kill_at_estimate=options.kill_at_estimate,
            wide=options.wide,
            overhead=self.memory_overhead(),
            limit_in=options.limit_in or "run",
            contention=self.contention_model(),
            pieces=options.pieces is not False,
            log_decisions=bool(options.log_decisions),
            log_reservations=bool(options.log_reservations),
            params=self.policy_params(),
            meta=self.record(),
        )

    def outages_of(self) -> Outages | None:
        """The outages the configuration names (``failures``, ``outages``,
        ``on_failure``), read; None when it names none. `StudyError` naming the key
        when they cannot be read."""
        return _read_outages(self.machine, self._error)


_ESTIMATES_WHAT = "an estimate model: exact, f:F, tsafrir, ... (see schedsim.workloads.estimates)"


def _later_params(policy: str) -> dict[str, object]:
    """A policy's parameters added after run ids were published, with the value that
    behaves as before (its class's ``LATER_PARAMS``); none for a policy not known here
    (a plug-in not imported: its ids are then as they always were)."""
    from schedsim.app import registry

    try:
        return dict(getattr(registry.get(policy), "LATER_PARAMS", {}))
    except ValueError:
        return {}


def _estimates_ok(spec: Any) -> bool:
    if not isinstance(spec, str):
        return False
    try:
        parse_estimates(spec)
    except ValueError:
        return False
    return True


_ESTIMATES_BOUNDS = (
    f"f:F with F at most {limits.MAX_ESTIMATE_FACTOR:g}, tsafrir:MAX with MAX at most "
    f"{limits.MAX_DURATION:g} s (a year)"
)


def _estimates_bounded(spec: Any) -> bool:
    """Whether a spec `_estimates_ok` accepts keeps its numbers within `schedsim.app.limits`
    (a spec that does not parse is named by that check)."""
    if not _estimates_ok(spec):
        return True
    for step in parse_estimates(spec).steps:
        if step.value is None:
            continue
        if step.name == "f" and step.value > limits.MAX_ESTIMATE_FACTOR:
            return False
        if step.name == "tsafrir" and step.value > limits.MAX_DURATION:
            return False
    return True


#: Keys added after run ids were first published: left out of the identity when unset.
_LATER_KEYS = (
    "overhead",
    "estimates",
    "users",
    "days",
    "daily_cycle",
    "weekdays",
    "max_runtime",
    "jobs",
    "lublin_alpha",
    "limit_in",
    "pieces",
    "log_decisions",
    "strict",
    "log_reservations",
    "priorities",
    "reservations",
    "reservation_lead",
    "contention",
    "max_runtime_as",
    "user_logs",
    "machine",
    "failures",
    "outages",
    "on_failure",
    "large_memory",
    "large_memory_partition",
)

#: The flat keys a configuration (the study's base, a variant, a grid) may set, in the
#: order of `RunConfig.to_dict`: `schedsim.app.specs.LAYOUT`'s. A plug-in workload model's
#: declared parameters are keys too while it is registered (`config_keys`).
CONFIG_KEYS: tuple[str, ...] = tuple(specs.LAYOUT)


def config_keys() -> tuple[str, ...]:
    """`CONFIG_KEYS` and the declared parameters of every registered workload model."""
    return (*CONFIG_KEYS, *(k for k in models.declarations() if k not in specs.LAYOUT))


class _Flat:
    """A configuration's flat values as attributes (``c.load_factor``), what the checks
    read: the values `RunConfig` is being made of, or a made one's `RunConfig.to_dict`."""

    def __init__(self, values: Mapping[str, Any]) -> None:
        self.__dict__.update(values)
        name = values.get("workload")
        self.model = models.get(name) if isinstance(name, str) else None

    def __getattr__(self, name: str) -> Any:
        if name in models.declarations():
            return None  # a model's parameter left out
        raise AttributeError(name)

    @property
    def synthetic(self) -> bool:
        return self.model is not None

    @property
    def multicore(self) -> bool:
        return self.model is not None and self.model.machine.cores_per_node is not None

    def machine_cores(self) -> int:
        """The cores per node the run has: a model of fixed cores takes the default 1
        as its own (`RunConfig`)."""
        fixed = self.model.machine.cores_per_node if self.model is not None else None
        cores: int = self.cores_per_node
        return fixed if fixed is not None and cores == 1 else cores


def _share(value: Any) -> bool:
    return _is_number(value) and 0 <= value <= 1


def _within(value: Any, low: float, high: float) -> bool:
    """Whether ``value`` is a number in [low, high] (NaN is not)."""
    return _is_number(value) and low <= value <= high


def _machine_problems(c: _Flat) -> list[tuple[str, str]]:
    """The machine's cores within `MAX_CORES` (as ``schedsim run --nodes`` checks them):
    ``nodes`` left out is the workload's (the trace's header, unknown until it is read;
    a generator's 128 nodes). A machine of node groups (``machine``) must be readable,
    and is given instead of ``nodes`` and ``cores_per_node``. Outages (``failures``,
    ``outages``, ``on_failure``) must be readable, and need a trace's jobs."""
    problems = _outage_problems(c)
    return problems + _size_problems(c)


def _outage_problems(c: _Flat) -> list[tuple[str, str]]:
    spec = MachineSpec(failures=c.failures, outages=c.outages, on_failure=c.on_failure)
    try:
        if _read_outages(spec, StudyError.about) is None:
            return []
    except StudyError as exc:
        return [(exc.key or "failures", exc.why or str(exc))]
    if c.users is not None:
        return [("failures" if c.failures is not None else "outages",
                 "closed-loop users (users =) run without outages")]  # fmt: skip
    return []


def _size_problems(c: _Flat) -> list[tuple[str, str]]:
    if c.machine is not None:
        problems: list[tuple[str, str]] = []
        try:
            _read_machine(c.machine, StudyError.about)
        except StudyError as exc:
            problems.append(("machine", exc.why or str(exc)))
        for key, default in (("nodes", None), ("cores_per_node", 1)):
            if getattr(c, key) != default:
                problems.append((key, "give a machine of node groups or the nodes and "
                                 "cores per node, not both"))  # fmt: skip
        if c.users is not None:
            problems.append(("machine", "closed-loop users (users =) run on nodes x "
                             "cores_per_node"))  # fmt: skip
        return problems
    if not (_is_int(c.cores_per_node) and c.cores_per_node > 0):
        return []  # named by the field checks
    if c.nodes is not None and not (_is_int(c.nodes) and c.nodes > 0):
        return []
    cores = c.machine_cores()
    nodes = c.nodes if c.nodes is not None else (c.model.machine.nodes if c.model else 1)
    total = nodes * cores
    if total <= MAX_CORES:
        return []
    bound = f"more than the {MAX_CORES:,} (2**24) a simulated machine may have"
    if c.nodes is None and not c.synthetic:
        return [("cores_per_node", f"{cores:,} cores per node: {bound}")]
    key = "nodes" if c.nodes is not None else "cores_per_node"
    return [(key, f"{nodes:,} nodes x {cores:,} cores per node = {total:,} cores: {bound}")]


def _read_machine(value: Any, error: Callable[[str, str], StudyError]) -> Machine | None:
    """The machine a configuration's ``machine`` names: a TOML file's path or its tables;
    ``error(key, why)`` makes the `StudyError` for one that cannot be read."""
    if value is None:
        return None
    try:
        if isinstance(value, str):
            return _read_machine_file(value, *_file_stamp(value))
        if isinstance(value, Mapping):
            return machine_from_table(value, "machine")
    except MachineError as exc:
        raise error("machine", str(exc)) from None
    raise error("machine", f"expected a machine file's path or its tables, got {value!r}")


_LARGE_MEMORY_NEEDS = (
    "needs a machine with memory (machine =) and the partition the jobs go to "
    "(large_memory_partition =)"
)


def _large_memory_problems(c: _Flat) -> list[tuple[str, str]]:
    """``large_memory`` and ``large_memory_partition`` go together, on a machine whose
    named partition gives a core more memory than the other nodes."""
    share, name = c.large_memory, c.large_memory_partition
    if share is None and name is None:
        return []
    if share is None:
        return [("large_memory_partition", "applies only with large_memory = SHARE")]
    if name is None or c.machine is None:
        return [("large_memory", _LARGE_MEMORY_NEEDS)]
    if not isinstance(name, str):
        return []  # (named above)
    try:
        machine = _read_machine(c.machine, StudyError.about)
        if machine is not None:
            machine.large_memory(name)
    except StudyError:
        return []  # the machine's own problem, named by `_machine_problems`
    except MachineError as exc:
        return [("large_memory_partition", str(exc))]
    return []


def _read_outages(spec: MachineSpec, error: Callable[[str, str], StudyError]) -> Outages | None:
    """The outages a configuration's ``failures``, ``outages`` and ``on_failure`` name;
    None when it names none. ``error(key, why)`` makes the `StudyError` for one that
    cannot be read."""
    if spec.failures is None and spec.outages is None:
        if spec.on_failure is not None:
            raise error("on_failure", "needs failures or outages to say what they kill")
        return None
    model = listed = None
    try:
        if spec.failures is not None:
            if not isinstance(spec.failures, str):
                raise OutageError(
                    f'a failure model such as "mtbf=30d,repair=4h", got {spec.failures!r}'
                )
            model = parse_failure_model(spec.failures)
    except OutageError as exc:
        raise error("failures", str(exc)) from None
    try:
        if spec.outages is not None:
            if not isinstance(spec.outages, str):
                raise OutageError(f"an outage file's path, got {spec.outages!r}")
            listed = _read_outage_file(spec.outages, *_file_stamp(spec.outages))
    except OutageError as exc:
        raise error("outages", str(exc)) from None
    on_failure = spec.on_failure if spec.on_failure is not None else "requeue"
    if on_failure not in ("requeue", "lose"):
        raise error("on_failure", f"requeue or lose, got {on_failure!r}")
    return Outages(model, tuple(listed or ()), on_failure)  # type: ignore[arg-type]


@functools.lru_cache(maxsize=64)
def _read_outage_file(path: str, mtime_ns: int, size: int) -> tuple[Outage, ...]:
    return tuple(read_outages(path))


def _file_stamp(path: str) -> tuple[int, int]:
    """A file's modification time and size, so that a cache sees it change."""
    try:
        st = os.stat(path)
    except OSError:
        return (0, 0)
    return (st.st_mtime_ns, st.st_size)


@functools.lru_cache(maxsize=64)
def _read_machine_file(path: str, mtime_ns: int, size: int) -> Machine:
    return read_machine(path)


def machine_identity(machine: Machine) -> str:
    """``sha256:<digest>`` of what a machine is (its groups and partitions), what a run
    id hashes: the same machine from two files, or one with other comments, is one."""
    text = json.dumps(
        {
            "groups": [
                [g.name, g.nodes, g.cores, g.memory, *([g.speed] if g.speed != 1 else [])]
                for g in machine.groups
            ],
            "partitions": [
                [p.name, list(p.nodes), p.number, p.default] for p in machine.partitions
            ],
        },
        separators=(",", ":"),
    )
    return "sha256:" + hashlib.sha256(text.encode()).hexdigest()


def _plain(value: Any) -> Any:
    """Nested mappings and lists as plain dicts and lists (JSON-ready)."""
    if isinstance(value, Mapping):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_plain(v) for v in value]
    return value


def _param_table(c: _Flat, key: str) -> ParamTable | None:
    """The table of parameters ``key`` takes in this configuration; None where it does
    not apply (`RunConfig.table_values`)."""
    if key == "workload_params":
        if not isinstance(c.workload, str):
            return None
        return workload_table(c.workload)
    if key == "contention_params":
        named = c.contention.lower() if isinstance(c.contention, str) else None
        return CONTENTION_PARAMS if named == "statistical" else None
    if key == "user_params":
        return USER_PARAMS if c.users is not None else None
    raise KeyError(key)


def _table_needs(key: str) -> str:
    """Where a table of parameters applies, for the error that says it does not."""
    if key == "workload_params":
        takers = [name for name, m in models.registered().items() if m.generator is not None]
        return "applies only to a generated workload: workload = " + ", ".join(
            f'"{name}"' for name in takers
        )
    if key == "contention_params":
        return 'applies only with contention = "statistical"'
    return "applies only to a closed-loop run: set users = N"


def _table_problems(c: _Flat) -> list[tuple[str, str]]:
    """(key, why) for the tables of parameters: a table that does not apply, an unknown
    parameter, a bad value (`schedsim.app.param_tables.ParamTable.convert`), and the
    rules between parameters (and with other keys) that no one value breaks."""
    problems: list[tuple[str, str]] = []
    for key in TABLE_KEYS:
        given = getattr(c, key)
        table = _param_table(c, key)
        if table is None:
            if not isinstance(given, Mapping) or given:
                problems.append((key, _table_needs(key)))
            continue
        values, wrong = table.convert(given)
        problems += wrong
        if wrong:
            continue
        cycle_off = key == "user_params" and c.daily_cycle is False
        if cycle_off:
            problems += [
                (f"{key}.{name}", "applies only with the daily cycle on (daily_cycle = false)")
                for name in values
                if table.params[name].source is DailyCycle
            ]
        done = {**table.defaults(), **values}
        if key == "user_params":
            if not done["session_gap"] < done["max_break"]:
                name = "max_break" if "max_break" in values else "session_gap"
                problems.append(
                    (
                        f"{key}.{name}",
                        f"expected session_gap < max_break, got {done['session_gap']:g} and "
                        f"{done['max_break']:g} s",
                    )
                )
            hours = [done[k] for k in ("day_start", "arrive_until", "day_end")]
            if not cycle_off and not (hours[0] <= hours[1] <= hours[2] and hours[0] < hours[2]):
                name = next(k for k in ("day_start", "arrive_until", "day_end") if k in values)
                problems.append(
                    (
                        f"{key}.{name}",
                        "expected day_start <= arrive_until <= day_end and day_start < day_end "
                        "(hours), got {:g}, {:g}, {:g}".format(*hours),
                    )
                )
        # Away from the default only: with the default 2 CPUs a configuration means what it
        # did before the key (a study's base, without its workload, on 1 core included).
        if (
            key == "contention_params"
            and done["cpus_per_node"] != table.params["cpus_per_node"].default
            and _is_int(c.cores_per_node)
        ):
            cores = c.machine_cores()
            if cores % done["cpus_per_node"]:
                problems.append(
                    (
                        f"{key}.cpus_per_node",
                        f"{done['cpus_per_node']} CPUs cannot share the {cores} cores of a "
                        "node equally: expected a divisor of cores_per_node",
                    )
                )
    return problems


def _field_problems(c: _Flat) -> list[tuple[str, str]]:
    """(key, why) for every field with a bad type or value, in field order."""
    checks: list[tuple[str, bool, str]] = [
        ("workload", isinstance(c.workload, str) and bool(c.workload), "a non-empty string"),
        (
            "month",
            c.month is None or (isinstance(c.month, str) and _month_ok(c.month)),
            "a 'YYYY-MM' string from 0001-01 to 9999-11 (a month the calendar holds whole)",
        ),
        (
            "first",
            c.first is None or (_is_int(c.first) and 0 < c.first <= limits.MAX_JOBS),
            f"a positive number of jobs, at most {limits.MAX_JOBS:,}",
        ),
        ("exact_estimates", isinstance(c.exact_estimates, bool), "true or false"),
        (
            "load_factor",
            c.load_factor is None or _within(c.load_factor, *limits.LOAD_FACTOR_RANGE),
            "a positive number from {:g} to {:g}".format(*limits.LOAD_FACTOR_RANGE),
        ),
        ("policy", isinstance(c.policy, str) and bool(c.policy), "a policy name"),
        (
            "params",
            isinstance(c.params, Mapping) and all(isinstance(k, str) for k in c.params),
            "a table of policy parameters",
        ),
        ("nodes", c.nodes is None or (_is_int(c.nodes) and c.nodes > 0), "a positive integer"),
        (
            "cores_per_node",
            _is_int(c.cores_per_node) and c.cores_per_node > 0,
            "a positive integer",
        ),
        ("kill_at_estimate", isinstance(c.kill_at_estimate, bool), "true or false"),
        ("wide", c.wide in ("error", "drop", "clamp"), "'error', 'drop' or 'clamp'"),
        (
            "overhead",
            c.overhead is None
            or (isinstance(c.overhead, str) and c.overhead.lower() in ("none", "memory"))
            or isinstance(c.overhead, Mapping),
            "'none', 'memory' or a table of " + ", ".join(OVERHEAD_KEYS),
        ),
        ("warmup", _trim_ok(c.warmup), "a job count or a fraction in [0, 1)"),
        ("cooldown", _trim_ok(c.cooldown), "a job count or a fraction in [0, 1)"),
        ("seed", _is_int(c.seed) and c.seed >= 0, "a non-negative integer"),
        ("estimates", c.estimates is None or _estimates_ok(c.estimates), _ESTIMATES_WHAT),
        ("estimates", c.estimates is None or _estimates_bounded(c.estimates), _ESTIMATES_BOUNDS),
        (
            "users",
            c.users is None or (_is_int(c.users) and 0 < c.users <= limits.MAX_USERS),
            f"a positive number of users, at most {limits.MAX_USERS:,}",
        ),
        (
            "days",
            c.days is None or (_is_number(c.days) and limits.MIN_DAYS <= c.days <= limits.MAX_DAYS),
            f"a number of days from {limits.MIN_DAYS:.3g} (an hour) to "
            f"{limits.MAX_DAYS:,.0f} (a century)",
        ),
        ("daily_cycle", c.daily_cycle is None or isinstance(c.daily_cycle, bool), "true or false"),
        (
            "weekdays",
            c.weekdays is None
            or (
                isinstance(c.weekdays, (list, tuple))
                and bool(c.weekdays)
                and all(_is_int(d) and 0 <= d <= 6 for d in c.weekdays)
            ),
            "a non-empty list of weekdays 0 (Monday) to 6",
        ),
        # A workload model's declared parameters (`schedsim.workloads.models`), here so
        # that a configuration's first error is the one it was before the registry.
        *(
            (key, value is None or p.accepts(value), p.expects)
            for key, (p, _) in models.declarations().items()
            for value in [getattr(c, key)]
        ),
        (
            "max_runtime",
            c.max_runtime is None
            or c.max_runtime == math.inf
            or (_is_number(c.max_runtime) and 0 < c.max_runtime <= limits.MAX_DURATION),
            f"a positive number of seconds, at most {limits.MAX_DURATION:g} (a year), "
            "or inf (no limit)",
        ),
        ("limit_in", c.limit_in in (None, "run", "work"), "'run' or 'work'"),
        ("pieces", c.pieces is None or isinstance(c.pieces, bool), "true or false"),
        (
            "log_decisions",
            c.log_decisions is None or isinstance(c.log_decisions, bool),
            "true or false",
        ),
        (
            "log_reservations",
            c.log_reservations is None or isinstance(c.log_reservations, bool),
            "true or false",
        ),
        ("strict", c.strict is None or isinstance(c.strict, bool), "true or false"),
        ("priorities", c.priorities is None or _share(c.priorities), "a share in [0, 1]"),
        ("reservations", c.reservations is None or _share(c.reservations), "a share in [0, 1]"),
        ("large_memory", c.large_memory is None or _share(c.large_memory), "a share in [0, 1]"),
        (
            "large_memory_partition",
            c.large_memory_partition is None or isinstance(c.large_memory_partition, str),
            "a partition's name",
        ),
        (
            "reservation_lead",
            c.reservation_lead is None or _within(c.reservation_lead, 0.0, limits.MAX_DURATION),
            f"a number of seconds from 0 to {limits.MAX_DURATION:g} (a year)",
        ),
        (
            "max_runtime_as",
            c.max_runtime_as in (None, "cap", "filter"),
            "'cap' (longer jobs run for max_runtime) or 'filter' (they are left out)",
        ),
        (
            "contention",
            c.contention is None
            or (isinstance(c.contention, str) and c.contention.lower() in CONTENTION),
            " or ".join(f"'{name}'" for name in CONTENTION),
        ),
    ]
    problems: list[tuple[str, str]] = []
    for key, ok, what in checks:
        if key == "overhead" and isinstance(c.overhead, Mapping):
            problems += _overhead_problems(c.overhead)  # named by the table's own key
        elif not ok and not any(k == key for k, _ in problems):
            problems.append((key, f"expected {what}, got {getattr(c, key)!r}"))
    if not isinstance(c.workload, str):
        return problems  # named above; what follows reads the workload's name
    problems += _machine_problems(c)
    problems += _table_problems(c)
    problems += _model_problems(c)
    if c.synthetic and c.strict:
        problems.append(("strict", "applies only to a workload read from an SWF file"))
    fixed = c.model.machine.cores_per_node if c.model is not None else None
    if fixed is not None and _is_int(c.cores_per_node) and c.cores_per_node not in (1, fixed):
        problems.append(
            (
                "cores_per_node",
                f"workload {c.workload!r} is made for nodes of {fixed} cores: expected {fixed} "
                f"(or leave it out: 1, the default, is taken as {fixed}), got {c.cores_per_node!r}",
            )
        )
    fractions = [getattr(c, k) for k in ("warmup", "cooldown") if isinstance(getattr(c, k), float)]
    if len(fractions) == 2 and _trim_ok(c.warmup) and _trim_ok(c.cooldown) and sum(fractions) >= 1:
        problems.append(
            ("cooldown", f"with warmup {c.warmup} leaves no job in the summaries: "
             "the two fractions must add up to less than 1")
        )  # fmt: skip
    if c.reservation_lead is not None and c.reservations is None:
        problems.append(("reservation_lead", "applies only with reservations = SHARE"))
    problems += _large_memory_problems(c)
    if c.users is not None:
        for key in ("priorities", "reservations", "large_memory"):
            if getattr(c, key) is not None:
                problems.append((key, "applies to a workload of jobs, not to users ="))
    problems += _user_logs_problems(c)
    if c.users is None:
        for key in ("days", "daily_cycle", "weekdays", "max_runtime", "max_runtime_as",
                    "user_logs"):  # fmt: skip
            if getattr(c, key) is not None:
                problems.append((key, "applies only to a closed-loop run: set users = N"))
    elif c.load_factor is not None:
        problems.append(
            ("load_factor", "does not apply with users = (the population sets the load)")
        )
    return problems


def _user_logs_problems(c: _Flat) -> list[tuple[str, str]]:
    """(``user_logs``, why) unless it is a list of distinct shipped or archive log names
    whose first is the workload (whose machine the run has)."""
    logs = getattr(c, "user_logs", None)
    if logs is None:
        return []
    known = catalog.names()
    if not (isinstance(logs, (list, tuple)) and logs and all(isinstance(x, str) for x in logs)):
        return [("user_logs", f"expected a non-empty list of log names, got {logs!r}")]
    unknown = [x for x in logs if x not in known]
    if unknown:
        return [("user_logs", f"unknown log {unknown[0]!r}: expected names of "
                 f"{', '.join(known[:6])}...")]  # fmt: skip
    if len(set(logs)) != len(logs):
        return [("user_logs", f"names a log twice: {list(logs)!r}")]
    if logs[0] != c.workload:
        return [("user_logs", f"must name the workload {c.workload!r} first (the run has its "
                 f"machine), got {list(logs)!r}")]  # fmt: skip
    return []


def _model_problems(c: _Flat) -> list[tuple[str, str]]:
    """(key, why) for a workload model's declared parameter given to a workload whose
    model does not take it: "applies only to" the models that do (`schedsim.workloads.models`)."""
    problems: list[tuple[str, str]] = []
    registered = models.registered()
    for key, (p, takers) in models.declarations().items():
        if getattr(c, key) is None or (c.model is not None and p in c.model.params):
            continue
        what = registered[takers[0]].what if len(takers) == 1 else "a generated workload"
        names = ", ".join(f'"{name}"' for name in takers)
        problems.append((key, f"applies only to {what}: workload = {names}"))
    return problems


#: The keys of an ``overhead`` table: `MemoryOverhead`'s parameters.
OVERHEAD_KEYS: tuple[str, ...] = tuple(f.name for f in dataclasses.fields(MemoryOverhead))
_OVERHEAD_DEFAULTS: dict[str, Any] = dataclasses.asdict(MemoryOverhead())


def _overhead_problems(table: Mapping[str, Any]) -> list[tuple[str, str]]:
    """(``overhead.KEY``, why) for every bad key or value of an overhead table."""
    problems = [
        (f"overhead.{key}", f"unknown key (known: {', '.join(OVERHEAD_KEYS)})")
        for key in table
        if key not in OVERHEAD_KEYS
    ]
    if problems:
        return problems
    values = {**_OVERHEAD_DEFAULTS, **table}

    def number(key: str, low: float, strict: bool) -> bool:
        v = values[key]
        return _is_number(v) and math.isfinite(v) and (v > low if strict else v >= low)

    most = f"at most {limits.OVERHEAD_MAX_MB:g} (a terabyte)"
    checks: list[tuple[str, bool, str]] = [
        (
            "low_mb",
            number("low_mb", 0.0, strict=False) and values["low_mb"] <= limits.OVERHEAD_MAX_MB,
            f"a number of MB >= 0, {most}",
        ),
        (
            "high_mb",
            number("high_mb", 0.0, strict=False) and values["high_mb"] <= limits.OVERHEAD_MAX_MB,
            f"a number of MB >= 0, {most}",
        ),
        (
            "rate_mb_s",
            number("rate_mb_s", limits.OVERHEAD_MIN_RATE, strict=False),
            f"a positive number of MB/s, at least {limits.OVERHEAD_MIN_RATE:g}",
        ),
        ("per", values["per"] in ("job", "processor"), "'job' or 'processor'"),
    ]
    problems = [
        (f"overhead.{key}", f"expected {what}, got {values[key]!r}")
        for key, ok, what in checks
        if not ok
    ]
    if not problems and values["high_mb"] < values["low_mb"]:
        problems.append(
            (
                "overhead.high_mb",
                f"expected at least low_mb ({values['low_mb']!r}), got {values['high_mb']!r}",
            )
        )
    return problems


def _canonical_overhead(value: str | Mapping[str, Any] | None) -> str | dict[str, Any] | None:
    """None, ``"memory"`` (the paper's parameters) or the completed table (numbers as float)."""
    if value is None or (isinstance(value, str) and value.lower() == "none"):
        return None
    if isinstance(value, str):
        return "memory"
    table = {
        key: float(v) if _is_number(v) else v for key, v in {**_OVERHEAD_DEFAULTS, **value}.items()
    }
    return "memory" if table == _OVERHEAD_DEFAULTS else table


_MONTH = re.compile(r"\d{4}-(0[1-9]|1[0-2])")


def _month_ok(value: str) -> bool:
    """A 'YYYY-MM' month that Python's calendar holds with the month after it (the
    window's end): from 0001-01 to 9999-11."""
    return bool(_MONTH.fullmatch(value)) and "0001-01" <= value <= "9999-11"


def _trim_ok(value: Any) -> bool:
    if _is_int(value):
        return value >= 0
    return isinstance(value, float) and 0.0 <= value < 1.0


def _workload_key(name_or_path: str) -> tuple[str, int, int]:
    """(resolved path, mtime, size): a cache key that notices an edited file."""
    path = str(catalog.resolve(name_or_path))
    return (path, *_file_stamp(path))


@functools.lru_cache(maxsize=4)
def _read_workload(
    path: str, mtime_ns: int, size: int, strict: bool = False, head: int | None = None
) -> Workload:
    # A study runs the same trace many times in one worker; parsing it once
    # saves about a second per run on CTC. Workloads are immutable.
    if head is not None and kind(path) != "swf":
        # Only the SWF reader makes fewer jobs for it: the others' whole file is cached.
        return first(_read_workload(path, mtime_ns, size, strict), head)
    return catalog.load(path, first=head, **({"strict": True} if strict else {}))


@functools.lru_cache(maxsize=64)
def _digest(path: str, mtime_ns: int, size: int) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return "sha256:" + h.hexdigest()


def workload_identity(name_or_path: str) -> str:
    """A shipped trace's short name, or ``sha256:<digest>`` of a workload file."""
    key = name_or_path.strip().lower()
    if key in catalog.SHIPPED or models.get(key) is not None:
        return key
    try:
        file_key = _workload_key(name_or_path)
        _check_format(*file_key)
        return _digest(*file_key)
    except ValueError as exc:
        raise StudyError.about("workload", str(exc)) from None


@functools.lru_cache(maxsize=64)
def _check_format(path: str, mtime_ns: int, size: int) -> None:
    """A workload file that is plainly no workload (a CSV, a JSON that is no Batsim
    workload...) is refused when its configuration is made, not when a run reads it:
    SWF by its text (`schedsim.workloads.swf.check_swf_text`), Slurm accounting and
    Batsim JSON by reading them (their readers refuse on one line)."""
    from schedsim.workloads.swf import check_swf_text

    what = kind(path)
    if what == "swf":
        check_swf_text(path)
    elif what != "parquet":
        _read_workload(path, mtime_ns, size)  # read once: the runs find it in the cache


# ---- a study -------------------------------------------------------------------


@dataclass(frozen=True)
class Run:
    """One run of a study: its configuration, label, replication and id."""

    config: RunConfig
    label: str
    replication: int
    id: str


#: The keys holding tables of parameters, whose entries a grid varies one by one
#: (``params.order = [...]``, ``workload_params.rounding = [...]``).
_TABLES: tuple[str, ...] = ("params", *TABLE_KEYS)


def _flatten(table: Mapping[str, Any], where: str) -> dict[str, Any]:
    """Grid keys: nested tables of parameters (`_TABLES`) become dotted ``TABLE.KEY`` keys."""
    flat: dict[str, Any] = {}
    for key, value in table.items():
        if key in _TABLES and isinstance(value, Mapping):
            for pkey, pvalue in value.items():
                flat[f"{key}.{pkey}"] = pvalue
        else:
            flat[key] = value
    for key in flat:
        base = key.split(".", 1)[0]
        keys = config_keys()
        if base not in keys or (base not in _TABLES and "." in key):
            raise StudyError(f"{where}.{key}: unknown key (known: {', '.join(keys)})")
        if base in _TABLES and "." not in key:
            raise StudyError(f"{where}.{base}: give one list per parameter ({base}.NAME = [...])")
    return flat


def _narrowed(grid: Mapping[str, Any], variant: Mapping[str, Any], where: str) -> dict[str, Any]:
    """The grid a variant runs: a grid key the variant names runs only the value (or the
    list of values) it gives, each one of the grid's own (a variant narrows the grid,
    never widens it: ``policy = "multiqueue"`` runs a reading that the grid's other
    policies ignore on that policy alone)."""
    axes = dict(grid)
    for key in grid.keys() & variant.keys():
        value, among = variant[key], list(grid[key])
        if value in among:
            chosen = [among[among.index(value)]]  # (the grid's own: 1.0 for 1)
        elif isinstance(value, list) and value and all(v in among for v in value):
            chosen = [v for v in among if v in value]  # (in the grid's order)
        else:
            raise StudyError(
                f"{where}.{key}: {value!r} is not among the grid's values "
                f"({', '.join(map(repr, among))}); a variant may only narrow a grid key"
            )
        axes[key] = chosen
    return axes


def _apply(values: dict[str, Any], key: str, value: Any) -> None:
    table, dot, name = key.partition(".")
    if dot:
        values[table] = {**values.get(table, {}), name: value}
    else:
        values[key] = value


def _default_label(config: RunConfig, explicit: Mapping[str, Any]) -> str:
    """The policy name, with the parameters the study set away from their defaults."""
    try:
        from schedsim.app import registry

        defaults = {k: p.default for k, p in registry.parameters(config.policy.name).items()}
    except ValueError:
        defaults = {}
    changed = [
        f"{k}={v}" for k, v in sorted(explicit.items()) if k not in defaults or defaults[k] != v
    ]
    name = config.policy.name
    return f"{name}({', '.join(changed)})" if changed else name


#: ``[report] categories`` keys -> the values allowed (None: any strings; `schedsim.app.report`
#: checks metric and stat names against the runs).
CATEGORY_KEYS: dict[str, tuple[str, ...] | None] = {
    "schemes": ("16", "4"),
    "estimates": ("all", "well", "poor"),
    "metrics": None,
    "stats": None,
}


def _categories_ok(value: Any) -> tuple[bool, str]:
    """``[report] categories``: true/false, or a table of lists (`CATEGORY_KEYS`)."""
    what = (
        "true, false or a table of lists: schemes ('16', '4'), estimates ('all', 'well', "
        "'poor'), metrics (jobs columns such as 'bounded_slowdown'), stats ('mean', 'max', ...)"
    )
    if isinstance(value, bool):
        return True, what
    if not isinstance(value, Mapping):
        return False, what
    for key, items in value.items():
        if key not in CATEGORY_KEYS or not isinstance(items, list) or not items:
            return False, what
        allowed = CATEGORY_KEYS[key]
        for item in items:
            text = str(item) if _is_int(item) and key == "schemes" else item
            if not isinstance(text, str) or (allowed is not None and text not in allowed):
                return False, what
    return True, what


def paper_analyses() -> dict[str, str]:
    """The papers whose own analyses a study's report can add (``[report] paper = NAME``):
    name -> module of `schedsim.papers` with ``write(results, out)``. The papers sit above
    this layer, so their table (`schedsim.papers.ANALYSES`) is read by name, not imported."""
    return dict(importlib.import_module("schedsim.papers").ANALYSES)


#: The ``[report]`` keys (defaults of `schedsim.app.report`): key -> check(value) -> (ok, what).
REPORT_KEYS: dict[str, Callable[[Any], tuple[bool, str]]] = {
    "metrics": lambda v: (
        isinstance(v, list) and all(isinstance(m, str) for m in v),
        "a list of metric names",
    ),
    "x": lambda v: (
        isinstance(v, str),
        "a configuration column such as 'load_factor', or 'none' (no plots against one)",
    ),
    "baseline": lambda v: (isinstance(v, (str, int, float)), "a label such as 'easy'"),
    "kind": lambda v: (
        v in ("R", "ratio", "percent", "difference"),
        "R, ratio, percent or difference",
    ),
    "categories": _categories_ok,
    "paper": lambda v: (
        v in paper_analyses(),
        f"the name of a paper whose analyses the report adds: {', '.join(paper_analyses())}",
    ),
    "closed_loop": lambda v: (
        isinstance(v, bool)
        or (
            isinstance(v, Mapping)
            and set(v) <= {"users", "hours"}
            and (
                "users" not in v
                or (isinstance(v["users"], int) and not isinstance(v["users"], bool))
            )
            and (
                "hours" not in v
                or (
                    isinstance(v["hours"], list)
                    and all(_is_number(h) and 0 <= h < 24 for h in v["hours"])
                )
            )
        ),
        "true, or a table with users (an integer) and hours (a list of hours in [0, 24))",
    ),
}


@dataclass
class Study:
    """A base configuration x (variants and/or a grid) x replications.

    ``grid`` maps config keys (and dotted ``params.NAME`` keys) to lists of
    values; ``variants`` is a list of partial configurations, each with an
    optional ``label``. See the module docstring for the TOML form.
    """

    base: Mapping[str, Any] = field(default_factory=dict)
    grid: Mapping[str, Sequence[Any]] = field(default_factory=dict)
    variants: Sequence[Mapping[str, Any]] = ()
    replications: int = 1
    seed: int = 0
    name: str = "study"
    imports: Sequence[str] = ()
    report: Mapping[str, Any] = field(default_factory=dict)
    source: str = "study"

    def __post_init__(self) -> None:
        src = self.source
        if not _is_int(self.replications) or not 1 <= self.replications <= limits.MAX_REPLICATIONS:
            raise StudyError(
                f"{src}: study.replications: expected a positive integer, at most "
                f"{limits.MAX_REPLICATIONS:,}, got {self.replications!r}"
            )
        if not _is_int(self.seed) or self.seed < 0:
            raise StudyError(f"{src}: study.seed: expected a non-negative integer")
        if not isinstance(self.name, str) or not self.name:
            raise StudyError(f"{src}: study.name: expected a non-empty string")
        if isinstance(self.imports, str) or not all(isinstance(m, str) for m in self.imports):
            raise StudyError(f"{src}: study.imports: expected a list of module names")
        # Before the keys are checked: a module may register a workload model, whose
        # declared parameters are keys (`schedsim.workloads.models`).
        self.import_modules()
        if not isinstance(self.base, Mapping):
            raise StudyError(f"{src}: base: expected a table")
        for table in _TABLES:
            if not isinstance(self.base.get(table, {}), Mapping):
                raise StudyError(f"{src}: base.{table}: expected a table of parameters")
        for key in self.base:
            if key not in config_keys():
                raise StudyError(
                    f"{src}: base.{key}: unknown key (known: {', '.join(config_keys())})"
                )
        try:
            RunConfig.from_dict(self.base)
        except StudyError as exc:
            raise StudyError(f"{src}: base.{exc}") from None
        if "seed" in self.base:
            raise StudyError(f"{src}: base.seed: seeds come from study.seed and replications")
        if not isinstance(self.grid, Mapping):
            raise StudyError(f"{src}: grid: expected a table of lists")
        for key, values in _flatten(self.grid, f"{src}: grid").items():
            if key == "seed":
                raise StudyError(f"{src}: grid.seed: seeds come from study.seed and replications")
            if isinstance(values, (str, bytes)) or not isinstance(values, Sequence) or not values:
                raise StudyError(f"{src}: grid.{key}: expected a non-empty list of values")
        if isinstance(self.variants, Mapping) or not isinstance(self.variants, Sequence):
            raise StudyError(f"{src}: variants: expected a list of tables ([[variants]])")
        for i, variant in enumerate(self.variants, 1):
            if not isinstance(variant, Mapping):
                raise StudyError(f"{src}: variants[{i}]: expected a table")
            for table in _TABLES:
                if not isinstance(variant.get(table, {}), Mapping):
                    raise StudyError(f"{src}: variants[{i}].{table}: expected a table")
            if "seed" in variant:
                raise StudyError(f"{src}: variants[{i}].seed: seeds come from study.seed")
        if not isinstance(self.report, Mapping):
            raise StudyError(f"{src}: report: expected a table")
        for key, value in self.report.items():
            if key not in REPORT_KEYS:
                known = ", ".join(REPORT_KEYS)
                raise StudyError(f"{src}: report.{key}: unknown key (known: {known})")
            ok, what = REPORT_KEYS[key](value)
            if not ok:
                raise StudyError(f"{src}: report.{key}: expected {what}, got {value!r}")
        if isinstance(self.report.get("metrics"), list):
            from schedsim.app.report.reading import known_metrics

            metrics = known_metrics()
            unknown = [m for m in self.report["metrics"] if m not in metrics]
            if unknown:
                raise StudyError(
                    f"{src}: report.metrics: unknown metric {unknown[0]!r} (known: "
                    f"{', '.join(metrics)})"
                )

    @classmethod
    def from_dict(cls, doc: Mapping[str, Any], source: str = "study") -> Study:
        """Build from the TOML document's tables (``study``, ``base``, ``grid``, ...)."""
        known = ("study", "base", "grid", "variants", "report")
        for key in doc:
            if key not in known:
                raise StudyError(f"{source}: {key}: unknown table (known: {', '.join(known)})")
        head = doc.get("study", {})
        if not isinstance(head, Mapping):
            raise StudyError(f"{source}: study: expected a table")
        head_keys = ("name", "seed", "replications", "imports")
        for key in head:
            if key not in head_keys:
                raise StudyError(
                    f"{source}: study.{key}: unknown key (known: {', '.join(head_keys)})"
                )
        study = cls(
            base=doc.get("base", {}),
            grid=doc.get("grid", {}),
            variants=doc.get("variants", ()),
            report=doc.get("report", {}),
            source=source,
            **head,
        )
        if not (study.base or study.grid or study.variants):
            # An empty file (or one of [study] and [report] only) would run the default
            # configuration, which no one means by it.
            raise StudyError(
                f"{source}: the study describes no run: give a [base] table, a [grid] "
                "or [[variants]]"
            )
        return study

    def import_modules(self) -> None:
        """Import the study's ``imports``: modules (dotted names, or ``.py`` files as
        ``schedsim run --import`` takes them) that register policies or workload models."""
        from schedsim.app import registry

        for module in self.imports:
            try:
                if module.endswith(".py"):
                    registry.import_module(module)
                else:
                    importlib.import_module(module)
            except (ImportError, ValueError) as exc:
                raise StudyError(f"{self.source}: study.imports: {exc}") from None

    def runs(self) -> list[Run]:
        """Every run, in order: variants, then grid points, then replications.

        Raises `StudyError` naming the variant or grid point of a bad
        configuration, and when two runs would have the same configuration.
        """
        self.import_modules()
        src = self.source
        grid = _flatten(self.grid, f"{src}: grid")
        keys = list(grid)
        variants: Iterable[Mapping[str, Any]] = self.variants or [{}]
        out: list[Run] = []
        seen: dict[str, str] = {}
        for v, variant in enumerate(variants, 1):
            variant = dict(variant)
            label = variant.pop("label", None)
            where = f"{src}: variants[{v}]" if self.variants else f"{src}: run"
            axes = _narrowed(grid, _flatten(variant, where), where)
            for point in itertools.product(*(axes[k] for k in keys)):
                values: dict[str, Any] = {**self.base, **variant}
                values["params"] = {**self.base.get("params", {}), **variant.get("params", {})}
                for table in TABLE_KEYS:
                    if table in self.base or table in variant:
                        values[table] = {**self.base.get(table, {}), **variant.get(table, {})}
                for key, value in zip(keys, point, strict=True):
                    _apply(values, key, value)
                at = ", ".join(f"{k}={val!r}" for k, val in zip(keys, point, strict=True))
                here = f"{where}{' (' + at + ')' if at else ''}"
                config = RunConfig.from_dict(values, here)
                try:
                    normalized = config.normalized()
                except StudyError as exc:
                    raise StudyError(f"{here}: {exc}") from None
                explicit = {k: normalized.params[k] for k in values["params"]}
                run_label = (
                    str(label) if label is not None else _default_label(normalized, explicit)
                )
                for r in range(self.replications):
                    # Normalized once seeded: a policy seed may follow the run's (RunConfig).
                    seeded = config.replace(seed=replication_seed(self.seed, r)).normalized()
                    try:
                        run_id = seeded.run_id()
                    except StudyError as exc:
                        raise StudyError(f"{here}: {exc}") from None
                    if run_id in seen:
                        raise StudyError(
                            f"{here}: the same run as {seen[run_id]} (identical configuration)"
                        )
                    seen[run_id] = f"{run_label} replication {r}"
                    out.append(Run(seeded, run_label, r, run_id))
        self._check_report(out)
        return out

    def _check_report(self, runs: Sequence[Run]) -> None:
        """The ``[report]`` values that name runs or columns name ones the study has:
        ``baseline`` a run's label, ``x`` a configuration column (``params.NAME`` and
        ``TABLE.NAME`` for a table's entries) or ``none``; known before any run starts."""
        src = self.source
        baseline = self.report.get("baseline")
        labels = sorted({run.label for run in runs})
        if baseline is not None and str(baseline) not in labels:
            raise StudyError(
                f"{src}: report.baseline: {baseline!r} is no run's label "
                f"(labels: {', '.join(labels)})"
            )
        x = self.report.get("x")
        if x is not None and x != "none":
            columns: set[str] = set()
            for run in runs:
                for key, value in run.config.to_dict().items():
                    columns.add(key)
                    if isinstance(value, Mapping):
                        columns.update(f"{key}.{sub}" for sub in value)
            if x not in columns:
                raise StudyError(
                    f"{src}: report.x: {x!r} is no configuration column "
                    f"(e.g. {', '.join(sorted(c for c in columns if '.' not in c)[:8])}, "
                    "params.NAME; or none)"
                )

    def to_dict(self) -> dict[str, Any]:
        """The definition as the TOML document's tables (JSON-ready)."""
        return {
            "study": {
                "name": self.name,
                "seed": self.seed,
                "replications": self.replications,
                "imports": list(self.imports),
            },
            "base": dict(self.base),
            "grid": {k: list(v) for k, v in _flatten(self.grid, self.source).items()},
            "variants": [dict(v) for v in self.variants],
            "report": dict(self.report),
        }


def _resolve_paths(doc: dict[str, Any], root: Path) -> None:
    """Make relative workload and machine file paths relative to the study file's folder."""

    def fix(value: Any) -> Any:
        if not isinstance(value, str) or value.strip().lower() in catalog.SHIPPED:
            return value
        path = Path(value).expanduser()
        if path.is_absolute() or not (root / path).is_file():
            return value
        return str((root / path).resolve())

    variants = doc.get("variants")
    tables = [doc.get("base"), *(variants if isinstance(variants, list) else [])]
    for table in tables:
        for key in ("workload", "machine", "outages"):
            if isinstance(table, dict) and key in table:
                table[key] = fix(table[key])
    grid = doc.get("grid")
    for key in ("workload", "machine", "outages"):
        if isinstance(grid, dict) and isinstance(grid.get(key), list):
            grid[key] = [fix(v) for v in grid[key]]


def load_study(path: str | os.PathLike[str]) -> Study:
    """Read a study from a TOML file; errors name the file and the key.

    Relative workload paths are taken relative to the file's folder.
    """
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise StudyError(f"{path}: cannot read the study file ({exc.strerror})") from None
    except UnicodeDecodeError as exc:
        raise StudyError(
            f"{path}: not UTF-8 text (byte {exc.object[exc.start]:#04x} at offset "
            f"{exc.start}): a study is a TOML file"
        ) from None
    try:
        doc = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise StudyError(f"{path}: not valid TOML: {exc}") from None
    _resolve_paths(doc, path.parent)
    return Study.from_dict(doc, source=str(path))
