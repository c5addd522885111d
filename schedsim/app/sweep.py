"""Running a study: in parallel, resumably, with results that are never lost.

`sweep` runs every run of a `schedsim.app.study.Study` that the study directory
does not already hold, in parallel:

- by default on a local process pool over all cores (``workers=N`` sizes
  it; ``workers=0`` runs in this process, which is what a debugger wants);
- with ``cluster="tcp://host:8786"`` (or a `distributed.Client`) on an
  existing Dask distributed cluster. Its workers need schedsim installed
  (the same version) and must see the workload files a study names by
  path; shipped traces travel inside the package.

Workers only compute: a run comes back as its files' bytes, and this
process alone writes the study directory, so a cluster needs no shared
file system for the results. The layout::

    DIR/study.json                the definition, its runs and the schedsim version
    DIR/.sweep.lock               the lock of the sweep that writes DIR (see below)
    DIR/runs/<id>/config.json     the run's configuration, label, replication
    DIR/runs/<id>/summary.json    {"summary": ..., "meta": ...} (Result.summary_json)
    DIR/runs/<id>/jobs.parquet    the per-job table
    DIR/runs/<id>/series.parquet  the time series
    DIR/runs/<id>/pieces.parquet  every piece of every job (unless pieces = false)
    DIR/runs/<id>/decisions.parquet  every decision (when log_decisions = true)
    DIR/runs/<id>/reservations.parquet  every reservation (when log_reservations = true)
    DIR/runs/<id>/sessions.parquet  the users' sessions (closed-loop runs only)
    DIR/failures/<id>.json        the error and traceback of a run that raised

A finished run is written into a temporary folder and renamed into place,
so ``runs/<id>`` is either complete or absent (the folders and files get the
permissions ``mkdir`` and ``open`` give under the user's umask, typically
0755 and 0644, not the private ones of `tempfile`): a study killed at any moment
resumes by running the same command again, which skips every finished run
and leaves its files untouched. A run that raises is recorded in
``failures/`` with its traceback and the study goes on; it is tried again
on the next sweep, and its failure record is removed once it succeeds. A worker
process killed from outside (the kernel's out-of-memory killer) breaks the local pool:
the runs it held are recorded as failures that say so, the runs not yet handed out are
left for the next sweep, and the sweep ends as one with failures, never with a traceback. A
changed configuration has a new id (`schedsim.app.study.RunConfig.run_id`), so it
is a new run beside the old ones, never an overwrite.

One sweep at a time writes a study directory. A sweep that has runs to do
takes an OS-level lock on ``DIR/.sweep.lock`` (`filelock`, ``flock`` on
POSIX) before it touches anything there, and a second sweep of the same
directory, from another terminal or another machine sharing the folder, is
refused at once with `SweepLocked` (``schedsim sweep``: a one-line error
naming the directory) rather than made to wait: two terminals running one
study is a mistake, and the first sweep already does every run. The lock is
the kernel's, so it goes with the process that holds it, even one killed
by SIGKILL; the file stays (an empty, hidden file beside study.json, never
taken for a run, which live in ``runs/``) and the next sweep takes it again.

A killed sweep takes its workers with it: each local pool worker asks the
kernel to kill it when its parent dies (Linux: ``prctl(PR_SET_PDEATHSIG)``)
or, where it cannot, watches its parent from a thread and exits within a
second of its death, so no orphan holds a run's memory (or the lock) on.

A sweep with nothing to do (every run finished, and study.json already
says what it would write but the time) writes nothing and takes no lock,
so re-running a finished study on a read-only copy of its directory
succeeds. A write that fails (a full disk: ENOSPC) stops the sweep with
an `OSError` that names the file or run folder; the runs stored before it
are kept, and the same command resumes.
"""

from __future__ import annotations

