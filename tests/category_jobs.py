"""Fake job tables by Table 2.1 category, for the Kettimuthu 2003 report tests.

`category_jobs` turns rows of (category label, submit time, bounded slowdown) into
a ``jobs.parquet``-like table of completed, exactly estimated jobs of a run time
and size well inside their category (`RUN_OF`, `SIZE_OF`).
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np
import pandas as pd

#: A run time (s) and a size (processors) inside each row and column of Table 2.1.
RUN_OF = {"VS": 300.0, "S": 1800.0, "L": 7200.0, "VL": 36_000.0}
SIZE_OF = {"Seq": 1, "N": 4, "W": 16, "VW": 64}


def category_jobs(jobs: Iterable[tuple[str, float, float]]) -> pd.DataFrame:
    """A job table of ``(category label, submit time, slowdown)`` rows, e.g.
    ``("VS Seq", 0.0, 2.5)``: each job waits ``(slowdown - 1) x`` its run time."""
    rows = []
    for label, submit, slowdown in jobs:
        runtime, size = label.split()
        run = RUN_OF[runtime]
        rows.append({"submit": submit, "run": run, "size": SIZE_OF[size],
                     "wait": (slowdown - 1.0) * run})  # fmt: skip
    table = pd.DataFrame(rows)
    table.insert(0, "id", np.arange(1, len(table) + 1))
    table["start"] = table["submit"] + table["wait"]
    table["end"] = table["start"] + table["run"]
    table["estimate"] = table["work"] = table["run"]
    table["nodes"] = ""
    table["outcome"] = "completed"
    table["suspensions"] = 0
    table["suspended_time"] = 0.0
    table["user"] = -1
    return table
