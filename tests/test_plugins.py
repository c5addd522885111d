"""A user's own policies without editing schedsim: MODULE:CLASS specs, --import, entry points."""

from __future__ import annotations

import json
import sys
import textwrap
from collections.abc import Iterator
from pathlib import Path

import pytest

from schedsim import Simulation
from schedsim.app import registry
from schedsim.app.cli import main
from schedsim.model.policy import REGISTRY, Policy, register
from schedsim.workloads.catalog import load
from schedsim.workloads.transforms import first

POLICY = '''
from schedsim.model.policy import Policy, Start, View{register_import}


{decorator}class LargestFirst(Policy):
    """Largest job first, no backfilling."""

    def __init__(self, limit: int = 0) -> None:
        self.limit = limit

    def params(self) -> dict:
        return {{"limit": self.limit}}

    def schedule(self, view: View) -> list:
        free, out = view.free_cores, []
        for job in sorted(view.queue, key=lambda j: (-j.size, j.submit, j.id)):
            if job.size > free:
                break
            out.append(Start(job))
            free -= job.size
        return out
'''


def policy_file(folder: Path, name: str = "mypolicies", register: str | None = None) -> Path:
    text = POLICY.format(
        register_import=", register" if register else "",
        decorator=f'@register("{register}")\n' if register else "",
    )
    path = folder / f"{name}.py"
    path.write_text(textwrap.dedent(text))
    return path


@pytest.fixture(autouse=True)
def clean_registry(monkeypatch: pytest.MonkeyPatch) -> None:
    # Names registered here stay here; the entry points are read again.
    monkeypatch.setattr(registry, "_loaded", False)
    for name in list(REGISTRY):
        monkeypatch.setitem(REGISTRY, name, REGISTRY[name])


def test_a_class_from_a_file(tmp_path: Path) -> None:
    path = policy_file(tmp_path)
    cls = registry.get(f"{path}:LargestFirst")
    assert cls.__name__ == "LargestFirst" and cls.name == "LargestFirst"
    result = Simulation(
        first(load("kth"), 200), f"{path}:LargestFirst", params={"limit": "3"}
    ).run()
    assert result.meta["policy"] == "LargestFirst"
    assert result.meta["policy_params"] == {"limit": 3}
    assert registry.get(f"{path}:LargestFirst") is cls  # imported once


