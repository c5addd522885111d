"""The real traces shipped with schedsim, by short name.

The logs in ``workloads/data/`` are the Parallel Workloads Archive's cleaned
versions, byte for byte (Feitelson, Tsafrir and Krakov, JPDC 74(10), 2014;
each file's header names its donors, whom the archive asks users to
acknowledge). They are shipped so that a bare ``schedsim run`` and the
notebooks work on a fresh machine without a download; KTH, the smallest real
one, is the default.

Data files are found with `importlib.resources`, so this works from a source
checkout, an editable install and an installed wheel alike.
"""

from __future__ import annotations

import atexit
import os
from contextlib import ExitStack
from importlib import resources
from pathlib import Path
from typing import Any

from schedsim.workloads.swf import read_header, read_swf
from schedsim.workloads.workload import Workload

__all__ = ["DEFAULT", "SHIPPED", "describe", "load", "resolve"]

#: Short name -> file name in ``workloads/data/``.
SHIPPED: dict[str, str] = {
    "kth": "KTH-SP2-1996-2.1-cln.swf.gz",
    "ctc": "CTC-SP2-1996-3.1-cln.swf.gz",
    "sdsc-sp2": "SDSC-SP2-1998-4.2-cln.swf.gz",
    "lublin256": "lublin_256.swf.gz",
}

#: The trace used when none is named (small, real, with estimates).
DEFAULT = "kth"

_DATA_PACKAGE = "schedsim.workloads.data"
# Holds files extracted from a zipped install until the interpreter exits.
_extracted = ExitStack()
atexit.register(_extracted.close)


def _shipped_path(file_name: str) -> Path:
    resource = resources.files(_DATA_PACKAGE).joinpath(file_name)
    if isinstance(resource, Path):
        return resource
    # Installed inside a zip: extract once, keep until exit.
    return _extracted.enter_context(resources.as_file(resource))


def resolve(name_or_path: str | os.PathLike[str]) -> Path:
    """The file behind a shipped trace name (case-insensitive) or a path.

    A shipped name wins over a file of the same name in the current
    directory. Anything else must be an existing file; otherwise the
    `ValueError` lists the shipped names, which is what a user mistyping
    ``--workload`` needs to see.
    """
    if isinstance(name_or_path, str):
        key = name_or_path.strip().lower()
        if key in SHIPPED:
            return _shipped_path(SHIPPED[key])
    path = Path(name_or_path).expanduser()
    if path.is_file():
        return path
    raise ValueError(
        f"unknown workload {str(name_or_path)!r}: not a shipped trace "
        f"({', '.join(SHIPPED)}) and not an existing file"
    )


def load(name_or_path: str | os.PathLike[str], **read_kwargs: Any) -> Workload:
    """Read a shipped trace, an SWF file (``read_kwargs`` go to `read_swf`), or a
    workload saved as Parquet (``.parquet``, `schedsim.workloads.parquet`)."""
    path = resolve(name_or_path)
    if path.suffix == ".parquet":
        from schedsim.workloads.parquet import read_workload

        if read_kwargs:
            raise ValueError(f"{path}: options {sorted(read_kwargs)} only apply to SWF files")
        return read_workload(path)
    return read_swf(path, **read_kwargs)


def _description(name: str) -> str:
    header = read_header(_shipped_path(SHIPPED[name]))
    f = header.fields
    what = ", ".join(v for v in (f.get("Computer"), f.get("Installation")) if v)
    if not what:
        ack = f.get("Acknowledge")
        what = f"Acknowledge: {ack}" if ack else name
    parts = [what]
    if header.machine_size:
        parts.append(f"{header.machine_size} processors")
    if header.unix_start_time is not None:
        parts.append(f"from {header.to_datetime(0):%Y-%m-%d}")
    return "; ".join(parts)


def describe() -> list[tuple[str, str]]:
    """(short name, one-line description) of every shipped trace.

    The description comes from the file's own header (computer, installation,
    machine size, start date), read without parsing the jobs, so it stays true
    to the data actually shipped.
    """
    return [(name, _description(name)) for name in SHIPPED]
