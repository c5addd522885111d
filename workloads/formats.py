"""What a workload file holds, told by its content rather than its name.

A workload is an SWF log (text, plain or gzip-compressed), a Parquet file that
`schedsim.workloads.parquet` wrote, Slurm accounting (`schedsim.workloads.slurm`) or
Batsim's JSON workload (`schedsim.workloads.batsim_json`); `kind` tells which from
the first bytes. Users hand schedsim other files too: a
``jobs.csv`` or ``batsim_jobs.csv`` a run wrote, a ``summary.json``, a web page
saved in place of a download, a log compressed with bzip2, a file saved as
UTF-16 by a Windows editor. Read as SWF, each would be refused for its first line
("the line has 1 fields, SWF needs 18"), which says nothing of what is wrong. So
the readers look at the bytes first: `kind` tells `catalog.load` which reader a
file is for whatever its name, and `not_swf` names what a file plainly is when it
is not SWF text, for `schedsim.workloads.swf.read_swf` to refuse it on one line
with `READABLE`, the formats schedsim does read.

`not_swf` looks only at the start of the data (the first 64 KiB, and the first
line that is neither blank nor a ``;`` comment), so it costs nothing on a large
log, and it never refuses a file on evidence a well-formed SWF log could hold:
an SWF job line has no comma, no ``{``, ``[`` or ``<``, and no NUL byte. A
malformed line further down is the line-by-line reader's to report, with its
line and field.
"""

from __future__ import annotations

import gzip
import os
import re
import zlib
from collections.abc import Callable
from pathlib import Path
from typing import Literal

__all__ = [
    "GZIP_ERRORS", "GZIP_MAGIC", "PARQUET_MAGIC", "READABLE", "Kind", "is_parquet", "kind",
    "not_swf", "one_line", "read_decompressed",
]  # fmt: skip

#: The formats schedsim reads, for messages that refuse a file.
READABLE = (
    "schedsim reads SWF (.swf, or gzip-compressed .swf.gz), Parquet "
    "(.parquet, as schedsim.workloads.parquet writes it), Slurm accounting "
    "(sacct --parsable2 --allocations, with its header line) and Batsim's JSON workloads"
)
#: A Parquet file begins (and ends) with these bytes.
PARQUET_MAGIC = b"PAR1"

#: Formats known by the bytes they begin with, and what to call them. Gzip is not
#: here: the SWF reader decompresses it and looks again.
_MAGIC: tuple[tuple[bytes, str], ...] = (
    (PARQUET_MAGIC, "a Parquet file (schedsim.workloads.catalog.load reads it)"),
    (b"\x1f\x8b", "gzip data inside gzip data (compressed twice: decompress it once)"),
    (b"\xfd7zXZ\x00", "xz-compressed data (decompress it, or compress it with gzip)"),
    (b"\x28\xb5\x2f\xfd", "zstd-compressed data (decompress it, or compress it with gzip)"),
    (b"PK\x03\x04", "a zip archive (unzip it: the log inside is what schedsim reads)"),
    (b"PK\x05\x06", "an empty zip archive"),
    (b"7z\xbc\xaf\x27\x1c", "a 7-Zip archive (extract the log from it)"),
    (b"\xff\xfe\x00\x00", "UTF-32 text (save it as ASCII or UTF-8)"),
    (b"\xff\xfe", "UTF-16 text (save it as ASCII or UTF-8)"),
    (b"\xfe\xff", "UTF-16 text (save it as ASCII or UTF-8)"),
)
_BZIP2 = re.compile(rb"BZh[1-9]")
#: Where a tar archive says "ustar" (POSIX tar headers).
_TAR_AT = 257
#: How much of the data is looked at: enough for any archive log's header.
_HEAD = 1 << 16
#: Binary data has a NUL byte early on (what git and grep look for, in their first 8 KB).
_BINARY_HEAD = 8192


#: What `kind` tells a workload file to be.
Kind = Literal["parquet", "sacct", "batsim-json", "swf"]