def test_a_class_from_a_module(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    policy_file(tmp_path, "dotted_policies")
    monkeypatch.syspath_prepend(str(tmp_path))
    assert registry.get("dotted_policies:LargestFirst").__name__ == "LargestFirst"


@pytest.mark.parametrize(
    ("spec", "why"),
    [
        ("nowhere.py:X", "no such policy module file"),
        ("no_such_module_here:X", "cannot import it"),
        ("json:dumps", "is not a Policy"),
        ("json:Nothing", "json has no 'Nothing'"),
    ],
)
def test_bad_specs_say_why(spec: str, why: str) -> None:
    with pytest.raises(ValueError, match=why):
        registry.get(spec)


def test_the_command_line_takes_a_spec_and_an_import(tmp_path: Path, capsys) -> None:
    path = policy_file(tmp_path)
    out = tmp_path / "r1"
    spec = f"{path}:LargestFirst"
    args = ["run", "--first", "200", "--policy", spec, "--param", "limit=2", "--out", str(out)]
    assert main(args) == 0
    summary = json.loads((out / "summary.json").read_text())
    assert summary["meta"]["policy"] == "LargestFirst"
    # --import registers the module's decorated policies by name.
    registered = policy_file(tmp_path, "registered", register="largest-first")
    out2 = tmp_path / "r2"
    argv = ["run", "--first", "200", "--import", str(registered), "--policy", "largest-first"]
    assert main([*argv, "--out", str(out2)]) == 0
    assert json.loads((out2 / "summary.json").read_text())["meta"]["policy"] == "largest-first"
    # A bad spec is one line on stderr, exit status 2.
    capsys.readouterr()
    assert main(["run", "--first", "10", "--policy", "nowhere.py:X"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "nowhere.py: no such policy module file" in err


def test_an_installed_package_adds_policies_through_entry_points(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A distribution on sys.path declaring [schedsim.policies] largest = module:Class.
    policy_file(tmp_path, "ep_policies")
    info = tmp_path / "ep_policies-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: ep-policies\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text(
        "[schedsim.policies]\nlargest = ep_policies:LargestFirst\nbroken = ep_policies:Missing\n"
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.delitem(REGISTRY, "largest", raising=False)
    assert "largest" in registry.names()
    assert registry.get("largest").__name__ == "LargestFirst"
    result = Simulation(first(load("kth"), 100), "largest").run()
    assert len(result.jobs) == 100
    assert "broken" not in registry.names()  # a broken plug-in is reported, not fatal


def test_version(capsys) -> None:
    from schedsim import __version__

    with pytest.raises(SystemExit) as done:
        main(["--version"])
    assert done.value.code == 0
    assert capsys.readouterr().out.strip() == f"schedsim {__version__}"
    assert __version__ and __version__ != "0+unknown"
    assert sys.modules["schedsim"].__version__ == __version__


def test_the_policies_that_compile_kernels_are_named() -> None:
    # The CLI and a local sweep warn before the first run of these compiles numba's loops.
    from schedsim.policies.selective_suspension.fast import SelectiveSuspension

    class Mine(SelectiveSuspension):  # a researcher's subclass compiles them too
        pass

    for name in ("ss", "tss", "is"):
        assert registry.compiles_kernels(registry.get(name)), name
    assert registry.compiles_kernels(Mine)
    for name in ("easy", "conservative", "creasy", "ss-plain", "pfcfs1", "glts"):
        assert not registry.compiles_kernels(registry.get(name)), name


def test_the_cache_is_cold_until_a_suspension_kernel_is_in_it(monkeypatch) -> None:
    from schedsim.policies import compiled

    suspension = compiled.suspension_kernels()
    # SS's own loops and the placement it shares with IS; not the loops it imports twice.
    assert {"homes_fitting", "first_fit_avoiding", "may_preempt", "board_starts"} <= suspension
    others = compiled.kernels_of(
        ("schedsim.policies.planning.kernels", "schedsim.policies.creasy.kernels")
    )
    assert {"compress_plan", "creasy_scan"} <= others
    assert not suspension & others
    monkeypatch.setattr(compiled, "cached_kernels", lambda: ["compress_plan", "creasy_scan"])
    assert compiled.cache_is_cold()  # conservative's and CREASY's cached: SS still compiles
    monkeypatch.setattr(compiled, "cached_kernels", lambda: ["compress_plan", "homes_fitting"])
    assert not compiled.cache_is_cold()
    monkeypatch.setattr(compiled, "cached_kernels", lambda: [])
    assert compiled.cache_is_cold()


_CELL = """
from schedsim.model.policy import Policy, register

@register("notebook-sjf")
class SJF(Policy):
    '''Shortest job first, as a notebook cell defines it.'''

    def schedule(self, view):
        return []
"""


@pytest.fixture
def notebook_name() -> Iterator[str]:
    yield "notebook-sjf"
    REGISTRY.pop("notebook-sjf", None)


def test_a_notebook_cell_run_again_replaces_its_policy(notebook_name: str) -> None:
    # Each run of a cell defines a new class of the same module and qualified name.
    classes = []
    for _ in range(2):
        namespace: dict[str, object] = {"__name__": "__main__"}
        exec(_CELL, namespace)
        classes.append(namespace["SJF"])
    assert classes[0] is not classes[1]
    assert registry.get("notebook-sjf") is classes[1]
    assert classes[1].name == "notebook-sjf"


def test_another_class_under_a_taken_name_is_one_line_naming_both(notebook_name: str) -> None:
    namespace: dict[str, object] = {"__name__": "__main__"}
    exec(_CELL, namespace)
    namespace = {"__name__": "mypolicies"}
    with pytest.raises(ValueError) as error:
        exec(_CELL, namespace)
    assert str(error.value) == (
        "policy name 'notebook-sjf' is taken by __main__.SJF; register mypolicies.SJF "
        "under another name"
    )
    assert "\n" not in str(error.value)
    # A shipped policy's name is refused too.
    registry.get("easy")
    with pytest.raises(
        ValueError, match=r"'easy' is taken by schedsim\.policies\.backfilling\.EASY"
    ):
        register("easy")(type("Mine", (Policy,), {"__module__": "mypolicies"}))


def test_one_class_is_named_simulation() -> None:
    # The model's run takes policy objects under a name of its own; the one users
    # meet, which also takes names, is schedsim.Simulation.
    import schedsim
    from schedsim.model import simulation as model

    assert not hasattr(model, "Simulation")
    assert [c.__name__ for c in schedsim.Simulation.__mro__].count("Simulation") == 1
    assert issubclass(schedsim.Simulation, model.ModelSimulation)
