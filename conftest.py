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

And the kernels' replies are looked for at least once a second. A notebook once sat five
minutes, its kernel idle with the cell's reply sent, and then passed: the client's wait
for a message on a socket (`AsyncZMQSocketChannel.get_msg`, one `zmq.asyncio` poll for
the whole timeout, the cell's 300 s) was not woken when the reply came, and found it only
at the timeout's final look (ipykernel 7.4, jupyter_client 8.10, pyzmq 27.3; about one
test run in eight of the notebooks alone). Here that wait is cut into polls of one second
each, so a missed wake-up costs a second; the timeout is the same.
"""

from __future__ import annotations

import tempfile
import time
from pathlib import Path
from queue import Empty
from typing import Any

import pytest
from filelock import FileLock

try:
    from jupyter_client.channels import AsyncZMQSocketChannel
    from nbclient.client import NotebookClient
except ImportError:  # the notebooks' extra is not installed: no kernel to start
    AsyncZMQSocketChannel = NotebookClient = None

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

#: The longest single wait for a kernel's message (ms): what a missed wake-up costs.
POLL_SLICE_MS = 1000

if AsyncZMQSocketChannel is not None:

    async def _get_msg_sliced(self: Any, timeout: float | None = None) -> dict[str, Any]:
        """`AsyncZMQSocketChannel.get_msg`, its wait cut into polls of `POLL_SLICE_MS`:
        each poll's end looks at the socket itself, woken or not."""
        deadline = None if timeout is None else time.monotonic() + timeout
        while True:
            left = None if deadline is None else max(0.0, deadline - time.monotonic())
            wait = POLL_SLICE_MS if left is None else min(POLL_SLICE_MS, int(left * 1000))
            if await self.socket.poll(wait):
                return await self._recv()
            if left is not None and wait < POLL_SLICE_MS:
                raise Empty

    AsyncZMQSocketChannel.get_msg = _get_msg_sliced


@pytest.fixture
def kernel_start_lock() -> FileLock:
    """The lock the notebooks' kernels start under (tests/test_notebook_kernels.py)."""
    return KERNEL_START_LOCK