def kind(path: str | os.PathLike[str]) -> Kind:
    """Which reader a workload file is for, told by its first bytes (decompressed,
    for gzip): Parquet (its magic), Batsim's JSON workload (a JSON object: ``{``
    first), Slurm accounting (a first line of ``|``-separated column names, JobID
    among them: ``sacct --parsable2``'s header), else SWF, whose reader refuses on one line what is
    plainly none of these (`not_swf`)."""
    with Path(path).open("rb") as fh:
        head = fh.read(_HEAD)
    if head.startswith(PARQUET_MAGIC):
        return "parquet"
    if head.startswith(GZIP_MAGIC):
        # Compressed sacct output or JSON is told by what it holds; corrupt gzip data is
        # the SWF reader's to report, on one line.
        try:
            with gzip.open(path, "rb") as fh:
                head = fh.read(_HEAD)
        except GZIP_ERRORS:
            return "swf"
    text = head.removeprefix(b"\xef\xbb\xbf").lstrip()
    if text.startswith(b"{"):
        return "batsim-json"
    first = text.split(b"\n", 1)[0].decode("ascii", "replace")
    names = [n.strip().lower() for n in first.split("|")]
    if len(names) > 1 and "jobid" in names:
        return "sacct"
    return "swf"


#: A gzip stream begins with these bytes (what tells a compressed log, whatever its name).
GZIP_MAGIC = b"\x1f\x8b"
#: What decompressing a corrupt gzip stream raises.
GZIP_ERRORS = (OSError, EOFError, zlib.error)


def one_line(exc: BaseException) -> str:
    """An exception's message on one line (some libraries' messages span several)."""
    return " ".join(str(exc).split())


def read_decompressed(path: str | os.PathLike[str], refuse: Callable[[str], Exception]) -> bytes:
    """A workload file's bytes, decompressed when they begin as gzip does; corrupt gzip
    data raises ``refuse(why)``, the reader's own one-line error."""
    data = Path(path).read_bytes()
    if data[:2] == GZIP_MAGIC:
        try:
            data = gzip.decompress(data)
        except GZIP_ERRORS as exc:
            raise refuse(f"corrupt gzip data: {one_line(exc)}") from None
    return data


def is_parquet(path: str | os.PathLike[str]) -> bool:
    """Whether the file begins as Parquet does (``PAR1``), whatever its name."""
    with Path(path).open("rb") as fh:
        return fh.read(len(PARQUET_MAGIC)) == PARQUET_MAGIC


def not_swf(data: bytes) -> tuple[int | None, str] | None:
    """``(line, what)`` when ``data`` (a file's bytes, decompressed, without a UTF-8
    byte order mark) is plainly not SWF text: ``what`` names what it looks like (a
    noun phrase: ``"CSV (commas between the values)"``), and
    ``line`` (1-based, or None for the whole file) where that shows; None otherwise,
    including for empty data and data with no job line (the SWF reader says so).

    Checked in this order: formats known by their first bytes (Parquet, archives,
    other compressions, UTF-16 and UTF-32), a tar archive, a NUL byte among the first
    8 KiB (binary data), then the first line that is neither blank nor a comment:
    JSON (it begins with ``{`` or ``[``), HTML or XML (``<``), CSV (a comma, or a
    semicolon in its first value).
    """
    for magic, what in _MAGIC:
        if data.startswith(magic):
            return None, what
    if _BZIP2.match(data):
        return None, "bzip2-compressed data (decompress it, or compress it with gzip)"
    if data[_TAR_AT : _TAR_AT + 5] == b"ustar":
        return None, "a tar archive (extract the log from it)"
    nul = data.find(b"\x00", 0, _BINARY_HEAD)
    if nul >= 0:
        return _line_of(data, nul), "binary data (a NUL byte)"
    head = data[:_HEAD]
    if b"\r" in head:
        head = head.replace(b"\r\n", b"\n").replace(b"\r", b"\n")
    lines = head.split(b"\n")
    if len(head) == _HEAD:
        lines.pop()  # cut short: not a whole line
    for number, line in enumerate(lines, start=1):
        text = line.strip()
        if not text or text.startswith(b";"):
            continue
        if text[:1] in (b"{", b"["):
            return number, "JSON"
        if text[:1] == b"<":
            return number, "HTML or XML (a web page saved in its place?)"
        if b"," in text:
            return number, "CSV (commas between the values)"
        if b";" in text.split()[0]:
            # Not a comment after a job line's values ("1 0 ... -1 ; note"): the reader
            # says what is wrong with that line.
            return number, "CSV (semicolons between the values)"
        return None
    return None


def _line_of(data: bytes, at: int) -> int:
    """The 1-based line of byte ``at`` (LF, CRLF or CR end a line, as the SWF reader
    counts them)."""
    before = data[:at]
    return before.count(b"\n") + before.replace(b"\r\n", b"").count(b"\r") + 1
