"""Policy names: lookup, plug-ins, construction from ``key=value`` strings, listing.

The model takes policy objects; this module, in the application layer, is
where names are resolved. A name is one of:

* a **registered name** (``"easy"``): every module named in `MODULES` (the
  policies shipped with schedsim) is imported on first use and registers
  its policies with `schedsim.model.policy.register`; so does every module
  a user imports first (``schedsim run --import mypolicies``, a study's
  ``imports``), and every policy another installed package declares in the
  ``schedsim.policies`` entry-point group (`ENTRY_POINTS`), as plug-in
  ecosystems do::

      # pyproject.toml of a package of policies
      [project.entry-points."schedsim.policies"]
      fairshare = "mypackage.fairshare:FairShare"

* a **plug-in spec** ``MODULE:CLASS``, where ``MODULE`` is a file
  (``path/to/mypolicy.py:MyPolicy``) or an importable module
  (``mypackage.policies:MyPolicy``): the class is loaded from there, no
  registration needed (``schedsim run --policy path/to/mypolicy.py:MyPolicy``).
"""

from __future__ import annotations

import hashlib
import importlib
import importlib.util
import inspect
import sys
import typing
from collections.abc import Mapping
from pathlib import Path
from types import ModuleType
from typing import Any

from schedsim.model.policy import REGISTRY, Policy

MODULES: tuple[str, ...] = (
    "schedsim.policies.fcfs",
    "schedsim.policies.backfilling",
    "schedsim.policies.selective_suspension.plain",
    "schedsim.policies.selective_suspension.fast",
    "schedsim.policies.selective_suspension.tunable",
    "schedsim.policies.immediate",
    "schedsim.policies.gang",
    "schedsim.policies.creasy.policy",
    "schedsim.policies.multiqueue",
    "schedsim.policies.spacesharing",
    "schedsim.policies.glts",
    "schedsim.policies.scojo",
)


#: The entry-point group through which other packages add policies (name = "module:Class").
ENTRY_POINTS = "schedsim.policies"

_loaded = False


#: The policies whose runs call loops numba compiles (`schedsim.policies.compiled`), as
#: (module, class): they and their subclasses. Named, not imported: asking is cheap.
_COMPILED = (
    ("schedsim.policies.selective_suspension.fast", "SelectiveSuspension"),  # ss, tss
    ("schedsim.policies.immediate", "ImmediateService"),  # is
)
# (Conservative backfilling compiles its compression only inside a run long enough to
# need it, `schedsim.policies.planning.conservative.PYTHON_BUDGET`: nothing to announce.)

#: Said before a run (or a local sweep) whose policy compiles the kernels first.
KERNELS_NOTICE = (
    "compiling the suspension policies' kernels once for this machine (about 5 s); "
    "later runs load them from numba's cache"
)


def compiles_kernels(policy: type[Policy]) -> bool:
    """Whether runs of ``policy`` (a class) call the loops numba compiles on a machine's
    first run: Selective Suspension (ss, tss), Immediate Service (is) and subclasses."""
    return any((c.__module__, c.__name__) in _COMPILED for c in policy.__mro__)


def _load(plugins: bool = True) -> None:
    """Import the shipped policies' modules; with ``plugins``, the installed packages'
    policies too (once: `ENTRY_POINTS`)."""
    global _loaded
    for module in MODULES:
        importlib.import_module(module)
    if _loaded or not plugins:
        return
    _loaded = True
    # Imported here: importlib.metadata and the scan of every installed package take
    # a run of a shipped policy, which no plug-in may take over, a few hundredths of a
    # second for nothing.
    from importlib import metadata

    for entry in metadata.entry_points(group=ENTRY_POINTS):
        name = entry.name.lower()
        if name in REGISTRY:
            continue  # a registered name is not taken over by a plug-in
        try:
            cls = entry.load()
        except Exception as exc:  # a broken plug-in must not break every other policy
            print(f"schedsim: policy plug-in {entry.name!r} ({entry.value}) failed: {exc}",
                  file=sys.stderr)  # fmt: skip
            continue
        if isinstance(cls, type) and issubclass(cls, Policy):
            REGISTRY[name] = cls


