"""Opt-in tuning of Python's garbage collector for long runs: `tuned_gc`, `paused_gc`.

The library itself never touches the collector (`Simulation.run`, `read_swf` and
the rest leave its thresholds, its switch and its frozen set as they found them): a
process's collector belongs to whoever runs the process. The ``schedsim`` command
runs each simulation inside `tuned_gc` and reads its workload inside `paused_gc`
(the sweep's workers and the benchmarks use `tuned_gc` too), and a notebook or
script can opt in the same way::

    from schedsim.model.gc_tuning import tuned_gc

    with tuned_gc():
        result = Simulation(load("ctc"), "easy").run()

Why it pays: a run keeps every job it has seen (its record, its snapshots), and
reading a log builds a job, a tuple and a list per line, so each of the collector's
full passes walks millions of live objects while finding next to nothing, since the
core makes almost no reference cycles (tests/test_collector.py checks it). On a whole
log those passes took 6-9% of a run and a third of a second of building its result
tables.
"""

from __future__ import annotations

import gc
import threading
from collections.abc import Iterator
from contextlib import contextmanager

__all__ = ["paused_gc", "tuned_gc"]

#: Collections of the young generations between two of the oldest one, inside the block.
FULL_EVERY = 1_000_000

# Blocks open now (threads may run several at once), and the thresholds from before the
# first of them: the last one out puts those back.
_inside = 0
_before: tuple[int, ...] = ()
_lock = threading.Lock()
# Blocks of `paused_gc` open now, and whether the collector was on before the first.
_paused = 0
_was_enabled = True


@contextmanager
def tuned_gc() -> Iterator[None]:
    """Python's garbage collector collects only its young generations inside the block.

    The young generations are still collected as usual, which frees the cycles that
    die young (a policy's, say); what survives into the oldest generation and only
    then becomes garbage waits for the next full pass after the block. So a block
    should hold one run (reading its workload, simulating, writing its outputs), not
    a whole study: a finished run is itself in reference cycles (its SimPy processes
    and scheduler refer to one another), and only a full pass frees it. Blocks one
    after another in a loop want a ``gc.collect()`` between them: almost nothing is
    allocated between two runs, so the collector's own full pass would not come
    before the next block holds it off again, and every finished run would stay in
    memory (the sweep's workers collect after each run).

    The thresholds are put back as they were when the last block still open ends
    (blocks in several threads overlap), whatever happens inside; with the collector
    disabled (`gc.disable`) nothing is collected either way. Nothing is frozen and
    the collector is never switched off or on.
    """
    global _inside, _before
    with _lock:
        if _inside == 0:
            _before = gc.get_threshold()
            gc.set_threshold(_before[0], _before[1], max(_before[2], FULL_EVERY))
        _inside += 1
    try:
        yield
    finally:
        with _lock:
            _inside -= 1
            if _inside == 0:
                gc.set_threshold(*_before)


@contextmanager
def paused_gc() -> Iterator[None]:
    """No collection at all inside the block, for building many objects that live on.

    Reading a log builds a job, a tuple and a list per line, all of which the run keeps;
    a young collection every few hundred of them finds nothing to free, and on a whole
    log those collections cost a fifth of the reading. The ``schedsim`` command reads
    its workload inside this block. The collector is switched back on at the end of the
    last block still open (threads may overlap) if it was on before the first.
    """
    global _paused, _was_enabled
    with _lock:
        if _paused == 0:
            _was_enabled = gc.isenabled()
            gc.disable()
        _paused += 1
    try:
        yield
    finally:
        with _lock:
            _paused -= 1
            if _paused == 0 and _was_enabled:
                gc.enable()
