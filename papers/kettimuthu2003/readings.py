"""Kettimuthu 2003: the readings of SS and TSS a study holds.

Runs labelled ``SS sf=2`` or ``TSS``, possibly followed by a space and a reading's
name (`schedsim.papers.kettimuthu2003.claims` says how each reading is scored).
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping
from dataclasses import dataclass, replace

__all__ = [
    "ACCURATE_OVERHEAD",
    "ARRIVALS",
    "DEFAULT",
    "IS",
    "NORMALS",
    "NS",
    "SF_LABELS",
    "SS_PREFIX",
    "TSS_ONLY",
    "TSS_PREFIX",
    "WINDOWED",
    "Reading",
    "normal_name",
    "readings",
    "ss_part",
]


#: The name of the study's own reading (labels ``SS sf=2`` and ``TSS`` exactly).
DEFAULT = "default"


#: The name a reading takes when its utilization is read over the arrival window.
ARRIVALS = "window=arrivals"
#: The readings also scored with the utilization over the arrival window: the default,
#: the two hold readings (section 4.2's saturation, per hold reading) and ``hold=all``
#: with section 3.3's width formula (the study runs each over the load series).
WINDOWED: tuple[str, ...] = (DEFAULT, "hold=top", "hold=all", "hold=all width=formula")
#: The name a reading takes when its overhead claims read the overhead runs made with
#: accurate estimates (section 4.1 does not say which estimates its runs had; it sits in
#: chapter 4, "Impact of user estimate inaccuracies", whence the default: the trace's).
ACCURATE_OVERHEAD = "overhead=accurate"
#: Other normal loads the load series may start from: 1.0, "the original trace" (section
#: 4.2), where the study's own normal load is fitted to chapter 2's NS (0.8); and 0.75,
#: the subset search's other load of July among its five best (NS's slowdown nearer the
#: thesis's 3.58, its utilization farther from 0.51).
NORMALS: tuple[float, ...] = (1.0, 0.75)


def normal_name(normal: float) -> str:
    """How a reading names its normal load: ``normal=1.0``, ``normal=0.75``."""
    text = f"{normal:g}"
    return f"normal={text if '.' in text else text + '.0'}"


#: The readings of TSS alone (`schedsim.policies.selective_suspension.tunable`): a reading
#: name's other words (``hold=all`` in ``hold=all reentry=open``) name SS's reading, the SS
#: its TSS is set against.
TSS_ONLY: tuple[str, ...] = ("reentry", "averages", "limit")


NS, IS = "NS", "IS"
SS_PREFIX, TSS_PREFIX = "SS sf=2", "TSS"
SF_LABELS: dict[float, str] = {1.5: "SS sf=1.5", 2.0: "SS sf=2", 5.0: "SS sf=5"}


# --------------------------------------------------------------------------- #
# Readings, cases, outcomes
# --------------------------------------------------------------------------- #


@dataclass(frozen=True)
class Reading:
    """The runs a claim on SS (SF 2) or TSS reads: the labels, None where missing."""

    name: str
    ss: str | None
    tss: str | None
    #: TSS's own SS: the reading's, else the default one (a change to TSS alone).
    tss_ss: str | None
    sf15: str | None
    sf5: str | None
    #: The utilization the claims on it read: over the whole run (``"run"``, the
    #: summary's) or over the arrival window (``"arrivals"``,
    #: `schedsim.papers.kettimuthu2003.load`).
    window: str = "run"
    #: The normal load of its load series (None: the study's, its lowest load factor).
    normal: float | None = None
    #: The estimates of the overhead runs its overhead claims read: the trace's
    #: (``"trace"``, the default) or accurate ones (``"accurate"``, `ACCURATE_OVERHEAD`).
    overhead: str = "trace"

    @property
    def with_overhead(self) -> str:
        """The scenario (`schedsim.papers.kettimuthu2003.values`) of its overhead runs."""
        return "overhead" if self.overhead == "trace" else "overhead, accurate"

    @property
    def without_overhead(self) -> str:
        """The scenario its overhead runs are set against: the same estimates, no overhead."""
        return "trace" if self.overhead == "trace" else "accurate"


def _suffix(label: str, prefix: str) -> str | None:
    """The reading named by ``label`` (``""`` for ``prefix`` itself), or None when the
    label is not ``prefix`` followed by a space and a name (``SS sf=2.5`` is not one)."""
    if label == prefix:
        return ""
    if label.startswith(prefix + " ") and label[len(prefix) :].strip():
        return label[len(prefix) :].strip()
    return None


def ss_part(name: str) -> str:
    """The words of reading ``name`` that are SS's (all but `TSS_ONLY`'s), in their order:
    ``"hold=all"`` for ``"hold=all reentry=open"``, ``""`` for ``"reentry=open"``."""
    return " ".join(w for w in name.split() if w.split("=", 1)[0] not in TSS_ONLY)


def readings(labels: Iterable[str], windows: bool = False,
             normals: Mapping[float, Collection[str]] | None = None,
             accurate_overhead: Iterable[str] = ()) -> list[Reading]:  # fmt: skip
    """The default reading first, then one per name after ``SS sf=2`` or ``TSS`` among
    ``labels``, in order of first appearance; for each normal load of ``normals``, each
    of those readings whose SS is among its labels (the SS labels with runs over that
    load's series) again with the load series from that normal load (``normal=1.0``,
    ``hold=all normal=0.75``); with ``windows``, then each of `WINDOWED` present and each
    reading of another normal load again with its utilization over the arrival window
    (named ``window=arrivals``, ``hold=all window=arrivals``); last,
    each reading whose SS is among ``accurate_overhead`` (the labels with overhead runs
    made with accurate estimates) again with its overhead claims read from those runs
    (named ``overhead=accurate``, ``hold=all overhead=accurate``)."""
    labels = list(dict.fromkeys(str(x) for x in labels))
    have = set(labels)
    names: list[str] = []
    for label in labels:
        for prefix in (SS_PREFIX, TSS_PREFIX):
            name = _suffix(label, prefix)
            if name and name not in names:
                names.append(name)

    def pick(label: str) -> str | None:
        return label if label in have else None

    out = [Reading(DEFAULT, pick(SS_PREFIX), pick(TSS_PREFIX), pick(SS_PREFIX),
                   pick(SF_LABELS[1.5]), pick(SF_LABELS[5.0]))]  # fmt: skip
    for name in names:
        ss = pick(f"{SS_PREFIX} {name}")
        sf15, sf5 = pick(f"{SF_LABELS[1.5]} {name}"), pick(f"{SF_LABELS[5.0]} {name}")
        tss = pick(f"{TSS_PREFIX} {name}")
        # TSS against the SS of the same SS reading: ``TSS hold=all reentry=open`` against
        # ``SS sf=2 hold=all``; a reading of TSS alone against the default SS.
        own = ss_part(name)
        tss_ss = ss or pick(f"{SS_PREFIX} {own}" if own else SS_PREFIX)
        out.append(Reading(name, ss, tss, tss_ss, sf15, sf5))
    plain = list(out)
    for normal, ss_labels in (normals or {}).items():
        suffix, have_series = normal_name(normal), set(ss_labels)
        for r in [r for r in plain if r.ss in have_series]:
            name = suffix if r.name == DEFAULT else f"{r.name} {suffix}"
            out.append(replace(r, name=name, normal=float(normal)))
    if windows:
        for r in [r for r in out if (r.name in WINDOWED or r.normal is not None) and r.ss]:
            name = ARRIVALS if r.name == DEFAULT else f"{r.name} {ARRIVALS}"
            out.append(replace(r, name=name, window="arrivals"))
    accurate = set(accurate_overhead)
    for r in [r for r in out if r.window == "run" and r.normal is None and r.ss in accurate]:
        name = ACCURATE_OVERHEAD if r.name == DEFAULT else f"{r.name} {ACCURATE_OVERHEAD}"
        out.append(replace(r, name=name, overhead="accurate"))
    return out
