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
import pyarrow.compute as pc
import pyarrow.parquet as pq

from schedsim.workloads.formats import one_line
from schedsim.workloads.job import SWF_FIELDS, Job
from schedsim.workloads.swf import _ID_BOUND, _TIME_BOUND, MAX_ID, MAX_PROCS, MAX_TIME
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

    Errors are one line naming the file and what is wrong: not a Parquet file, a
    Parquet file that is no schedsim workload (a run's ``jobs.parquet``, say), metadata
    or columns unlike those `write_workload` writes, and values no job can have,
    with the 1-based row and the column (`_check_columns`: the bounds of the SWF
    reader, `schedsim.workloads.swf`).
    """
    src = Path(path)
    try:
        table = pq.read_table(src)
    except (OSError, pa.ArrowException) as exc:
        raise ValueError(f"{src}: not a Parquet file that can be read ({one_line(exc)})") from None
    raw = (table.schema.metadata or {}).get(_META_KEY)
    if raw is None:
        raise ValueError(
            f"{src}: a Parquet file, but not a schedsim workload (no {_META_KEY.decode()} "
            "metadata: a run's jobs.parquet is a result; "
            "schedsim.workloads.parquet.write_workload writes workloads)"
        )
    missing = [c for c in (*RECORD, "swf") if c not in table.column_names]
    if missing:
        raise ValueError(f"{src}: missing columns {missing}")
    try:
        meta = json.loads(raw)
        attributes = [str(a) for a in meta.get("attributes", [])]
        header = _header(meta["header"])
        cleaning = tuple(CleaningStep.from_dict(c) for c in meta.get("cleaning", []))
        name, source = str(meta.get("name", src.stem)), meta.get("source")
    except (ValueError, TypeError, KeyError, AttributeError) as exc:
        raise ValueError(
            f"{src}: its {_META_KEY.decode()} metadata is not what write_workload writes "
            f"({type(exc).__name__}: {one_line(exc)})"
        ) from None
    absent = [a for a in attributes if a not in table.column_names]
    if absent:
        raise ValueError(f"{src}: missing the columns of attributes {absent}")
    _check_columns(src, table)
    data = table.to_pydict()
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
    return Workload(
        tuple(jobs),
        header,
        name=name,
        source=None if source is None else str(source),
        cleaning=cleaning,
    )


def _header(values: dict[str, Any]) -> Header:
    """The `Header` of the metadata, its values checked as the SWF reader checks a
    header's (TypeError or ValueError, which `read_workload` reports, otherwise)."""
    values = dict(values)
    values["fields"] = {str(k): str(v) for k, v in dict(values.get("fields", {})).items()}
    values["lines"] = tuple(str(v) for v in values.get("lines", ()))
    header = Header(**values)
    for key in ("max_nodes", "max_procs", "unix_start_time", "time_zone"):
        value = getattr(header, key)
        if value is not None and (isinstance(value, bool) or not isinstance(value, int)):
            raise TypeError(f"header {key} is {value!r}, not a whole number")
    for key in ("max_nodes", "max_procs"):
        value = getattr(header, key)
        if value is not None and not 0 < value <= MAX_PROCS:
            raise ValueError(f"header {key} is {value}, not a machine size (1 to 2**31)")
    if header.time_zone is not None and abs(header.time_zone) >= 86400:
        raise ValueError(f"header time_zone is {header.time_zone}, no UTC offset in seconds")
    if header.time_zone_string is not None and not isinstance(header.time_zone_string, str):
        raise TypeError(f"header time_zone_string is {header.time_zone_string!r}, not a name")
    return header


#: Columns of whole numbers, and of times in seconds.
_WHOLE = ("id", "size", "user", "group", "app", "queue", "partition")
_TIMES = ("submit", "run_time", "estimate")


def _check_columns(src: Path, table: pa.Table) -> None:
    """ValueError for the first value, in column order, that no job can have, naming
    its 1-based row and column: a null where every job has a value, a value that is
    not a number (or not a whole one where the job has counts and identifiers), a
    job id seen on an earlier row, a size outside 1 to 2**31, a time that is
    negative or 2**43 s or more, a job whose end (submit + the longer of run time
    and estimate) reaches 2**43 s, an estimate of 0 for a job that runs, an
    ``swf`` list other than 18 numbers. The bounds are the SWF reader's
    (`schedsim.workloads.swf`), so a workload read back is one a run can compute
    with; checked on whole columns at once (whole traces are 200k rows)."""
    columns: dict[str, np.ndarray] = {}
    for name in (*RECORD, "swf"):
        column = table.column(name)
        if name != "swf" and column.null_count:
            row = int(np.flatnonzero(column.is_null().to_numpy(zero_copy_only=False))[0])
            raise ValueError(f"{src}: row {row + 1}, column {name!r}: empty (null)")
        kind = column.type
        if name == "swf":
            continue
        if not (pa.types.is_integer(kind) or pa.types.is_floating(kind)):
            raise ValueError(f"{src}: column {name!r} holds {kind}, not numbers")
        columns[name] = column.to_numpy()

    def refuse(name: str, bad: np.ndarray, what: str) -> None:
        if bad.any():
            row = int(np.argmax(bad))
            raise ValueError(f"{src}: row {row + 1}, column {name!r}: {columns[name][row]} {what}")

    for name in RECORD:
        values = columns[name]
        if values.dtype.kind == "f":
            refuse(name, ~np.isfinite(values), "is not a finite number")
            if name in _WHOLE:
                refuse(name, values != np.floor(values), "is not a whole number")
        if name in _WHOLE:
            big = (values >= MAX_ID) | (values <= -MAX_ID)
            refuse(name, big, f"is too large: ids and counts {_ID_BOUND}")
        if name in _TIMES:
            refuse(name, values < 0, "is negative (seconds)")
            refuse(name, values >= MAX_TIME, f"is too large: {_TIME_BOUND}")
    size = columns["size"]
    refuse("size", (size < 1) | (size > MAX_PROCS), "is no job size (1 to 2**31 processors)")
    ids = columns["id"]
    order = np.argsort(ids, kind="stable")
    again = np.zeros(len(ids), dtype=bool)
    again[order[1:][ids[order][1:] == ids[order][:-1]]] = True
    refuse("id", again, "is the id of an earlier row's job too")
    run, estimate = columns["run_time"], columns["estimate"]
    refuse("estimate", (estimate == 0) & (run > 0), "is 0 for a job that runs")
    end = columns["submit"] + np.maximum(run, estimate)
    refuse(
        "submit", end >= MAX_TIME, f"+ the job's run time or estimate is too late: {_TIME_BOUND}"
    )
    swf = table.column("swf")
    if not (pa.types.is_list(swf.type) and pa.types.is_floating(swf.type.value_type)):
        raise ValueError(f"{src}: column 'swf' holds {swf.type}, not lists of numbers")
    lengths = pc.list_value_length(swf).to_numpy(zero_copy_only=False).astype(float)
    wrong = ~np.isnan(lengths) & (lengths != len(SWF_FIELDS))
    if wrong.any():
        row = int(np.argmax(wrong))
        raise ValueError(
            f"{src}: row {row + 1}, column 'swf': {int(lengths[row])} values, SWF has "
            f"{len(SWF_FIELDS)}"
        )
    # The fields are written back to schedule.swf as they are: a NaN there could not
    # be read again.
    flat = pc.list_flatten(swf)
    finite = np.isfinite(flat.to_numpy(zero_copy_only=False).astype(float))
    if not finite.all():
        at = int(np.argmax(~finite))
        row = int(pc.list_parent_indices(swf).to_numpy(zero_copy_only=False)[at])
        raise ValueError(f"{src}: row {row + 1}, column 'swf': a value is not a finite number")


def _missing(value: Any) -> bool:
    """A null cell: the job has no such attribute."""
    if value is None:
        return True
    return (isinstance(value, float) and math.isnan(value)) or value is pd.NA or value is np.nan
