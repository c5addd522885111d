"""A result table as plain columns: what a run makes, before pandas is needed.

Why: importing pandas (and the pyarrow it loads) costs a ``schedsim run``
process about a third of a second, more than simulating a study-sized run of
2,000 jobs. A run's tables are made as `Columns` (numpy arrays, lists of text
and `Coded` categories), and everything ``schedsim run`` computes and writes
from them without a DataFrame (the summary, the per-category table, ``jobs.csv``
and ``schedule.swf``) reads them directly; `Columns.frame` makes the DataFrame,
importing pandas, only when something asks for one (``Result.jobs``, a Parquet
file, a notebook).

A column is one of:

- a numpy array (numbers, or ``object`` for values of any kind: a job
  attribute that is not a number; it stays an object column in the frame);
- a list: values as pandas reads a list (text, as node lists and outcomes are,
  becomes a column of pandas' string dtype; a policy's own job column may hold
  numbers or None);
- `Coded`: codes into labels, an ordered categorical in the frame.

Columns and DataFrames are read alike by the code that takes either:
``name in table``, ``len(table)`` (rows), ``table.columns`` (names, in order)
and ``np.asarray(table[name])`` (a `Coded` column's labels through its
`Coded.values`, as `schedsim.model.results.Result.column` reads them).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, Any, NamedTuple

import numpy as np

if TYPE_CHECKING:  # pragma: no cover
    import pandas as pd

__all__ = ["Coded", "Column", "Columns"]


class Coded(NamedTuple):
    """A categorical column without pandas: a code per row into ``labels``, -1 missing."""

    codes: np.ndarray
    labels: tuple[str, ...]

    def __len__(self) -> int:  # rows, not the tuple's two fields
        return len(self.codes)

    def values(self) -> np.ndarray:
        """The rows' labels, None where missing, as an object array."""
        table = np.array([*self.labels, None], dtype=object)
        return table[self.codes]  # code -1 picks the None put last

    def categorical(self) -> pd.Categorical:
        """As an ordered pandas categorical (imports pandas)."""
        from schedsim.model.categories import categorical

        return categorical(self.codes, self.labels)


Column = np.ndarray | list[Any] | Coded


class Columns:
    """Named columns of one length, in order (module docstring)."""

    def __init__(self, columns: dict[str, Column] | None = None) -> None:
        self._data: dict[str, Column] = {}
        self._rows: int | None = None
        for name, values in (columns or {}).items():
            self[name] = values

    @property
    def columns(self) -> list[str]:
        """The column names, in order (as a DataFrame's ``columns`` lists them)."""
        return list(self._data)

    def __len__(self) -> int:
        """The number of rows (0 with no column)."""
        return self._rows or 0

    def __contains__(self, name: object) -> bool:
        return name in self._data

    def __iter__(self) -> Iterator[str]:
        return iter(self._data)

    def __getitem__(self, name: str) -> Column:
        return self._data[name]

    def __setitem__(self, name: str, values: Column) -> None:
        """Set a column (at the end when new; in its place when it is there)."""
        if isinstance(values, np.ndarray) and values.ndim != 1:
            raise ValueError(f"column {name!r} must be one-dimensional")
        if self._rows is None or not self._data:
            self._rows = len(values)
        elif len(values) != self._rows:
            raise ValueError(f"column {name!r} has {len(values)} rows, the table {self._rows}")
        self._data[name] = values

    def insert(self, position: int, name: str, values: Column) -> None:
        """Put a new column at ``position`` (as `DataFrame.insert`)."""
        if name in self._data:
            raise ValueError(f"column {name!r} is in the table already")
        self[name] = values
        names = list(self._data)
        names.insert(position, names.pop())
        self._data = {n: self._data[n] for n in names}

    def frame(self) -> pd.DataFrame:
        """The table as a DataFrame (imports pandas): categories as ordered
        categoricals, object arrays as object columns, text as pandas makes it."""
        import pandas as pd

        data: dict[str, Any] = {}
        for name, values in self._data.items():
            if isinstance(values, Coded):
                data[name] = values.categorical()
            elif isinstance(values, np.ndarray) and values.dtype == object:
                data[name] = pd.array(values, dtype=object)
            else:
                data[name] = values
        return pd.DataFrame(data, index=pd.RangeIndex(len(self)))