import contextlib
import gc
import io
import json
import multiprocessing
import os
import secrets
import shutil
import signal
import sys
import threading
import time
import traceback
from collections.abc import Callable, Iterator, Mapping
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from schedsim._version import __version__
from schedsim.app.study import Run, RunConfig, Study
from schedsim.model.gc_tuning import tuned_gc
from schedsim.model.results import OPTIONAL_TABLES, POLICY_TABLE, json_safe

__all__ = [
    "LOCK_NAME",
    "RunOutcome",
    "SweepLocked",
    "SweepOutcome",
    "execute",
    "execute_tuned",
    "is_finished",
    "largest_first",
    "sweep",
]

#: The lock file a sweep holds in the study directory while it writes there.
LOCK_NAME = ".sweep.lock"


class SweepLocked(RuntimeError):
    """Another sweep holds the study directory's lock (it is running there now)."""


@dataclass(frozen=True)
class RunOutcome:
    """What a worker sends back: a finished run's files, or a failure."""

    id: str
    files: dict[str, bytes] = field(default_factory=dict)
    error: str = ""
    traceback: str = ""

    @property
    def ok(self) -> bool:
        return not self.error


@dataclass
class SweepOutcome:
    """What a sweep did: counts, the failures (label, error) and the wall time."""

    directory: Path
    total: int
    skipped: int
    finished: int = 0
    failed: list[tuple[str, str]] = field(default_factory=list)
    interrupted: bool = False
    wall_time: float = 0.0

    @property
    def missing(self) -> int:
        """Runs neither finished before nor now (failed or never reached)."""
        return self.total - self.skipped - self.finished

    @property
    def nothing_to_do(self) -> bool:
        """Whether every run was finished before this sweep, so that it ran none."""
        return self.skipped == self.total


#: What a worker gets: the run's document (`_document`) and the modules to import.
Task = tuple[dict[str, Any], tuple[str, ...]]


def _document(run: Run) -> dict[str, Any]:
    return {
        "id": run.id,
        "label": run.label,
        "replication": run.replication,
        "config": run.config.to_dict(),
    }


def _json_bytes(doc: Mapping[str, Any]) -> bytes:
    return (json.dumps(json_safe(doc), indent=2) + "\n").encode()


def execute_tuned(task: Task) -> RunOutcome:
    """`execute` with the collector tuned for a simulation (`tuned_gc`): what the worker
    processes of a pool or a Dask cluster call, processes of schedsim's own. A sweep in
    the calling process (``workers=0``, a notebook) leaves the collector alone.

    A full collection follows each run. A worker goes from one run to the next with
    almost nothing allocated in between, so the collector's own full pass, held off
    inside the block, would not come before the next block holds it off again: each
    finished run's reference cycles would stay, and a worker of a long study grew by
    tens of MB a run until the operating system killed it (12 GB after about a hundred
    CTC runs of the Lawson & Smirni study). The pass costs about 0.1 s.
    """
    try:
        with tuned_gc():
            return execute(task)
    finally:
        gc.collect()


def execute(task: Task) -> RunOutcome:
    """Run one configuration and return its files.

    Never raises for a failing run: the error and traceback come back in the
    outcome, so one bad configuration does not stop a study.
    """
    document, imports = task
    run_id = document["id"]
    try:
        import importlib

        for module in imports:
            importlib.import_module(module)
        config = RunConfig.from_dict(document["config"])
        result = config.simulation().run()
        files = {}
        tables = [("jobs.parquet", result.jobs), ("series.parquet", result.series)]
        for name in OPTIONAL_TABLES:
            table = getattr(result, name)
            if table is not None:
                tables.append((f"{name}.parquet", table))
        tables += [(f"{POLICY_TABLE}{n}.parquet", t) for n, t in result.tables.items()]
        for name, frame in tables:
            buffer = io.BytesIO()
            frame.to_parquet(buffer, index=False)
            files[name] = buffer.getvalue()
        files["summary.json"] = result.summary_json(config.warmup, config.cooldown).encode()
        files["config.json"] = _json_bytes({**document, "schedsim_version": __version__})
        return RunOutcome(run_id, files=files)
    except Exception as exc:
        first_line = (str(exc).splitlines() or [""])[0]
        return RunOutcome(
            run_id, error=f"{type(exc).__name__}: {first_line}", traceback=traceback.format_exc()
        )


