"""A result table written as CSV: the bytes of ``frame.to_csv(path, index=False)``, faster.

Why: pandas formats every cell through its per-dtype machinery (floats through
numpy's ``astype(str)``) before handing the rows to the csv module: 1.3 s of
``schedsim run`` for the 77,222 jobs of the CTC log. Here each column becomes a
Python list once and the stdlib's csv writer (C) formats the cells itself (0.7 s),
in pandas' dialect (``,``, ``"``, QUOTE_MINIMAL, ``\\n`` line ends): floats as
``repr`` (what numpy's ``astype(str)`` gives for a float64: ``937.0``, ``2.5e-07``,
``inf``, ``-0.0``), ints as ``str``, bools as ``True``/``False``, text and
categories of text as their values, and a missing value (NaN, None, ``pd.NA``) as
an empty field, pandas' default ``na_rep``.

Only those dtypes are written here, in a table whose column labels are strings;
anything else (datetimes, timedeltas, float32, complex, categories of numbers, an
object column holding other than strings, MultiIndex columns, no columns) is left
to ``to_csv`` itself, so the file is always what pandas writes. The index is never
written (``index=False``), so any index will do.
"""

from __future__ import annotations

import csv
import os
from itertools import compress
from typing import Any

import numpy as np
import pandas as pd

__all__ = ["write_csv"]


def write_csv(frame: pd.DataFrame, path: str | os.PathLike[str]) -> None:
    """Write ``frame`` to ``path`` as ``frame.to_csv(path, index=False)`` does, byte
    for byte (see the module docstring for what is written here, what by pandas)."""
    columns = _columns(frame)
    if columns is None:
        frame.to_csv(path, index=False)
        return
    # newline="": the writer's own "\n" line ends, untranslated (pandas opens it so too).
    with open(path, "w", encoding="utf-8", newline="") as handle:
        writer = csv.writer(handle, lineterminator="\n")
        writer.writerow(frame.columns)
        writer.writerows(zip(*columns, strict=True))


def _columns(frame: pd.DataFrame) -> list[list[Any]] | None:
    """Each column's cells as the csv writer should get them, or None when pandas
    writes some part of the table (its labels, a column's dtype) in another way."""
    labels = frame.columns
    if labels.nlevels != 1 or len(labels) == 0 or not all(type(c) is str for c in labels):
        return None
    columns = []
    for i in range(len(labels)):  # by position: labels may repeat
        cells = _cells(frame.iloc[:, i])
        if cells is None:
            return None
        columns.append(cells)
    return columns


def _cells(column: pd.Series) -> list[Any] | None:
    """The column's values as Python objects the csv writer formats as pandas would,
    missing ones as None (an empty field); None for a dtype left to pandas."""
    dtype = column.dtype
    if isinstance(dtype, np.dtype):
        if dtype.kind in "iub":  # never missing
            return column.to_numpy().tolist()
        if dtype == np.float64:
            values = column.to_numpy()
            return _blank(values.tolist(), np.isnan(values))
        if dtype.kind == "O":
            return _strings(column.to_numpy().tolist(), column.isna().to_numpy())
        return None
    if isinstance(dtype, pd.CategoricalDtype):
        categories = dtype.categories.tolist()
        if not all(type(c) is str for c in categories):
            return None
        # Code -1 (missing) picks the None put last.
        return list(map((*categories, None).__getitem__, column.cat.codes.tolist()))
    if isinstance(dtype, pd.StringDtype):
        return _blank(column.tolist(), column.isna().to_numpy())
    if isinstance(column.array, (pd.arrays.IntegerArray, pd.arrays.BooleanArray)):
        # The nullable Int64, UInt8, boolean...: whole values or NA.
        return _blank(column.tolist(), column.isna().to_numpy())
    return None


def _blank(cells: list[Any], missing: np.ndarray) -> list[Any]:
    """``cells`` with None where ``missing``: the csv writer writes it as an empty field."""
    for i in np.flatnonzero(missing).tolist():
        cells[i] = None
    return cells


def _strings(cells: list[Any], missing: np.ndarray) -> list[Any] | None:
    """An object column's cells when every value present is a str, else None (pandas
    hands other objects to the csv writer in ways not copied here)."""
    if not all(type(v) is str for v in compress(cells, (~missing).tolist())):
        return None
    return _blank(cells, missing)
