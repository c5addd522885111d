"""A policy that fails on purpose while a marker file exists (for the sweep tests).

Imported by a study's ``imports``, as a user's own policy module would be.
"""

from __future__ import annotations

from pathlib import Path

from schedsim.model.policy import register
from schedsim.policies.fcfs import FCFS


@register("flaky")
class Flaky(FCFS):
    """FCFS that raises at its first pass while the file ``marker`` exists."""

    def __init__(self, marker: str = "") -> None:
        super().__init__()
        self.marker = marker

    def schedule(self, view):  # type: ignore[no-untyped-def]
        if self.marker and Path(self.marker).exists():
            raise RuntimeError(f"failing on purpose: {self.marker} exists")
        return super().schedule(view)