# ---- the study directory ---------------------------------------------------------


def _temporary(folder: Path, name: str, create: Callable[[Path], Any]) -> tuple[Path, Any]:
    """A new ``.<name>.<random>.tmp`` in ``folder``, made by ``create`` (which must fail
    with FileExistsError if the path exists), and what ``create`` returned.

    Not `tempfile.mkstemp`/`mkdtemp`: they make private files (0600) and
    folders (0700), and a rename keeps the mode, so finished runs would be
    unreadable to the user's group where everything else is not. Here the
    callers ask for 0666 / 0777 and the umask (and any default ACL) decides,
    as for any file or folder the user makes.
    """
    for _ in range(100):
        path = folder / f".{name}.{secrets.token_hex(6)}.tmp"
        try:
            return path, create(path)
        except FileExistsError:
            continue
    raise FileExistsError(f"no free temporary name for {name} in {folder}")


def _new_file(path: Path) -> int:
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0)
    return os.open(path, flags, 0o666)


def _named(exc: OSError, path: Path, doing: str) -> OSError:
    """``exc`` again, naming ``path`` and what was being done: an error from a write
    (ENOSPC, the disk is full) names no file by itself."""
    return OSError(exc.errno, f"{exc.strerror or exc} ({doing})", str(path))


#: Said with a write that failed: what is kept, and how to go on.
_RESUME = "the runs stored before are kept: run the same sweep again to resume"


def _write_atomic(path: Path, data: bytes) -> None:
    """Write a file so that readers see the old content or the new, never a part.

    OSError naming ``path`` if it cannot be written (a read-only folder, a full disk).
    """
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp, fd = _temporary(path.parent, path.name, _new_file)
    except OSError as exc:
        raise _named(exc, path, f"writing {path.name}; {_RESUME}") from exc
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        os.replace(tmp, path)
    except BaseException as exc:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        if isinstance(exc, OSError):
            raise _named(exc, path, f"writing {path.name}; {_RESUME}") from exc
        raise


def is_finished(directory: Path, run_id: str) -> bool:
    """Whether ``runs/<run_id>`` holds a finished run."""
    return (directory / "runs" / run_id / "summary.json").is_file()


def _store(directory: Path, run: Run, outcome: RunOutcome) -> None:
    """Put a finished run into ``runs/<id>`` by one rename, or record its failure."""
    failure = directory / "failures" / f"{run.id}.json"
    if not outcome.ok:
        doc = {
            **_document(run),
            "error": outcome.error,
            "traceback": outcome.traceback,
            "when": datetime.now(timezone.utc).isoformat(timespec="seconds"),
        }
        _write_atomic(failure, _json_bytes(doc))
        return
    runs = directory / "runs"
    final = runs / run.id
    try:
        runs.mkdir(parents=True, exist_ok=True)
        tmp, _ = _temporary(runs, run.id, lambda p: os.mkdir(p, 0o777))
    except OSError as exc:
        raise _named(exc, final, f"storing run {run.label!r}; {_RESUME}") from exc
    try:
        for name, data in outcome.files.items():
            try:
                (tmp / name).write_bytes(data)
            except OSError as exc:
                raise _named(exc, final, f"storing run {run.label!r}; {_RESUME}") from exc
        if final.exists() and not is_finished(directory, run.id):
            # Not written by a sweep (renames are whole); someone removed files from it.
            shutil.rmtree(final)
        try:
            os.rename(tmp, final)
        except OSError:
            # Someone finished the run first (a sweep of a schedsim without the lock,
            # or the same study copied in by hand); keep theirs.
            if not is_finished(directory, run.id):
                raise
            shutil.rmtree(tmp, ignore_errors=True)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    failure.unlink(missing_ok=True)


