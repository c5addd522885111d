"""Named random streams: one independent numpy stream per component of a run.

A run has one seed. Each random component (arrivals, estimates, users,
memory sizes, priorities, ...) draws from its own stream, keyed by the
component's name rather than by the order in which components ask, so
adding or removing one component never shifts another's draws, and the
same seed gives the same result bit for bit (DESIGN.md, "Randomness").
"""

from __future__ import annotations

import hashlib

import numpy as np


def stream_seed(seed: int, component: str) -> np.random.SeedSequence:
    """The seed sequence of one named random stream of a run.

    The name is hashed (SHA-256, four 32-bit words) into the spawn key, so
    distinct names give independent streams and the key never depends on
    the order in which components ask for theirs.
    """
    digest = hashlib.sha256(component.encode()).digest()
    key = tuple(int.from_bytes(digest[i : i + 4], "little") for i in range(0, 16, 4))
    return np.random.SeedSequence(seed, spawn_key=key)


def stream(seed: int, component: str) -> np.random.Generator:
    """The random generator of the named stream ``component`` of a run of ``seed``."""
    return np.random.default_rng(stream_seed(seed, component))
