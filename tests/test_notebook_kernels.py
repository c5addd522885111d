"""The notebooks' kernels start one at a time across the test run's workers (conftest.py)."""

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
