"""The notebooks' kernels start one at a time across the test run's workers, and their
messages are looked for every second (conftest.py)."""

from __future__ import annotations

import nbformat
import pytest
from nbclient import NotebookClient


def test_a_kernel_starts_under_the_lock_and_lets_it_go(kernel_start_lock) -> None:
    assert NotebookClient.async_start_new_kernel.__name__ == "_start_kernel_locked"
    assert NotebookClient.async_start_new_kernel_client.__name__ == "_start_client_locked"
    seen = []
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell("1 + 1")])
    client = NotebookClient(nb, kernel_name="python3")
    client.on_notebook_start = lambda notebook: seen.append(kernel_start_lock.is_locked)
    client.execute()
    assert nb.cells[0].outputs[0]["data"]["text/plain"] == "2"
    # Held while the kernel came up (the hook runs once it answers), released after.
    assert seen == [True]
    assert not kernel_start_lock.is_locked


def test_a_kernel_that_fails_to_start_lets_the_lock_go(kernel_start_lock) -> None:
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell("1")])
    client = NotebookClient(nb, kernel_name="no-such-kernel-here")
    with pytest.raises(Exception, match="no-such-kernel-here"):
        client.execute()
    assert not kernel_start_lock.is_locked


class _Socket:
    """A socket whose polls miss the wake-up ``missed`` times, then see the message
    (``None``: no message ever comes)."""

    def __init__(self, missed: int | None) -> None:
        self.missed: int | None = missed
        self.waits: list[int] = []

    async def poll(self, wait: int) -> int:
        import asyncio

        self.waits.append(wait)
        if self.missed is None:  # never a message: the poll lasts its wait
            await asyncio.sleep(wait / 1000)
            return 0
        if len(self.waits) <= self.missed:
            return 0
        return 1


class _Channel:
    def __init__(self, socket: _Socket) -> None:
        self.socket = socket

    async def _recv(self) -> dict:
        return {"msg_type": "execute_reply"}


def test_a_missed_wake_up_costs_one_poll_of_a_second_not_the_timeout() -> None:
    import asyncio
    from queue import Empty

    from jupyter_client.channels import AsyncZMQSocketChannel

    get_msg = AsyncZMQSocketChannel.get_msg
    assert get_msg.__name__ == "_get_msg_sliced"  # (the root conftest.py's)
    socket = _Socket(missed=2)
    msg = asyncio.run(get_msg(_Channel(socket), timeout=300))
    assert msg == {"msg_type": "execute_reply"}
    assert socket.waits == [1000, 1000, 1000]  # not one poll of 300,000 ms
    socket = _Socket(missed=2)
    assert asyncio.run(get_msg(_Channel(socket), timeout=None))["msg_type"] == "execute_reply"
    # The timeout still holds: nothing comes, Empty once it has passed.
    socket = _Socket(missed=None)
    with pytest.raises(Empty):
        asyncio.run(get_msg(_Channel(socket), timeout=0.25))
    assert len(socket.waits) == 1 and 0 < socket.waits[0] <= 250
    with pytest.raises(Empty):
        asyncio.run(get_msg(_Channel(_Socket(missed=None)), timeout=0))
