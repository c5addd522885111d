"""Policy names: lookup, construction from ``key=value`` strings, listing.

Every module named in `MODULES` is imported on first use, and registers its
policies with `schedsim.model.policy.register`. Adding a policy family is writing
its module and adding its name here.
"""

from __future__ import annotations

import importlib
import inspect
import typing
from collections.abc import Mapping
from typing import Any

from schedsim.model.policy import REGISTRY, Policy

MODULES: tuple[str, ...] = (
    "schedsim.policies.fcfs",
    "schedsim.policies.backfilling",
    "schedsim.policies.suspension",
    "schedsim.policies.gang",
    "schedsim.policies.creasy",
)


def _load() -> None:
    for module in MODULES:
        importlib.import_module(module)


def names() -> list[str]:
    """Registered policy names, sorted."""
    _load()
    return sorted(REGISTRY)


def get(name: str) -> type[Policy]:
    """The policy class registered under ``name`` (case-insensitive)."""
    _load()
    try:
        return REGISTRY[name.lower()]
    except KeyError:
        raise ValueError(f"unknown policy {name!r}; choose from {', '.join(names())}") from None


def describe() -> list[tuple[str, str]]:
    """(name, first docstring line) for every policy."""
    return [(n, (inspect.getdoc(REGISTRY[n]) or "").splitlines()[0]) for n in names()]


def parameters(name: str) -> dict[str, inspect.Parameter]:
    """The keyword parameters a policy accepts."""
    sig = inspect.signature(get(name).__init__)
    plain = (inspect.Parameter.POSITIONAL_OR_KEYWORD, inspect.Parameter.KEYWORD_ONLY)
    return {k: p for k, p in sig.parameters.items() if k != "self" and p.kind in plain}


def _convert(value: Any, annotation: Any, key: str, policy: str) -> Any:
    """``value`` as the parameter's type hint wants it: from a string (the command
    line) or from a TOML/JSON value, where an int may stand for a float."""
    target = annotation
    args = typing.get_args(annotation)
    if args:  # Optional[X], Literal[...], X | None
        literal = [a for a in args if isinstance(a, str)]
        if literal:
            if value not in literal:
                raise ValueError(f"policy {policy}: {key}={value!r}, expected one of {literal}")
            return value
        if value is None and type(None) in args:
            return None
        target = next((a for a in args if a is not type(None)), str)
    kind = getattr(target, "__name__", str(target))
    bad = ValueError(f"policy {policy}: parameter {key}={value!r} is not a valid {kind}")
    if not isinstance(value, str):
        if target is float and isinstance(value, (int, float)) and not isinstance(value, bool):
            return float(value)  # TOML's 2 and 2.0 are one configuration
        if target is int and isinstance(value, float) and value.is_integer():
            return int(value)
        if target in (bool, int, float, str) and type(value) is not target:
            raise bad
        return value
    try:
        if target is bool:
            lowered = value.lower()
            if lowered not in ("true", "false", "1", "0", "yes", "no"):
                raise ValueError(value)
            return lowered in ("true", "1", "yes")
        if target in (int, float, str):
            return target(value)
    except ValueError:
        raise bad from None
    return value


def resolve_params(name: str, params: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """Every parameter of a policy with its value: ``params`` converted, defaults filled in.

    Two spellings of one configuration (a default given explicitly or left
    out, ``"2"`` or ``2``) give the same dict, which is what a study needs
    to identify a run by its configuration. Unknown names are a `ValueError`.
    """
    accepted = parameters(name)
    hints = typing.get_type_hints(get(name).__init__)
    resolved = {
        key: p.default for key, p in accepted.items() if p.default is not inspect.Parameter.empty
    }
    for key, value in (params or {}).items():
        if key not in accepted:
            known = ", ".join(accepted) or "none"
            raise ValueError(f"policy {name} has no parameter {key!r} (parameters: {known})")
        # No type hint: the value is taken as given (a string from the command line).
        resolved[key] = _convert(value, hints.get(key, Any), key, name)
    return resolved


def make(name: str, params: Mapping[str, Any] | None = None) -> Policy:
    """Build a policy from its name and parameters (strings are converted by type hints)."""
    return get(name)(**resolve_params(name, params))
