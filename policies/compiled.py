"""The policies' compiled loops and numba's on-disk cache: which are compiled for this
machine already, so that a run that must first compile them can say so.

Each compiled loop lives beside the policy it serves, in that family's ``kernels.py``
(`schedsim.policies.selective_suspension.kernels`, `schedsim.policies.creasy.kernels`,
`schedsim.policies.planning.kernels`) or, for the placement SS, TSS and IS share,
`schedsim.policies.preemption_kernels`. Every loop is compiled with ``cache=True``, so
only a machine's first run pays for compiling it (about 4 s for SS's, 2 s for the
compression or CREASY's pass, on the development machine); later processes load it
(about 0.5 s). Conservative backfilling, the node planner of Zeng & Sodan's policies
and CREASY compile theirs only inside a run long enough to need them, so only the
suspension policies' first run is announced (`cache_is_cold`). Nothing here imports
numba or a kernel module before it is asked.
"""

from __future__ import annotations

import importlib
from collections.abc import Sequence
from typing import Any

__all__ = ["SUSPENSION", "cache_is_cold", "cached_kernels", "kernels_of", "suspension_kernels"]

#: The modules of the loops the suspension policies (SS, TSS, IS) call.
SUSPENSION: tuple[str, ...] = (
    "schedsim.policies.selective_suspension.kernels",
    "schedsim.policies.preemption_kernels",
)


def _kernels(modules: Sequence[str]) -> dict[str, Any]:
    """The compiled loops (numba dispatchers) defined in ``modules`` (not those they
    import from another), by name."""
    from numba.core.dispatcher import Dispatcher

    out: dict[str, Any] = {}
    for name in modules:
        module = importlib.import_module(name)
        for attr, kernel in vars(module).items():
            if isinstance(kernel, Dispatcher) and kernel.py_func.__module__ == name:
                out[attr] = kernel
    return out


def kernels_of(modules: Sequence[str] = SUSPENSION) -> frozenset[str]:
    """The names of the compiled loops defined in ``modules``."""
    return frozenset(_kernels(modules))


def cached_kernels(modules: Sequence[str] = SUSPENSION) -> list[str]:
    """The kernels of ``modules`` whose compiled code for this machine is in numba's
    on-disk cache.

    Read where this process's kernels load from and save to: numba picks the
    folder once per kernel when its module is imported (``cache=True``):
    ``$NUMBA_CACHE_DIR/<folder>_<hash of its path>/`` when that variable is
    set, else ``__pycache__/`` beside the module when writable, else the
    user-wide cache (``~/.cache/numba/<folder>_<hash>/`` on Linux). There each
    kernel has an index, ``<module>.<name>-<line>.py<XY>.nbi``, that counts
    only as numba reads it: written by this numba version for this very
    source (else numba ignores it) and holding code for this machine (the
    target triple, CPU name and features of its keys). Cheap: it reads the
    small index files and compiles nothing. With numba's JIT disabled there
    are no kernels to compile and the list is empty.
    """
    from numba.core.registry import cpu_target

    kernels = _kernels(modules)
    names = []
    try:
        machine = cpu_target.target_context.codegen().magic_tuple()
        for name, kernel in kernels.items():
            index = kernel._cache._cache_file  # numba's index file
            try:
                overloads = index._load_index()  # {} when absent, stale or another numba's
            except Exception:  # an unreadable index: numba would compile again
                continue
            if any(key[1] == machine for key in overloads):
                names.append(name)
    except AttributeError:  # numba's internals changed: know nothing rather than fail
        return sorted(kernels)
    return names


def suspension_kernels() -> frozenset[str]:
    """The names of the suspension policies' kernels (those of `SUSPENSION`'s modules)."""
    return kernels_of(SUSPENSION)


def cache_is_cold() -> bool:
    """Whether none of the suspension policies' kernels (`suspension_kernels`) is in
    numba's on-disk cache (`cached_kernels`) for this machine.

    True for a machine's first SS, TSS or IS run (and the first after numba, Python
    or a kernel file changed), which compiles them: about 4 s. Partly filled counts
    as warm, since a run compiles only the kernels it calls (without the board, on
    several cores per node or with a suspension overhead, SS and TSS call only a few
    of them), and a user who ran only those would otherwise be told of a compilation
    at every run.
    """
    kernels = suspension_kernels()
    return bool(kernels) and not kernels & set(cached_kernels())
