"""The installed version of schedsim (from the package metadata, pyproject.toml)."""

from __future__ import annotations

from importlib.metadata import PackageNotFoundError, version

try:
    __version__: str = version("schedsim")
except PackageNotFoundError:  # pragma: no cover - a checkout that was never installed
    __version__ = "0+unknown"