#: Entries of study.json that say when and by which version it was written, not what the
#: study is: a sweep with nothing to do leaves a study.json that differs only there.
_STAMPS = ("written", "schedsim_version")


def _study_document(study: Study, runs: list[Run]) -> dict[str, Any]:
    """study.json's content, as JSON would read it back."""
    doc = {
        "name": study.name,
        "schedsim_version": __version__,
        "seed": study.seed,
        "replications": study.replications,
        "definition": study.to_dict(),
        "report": dict(study.report),
        "written": datetime.now(timezone.utc).isoformat(timespec="seconds"),
        "runs": [_document(run) for run in runs],
    }
    return dict(json.loads(_json_bytes(doc)))


def _write_study(directory: Path, doc: Mapping[str, Any]) -> None:
    _write_atomic(directory / "study.json", _json_bytes(doc))


def _study_unchanged(directory: Path, doc: Mapping[str, Any]) -> bool:
    """Whether ``DIR/study.json`` already says what ``doc`` does, its stamps aside."""
    try:
        old = json.loads((directory / "study.json").read_text())
    except (OSError, UnicodeDecodeError, json.JSONDecodeError):
        return False
    if not isinstance(old, dict):
        return False
    return {k: v for k, v in old.items() if k not in _STAMPS} == {
        k: v for k, v in doc.items() if k not in _STAMPS
    }


@contextlib.contextmanager
def _locked(directory: Path) -> Iterator[None]:
    """Hold ``DIR/.sweep.lock`` (`LOCK_NAME`); `SweepLocked` at once if another sweep does.

    Refusing rather than waiting: a second sweep of the same study is a
    mistake (two terminals), and waiting would only find the work done. The
    lock is the kernel's (flock; Windows: a locked byte range), released when
    its holder ends, however it ends, so a killed sweep never blocks the next.
    (On a file system without flock, some network mounts, recent filelock
    versions fall back to the file's existence, which a killed sweep leaves
    behind: remove ``.sweep.lock`` there once no sweep runs.)
    """
    from filelock import FileLock, Timeout

    path = directory / LOCK_NAME
    lock = FileLock(path, timeout=0)
    try:
        lock.acquire()
    except Timeout:
        raise SweepLocked(
            f"{directory}: another sweep is running in this study directory (it holds "
            f"{path}); let it finish, or stop it, then run this command again to go on"
        ) from None
    except OSError as exc:
        raise _named(exc, directory, "cannot write the study directory") from exc
    try:
        yield
    finally:
        lock.release()


def _clean_temporaries(directory: Path) -> None:
    """Remove the half-written folders a killed sweep left behind (called with the lock
    held: they cannot be another sweep's work in progress)."""
    for tmp in (directory / "runs").glob(".*.tmp"):
        shutil.rmtree(tmp, ignore_errors=True)


# ---- executors ---------------------------------------------------------------------


def _serial(tasks: list[Task]) -> Iterator[RunOutcome]:
    for task in tasks:
        yield execute(task)


#: prctl's option that has the kernel signal a process when its parent dies (linux/prctl.h).
_PR_SET_PDEATHSIG = 1
#: How often a worker that watches its parent itself looks (seconds).
_PARENT_POLL = 0.5


#: The signals that stop a pool worker: `_local_pool` sends SIGTERM when a sweep is
#: interrupted, and a terminal's Ctrl-C sends SIGINT to the whole process group.
_STOP_SIGNALS = frozenset({signal.SIGTERM, signal.SIGINT})


def _start_worker(parent: int) -> None:
    """Pool initializer: the worker ends with the sweep (`_exit_with_parent`) and holds
    the stop signals while it is not running a run (`_pool_task`)."""
    _exit_with_parent(parent)
    _hold_stop_signals(True)