def import_module(spec: str) -> ModuleType:
    """Import a module of policies: a dotted module name, or a ``.py`` file.

    Its `register` decorators add its policies. A file is imported once per
    path (as ``schedsim_plugin_<stem>``). ValueError names the module and why.
    """
    if not spec.strip():
        raise ValueError(f"{spec!r}: an empty module name")
    path = Path(spec)
    if spec.endswith(".py"):
        if not path.is_file():
            raise ValueError(f"{spec}: no such policy module file")
        digest = hashlib.sha256(str(path.resolve()).encode()).hexdigest()[:8]
        key = f"schedsim_plugin_{path.stem}_{digest}"
        if key in sys.modules:
            return sys.modules[key]
        loader = importlib.util.spec_from_file_location(key, path)
        if loader is None or loader.loader is None:
            raise ValueError(f"{spec}: cannot be imported as a module")
        module = importlib.util.module_from_spec(loader)
        sys.modules[key] = module
        try:
            loader.loader.exec_module(module)
        except Exception as exc:
            del sys.modules[key]
            raise ValueError(f"{spec}: importing it failed: {type(exc).__name__}: {exc}") from exc
        return module
    try:
        return importlib.import_module(spec)
    except ImportError as exc:
        raise ValueError(f"{spec}: cannot import it ({exc})") from None


def _from_spec(spec: str) -> type[Policy]:
    """The class of a ``MODULE:CLASS`` spec."""
    module_name, _, class_name = spec.rpartition(":")
    module = import_module(module_name)
    cls = getattr(module, class_name, None)
    if cls is None:
        raise ValueError(f"{spec}: {module_name} has no {class_name!r}")
    if not (isinstance(cls, type) and issubclass(cls, Policy)):
        raise ValueError(f"{spec}: {class_name} is not a Policy (schedsim.model.policy.Policy)")
    return cls


def _is_spec(name: str) -> bool:
    # "C:\\x.py:P" on Windows has two colons; a name never has one.
    return ":" in name


def names() -> list[str]:
    """Registered policy names (shipped, imported and plug-ins), sorted."""
    _load()
    return sorted(REGISTRY)


def get(name: str) -> type[Policy]:
    """The policy class of a registered name (case-insensitive) or a ``MODULE:CLASS`` spec."""
    if _is_spec(name):
        return _from_spec(name)
    _load(plugins=False)  # a registered name is the same with the plug-ins read or not
    if name.lower() not in REGISTRY:
        _load()
    try:
        return REGISTRY[name.lower()]
    except KeyError:
        raise ValueError(f"unknown policy {name!r}; choose from {', '.join(names())}") from None


def description(policy: type[Policy]) -> str:
    """What a policy does, in a sentence or two: the first paragraph of its class
    docstring, on one line ("" without a docstring).

    The whole paragraph, not its first line, which can stop mid-sentence; the
    policies keep that paragraph short so that listings can show it whole.
    """
    paragraph = (inspect.getdoc(policy) or "").split("\n\n")[0]
    return " ".join(paragraph.split())


def describe() -> list[tuple[str, str]]:
    """(name, `description`) for every registered policy, sorted by name."""
    return [(n, description(REGISTRY[n])) for n in names()]


def parameters(name: str) -> dict[str, inspect.Parameter]:
    """The keyword parameters a policy accepts (`listed_parameters`: those a user sets)."""
    sig = inspect.signature(get(name).__init__)
    plain = (inspect.Parameter.POSITIONAL_OR_KEYWORD, inspect.Parameter.KEYWORD_ONLY)
    return {k: p for k, p in sig.parameters.items() if k != "self" and p.kind in plain}


#: Parameters a policy (and its subclasses) accepts but does not list for users, by
#: (module, class). GLTS's ``variant`` says which of the G-LOMARC-TS variants an object
#: is; each variant is a registered policy of its own (``--policy cst``, ``glts-fbo``...),
#: whose class sets it, and Scojo-PECT sets it for its planners from ``inner``. It stays
#: accepted, so that the configurations naming it, and the run ids of studies
#: (`resolve_params` fills it in), stay what they were.
UNLISTED: dict[tuple[str, str], tuple[str, ...]] = {
    ("schedsim.policies.glts", "GLTS"): ("variant",),
}


def listed_parameters(name: str) -> dict[str, inspect.Parameter]:
    """The parameters a user sets: `parameters` without the `UNLISTED` ones; what
    ``schedsim policies`` and the policy catalogue show."""
    cls = get(name)
    hidden = {key for c in cls.__mro__ for key in UNLISTED.get((c.__module__, c.__qualname__), ())}
    return {k: p for k, p in parameters(name).items() if k not in hidden}


def convert_value(value: Any, annotation: Any, key: str, policy: str) -> Any:
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
        resolved[key] = convert_value(value, hints.get(key, Any), key, name)
    return resolved


def make(name: str, params: Mapping[str, Any] | None = None) -> Policy:
    """Build a policy from its name and parameters (strings are converted by type hints)."""
    return get(name)(**resolve_params(name, params))
