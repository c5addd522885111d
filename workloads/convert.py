"""A workload written in another format, as it is: ``schedsim convert IN OUT``.

Any workload schedsim reads (a shipped trace's name, SWF, Parquet, Slurm accounting
from ``sacct``, Batsim's JSON workloads: `schedsim.workloads.catalog.load`) is written
as the format ``OUT``'s name says:

- ``.swf`` or ``.swf.gz``: an SWF log whose lines are the jobs as the log recorded
  them, its own waits, run times and statuses (`recorded_schedule`), under a header
  that says it was converted and names every cleaning step (`write_swf`'s
  ``converted``), so that other tools (the archive's own, pyss, CQSim, AccaSim) read
  a Slurm centre's jobs; reading the file back gives the same jobs;
- ``.parquet``: the workload as `schedsim.workloads.parquet` keeps it (every job
  attribute, the cleaning steps, the header);
- ``.json``: Batsim's JSON workload (`schedsim.workloads.batsim_json`): delay
  profiles of the run times, the estimates as walltimes.

An existing ``OUT`` is not overwritten unless ``force`` says so: a file converted
once, and perhaps edited, is not lost to a second command.
"""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np
import pandas as pd

from schedsim.workloads.workload import Workload

__all__ = ["FORMATS", "convert", "format_of", "recorded_schedule"]

#: The endings ``OUT`` may have, and the format each writes.
FORMATS = {".swf": "SWF", ".swf.gz": "SWF (gzip)", ".parquet": "Parquet", ".json": "Batsim JSON"}


def recorded_schedule(workload: Workload) -> pd.DataFrame:
    """The schedule the log recorded: per job ``id``, ``wait`` (SWF field 3; NaN where
    missing, written as -1), ``run`` (the run time) and ``status`` (field 11, NaN where
    unknown), as `write_swf` takes a schedule."""
    waits, statuses = [], []
    for job in workload:
        swf = job.swf
        waits.append(swf[2] if swf is not None and swf[2] >= 0 else np.nan)
        statuses.append(swf[10] if swf is not None and swf[10] >= 0 else np.nan)
    return pd.DataFrame(
        {
            "id": np.fromiter((j.id for j in workload), np.int64, len(workload)),
            "wait": np.asarray(waits, dtype=float),
            "run": np.fromiter((j.run_time for j in workload), float, len(workload)),
            "status": np.asarray(statuses, dtype=float),
        }
    )


def format_of(path: Path) -> str:
    """The ending of `FORMATS` ``path``'s name has (the longest that fits); ValueError
    naming the endings when it has none."""
    name = path.name.lower()
    for ending in sorted(FORMATS, key=len, reverse=True):
        if name.endswith(ending):
            return ending
    raise ValueError(
        f"{path}: cannot tell the format to write from the name; end it in "
        f"{', '.join(FORMATS)} ({', '.join(FORMATS.values())})"
    )


def convert(
    workload: Workload, destination: str | os.PathLike[str], *, force: bool = False
) -> Path:
    """Write ``workload`` to ``destination`` in the format its name ends in (`FORMATS`);
    the path written. `FileExistsError` when it exists and ``force`` is not set."""
    out = Path(destination)
    ending = format_of(out)
    if out.exists() and not force:
        raise FileExistsError(f"{out}: exists; convert to another name, or pass --force")
    if ending in (".swf", ".swf.gz"):
        from schedsim.workloads.swf import write_swf

        write_swf(out, workload, recorded_schedule(workload), converted=True)
    elif ending == ".parquet":
        from schedsim.workloads.parquet import write_workload

        write_workload(workload, out)
    else:
        from schedsim.workloads.batsim_json import write_batsim_json

        write_batsim_json(workload, out)
    return out
