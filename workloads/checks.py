"""Checks on the numbers workload generators and models are given."""

from __future__ import annotations

import math
import numbers


def finite_real(value: object, what: str) -> float:
    """``value`` as a float, if it is a finite real number (numpy numbers accepted, bools
    not); otherwise a ValueError naming ``what``."""
    ok = isinstance(value, numbers.Real) and not isinstance(value, bool)
    x = float(value) if ok else math.nan  # type: ignore[arg-type]
    if not math.isfinite(x):
        raise ValueError(f"{what} must be a finite number, got {value!r}")
    return x
