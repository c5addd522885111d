"""Standard output that a reader may close early, as ``head -3`` does in a pipe.

When the reader of a pipe goes away, the next write raises BrokenPipeError,
and Python raises it again when it flushes standard output at exit ("Exception
ignored ... BrokenPipeError"). A command whose output is cut short has still
done its work (a run's files are written before anything is printed), so
`PipeGuard` stands in for standard output: the first failed write sends the
rest of the output to the null device (at the file-descriptor level, so that
the interpreter's last flush finds nothing to complain about), and the
command then says so in one line on standard error (`PipeGuard.closed`).
"""

from __future__ import annotations

import contextlib
import errno
import os
from typing import TextIO

__all__ = ["PipeGuard"]


class PipeGuard:
    """A text stream that writes to ``stream`` until its reader has gone (`closed`), and
    then to nowhere. Rich's Console writes to it as to standard output."""

    def __init__(self, stream: TextIO) -> None:
        self._stream = stream
        #: True once a write or flush found the reader gone.
        self.closed = False
        #: What the command has kept all the same, said when the output was cut short
        #: (``"the run's files are whole in results/x/"``); empty when there is nothing.
        self.kept = ""

    def write(self, text: str) -> int:
        if not self.closed:
            try:
                return self._stream.write(text)
            except OSError as exc:
                self._gone(exc)
        return len(text)

    def flush(self) -> None:
        if not self.closed:
            try:
                self._stream.flush()
            except OSError as exc:
                self._gone(exc)

    def isatty(self) -> bool:
        return not self.closed and self._stream.isatty()

    def fileno(self) -> int:
        return self._stream.fileno()

    @property
    def encoding(self) -> str:
        return getattr(self._stream, "encoding", None) or "utf-8"

    def _gone(self, exc: OSError) -> None:
        """The reader has gone (EPIPE): write nowhere from now on; other errors stand."""
        if not isinstance(exc, BrokenPipeError) and exc.errno != errno.EPIPE:
            raise exc
        self.closed = True
        # What is still buffered can never be delivered; point the descriptor at the
        # null device so that no later flush (the interpreter's at exit) fails again.
        with contextlib.suppress(OSError, ValueError, AttributeError):
            null = os.open(os.devnull, os.O_WRONLY)
            try:
                os.dup2(null, self._stream.fileno())
            finally:
                os.close(null)
