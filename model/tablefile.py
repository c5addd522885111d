"""A result table written as CSV: the bytes of ``frame.to_csv(path, index=False)``, faster.

Why: pandas formats every cell through its per-dtype machinery (floats through
numpy's ``astype(str)``) before handing the rows to the csv module: 1.3 s of
``schedsim run`` for the 77,222 jobs of the CTC log. Here each column becomes
its cells' text, and the rows are joined with ``,`` (0.24 s), in pandas' dialect
(``,``, ``"``, QUOTE_MINIMAL, ``\\n`` line ends): floats as ``repr`` (what
numpy's ``astype(str)`` gives for a float64: ``937.0``, ``2.5e-07``, ``inf``,
``-0.0``), ints as ``str``, bools as ``True``/``False``, text and categories of
text as their values, and a missing value (NaN, None, ``pd.NA``) as an empty
field, pandas' default ``na_rep``.

The text is made column by column, where it is cheapest: a column of one
value is formatted once; a whole float (``937.0``, below 1e16, where ``repr``
writes every digit) is written from the integer, without ``repr``'s
shortest-digits search; a category's labels are looked up by code. Joining
the rows with ``str.join`` rather than the stdlib's csv writer saves the
writer's per-field checks, which are for quoting: where a text field needs
quotes (it holds ``,``, ``"``, ``\\r`` or ``\\n``), or a row is a single field
(the writer quotes a lone empty one), the csv writer writes the whole table.
Rows go out in blocks of `BLOCK`, so a long run's text is never all in memory.

Only those dtypes are written here, in a table whose column labels are strings;
anything else (datetimes, timedeltas, float32, complex, categories of numbers, an
object column holding other than strings, MultiIndex columns, no columns) is left
to ``to_csv`` itself, so the file is always what pandas writes. The index is never
written (``index=False``), so any index will do.
"""

from __future__ import annotations

import csv
import os
from collections.abc import Callable
from itertools import compress
from typing import TYPE_CHECKING, Any

import numpy as np

from schedsim.model.columns import Coded, Columns

if TYPE_CHECKING:  # pragma: no cover
    import pandas as pd

__all__ = ["write_csv"]

#: Rows formatted and written at a time.
BLOCK = 1 << 16

#: Characters that make the csv writer quote a field (QUOTE_MINIMAL, pandas' dialect).
_QUOTED = (",", '"', "\r", "\n")

#: Whole floats below this are written by ``repr`` with every digit and ``.0``
#: (``repr`` switches to an exponent from 1e16 on: ``1e+16``).
_WHOLE = 1e16

#: A column's cells as text for rows [start, stop).
Cells = Callable[[int, int], list[str]]


def write_csv(frame: pd.DataFrame | Columns, path: str | os.PathLike[str]) -> None:
    """Write ``frame`` to ``path`` as ``frame.to_csv(path, index=False)`` does, byte
    for byte (see the module docstring for what is written here, what by pandas).

    ``frame`` may be `Columns`: the text is then made from its arrays, without
    pandas, as `Columns.frame`'s ``to_csv`` would write it."""
    columns = _columns(frame)
    if columns is None:
        whole = frame.frame() if isinstance(frame, Columns) else frame
        whole.to_csv(path, index=False)
        return
    cells, plain = columns
    # newline="": the writer's own "\n" line ends, untranslated (pandas opens it so too).
    with open(path, "w", encoding="utf-8", newline="") as handle:
        writer = csv.writer(handle, lineterminator="\n")
        writer.writerow(frame.columns)
        n = len(frame)
        for start in range(0, n, BLOCK):
            stop = min(start + BLOCK, n)
            block = [c(start, stop) for c in cells]
            if plain:
                handle.write("\n".join(map(",".join, zip(*block, strict=True))))
                handle.write("\n")
            else:
                writer.writerows(zip(*block, strict=True))


def _columns(frame: pd.DataFrame | Columns) -> tuple[list[Cells], bool] | None:
    """Each column's cells, and whether no field needs the csv writer's quoting; None
    when pandas writes some part of the table (its labels, a column's dtype) in
    another way."""
    labels = list(frame.columns)  # a MultiIndex's labels are tuples: not written here
    if not labels or not all(type(c) is str for c in labels):
        return None
    columns = []
    plain = len(labels) > 1  # a row of one field: the writer quotes it when empty
    for i in range(len(labels)):  # by position: a frame's labels may repeat
        if isinstance(frame, Columns):
            column = _raw_cells(frame[labels[i]])
        else:
            column = _cells(frame.iloc[:, i])
        if column is None:
            return None
        cells, quoted = column
        plain = plain and not quoted
        columns.append(cells)
    return columns, plain


