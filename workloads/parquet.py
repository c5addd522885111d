"""Workloads as Parquet files: every field of every job, attributes included.

SWF has a field for two of a job's attributes only (queue and partition);
a workload whose jobs carry others (a priority class, a reservation time,
memory, contention parameters) keeps them in Parquet. One row per job:

``id, submit, run_time, size, estimate, user, group, app, queue, partition``,
``swf`` (the job's 18 original SWF fields, or null), then one column per
attribute (null where a job has none). The header (every ``; Key: value``
line and the raw comment lines), the workload's name and source and its
cleaning steps (with their members, so that a selection made after reading
counts them again) are kept in the file's metadata, so `read_workload` gives
back the same workload: same jobs, same attributes, same clock.
"""

from __future__ import annotations

import dataclasses
import json
import math
import os
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq

from schedsim.workloads.job import Job
from schedsim.workloads.workload import CleaningStep, Header, Workload

__all__ = ["read_workload", "write_workload"]

#: The job record's own fields, in the order of the columns.
RECORD = ("id", "submit", "run_time", "size", "estimate", "user", "group", "app", "queue",
          "partition")  # fmt: skip
_META_KEY = b"schedsim.workload"


def write_workload(w: Workload, path: str | os.PathLike[str]) -> Path:
    """Write ``w`` as a Parquet file (see the module docstring); returns the path."""
    columns: dict[str, Any] = {f: [getattr(j, f) for j in w.jobs] for f in RECORD}
    columns["swf"] = [list(j.swf) if j.swf is not None else None for j in w.jobs]
    names: dict[str, None] = {}
    for job in w.jobs:
        for key in job.attrs:
            names.setdefault(key)
    clash = sorted(set(names) & {*RECORD, "swf"})
    if clash:
        raise ValueError(f"workload {w.name!r}: attributes {clash} would hide job fields")
    for key in names:
        columns[key] = [j.attrs.get(key) for j in w.jobs]
    table = pa.Table.from_pydict(columns)
    meta = {
        "name": w.name,
        "source": w.source,
        "header": dataclasses.asdict(w.header),
        "cleaning": [c.to_dict() for c in w.cleaning],
        "attributes": list(names),
    }
    table = table.replace_schema_metadata({_META_KEY: json.dumps(meta).encode()})
    out = Path(path)
    pq.write_table(table, out)
    return out


def read_workload(path: str | os.PathLike[str]) -> Workload:
    """Read a workload written by `write_workload`.

    Errors name the file and what is wrong (not a schedsim workload, a
    missing column).
    """
    src = Path(path)
    try:
        table = pq.read_table(src)
    except (OSError, pa.ArrowInvalid) as exc:
        raise ValueError(f"{src}: not a Parquet file: {exc}") from None
    raw = (table.schema.metadata or {}).get(_META_KEY)
    if raw is None:
        raise ValueError(f"{src}: not a schedsim workload (no {_META_KEY.decode()} metadata)")
    meta = json.loads(raw)
    missing = [c for c in (*RECORD, "swf") if c not in table.column_names]
    if missing:
        raise ValueError(f"{src}: missing columns {missing}")
    data = table.to_pydict()
    attributes = meta.get("attributes", [])
    jobs = []
    for k in range(table.num_rows):
        attrs = {a: data[a][k] for a in attributes if not _missing(data[a][k])}
        swf = data["swf"][k]
        jobs.append(
            Job(
                int(data["id"][k]),
                float(data["submit"][k]),
                float(data["run_time"][k]),
                int(data["size"][k]),
                float(data["estimate"][k]),
                int(data["user"][k]),
                int(data["group"][k]),
                int(data["app"][k]),
                int(data["queue"][k]),
                int(data["partition"][k]),
                tuple(float(v) for v in swf) if swf is not None else None,
                attrs,
            )
        )
    header = meta["header"]
    header["fields"] = dict(header.get("fields", {}))
    header["lines"] = tuple(header.get("lines", ()))
    return Workload(
        tuple(jobs),
        Header(**header),
        name=meta.get("name", src.stem),
        source=meta.get("source"),
        cleaning=tuple(CleaningStep.from_dict(c) for c in meta.get("cleaning", [])),
    )


def _missing(value: Any) -> bool:
    """A null cell: the job has no such attribute."""
    if value is None:
        return True
    return (isinstance(value, float) and math.isnan(value)) or value is pd.NA or value is np.nan
