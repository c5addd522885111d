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

from schedsim.app.claims import Rule, at_least, at_most, between
from schedsim.app.report.formats import significant
from schedsim.model.categories import CATEGORIES
from schedsim.papers.kettimuthu2003.thesis import SLOWDOWN_FACTOR

__all__ = [
    "ABOVE_1",
    "AT_LEAST_COMPARABLE",
    "BELOW_SIGNIFICANT",
    "BETTER",
    "COMP",
    "COMPARABLE",
    "COMPARABLE_RULE",
    "MUCH_BETTER",
    "MUCH_WORSE",
    "NOT_BETTER",
    "NOT_SIGNIFICANT",
    "NOT_W",
    "NOT_WORSE",
    "OFFERED",
    "OTHER_THAN_VS",
    "SATURATED",
    "SHORT_WIDE",
    "SIG",
    "SIGNIFICANT",
    "SIG_WORSE",
    "SLIGHTLY_BETTER",
    "SLIGHTLY_WORSE",
    "SLIGHT_B",
    "SLIGHT_W",
    "S_",
    "TSS_BETTER",
    "UNDER_3",
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


# The words as case rules on r (`schedsim.app.claims.Rule`: r -> (reproduced, goes the
# thesis's way)). The thesis gives its comparisons in words and bar charts, never as a
# number, so each word is read as a bound on r, fixed before our numbers were seen
# (`schedsim.papers.kettimuthu2003.claims`' docstring gives the choices).

#: "Significantly / much better": r at most 1 / 1.25 (at least 20% lower); direction
#: only: below 1.
MUCH_BETTER: Rule = at_most(1.0 / SIGNIFICANT, way=1.0)
#: "Significantly / much worse", "very high": r at least 1.25; direction only: above 1.
MUCH_WORSE: Rule = at_least(SIGNIFICANT, way=1.0)
#: "Slightly better": r between 0.8 and 1 (better, not significantly); direction only:
#: below 1 (better, but significantly).
SLIGHTLY_BETTER = Rule(
    f"between {1.0 / SIGNIFICANT:g} and 1 (both excluded); direction only: below 1",
    lambda x: (1.0 / SIGNIFICANT < x < 1.0, x < 1.0),
)
#: "Slightly worse": r between 1 and 1.25; direction only: above 1 (significantly worse).
SLIGHTLY_WORSE = Rule(
    f"between 1 and {SIGNIFICANT:g} (both excluded); direction only: above 1",
    lambda x: (1.0 < x < SIGNIFICANT, x > 1.0),
)
#: "Comparable": r within a factor 1.1 either way (no direction: a level).
COMPARABLE_RULE: Rule = between(1.0 / COMPARABLE, COMPARABLE)
#: "Better or comparable", "without affecting", "does not worsen": r at most 1.1 (a
#: bound: no direction).
NOT_WORSE = Rule(f"at most {COMPARABLE:g}", lambda x: (x <= COMPARABLE, x <= COMPARABLE))
#: "Does not significantly affect": r within a factor 1.25 either way (both excluded).
NOT_SIGNIFICANT = Rule(
    f"between {1.0 / SIGNIFICANT:g} and {SIGNIFICANT:g} (both excluded)",
    lambda x: (1.0 / SIGNIFICANT < x < SIGNIFICANT, 1.0 / SIGNIFICANT < x < SIGNIFICANT),
)
#: "Better", "improves", "lower" (no size said): r below 1.
BETTER = Rule("below 1", lambda x: (x < 1.0, x < 1.0))
#: "Not better": r at least 1.
NOT_BETTER = Rule("at least 1", lambda x: (x >= 1.0, x >= 1.0))
#: "At most slightly worse" (no case "significantly worse"): r below 1.25.
BELOW_SIGNIFICANT = Rule(f"below {SIGNIFICANT:g}", lambda x: (x < SIGNIFICANT, x < SIGNIFICANT))
#: "Better or comparable": r at least 1 / 1.1 (a bound: no direction).
AT_LEAST_COMPARABLE = Rule(f"at least {1.0 / COMPARABLE:.3g}",
                           lambda x: (x >= 1.0 / COMPARABLE, x >= 1.0 / COMPARABLE))  # fmt: skip
#: "Better" where higher is better (a utilization; no size said): r above 1.
ABOVE_1 = Rule("above 1", lambda x: (x > 1.0, x > 1.0))
#: The study's one load beyond the thesis's series over its highest: 1.44 / 1.28, the
#: thesis's 1.8 / 1.6 (the offered work grows by 12.5%).
OFFERED = 1.8 / 1.6
#: "No significant increase in the overall system utilization when the load factor is
#: increased beyond 1.6" (section 4.2), r = utilization at 1.8 over at 1.6: saturated
#: when it follows less than half of the offered rise, either way (a fall as large is a
#: scheme losing capacity, not a saturated machine); direction only: below the offered
#: rise (an unsaturated machine's utilization grows with the work offered).
SATURATED: Rule = between(1.0 / (1.0 + (OFFERED - 1.0) / 2), 1.0 + (OFFERED - 1.0) / 2, OFFERED)
#: Section 3.4: SS brings VS VW's slowdown "from 34 for the NS scheme to under 3"; direction
#: only: below NS's 34.
UNDER_3: Rule = at_most(3.0, way=34.0)


def much_better(x: float) -> bool:
    """r reproduces "much better" (`MUCH_BETTER`)."""
    return MUCH_BETTER(x)[0]


def much_worse(x: float) -> bool:
    """r reproduces "much worse" (`MUCH_WORSE`)."""
    return MUCH_WORSE(x)[0]


def slightly_better(x: float) -> bool:
    return SLIGHTLY_BETTER(x)[0]


def slightly_worse(x: float) -> bool:
    return SLIGHTLY_WORSE(x)[0]


def comparable(x: float) -> bool:
    return COMPARABLE_RULE(x)[0]


def not_worse(x: float) -> bool:
    return NOT_WORSE(x)[0]


def not_significant(x: float) -> bool:
    return NOT_SIGNIFICANT(x)[0]


def better(x: float) -> bool:
    return x < 1.0


def _matches(value: float, thesis: float, factor: float = SLOWDOWN_FACTOR) -> bool:
    return value > 0 and abs(math.log(value / thesis)) <= math.log(factor)