def _hold_stop_signals(hold: bool) -> None:
    # Windows has no signal masks; there ``terminate`` is TerminateProcess anyway.
    if hasattr(signal, "pthread_sigmask"):
        signal.pthread_sigmask(signal.SIG_BLOCK if hold else signal.SIG_UNBLOCK, _STOP_SIGNALS)


def _pool_task(task: Task) -> RunOutcome:
    """What a local pool's worker runs: `execute_tuned`, taking the stop signals only
    while the run is in progress.

    A worker stopped while it sends a finished run's files back (megabytes, written to
    the pool's result pipe piece by piece) would leave half a message there, and the
    pool's reading thread would wait for the rest for ever: an interrupted sweep hung
    in its clean-up (CPython 3.11's pool has no guard against it). Held, a stop that
    comes while the worker sends, or waits for its next run, takes effect when that
    next run begins, or not at all if the pool ends first; the run in progress is
    stopped at once as before.
    """
    _hold_stop_signals(False)
    try:
        return execute_tuned(task)
    finally:
        _hold_stop_signals(True)


def _exit_with_parent(parent: int, kernel: bool = True) -> None:
    """End this pool worker when ``parent`` (the sweep) dies, even by SIGKILL.

    A worker holds a run's memory (hundreds of MB) and, forked, a copy of
    the study lock's descriptor: it must not outlive the sweep. On Linux
    the kernel sends it SIGKILL when its parent dies (``PR_SET_PDEATHSIG``;
    ``kernel=False`` skips it, for the tests). Elsewhere, or if that fails,
    a daemon thread polls every `_PARENT_POLL` s: the parent is dead when
    ``os.getppid()`` changes (POSIX reparents orphans) or its
    `multiprocessing.parent_process` sentinel fires (Windows keeps the pid).
    """
    if kernel and _kernel_kills_orphan():
        # The parent may have died before the prctl: no signal comes then.
        if os.getppid() != parent:
            os._exit(1)
        return
    watcher = threading.Thread(
        target=_watch_parent, args=(parent,), name="schedsim-watch-parent", daemon=True
    )
    watcher.start()


