"""Node outages: failures drawn from a model or read from a file, and maintenance windows.

An `Outage` takes nodes out of the machine from ``start`` to ``end``. Two kinds:

``failure``
    Unplanned. The jobs holding cores on a failing node, and the suspended jobs whose
    memory image it holds, are killed; the run's ``on_failure`` says whether they go
    back to the queue to start over (``requeue``, the default: what a batch system
    with requeueing does) or leave the system (``lose``, outcome ``failed``). Nobody
    knows beforehand when a node fails or how long its repair takes: policies see a
    failed node as having no free cores, and its outage with no end, until it returns.
``maintenance``
    Planned: a reservation of nodes from a time, announced from the start of the run.
    Policies see every window not yet over (`schedsim.model.view.View.outages`), and
    the backfilling policies start no job on a window's nodes that its estimate would
    carry into the window. A job still on them when the window opens is killed as a
    failure kills it.

Where outages come from:

* `FailureModel`: each node fails independently, its times between failures drawn
  from an exponential or Weibull distribution (``shape`` 1 is the exponential; below
  1, failures come in bursts, as logs of real systems show), each repair likewise;
  the draws of node ``i`` come from the run's random stream ``failures/i``, so the same
  seed gives the same failures whatever else the run draws, and a node's failures do
  not depend on how many nodes the machine has.
* An outage file (`read_outages`): one outage per line, ``start end nodes kind``,
  times in seconds from the start of the run (its first submit), nodes in procset's
  interval syntax (``0-3,7``), kind ``failure`` or ``maintenance``; blank lines and
  ``#`` comments skipped. A mistake is one `OutageError` line naming the file, the
  line and the field.
"""

from __future__ import annotations

import heapq
import math
import os
import re
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

import numpy as np
from procset import ProcSet

__all__ = [
    "FAILURE",
    "MAINTENANCE",
    "FailureModel",
    "Outage",
    "OutageError",
    "Outages",
    "overlapping",
    "parse_duration",
    "parse_failure_model",
    "read_outages",
]

Kind = Literal["failure", "maintenance"]
FAILURE: Literal["failure"] = "failure"
MAINTENANCE: Literal["maintenance"] = "maintenance"


class OutageError(ValueError):
    """A bad outage file or failure model, in one line naming where."""


@dataclass(frozen=True)
class Outage:
    """Nodes out of the machine from ``start`` to ``end`` (seconds on the run's clock)."""

    start: float
    end: float
    nodes: tuple[int, ...]
    kind: Kind = FAILURE

    @property
    def planned(self) -> bool:
        """A maintenance window: known in advance, so planned around."""
        return self.kind == MAINTENANCE


_UNITS = {"s": 1.0, "m": 60.0, "h": 3600.0, "d": 86400.0, "w": 604800.0}
_DURATION = re.compile(r"\s*([0-9]*\.?[0-9]+(?:[eE][-+]?[0-9]+)?)\s*([smhdw]?)\s*")


def parse_duration(text: str | float | int, what: str) -> float:
    """Seconds from ``12``, ``12.5``, ``30m``, ``4h``, ``30d`` or ``2w``; `OutageError`
    naming ``what`` otherwise (above 0 and finite)."""
    if isinstance(text, (int, float)) and not isinstance(text, bool):
        value = float(text)
    else:
        m = _DURATION.fullmatch(str(text))
        if m is None:
            raise OutageError(
                f"{what}: {text!r} is not a duration (seconds, or a number with s, m, h, d or w)"
            )
        value = float(m.group(1)) * _UNITS[m.group(2) or "s"]
    if not (value > 0 and math.isfinite(value)):
        raise OutageError(f"{what}: {text!r}: a duration above 0 seconds")
    return value


@dataclass(frozen=True)
class FailureModel:
    """Independent failures of every node: times between failures with mean ``mtbf``
    and repairs with mean ``repair`` (seconds), each exponential (shape 1) or Weibull
    with the shape given (``shape`` for the times between failures, ``repair_shape``
    for the repairs). A node's first failure is one time between failures after the
    start of the run; after a repair, the next one the same."""

    mtbf: float
    repair: float
    shape: float = 1.0
    repair_shape: float = 1.0

    def __post_init__(self) -> None:
        for name in ("mtbf", "repair", "shape", "repair_shape"):
            value = getattr(self, name)
            if not (isinstance(value, (int, float)) and value > 0 and math.isfinite(value)):
                raise OutageError(f"failure model: {name} must be above 0, got {value!r}")

    def describe(self) -> str:
        """``"weibull(shape 0.7) between failures, mean 2,592,000 s; exponential
        repairs, mean 14,400 s"``: the metadata's words."""
        return (
            f"{_law(self.shape)} between failures, mean {self.mtbf:,.0f} s; "
            f"{_law(self.repair_shape)} repairs, mean {self.repair:,.0f} s"
        )

    def node_outages(self, node: int, start: float, rng: np.random.Generator) -> Iterator[Outage]:
        """The failures of ``node`` from ``start`` on, drawn from ``rng`` as they are
        asked for (the sequence never ends: the run stops asking)."""
        tbf = _draw(self.mtbf, self.shape, rng)
        fix = _draw(self.repair, self.repair_shape, rng)
        t = start
        while True:
            down = t + tbf()
            t = down + fix()
            yield Outage(down, t, (node,), FAILURE)


def _law(shape: float) -> str:
    return "exponential" if shape == 1 else f"weibull(shape {shape:g})"


def _draw(mean: float, shape: float, rng: np.random.Generator) -> Callable[[], float]:
    """Draws with ``mean`` from an exponential (shape 1) or a Weibull of ``shape``,
    whose scale is the mean over Gamma(1 + 1/shape)."""
    if shape == 1:
        return lambda: float(rng.exponential(mean))
    scale = mean / math.gamma(1.0 + 1.0 / shape)
    return lambda: float(rng.weibull(shape)) * scale


