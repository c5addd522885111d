"""For the whole test run: the notebooks' kernels start one at a time across workers.

pytest-xdist runs the notebooks (nbmake, through nbclient) on every core at once. A
kernel's ports are chosen by the client, which binds free ones, lets them go and writes
them to the kernel's connection file; the kernel binds them a moment later. Two kernels
starting at once can be given the same port (jupyter_client issue 487), and then a
client may wait minutes on a kernel that is not its own: a run of the tests once sat
four minutes on an idle kernel. Here each worker holds a lock on a file, shared by
every process of the machine, from choosing a kernel's ports until that kernel answers
(`NotebookClient.async_start_new_kernel` to `async_start_new_kernel_client`); the
notebooks themselves still run side by side.
"""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import Any

import pytest
from filelock import FileLock

try:
    from nbclient.client import NotebookClient
except ImportError:  # the notebooks' extra is not installed: no kernel to start
    NotebookClient = None

KERNEL_START_LOCK = FileLock(Path(tempfile.gettempdir()) / "schedsim-kernel-start.lock")

if NotebookClient is not None:
    _start_kernel = NotebookClient.async_start_new_kernel
    _start_client = NotebookClient.async_start_new_kernel_client

    async def _start_kernel_locked(self: Any, **kwargs: Any) -> None:
        KERNEL_START_LOCK.acquire()
        try:
            await _start_kernel(self, **kwargs)
        except BaseException:
            KERNEL_START_LOCK.release()
            raise

    async def _start_client_locked(self: Any) -> Any:
        try:
            return await _start_client(self)
        finally:
            if KERNEL_START_LOCK.is_locked:
                KERNEL_START_LOCK.release()

    NotebookClient.async_start_new_kernel = _start_kernel_locked
    NotebookClient.async_start_new_kernel_client = _start_client_locked


@pytest.fixture
def kernel_start_lock() -> FileLock:
    """The lock the notebooks' kernels start under (tests/test_notebook_kernels.py)."""
    return KERNEL_START_LOCK