def _cells(column: pd.Series) -> tuple[Cells, bool] | None:
    """The column's cells as the text pandas writes, missing ones empty, and whether
    some field needs quotes; None for a dtype left to pandas."""
    import pandas as pd  # loaded already: the column is pandas'

    dtype = column.dtype
    if isinstance(dtype, np.dtype):
        values = column.to_numpy()
        if dtype.kind in "iub":  # never missing
            return _numbers(values, _strs), False
        if dtype == np.float64:
            return _numbers(values, _floats), False
        if dtype.kind == "O":
            return _text_cells(values.tolist(), column.isna().to_numpy())
        return None
    if isinstance(dtype, pd.CategoricalDtype):
        return _coded(column.cat.codes.to_numpy(), dtype.categories.tolist())
    if isinstance(dtype, pd.StringDtype):
        texts = _blank(column.tolist(), column.isna().to_numpy())
        return _slices(texts), _quoted(texts)
    if isinstance(column.array, (pd.arrays.IntegerArray, pd.arrays.BooleanArray)):
        # The nullable Int64, UInt8, boolean...: whole values or NA.
        texts = _blank(list(map(str, column.tolist())), column.isna().to_numpy())
        return _slices(texts), False
    return None


def _raw_cells(values: np.ndarray | list[Any] | Coded) -> tuple[Cells, bool] | None:
    """`_cells` of a `Columns` column: numbers, text (a list of str, or an object
    array of str and None), categories of text; None for anything else (a list or an
    object array holding other values), which the table's frame writes."""
    if isinstance(values, Coded):
        return _coded(values.codes, list(values.labels))
    if isinstance(values, np.ndarray) and values.dtype.kind != "O":
        if values.dtype.kind in "iub":
            return _numbers(values, _strs), False
        if values.dtype == np.float64:
            return _numbers(values, _floats), False
        return None
    objects = values.tolist() if isinstance(values, np.ndarray) else list(values)
    return _text_cells(objects, np.array([v is None for v in objects], dtype=bool))


def _text_cells(objects: list[Any], missing: np.ndarray) -> tuple[Cells, bool] | None:
    """Cells of a column of text, missing ones empty; None when a value that is not
    missing is not a str (pandas hands other objects to the writer its own way)."""
    if not all(type(v) is str for v in compress(objects, (~missing).tolist())):
        return None
    texts = _blank(objects, missing)
    return _slices(texts), _quoted(texts)


def _coded(codes: np.ndarray, categories: list[Any]) -> tuple[Cells, bool] | None:
    """Cells of a categorical column: each code's label, "" for a missing one (-1)."""
    if not all(type(c) is str for c in categories):
        return None
    labels = (*categories, "")  # code -1 (missing) picks the "" put last
    return (lambda a, b: list(map(labels.__getitem__, codes[a:b].tolist()))), _quoted(categories)


def _numbers(values: np.ndarray, format_: Callable[[np.ndarray], list[str]]) -> Cells:
    """Cells of a numeric column: one value formatted once, else ``format_`` on the rows."""
    if len(values) and (values[0] == values).all() and _one_text(values):
        text = format_(values[:1])[0]
        return lambda a, b: [text] * (b - a)
    return lambda a, b: format_(values[a:b])


def _quoted(texts: list[str]) -> bool:
    """Whether some of ``texts`` holds a character the csv writer quotes a field for."""
    joined = "".join(texts)
    return any(q in joined for q in _QUOTED)


def _one_text(values: np.ndarray) -> bool:
    """Whether values that compare equal also read the same: no NaN (never equal), and
    floats all of one sign (0.0 and -0.0 are equal)."""
    if values.dtype.kind != "f":
        return True
    signs = np.signbit(values)
    return not np.isnan(values).any() and signs.all() == signs.any()


def _strs(values: np.ndarray) -> list[str]:
    """``str`` of each int or bool (``True``, ``False``): pandas' text for them."""
    return list(map(str, values.tolist()))


def _floats(values: np.ndarray) -> list[str]:
    """``repr`` of each value (pandas' text for a float64), NaN as an empty field."""
    whole = (np.abs(values) < _WHOLE) & (values == np.trunc(values))
    if whole.all() and not (np.signbit(values) & (values == 0)).any():
        # The integer's digits and ".0" are repr's text below 1e16, -0.0 aside ("0.0").
        return [f"{v}.0" for v in values.astype(np.int64).tolist()]
    texts = list(map(repr, values.tolist()))
    return _blank(texts, np.isnan(values))


def _slices(texts: list[str]) -> Cells:
    return lambda a, b: texts[a:b]


def _blank(cells: list[Any], missing: np.ndarray) -> list[Any]:
    """``cells`` with "" where ``missing``: an empty field."""
    for i in np.flatnonzero(missing).tolist():
        cells[i] = ""
    return cells
