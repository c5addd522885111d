"""Kettimuthu 2003: the thesis's words made numbers, and the groups of categories its
claims name.

A scheme's value over another's is r (a slowdown, a turnaround time, a utilization);
the words are tests of r (`much_better`, `comparable`...), with the factors
`SIGNIFICANT` and `COMPARABLE` (`schedsim.papers.kettimuthu2003.claims`' docstring gives
the choices), and the phrases the claims table uses for them (`SIG`, `NOT_W`...).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import pandas as pd

from schedsim.app.report.formats import significant
from schedsim.model.categories import CATEGORIES
from schedsim.papers.kettimuthu2003.thesis import SLOWDOWN_FACTOR

__all__ = [
    "COMP",
    "COMPARABLE",
    "NOT_W",
    "OTHER_THAN_VS",
    "SHORT_WIDE",
    "SIG",
    "SIGNIFICANT",
    "SIG_WORSE",
    "SLIGHT_B",
    "SLIGHT_W",
    "S_",
    "TSS_BETTER",
    "VL",
    "VS",
    "WIDE",
    "L",
    "better",
    "comparable",
    "much_better",
    "much_worse",
    "not_significant",
    "not_worse",
    "slightly_better",
    "slightly_worse",
]


SIGNIFICANT = 1.25
#: A factor: within this either way is "comparable"; at most this worse is "not affected".
COMPARABLE = 1.10
#: The statuses, best first.
VS, S_, L, VL = (tuple(f"{r} {s}" for s in ("Seq", "N", "W", "VW")) for r in ("VS", "S", "L", "VL"))
WIDE = tuple(c for c in CATEGORIES if c.split()[1] in ("W", "VW"))
SHORT_WIDE = ("VS W", "VS VW", "S W", "S VW")

OTHER_THAN_VS = tuple(c for c in CATEGORIES if c not in VS)
TSS_BETTER = ("VL W", "VL VW", "L N", "VS Seq", "VS N", "S Seq")

SIG = f"at least {100 * (1 - 1 / SIGNIFICANT):.0f}% lower"
SIG_WORSE = f"at least {100 * (SIGNIFICANT - 1):.0f}% higher"
SLIGHT_B = f"lower by less than {100 * (1 - 1 / SIGNIFICANT):.0f}%"
SLIGHT_W = f"higher by less than {100 * (SIGNIFICANT - 1):.0f}%"
NOT_W = f"at most {100 * (COMPARABLE - 1):.0f}% higher"
COMP = f"within {100 * (COMPARABLE - 1):.0f}%"


def _pct(r: float) -> str:
    return f"{100.0 * (r - 1.0):+.0f}%"


def _num(column: str, value: float) -> str:
    if column.endswith("turnaround"):
        return f"{value:,.0f} s"
    return significant(value)


def _ratios(a: pd.Series | None, b: pd.Series | None, cats: Sequence[str]) -> dict[str, float]:
    """a / b per category of ``cats`` where both have a value (and b is not 0)."""
    if a is None or b is None:
        return {}
    out = {}
    for c in cats:
        x, y = float(a.get(c, math.nan)), float(b.get(c, math.nan))
        if math.isfinite(x) and math.isfinite(y) and y > 0:
            out[c] = x / y
    return out


def much_better(x: float) -> bool:
    return x <= 1.0 / SIGNIFICANT


def much_worse(x: float) -> bool:
    return x >= SIGNIFICANT


def slightly_better(x: float) -> bool:
    return 1.0 / SIGNIFICANT < x < 1.0


def slightly_worse(x: float) -> bool:
    return 1.0 < x < SIGNIFICANT


def comparable(x: float) -> bool:
    return 1.0 / COMPARABLE <= x <= COMPARABLE


def not_worse(x: float) -> bool:
    return x <= COMPARABLE


def not_significant(x: float) -> bool:
    return 1.0 / SIGNIFICANT < x < SIGNIFICANT


def better(x: float) -> bool:
    return x < 1.0


def _matches(value: float, thesis: float, factor: float = SLOWDOWN_FACTOR) -> bool:
    return value > 0 and abs(math.log(value / thesis)) <= math.log(factor)
