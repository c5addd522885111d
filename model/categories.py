"""Kettimuthu 2003's job categories, for any metric: by run time and by size.

Seed 000 (Kettimuthu 2003) reports its results per category of job: Table 2.1
crosses four run-time classes (VS up to 10 min, S up to 1 h, L up to 8 h, VL
beyond) with four size classes (Seq one core, N up to 8, W up to 32, VW
beyond) into 16 categories; Table 4.1 crosses two (S/L split at 1 h, N/W at 8
processors) into 4. Chapter 4 also splits the jobs by the quality of their
estimate: "well" estimated when the estimate is at most twice the run time,
"poor" otherwise. Upper bounds are inclusive (a 600 s job is VS, an 8-core job
N). A run time below 0, a size below one core or a missing value is in no
class (a missing category).

`category_codes` bins jobs into a scheme's categories and `quality_codes` into
the two qualities, vectorised (numpy), as codes into the labels;
`categorize` and `estimate_quality` make them ordered pandas categoricals. The
results tables (`schedsim.model.results.derive`, `Result.category_table`) and
the reports' per-category tables use them.
"""

from __future__ import annotations

from functools import cache
from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:  # pragma: no cover
    import pandas as pd

__all__ = [
    "CATEGORIES",
    "CATEGORIES4",
    "ESTIMATE_QUALITIES",
    "RUNTIME_CLASSES",
    "RUNTIME_CLASSES4",
    "RUNTIME_EDGES",
    "RUNTIME_EDGES4",
    "SCHEMES",
    "SIZE_CLASSES",
    "SIZE_CLASSES4",
    "SIZE_EDGES",
    "SIZE_EDGES4",
    "WELL_ESTIMATED_FACTOR",
    "Scheme",
    "categorical",
    "categorize",
    "category_codes",
    "classify",
    "combine",
    "estimate_quality",
    "labels",
    "quality_codes",
    "scheme",
]

#: Run-time classes of seed 000, Table 2.1, and their inclusive upper bounds (s).
RUNTIME_CLASSES: tuple[str, ...] = ("VS", "S", "L", "VL")
RUNTIME_EDGES: tuple[float, ...] = (600.0, 3600.0, 8 * 3600.0)
#: Size classes of seed 000, Table 2.1, and their inclusive upper bounds (cores).
SIZE_CLASSES: tuple[str, ...] = ("Seq", "N", "W", "VW")
SIZE_EDGES: tuple[float, ...] = (1.0, 8.0, 32.0)
#: The 16 categories, row by row as in Table 2.1.
CATEGORIES: tuple[str, ...] = tuple(f"{r} {s}" for r in RUNTIME_CLASSES for s in SIZE_CLASSES)

#: Seed 000, Table 4.1: S/L split at 1 h, N/W split at 8 processors (inclusive).
RUNTIME_CLASSES4: tuple[str, ...] = ("S", "L")
RUNTIME_EDGES4: tuple[float, ...] = (3600.0,)
SIZE_CLASSES4: tuple[str, ...] = ("N", "W")
SIZE_EDGES4: tuple[float, ...] = (8.0,)
CATEGORIES4: tuple[str, ...] = tuple(f"{r}{s}" for r in RUNTIME_CLASSES4 for s in SIZE_CLASSES4)

#: Estimate / run ratio up to which a job is "well estimated" (seed 000, ch. 4).
WELL_ESTIMATED_FACTOR: float = 2.0
ESTIMATE_QUALITIES: tuple[str, ...] = ("well", "poor")

Scheme = tuple[tuple[str, ...], tuple[float, ...], tuple[str, ...], tuple[float, ...]]
#: scheme name -> (row labels, row edges, column labels, column edges).
SCHEMES: dict[str, Scheme] = {
    "16": (RUNTIME_CLASSES, RUNTIME_EDGES, SIZE_CLASSES, SIZE_EDGES),
    "4": (RUNTIME_CLASSES4, RUNTIME_EDGES4, SIZE_CLASSES4, SIZE_EDGES4),
}


def scheme(name: str) -> Scheme:
    """A scheme's row and column classes and edges (`SCHEMES`); ValueError naming it."""
    if name not in SCHEMES:
        raise ValueError(f"scheme must be '16' or '4', got {name!r}")
    return SCHEMES[name]


def labels(name: str) -> tuple[str, ...]:
    """A scheme's categories in the paper's order: `CATEGORIES` or `CATEGORIES4`."""
    scheme(name)
    return CATEGORIES if name == "16" else CATEGORIES4


def classify(values: np.ndarray, edges: tuple[float, ...], low: float) -> np.ndarray:
    """Class codes for ``values`` with inclusive upper ``edges``; -1 when missing.

    Values below ``low`` (negative run times, sizes below one core) and NaN get
    -1, which pandas shows as a missing category.
    """
    codes = np.searchsorted(np.asarray(edges, dtype=float), values, side="left")
    codes = codes.astype(np.int64)
    codes[~(values >= low)] = -1  # NaN compares False, so it is caught too
    return codes


@cache
def _dtype(names: tuple[str, ...]) -> pd.CategoricalDtype:
    import pandas as pd  # here: a policy reads the classes without loading pandas

    # Made once per set of labels: pandas validates the categories at every making,
    # which was most of the cost of a small run's table.
    return pd.CategoricalDtype(list(names), ordered=True)


def categorical(codes: np.ndarray, names: tuple[str, ...]) -> pd.Categorical:
    """Codes (-1: missing) as an ordered categorical of ``names``."""
    import pandas as pd

    return pd.Categorical.from_codes(codes, dtype=_dtype(names))


def combine(rc: np.ndarray, sc: np.ndarray, n_size: int) -> np.ndarray:
    """Run-time and size codes as category codes (row-major: the tables' order)."""
    return np.where((rc >= 0) & (sc >= 0), rc * n_size + sc, -1)


def category_codes(run: np.ndarray, size: np.ndarray, name: str = "16") -> np.ndarray:
    """Each job's category in scheme ``name`` (``"16"``: Table 2.1, ``"4"``: Table 4.1)
    from its run time (s) and size (cores), as a code into `labels` (``name``); -1
    where either is out of range."""
    _, row_edges, cols, col_edges = scheme(name)
    rc = classify(np.asarray(run, dtype=float), row_edges, 0.0)
    sc = classify(np.asarray(size, dtype=float), col_edges, 1.0)
    return combine(rc, sc, len(cols))


def categorize(run: np.ndarray, size: np.ndarray, name: str = "16") -> pd.Categorical:
    """`category_codes` as an ordered categorical of the scheme's labels."""
    return categorical(category_codes(run, size, name), labels(name))


def quality_codes(estimate: np.ndarray, run: np.ndarray) -> np.ndarray:
    """0 (``"well"``) where the estimate is at most `WELL_ESTIMATED_FACTOR` times the
    run time, else 1 (``"poor"``); -1 where either is NaN (seed 000, chapter 4)."""
    estimate = np.asarray(estimate, dtype=float)
    run = np.asarray(run, dtype=float)
    quality = np.where(estimate <= WELL_ESTIMATED_FACTOR * run, 0, 1)
    quality[np.isnan(estimate) | np.isnan(run)] = -1
    return quality


def estimate_quality(estimate: np.ndarray, run: np.ndarray) -> pd.Categorical:
    """`quality_codes` as an ordered categorical of `ESTIMATE_QUALITIES`."""
    return categorical(quality_codes(estimate, run), ESTIMATE_QUALITIES)