def parse_failure_model(text: str) -> FailureModel:
    """A `FailureModel` from ``"mtbf=30d,repair=4h"`` (with ``shape=`` and
    ``repair_shape=`` if not exponential): how the command line and studies write one."""
    values: dict[str, float] = {}
    for part in text.split(","):
        key, sep, value = part.partition("=")
        key = key.strip()
        if not sep or key not in ("mtbf", "repair", "shape", "repair_shape"):
            raise OutageError(
                f"failure model {text!r}: {part.strip()!r}: write key=value with the keys "
                "mtbf, repair (durations: 30d, 4h) and shape, repair_shape (numbers)"
            )
        if key in ("mtbf", "repair"):
            values[key] = parse_duration(value, f"failure model {text!r}: {key}")
        else:
            try:
                values[key] = float(value)
            except ValueError:
                raise OutageError(
                    f"failure model {text!r}: {key}: {value!r} is not a number"
                ) from None
    for needed in ("mtbf", "repair"):
        if needed not in values:
            raise OutageError(f"failure model {text!r}: {needed} missing (e.g. mtbf=30d,repair=4h)")
    return FailureModel(**values)


def read_outages(path: str | os.PathLike[str], nodes: int | None = None) -> list[Outage]:
    """The outages of an outage file (module docstring), in the order of the file.

    ``nodes``, the machine's node count when known, bounds the node numbers."""
    source = str(path)
    try:
        text = Path(path).read_text()
    except OSError as exc:
        raise OutageError(f"{source}: cannot read the outage file ({exc.strerror})") from None
    out: list[Outage] = []
    for number, line in enumerate(text.splitlines(), 1):
        body = line.split("#", 1)[0].split()
        if not body:
            continue
        where = f"{source}:{number}"
        if len(body) != 4:
            raise OutageError(
                f"{where}: {len(body)} fields; an outage is 'start end nodes kind' "
                "(seconds, seconds, node ranges, failure or maintenance)"
            )
        start, end = _time(body[0], where, "start"), _time(body[1], where, "end")
        if not end > start:
            raise OutageError(f"{where}: field end: {body[1]} is not after start {body[0]}")
        try:
            members = tuple(ProcSet.from_str(body[2], insep="-", outsep=","))
        except ValueError:
            raise OutageError(
                f"{where}: field nodes: {body[2]!r} is not node ranges (e.g. 0-3,7)"
            ) from None
        if nodes is not None and members[-1] >= nodes:
            raise OutageError(f"{where}: field nodes: {body[2]!r}: the nodes are 0-{nodes - 1}")
        if body[3] not in (FAILURE, MAINTENANCE):
            raise OutageError(f"{where}: field kind: {body[3]!r}; failure or maintenance")
        out.append(Outage(start, end, members, body[3]))
    return out


def _time(text: str, where: str, field: str) -> float:
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not (value >= 0 and math.isfinite(value)):
        raise OutageError(f"{where}: field {field}: {text!r} is not seconds >= 0")
    return value


@dataclass(frozen=True)
class Outages:
    """A run's outages: a failure model, a list (from a file, or maintenance windows
    made by hand), or both; ``on_failure`` what becomes of the jobs an outage kills:
    ``requeue`` (back to the queue, the attempt lost) or ``lose`` (outcome ``failed``)."""

    model: FailureModel | None = None
    listed: tuple[Outage, ...] = ()
    on_failure: Literal["requeue", "lose"] = "requeue"

    def __post_init__(self) -> None:
        if self.on_failure not in ("requeue", "lose"):
            raise OutageError(f"on_failure must be 'requeue' or 'lose', got {self.on_failure!r}")

    @property
    def windows(self) -> tuple[Outage, ...]:
        """The maintenance windows (announced from the start of the run)."""
        return tuple(o for o in self.listed if o.planned)

    def check(self, nodes: int) -> None:
        """`OutageError` for an outage on a node the machine lacks."""
        for o in self.listed:
            if o.nodes and o.nodes[-1] >= nodes:
                raise OutageError(
                    f"an outage from {o.start:g} s on node {o.nodes[-1]}; the machine's nodes "
                    f"are 0-{nodes - 1}"
                )

    def on_clock(self, origin: float) -> list[Outage]:
        """The listed outages on the run's clock (``origin``: the run's start), in order
        of start."""
        return sorted(
            (Outage(origin + o.start, origin + o.end, o.nodes, o.kind) for o in self.listed),
            key=_by_start,
        )

    def stream(
        self, origin: float, nodes: int, rng: Callable[[str], np.random.Generator]
    ) -> Iterator[Outage]:
        """Every outage in order of start (ties: the listed first, then by node), times on
        the run's clock (``origin``: the run's start); the model's drawn as they come,
        node ``i``'s from ``rng("failures/i")``."""
        listed = self.on_clock(origin)
        sources: list[Iterable[Outage]] = [listed]
        if self.model is not None:
            m = self.model
            sources += [m.node_outages(n, origin, rng(f"failures/{n}")) for n in range(nodes)]
        return heapq.merge(*sources, key=_by_start)

    def describe(self) -> dict[str, object]:
        """What the run's metadata keeps of them."""
        return {
            "model": None if self.model is None else self.model.describe(),
            "listed": len(self.listed),
            "maintenance_windows": len(self.windows),
            "on_failure": self.on_failure,
        }


def _by_start(o: Outage) -> float:
    return o.start


def overlapping(windows: Sequence[Outage], start: float, end: float) -> list[Outage]:
    """The windows that ``[start, end)`` overlaps (a job's span by its limit)."""
    return [w for w in windows if w.start < end and start < w.end]