def _kernel_kills_orphan() -> bool:
    """Ask Linux to SIGKILL this process when its parent dies; whether it agreed."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        return int(libc.prctl(_PR_SET_PDEATHSIG, int(signal.SIGKILL), 0, 0, 0)) == 0
    except (OSError, AttributeError):  # no libc to load, or no prctl in it
        return False


def _watch_parent(parent: int) -> None:
    handle = multiprocessing.parent_process()
    while os.getppid() == parent and (handle is None or handle.is_alive()):
        time.sleep(_PARENT_POLL)
    # The run in progress is lost with the sweep anyway; no clean-up to wait for.
    os._exit(1)


@contextlib.contextmanager
def _local_pool(tasks: list[Task], workers: int) -> Iterator[Iterator[RunOutcome]]:
    # fork (where the platform has it) lets a pool see policies registered at
    # run time, e.g. in a notebook; elsewhere they must come from `imports`.
    method = "fork" if "fork" in multiprocessing.get_all_start_methods() else "spawn"
    pool = ProcessPoolExecutor(
        max_workers=workers,
        mp_context=multiprocessing.get_context(method),
        initializer=_start_worker,
        initargs=(os.getpid(),),
    )

    def outcomes() -> Iterator[RunOutcome]:
        # A window of two runs per worker is in flight: enough to keep every
        # worker busy, and a finished run's files are let go once stored
        # rather than held until the whole study ends.
        waiting = iter(tasks)
        running: dict[Future[RunOutcome], str] = {}
        broken = False

        def submit_next() -> None:
            nonlocal broken
            task = None if broken else next(waiting, None)
            if task is not None:
                try:
                    running[pool.submit(_pool_task, task)] = task[0]["id"]
                except BrokenProcessPool:
                    # A worker died (the kernel's out-of-memory killer, a signal): the
                    # pool takes no more runs. Those in flight come back as failures,
                    # the rest are left for the next sweep ("not reached").
                    broken = True

        for _ in range(2 * workers):
            submit_next()
        while running:
            done, _ = wait(running, return_when=FIRST_COMPLETED)
            for future in done:
                run_id = running.pop(future)
                submit_next()
                yield _outcome(future, run_id)

    try:
        yield outcomes()
    except BaseException:
        # Interrupted: the runs in progress would be lost anyway, and a worker
        # would otherwise go on to the calls already queued to it. (Python 3.14
        # has ProcessPoolExecutor.terminate_workers for this.) A worker sending a
        # finished run back stops only once it is sent (`_pool_task`).
        for process in list(getattr(pool, "_processes", {}).values()):
            process.terminate()
        raise
    finally:
        pool.shutdown(wait=True, cancel_futures=True)


def _outcome(future: Any, run_id: str) -> RunOutcome:
    """A future's outcome; the executor's own failures (a worker died) become run failures."""
    try:
        return future.result()
    except Exception as exc:
        error = f"{type(exc).__name__}: worker failed: {exc}"
        if isinstance(exc, BrokenProcessPool):
            error = (
                "a worker process died (killed by the operating system: out of memory?); "
                "run the same command again, with fewer --workers if memory is short"
            )
        return RunOutcome(
            run_id,
            error=error,
            traceback="".join(traceback.format_exception(exc)),
        )


@contextlib.contextmanager
def _dask(tasks: list[Task], cluster: Any) -> Iterator[Iterator[RunOutcome]]:
    from distributed import Client
    from distributed import as_completed as dask_completed

    own = not isinstance(cluster, Client)
    client = Client(cluster) if own else cluster
    try:
        futures = client.map(execute_tuned, tasks, pure=False)
        ids = {f.key: t[0]["id"] for f, t in zip(futures, tasks, strict=True)}

        def outcomes() -> Iterator[RunOutcome]:
            for future in dask_completed(futures):
                yield _outcome(future, ids[future.key])
                future.release()

        try:
            yield outcomes()
        finally:
            client.cancel(futures)
    finally:
        if own:
            client.close()


# ---- the sweep -----------------------------------------------------------------------


def largest_first(runs: list[Run]) -> list[Run]:
    """The runs in the order a sweep hands them out: the largest first
    (`schedsim.app.study.RunConfig.size_hint`), ties in the study's order.

    Workers take the runs in this order as they come free. In the study's own order a
    study's largest runs often come last (its grid's largest values), and one worker
    would finish the last of them while the others had nothing left to do; largest
    first, the runs that come last are short, and the workers end nearly together. The
    order changes no result, only when each run is stored.
    """
    return sorted(runs, key=lambda run: -run.config.size_hint())


def _compiles_kernels(runs: list[Run]) -> bool:
    """Whether a run's policy calls the loops numba compiles (`registry.compiles_kernels`)
    and numba's on-disk cache holds none yet (`schedsim.policies.compiled.cache_is_cold`)."""
    from schedsim.app import registry

    for name in sorted({run.config.policy.name for run in runs}):
        try:
            policy = registry.get(name)
        except ValueError:  # registered by the study's imports, which only workers import
            continue
        if registry.compiles_kernels(policy):
            from schedsim.policies import compiled

            return compiled.cache_is_cold()
    return False


