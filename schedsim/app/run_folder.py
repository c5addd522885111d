"""The folder a ``schedsim run`` writes: never another run's, never half written.

A run's files are its record; a researcher reads them later, often with other
tools, and must be able to trust that a folder holds one whole run. So:

- **Which files are schedsim's own**: `RUN_FILES` and the policy's tables
  (``policy-*.parquet``), and the hidden ``.schedsim-*.tmp`` folders a write in
  progress uses. Nothing else in a folder is ever removed or replaced.
- **Another run is never overwritten** (`check_folder`): a folder that holds
  schedsim's files of another run (its ``summary.json`` names another run id,
  or there is none to tell) is refused before anything is read or simulated,
  unless the user says ``--force``. A folder that holds a run of the very same
  configuration (the same run id) is that run again, written afresh.
- **A run is written whole or not at all** (`write_run`): the files go into a
  hidden temporary folder inside the target, and only when every one is
  written are they moved into place, one rename each, after removing the
  files of the run they replace (so an earlier run's ``batsim_jobs.csv`` or
  ``decisions.parquet`` never lingers beside a new run that wrote none). A
  failure while writing (a full disk) removes the temporary folder and leaves
  the folder as it was.
- **Ctrl-C** (`deferred_interrupts`): once a simulation has finished, its
  files are the one thing worth keeping, so an interrupt while they are
  written is held until they are all in place, and reported after.

Only the standard library: the command line imports this module to check
the folder before it imports the simulator.
"""

from __future__ import annotations

import contextlib
import fnmatch
import json
import os
import shutil
import signal
import threading
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from types import FrameType

__all__ = [
    "OPTIONAL_FILES",
    "POLICY_FILES",
    "RUN_FILES",
    "Interrupts",
    "check_folder",
    "deferred_interrupts",
    "held_run",
    "own_files",
    "write_run",
]

#: Each file ``schedsim run`` writes only when an option asks, and that option.
OPTIONAL_FILES: dict[str, str] = {
    "decisions.parquet": "--log-decisions",
    "reservations.parquet": "--log-reservations",
    "sessions.parquet": "--users",
    "outages.parquet": "--failures or --outages",
    "batsim_jobs.csv": "--batsim",
}
#: The pattern of the policy's own tables (`schedsim.model.results.Result.tables`).
POLICY_FILES = "policy-*.parquet"
#: Every file ``schedsim run`` may write, in the order it lists them: the default
#: files (``pieces.parquet`` unless ``--no-pieces``), `OPTIONAL_FILES`, then
#: `POLICY_FILES`. ``--only`` takes these names.
RUN_FILES: tuple[str, ...] = (
    "jobs.parquet",
    "jobs.csv",
    "series.parquet",
    "pieces.parquet",
    "schedule.swf",
    "summary.json",
    *OPTIONAL_FILES,
    POLICY_FILES,
)
#: The hidden folders a write in progress uses (left behind only by a killed process).
_TEMPORARY = ".schedsim-*.tmp"


def own_files(folder: Path) -> list[Path]:
    """The files of a run that ``folder`` holds (`RUN_FILES`, ``policy-*.parquet``), sorted;
    nothing else, and no subfolder."""
    if not folder.is_dir():
        return []
    return sorted(
        p
        for p in folder.iterdir()
        if p.is_file() and any(fnmatch.fnmatchcase(p.name, name) for name in RUN_FILES)
    )


@dataclass(frozen=True)
class HeldRun:
    """What a folder holds of an earlier run: its files, and its run id when its
    ``summary.json`` says (None for a run written before ids were recorded, or with
    ``--only`` leaving summary.json out)."""

    files: tuple[str, ...]
    run_id: str | None
    policy: str | None = None
    workload: str | None = None

    def describe(self) -> str:
        what = " on ".join(x for x in (self.policy, self.workload) if x)
        named = f"{what}, " if what else ""
        ident = f"run id {self.run_id}" if self.run_id else "no run id"
        return f"{named}{ident}: {', '.join(self.files)}"


def held_run(folder: Path) -> HeldRun | None:
    """The run ``folder`` holds, or None when it holds none of schedsim's files."""
    files = own_files(folder)
    if not files:
        return None
    meta: Mapping[str, object] = {}
    summary = folder / "summary.json"
    with contextlib.suppress(OSError, ValueError, AttributeError, TypeError):
        doc = json.loads(summary.read_text(encoding="utf-8"))
        if isinstance(doc.get("meta"), Mapping):
            meta = doc["meta"]

    def text(key: str) -> str | None:
        value = meta.get(key)
        return value if isinstance(value, str) else None

    return HeldRun(tuple(p.name for p in files), text("run_id"), text("policy"), text("workload"))


def check_folder(folder: Path, run_id: str, *, force: bool, option: str) -> HeldRun | None:
    """Refuse to write run ``run_id`` into ``folder`` over another run's files unless
    ``force``: ValueError naming the folder (as ``option`` says it: ``--out DIR`` or
    the default folder), what it holds and what to do. Returns what it holds (None
    for nothing), which `write_run` will replace."""
    held = held_run(folder)
    if held is None or held.run_id == run_id or force:
        return held
    raise ValueError(
        f"{option} holds another run ({held.describe()}); add --force to replace it, "
        "or write this run elsewhere with --out DIR"
    )


def write_run(folder: Path, write: Callable[[Path], Iterable[str]]) -> list[str]:
    """Write a run's files into ``folder`` whole, replacing the run it held.

    ``write`` writes the run's files into the folder it is given and returns their
    names. It writes into a new hidden folder inside ``folder``; once it has
    written everything, the earlier run's own files (`own_files`) go and the new
    ones are moved in, each by one rename. If ``write`` fails, the hidden folder
    goes and ``folder`` is as it was. Returns the names written, in order.
    """
    staging = folder / f".schedsim-{os.urandom(6).hex()}.tmp"
    staging.mkdir()
    try:
        names = list(write(staging))
        for stale in own_files(folder):
            stale.unlink()
        for name in names:
            os.replace(staging / name, folder / name)
        for left in folder.glob(_TEMPORARY):  # by a write that was killed (SIGKILL)
            if left != staging:
                shutil.rmtree(left, ignore_errors=True)
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    return names


class Interrupts:
    """The interrupts (Ctrl-C) held back by `deferred_interrupts`: ``count`` of them."""

    def __init__(self) -> None:
        self.count = 0

    def __bool__(self) -> bool:
        return self.count > 0


@contextlib.contextmanager
def deferred_interrupts() -> Iterator[Interrupts]:
    """Hold SIGINT (Ctrl-C) back inside the block and count it instead, so that what
    the block writes is finished; the caller reports it after. Outside the main
    thread (where Python cannot set signal handlers) the block runs as it is."""
    held = Interrupts()
    if threading.current_thread() is not threading.main_thread():
        yield held
        return

    def hold(signum: int, frame: FrameType | None) -> None:
        held.count += 1

    before = signal.signal(signal.SIGINT, hold)
    try:
        yield held
    finally:
        signal.signal(signal.SIGINT, before)
