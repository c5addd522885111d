"""Kettimuthu 2003: the thesis's own numbers, and how close ours must be to match them.

Tables 2.2, 2.3 and 4.2 and chapter 2's overall values. Table 2.2 is read transposed:
as printed it contradicts Table 4.2, which describes the same jobs, and transposed it
sums to Table 4.2 exactly (the argument is in `schedsim.papers.kettimuthu2003.subset`).
"""

from __future__ import annotations

import numpy as np

from schedsim.policies.selective_suspension.tunable import TABLE_2_3

__all__ = [
    "MIX_TOLERANCE",
    "SLOWDOWN_FACTOR",
    "THESIS_MIX",
    "THESIS_MIX4",
    "THESIS_MIX_AS_PRINTED",
    "THESIS_OVERALL_SLOWDOWN",
    "THESIS_SLOWDOWN",
    "THESIS_UTILIZATION",
    "UTILIZATION_TOLERANCE",
]


#: Table 2.2 as printed: rows 0-10 min, 10 min-1 h, 1-8 h, > 8 h; columns 1, 2-8,
#: 9-32, > 32 processors (its headers); percent of the jobs.
THESIS_MIX_AS_PRINTED: tuple[float, ...] = (
    14, 8, 13, 9,
    18, 4, 6, 2,
    6, 3, 9, 2,
    2, 2, 1, 1,
)  # fmt: skip
#: Table 2.2 read transposed (module docstring), in `CATEGORIES` order: percent of the jobs.
THESIS_MIX: tuple[float, ...] = tuple(
    float(v) for v in np.asarray(THESIS_MIX_AS_PRINTED, dtype=float).reshape(4, 4).T.ravel()
)
#: Table 4.2, in `CATEGORIES4` order (SN, SW, LN, LW): percent of the jobs.
THESIS_MIX4: tuple[float, ...] = (44.0, 13.0, 30.0, 13.0)
#: Table 2.3, NS's average bounded slowdown per category, in `CATEGORIES` order (TSS's
#: ``averages="thesis"`` takes the same table).
THESIS_SLOWDOWN: tuple[float, ...] = TABLE_2_3
#: Chapter 2: NS's overall (mean bounded) slowdown and utilization (fraction).
THESIS_OVERALL_SLOWDOWN = 3.58
THESIS_UTILIZATION = 0.51

#: Percentage points: a share "matches" the thesis's within this.
MIX_TOLERANCE = 3.0
#: A utilization (a fraction) "matches" the thesis's 0.51 within this.
UTILIZATION_TOLERANCE = 0.02
#: A slowdown "matches" the thesis's within this factor either way.
SLOWDOWN_FACTOR = 1.25