def sweep(
    study: Study,
    directory: str | os.PathLike[str],
    *,
    workers: int | None = None,
    cluster: Any = None,
    progress: bool | Callable[[int, int], None] = False,
) -> SweepOutcome:
    """Run the study's unfinished runs, largest first (`largest_first`), and store each
    as it finishes.

    ``workers``: local pool size (default: all cores; 0 runs in this
    process). ``cluster``: a Dask scheduler address or `distributed.Client`
    (``workers`` is then ignored). ``progress``: True shows a rich progress
    bar with the time left, after a line that warns of the compilation when
    SS runs are about to compile Selective Suspension's kernels (seconds, on
    a machine's first SS run); a callable gets ``(done, total)`` after each run.
    A KeyboardInterrupt stops the sweep cleanly: finished runs stay,
    ``interrupted`` is set, and the next sweep resumes.

    `SweepLocked` if another sweep is running in ``directory`` (refused at
    once, see the module docstring); OSError naming the path if the
    directory cannot be written. With nothing to do (every run finished,
    study.json up to date) it writes nothing, so a read-only copy of a
    finished study sweeps fine (``outcome.nothing_to_do``).
    """
    if workers is not None and workers < 0:
        raise ValueError(f"workers must be >= 0, got {workers}")
    t0 = time.perf_counter()
    directory = Path(directory)
    runs = study.runs()
    doc = _study_document(study, runs)
    if all(is_finished(directory, run.id) for run in runs) and _study_unchanged(directory, doc):
        # Nothing to write, so no lock either: a read-only copy of the study works.
        return SweepOutcome(
            directory, total=len(runs), skipped=len(runs), wall_time=time.perf_counter() - t0
        )
    try:
        directory.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise _named(exc, directory, "cannot make the study directory") from exc
    with _locked(directory):
        outcome = _sweep_locked(study, directory, runs, doc, workers, cluster, progress)
    outcome.wall_time = time.perf_counter() - t0
    return outcome


def _sweep_locked(
    study: Study,
    directory: Path,
    runs: list[Run],
    doc: Mapping[str, Any],
    workers: int | None,
    cluster: Any,
    progress: bool | Callable[[int, int], None],
) -> SweepOutcome:
    """`sweep`'s work once it holds the study directory's lock."""
    _clean_temporaries(directory)
    _write_study(directory, doc)
    pending = [run for run in runs if not is_finished(directory, run.id)]
    outcome = SweepOutcome(directory, total=len(runs), skipped=len(runs) - len(pending))
    if not pending:
        return outcome
    by_id = {run.id: run for run in pending}
    imports = tuple(study.imports)
    tasks: list[Task] = [(_document(run), imports) for run in largest_first(pending)]
    if progress is True and cluster is None and _compiles_kernels(pending):
        from rich.console import Console

        from schedsim.app.registry import KERNELS_NOTICE

        Console().print(KERNELS_NOTICE, highlight=False, soft_wrap=True)
    executor: contextlib.AbstractContextManager[Iterator[RunOutcome]]
    if cluster is not None:
        executor = _dask(tasks, cluster)
    elif workers == 0:
        executor = contextlib.nullcontext(_serial(tasks))
    else:
        n = workers or os.cpu_count() or 1
        executor = _local_pool(tasks, min(n, len(tasks)))

    with _reporter(progress, study.name, len(pending)) as report:
        try:
            with executor as results:
                for result in results:
                    run = by_id[result.id]
                    _store(directory, run, result)
                    if result.ok:
                        outcome.finished += 1
                    else:
                        outcome.failed.append((run.label, result.error))
                    report(outcome.finished + len(outcome.failed), len(outcome.failed))
        except KeyboardInterrupt:
            outcome.interrupted = True
    return outcome


@contextlib.contextmanager
def _reporter(
    progress: bool | Callable[[int, int], None], name: str, total: int
) -> Iterator[Callable[[int, int], None]]:
    """A ``(done, failed)`` callback: a rich bar, the user's callable, or nothing."""
    if callable(progress):
        yield lambda done, failed: progress(done, total)
        return
    if not progress:
        yield lambda done, failed: None
        return
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )

    columns = (
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("runs"),
        TimeElapsedColumn(),
        TextColumn("left"),
        TimeRemainingColumn(),
    )
    with Progress(*columns) as bar:
        task = bar.add_task(name, total=total)

        def update(done: int, failed: int) -> None:
            label = f"{name} [red]({failed} failed)[/red]" if failed else name
            bar.update(task, completed=done, description=label)

        yield update
