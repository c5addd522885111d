"""Workload logs by short name: the shipped traces and the archive's other logs.

The logs in ``workloads/data/`` are the Parallel Workloads Archive's cleaned
versions, byte for byte (Feitelson, Tsafrir and Krakov, JPDC 74(10), 2014;
each file's header names its donors, whom the archive asks users to
acknowledge). They are shipped so that a bare ``schedsim run`` and the
notebooks work on a fresh machine without a download; KTH, the smallest real
one, is the default. Shipped logs never touch the network.

The archive's other logs (`schedsim.workloads.archive.LOGS`: ``hpc2n``,
``llnl-thunder``, ...) are known by name too: the first use downloads one
into a user cache, checked against its SHA-256, and later uses read it from
there (`schedsim.workloads.archive` says how, and what happens offline).

Data files are found with `importlib.resources`, so this works from a source
checkout, an editable install and an installed wheel alike.
"""

from __future__ import annotations

import atexit
import os
from contextlib import ExitStack
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from schedsim.workloads import archive
from schedsim.workloads.formats import READABLE, kind

if TYPE_CHECKING:  # pragma: no cover
    from schedsim.workloads.workload import Workload

__all__ = ["DEFAULT", "SHIPPED", "Entry", "describe", "listing", "load", "names", "resolve"]

#: Short name -> file name in ``workloads/data/``.
SHIPPED: dict[str, str] = {
    "kth": "KTH-SP2-1996-2.1-cln.swf.gz",
    "ctc": "CTC-SP2-1996-3.1-cln.swf.gz",
    "sdsc-sp2": "SDSC-SP2-1998-4.2-cln.swf.gz",
    "sdsc-par": "SDSC-Par-1996-3.1-cln.swf.gz",
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


def names() -> list[str]:
    """Every name `resolve` knows: the shipped traces, then the archive's other logs."""
    return [*SHIPPED, *(name for name in archive.LOGS if name not in SHIPPED)]


def resolve(name_or_path: str | os.PathLike[str]) -> Path:
    """The file behind a shipped trace name, an archive log name, or a path.

    Names are case-insensitive. A shipped name is read from the package; an
    archive log's name (``hpc2n``, or the archive's ``HPC2N-2002-2.2-cln``)
    is fetched into the cache on first use and checked at every use
    (`schedsim.workloads.archive.fetch`, which raises `OSError` when it cannot
    download and `ValueError` on a checksum mismatch). A name wins over a file
    of the same name in the current directory. Anything else must be an
    existing file; otherwise the `ValueError` lists the names, which is what a
    user mistyping ``--workload`` needs to see.
    """
    if isinstance(name_or_path, str):
        key = name_or_path.strip().lower()
        if key in SHIPPED:
            return _shipped_path(SHIPPED[key])
        log = archive.lookup(key)
        if log is not None:
            # The archive's names for the shipped logs (KTH-SP2-1996-2.1-cln) are shipped too.
            if log.name in SHIPPED:
                return _shipped_path(SHIPPED[log.name])
            return archive.fetch(log.name)
    path = Path(name_or_path).expanduser()
    if path.is_file():
        return path
    if path.is_dir():
        raise ValueError(f"{path}: a directory, not a workload file; {READABLE}")
    others = [name for name in archive.LOGS if name not in SHIPPED]
    raise ValueError(
        f"unknown workload {str(name_or_path)!r}: not a shipped trace "
        f"({', '.join(SHIPPED)}), not a log of the Parallel Workloads Archive "
        f"({', '.join(others)}) and not an existing file"
    )


def load(
    name_or_path: str | os.PathLike[str], *, first: int | None = None, **read_kwargs: Any
) -> Workload:
    """Read a shipped trace, an SWF file (``read_kwargs`` go to `read_swf`), a
    workload saved as Parquet (`schedsim.workloads.parquet`), Slurm accounting
    (`schedsim.workloads.slurm.read_sacct`) or a Batsim JSON workload
    (`schedsim.workloads.batsim_json`).

    The format is told by the file's content, not its name (`schedsim.workloads.formats.kind`):
    Parquet's magic bytes, a JSON object, sacct's header line of ``|``-separated
    names; anything else is read as SWF, whose reader refuses on one line a file that
    plainly is something else (CSV, an empty file, binary data...), saying what it
    looks like. ``read_kwargs`` are SWF's options: another format refuses them.
    ``first=n`` keeps the first ``n`` jobs (`schedsim.workloads.transforms.first`),
    and the SWF reader then makes only those."""
    path = resolve(name_or_path)
    what = kind(path)
    if what != "swf" and read_kwargs:
        raise ValueError(f"{path}: options {sorted(read_kwargs)} only apply to SWF files")
    if what == "swf":
        from schedsim.workloads.swf import read_swf  # numpy: not for --help, which names logs

        return read_swf(path, first=first, **read_kwargs)
    if what == "parquet":
        from schedsim.workloads.parquet import read_workload

        workload = read_workload(path)
    elif what == "sacct":
        from schedsim.workloads.slurm import read_sacct

        workload = read_sacct(path)
    else:
        from schedsim.workloads.batsim_json import read_batsim_json

        workload = read_batsim_json(path)
    if first is None:
        return workload
    from schedsim.workloads.transforms import _count
    from schedsim.workloads.transforms import first as first_jobs

    return first_jobs(workload, _count(first, "first"))  # named as read_swf names it


def _description(name: str) -> str:
    from schedsim.workloads.swf import read_header

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


# The shipped synthetic log is no archive log (the archive's models page has it);
# its listing says what the model is and whom to cite.
_LUBLIN256 = archive.Log(
    name="lublin256",
    file=SHIPPED["lublin256"],
    folder="",
    machine="Lublin-Feitelson model (synthetic)",
    processors=256,
    jobs=10_000,
    jobs_counted=True,
    donors="Uri Lublin",
    paper="Lublin and Feitelson, JPDC 63(11) 2003",
)
#: Shipped logs that are not in the archive table.
_SHIPPED_ONLY = {"lublin256": _LUBLIN256}


@dataclass(frozen=True)
class Entry:
    """One line of `listing`: a log, where it is, and how to cite it."""

    log: archive.Log
    #: ``shipped`` (in the package), ``cached`` (downloaded) or ``downloadable``.
    status: Literal["shipped", "cached", "downloadable"]
    default: bool


def listing() -> list[Entry]:
    """Every log `resolve` knows by name, shipped ones first, with its status.

    Cheap: reads no file and touches no network (``cached`` means the file is
    in the cache; `resolve` checks it when it is used).
    """
    entries = []
    for name in names():
        if name in SHIPPED:
            log = archive.LOGS.get(name) or _SHIPPED_ONLY[name]
            status: Literal["shipped", "cached", "downloadable"] = "shipped"
        else:
            log = archive.LOGS[name]
            status = "cached" if archive.is_cached(log) else "downloadable"
        entries.append(Entry(log, status, name == DEFAULT))
    return entries
