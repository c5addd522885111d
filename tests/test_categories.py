"""Kettimuthu 2003's job categories (`schedsim.model.categories`), usable by any metric."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from schedsim.model import categories
from schedsim.model.categories import CATEGORIES, CATEGORIES4, categorize, estimate_quality
from schedsim.model.results import derive


def test_upper_bounds_are_inclusive_and_out_of_range_is_missing() -> None:
    run = np.array([600.0, 601.0, 3600.0, 8 * 3600.0, 8 * 3600.0 + 1, -1.0, np.nan, 5.0])
    size = np.array([1.0, 8.0, 9.0, 32.0, 33.0, 4.0, 4.0, 0.0])
    got = categorize(run, size)
    assert list(got[:5]) == ["VS Seq", "S N", "S W", "L W", "VL VW"]
    assert pd.isna(got[5:]).all()  # a negative run time, NaN, a size below one core
    assert list(got.categories) == list(CATEGORIES) and got.ordered
    assert list(categorize(run[:5], size[:5], "4")) == ["SN", "SN", "SW", "LW", "LW"]
    assert list(categorize(run, size, "4").categories) == list(CATEGORIES4)


def test_estimate_quality_is_well_up_to_twice_the_run_time() -> None:
    got = estimate_quality(np.array([20.0, 21.0, np.nan]), np.array([10.0, 10.0, 10.0]))
    assert list(got[:2]) == ["well", "poor"] and pd.isna(got[2])


def test_an_unknown_scheme_is_named() -> None:
    with pytest.raises(ValueError, match="scheme must be '16' or '4', got '9'"):
        categories.labels("9")


def test_the_results_table_takes_its_categories_from_here() -> None:
    jobs = pd.DataFrame(
        {"submit": [0.0, 0.0], "end": [700.0, 10.0], "run": [700.0, 10.0], "wait": [0.0, 0.0],
         "estimate": [700.0, 100.0], "size": [16, 1]}
    )  # fmt: skip
    out = derive(jobs)
    assert out["category"].tolist() == categorize(jobs["run"], jobs["size"]).tolist()
    assert out["category"].tolist() == ["S W", "VS Seq"]
    assert out["estimate_quality"].tolist() == ["well", "poor"]
