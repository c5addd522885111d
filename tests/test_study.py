"""Parameter studies (schedsim.app.study): run configurations, expansion, seeds, identity, TOML."""

from __future__ import annotations

import dataclasses
import gzip
import hashlib
import importlib
import json
import re
import shutil
import sys
import textwrap
from pathlib import Path

import pandas as pd
import pytest

from schedsim import Simulation
from schedsim.app.study import (
    CONFIG_KEYS,
    Run,
    RunConfig,
    Study,
    StudyError,
    load_study,
    replication_seed,
)
from schedsim.model.overhead import MemoryOverhead
from schedsim.model.policy import REGISTRY
from schedsim.workloads import catalog
from schedsim.workloads.transforms import exact_estimates, first, month, scale_load

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

N = 300  # jobs of KTH in the runs that are simulated: fast, yet a real queue


# ---- helpers -------------------------------------------------------------------


def write_toml(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(textwrap.dedent(text))
    return path


def runs_error(study_or_path: Study | Path) -> str:
    """The message of the StudyError raised by loading (if a path) and expanding a study."""
    with pytest.raises(StudyError) as info:
        study = study_or_path if isinstance(study_or_path, Study) else load_study(study_or_path)
        study.runs()
    return str(info.value)


def runs_error_from_dict(doc: dict) -> str:
    with pytest.raises(StudyError) as info:
        Study.from_dict(doc, source="mine").runs()
    assert str(info.value).startswith("mine: ")
    return str(info.value)


def summary(runs: list[Run]) -> list[tuple]:
    return [
        (r.label, r.config.policy.name, r.config.load_factor, r.config.params, r.replication)
        for r in runs
    ]


@pytest.fixture(scope="module")
def kth():
    return catalog.load("kth")


POLICY_MODULE = '''
from schedsim.model.policy import register
from schedsim.policies.fcfs import FCFS


@register("{name}")
class Knobs(FCFS):
    """FCFS with typed knobs that change nothing (for study tests)."""

    def __init__(self, factor: float = 1.0, depth: int = 2, flag: bool = False) -> None:
        self.factor, self.depth, self.flag = factor, depth, flag
'''


@pytest.fixture
def knobs(tmp_path, monkeypatch):
    """(module, policy name) of a policy with a float, an int and a bool parameter.

    The module is written to a folder on sys.path but not imported; the
    registry entry and the module are removed afterwards.
    """
    module, name = "study_test_knobs", "study-test-knobs"
    folder = tmp_path / "policy_module"
    folder.mkdir()
    (folder / f"{module}.py").write_text(POLICY_MODULE.format(name=name))
    monkeypatch.syspath_prepend(str(folder))
    yield module, name
    REGISTRY.pop(name, None)
    sys.modules.pop(module, None)


# ---- 1. expansion ----------------------------------------------------------------


def test_no_grid_no_variants_is_one_run_per_replication():
    runs = Study(base={"first": N}, replications=3).runs()
    assert [r.replication for r in runs] == [0, 1, 2]
    assert [r.label for r in runs] == ["easy"] * 3
    assert all(r.config.first == N for r in runs)


def test_grid_only_is_the_cartesian_product_in_key_order():
    runs = Study(
        base={"first": N}, grid={"policy": ["easy", "fcfs"], "load_factor": [1.0, 1.2, 1.5]}
    ).runs()
    assert [(r.config.policy.name, r.config.load_factor) for r in runs] == [
        ("easy", 1.0),
        ("easy", 1.2),
        ("easy", 1.5),
        ("fcfs", 1.0),
        ("fcfs", 1.2),
        ("fcfs", 1.5),
    ]
    assert {r.replication for r in runs} == {0}


def test_variants_only_keep_their_order():
    runs = Study(
        base={"first": N},
        variants=[{"policy": "fcfs"}, {"policy": "conservative"}, {"policy": "easy"}],
    ).runs()
    assert [r.config.policy.name for r in runs] == ["fcfs", "conservative", "easy"]
    assert [r.label for r in runs] == ["fcfs", "conservative", "easy"]


def test_variants_times_grid_times_replications_in_order():
    study = Study(
        base={"first": N},
        variants=[{"policy": "fcfs"}, {"policy": "easy", "params": {"order": "sjf"}}],
        grid={"load_factor": [1.0, 1.2]},
        replications=3,
    )
    runs = study.runs()
    assert len(runs) == 2 * 2 * 3
    expected = [
        (policy, factor, r)
        for policy in ("fcfs", "easy")
        for factor in (1.0, 1.2)
        for r in range(3)
    ]
    assert [(r.config.policy.name, r.config.load_factor, r.replication) for r in runs] == expected
    assert all(r.config.params == {"order": "sjf"} for r in runs if r.config.policy.name == "easy")
    assert all(r.id == r.config.run_id() for r in runs)
    assert len({r.id for r in runs}) == len(runs)


def test_a_variant_naming_a_grid_key_runs_only_the_values_it_gives():
    study = Study(
        base={"first": N},
        grid={"policy": ["fcfs", "easy", "conservative"], "load_factor": [1.0, 1.2]},
        variants=[
            {},
            {"label": "sjf", "policy": "easy", "params": {"order": "sjf"}},
            {
                "label": "short",
                "policy": ["conservative", "fcfs"],
                "load_factor": 1.2,
                "first": 200,
            },
        ],
    )
    runs = [(r.label, r.config.policy.name, r.config.load_factor) for r in study.runs()]
    assert runs == [
        *((p, p, f) for p in ("fcfs", "easy", "conservative") for f in (1.0, 1.2)),
        ("sjf", "easy", 1.0),
        ("sjf", "easy", 1.2),
        ("short", "fcfs", 1.2),  # (the grid's order, not the variant's)
        ("short", "conservative", 1.2),
    ]


def test_a_variant_narrows_a_dotted_grid_key_in_toml(tmp_path):
    path = write_toml(
        tmp_path / "study.toml",
        """
        [base]
        first = 300

        [grid]
        params.order = ["fcfs", "sjf", "ljf"]

        [[variants]]
        params = { order = "sjf" }
        """,
    )
    assert [r.config.params for r in load_study(path).runs()] == [{"order": "sjf"}]


@pytest.mark.parametrize("value", ["sjf", ["easy", "sjf"], []])
def test_a_variant_may_not_widen_the_grid(value):
    study = Study(
        base={"first": N}, grid={"policy": ["fcfs", "easy"]}, variants=[{}, {"policy": value}]
    )
    with pytest.raises(StudyError) as err:
        study.runs()
    assert str(err.value) == (
        f"study: variants[2].policy: {value!r} is not among the grid's values ('fcfs', 'easy'); "
        "a variant may only narrow a grid key"
    )


def test_dotted_grid_key_in_toml(tmp_path):
    path = write_toml(
        tmp_path / "study.toml",
        """
        [base]
        first = 300

        [grid]
        params.order = ["fcfs", "sjf"]
        """,
    )
    runs = load_study(path).runs()
    assert [r.config.params for r in runs] == [{"order": "fcfs"}, {"order": "sjf"}]
    assert [r.label for r in runs] == ["easy", "easy(order=sjf)"]


def test_dotted_grid_key_in_python_same_as_nested_table():
    dotted = Study(base={"first": N}, grid={"params.order": ["fcfs", "sjf"]}).runs()
    nested = Study(base={"first": N}, grid={"params": {"order": ["fcfs", "sjf"]}}).runs()
    assert [r.config.params for r in dotted] == [{"order": "fcfs"}, {"order": "sjf"}]
    assert [r.id for r in dotted] == [r.id for r in nested]


def test_variant_params_merge_over_base_params(knobs):
    module, name = knobs
    study = Study(
        base={"policy": name, "params": {"depth": 3, "factor": 2.5}},
        variants=[{}, {"params": {"factor": 4.0}}, {"params": {"flag": True, "depth": 5}}],
        imports=[module],
    )
    assert [r.config.params for r in study.runs()] == [
        {"factor": 2.5, "depth": 3, "flag": False},
        {"factor": 4.0, "depth": 3, "flag": False},
        {"factor": 2.5, "depth": 5, "flag": True},
    ]


def test_dotted_grid_params_merge_over_base_and_variant_params(knobs):
    module, name = knobs
    study = Study(
        base={"policy": name, "params": {"depth": 3}},
        variants=[{"params": {"flag": True}}],
        grid={"params.factor": [0.5, 2.0]},
        imports=[module],
    )
    assert [r.config.params for r in study.runs()] == [
        {"factor": 0.5, "depth": 3, "flag": True},
        {"factor": 2.0, "depth": 3, "flag": True},
    ]


def test_base_params_reach_every_grid_point():
    runs = Study(base={"params": {"order": "sjf"}}, grid={"load_factor": [1.0, 2.0]}).runs()
    assert [r.config.params for r in runs] == [{"order": "sjf"}] * 2
    assert [r.label for r in runs] == ["easy(order=sjf)"] * 2


def test_labels():
    runs = Study(
        base={"first": N},
        variants=[
            {"policy": "fcfs"},
            {"policy": "conservative"},
            {"policy": "easy"},
            {"policy": "EASY", "params": {"order": "sjf"}},
            {"policy": "easy", "params": {"order": "xfactor"}, "label": "my own"},
            {"policy": "easy", "params": {"order": "fcfs"}, "load_factor": 1.5},
        ],
    ).runs()
    assert [r.label for r in runs] == [
        "fcfs",
        "conservative",
        "easy",
        "easy(order=sjf)",
        "my own",
        "easy",  # the default spelled out is not shown
    ]
    assert all("label" not in r.config.to_dict() for r in runs)


def test_label_lists_changed_params_sorted_and_hides_spelled_out_defaults(knobs):
    module, name = knobs
    runs = Study(
        base={"policy": name},
        variants=[
            {"params": {"factor": 2.5, "depth": 3}},
            {"params": {"factor": 2.5, "depth": 2, "flag": "false"}},
            {"params": {"depth": "2"}},
        ],
        imports=[module],
    ).runs()
    assert [r.label for r in runs] == [
        f"{name}(depth=3, factor=2.5)",
        f"{name}(factor=2.5)",
        name,
    ]


def test_explicit_variant_label_applies_to_each_of_its_grid_points():
    runs = Study(
        base={"first": N}, variants=[{"label": "mine"}], grid={"load_factor": [1.0, 1.1]}
    ).runs()
    assert [r.label for r in runs] == ["mine", "mine"]
    assert len({r.id for r in runs}) == 2


# ---- 2. seeds ----------------------------------------------------------------------


def test_replication_seed_regression_value():
    # Regression guard: computed once from the implementation; a change here
    # changes the seed (and so the id) of every run of every existing study.
    assert replication_seed(1, 0) == 842285832


def test_replication_seeds_are_32_bit_distinct_and_deterministic():
    seeds = [replication_seed(7, r) for r in range(50)]
    assert len(set(seeds)) == 50
    assert all(isinstance(s, int) and 0 <= s < 2**32 for s in seeds)
    assert seeds == [replication_seed(7, r) for r in range(50)]
    assert replication_seed(7, 0) != replication_seed(8, 0)


def test_common_random_numbers_across_variants_and_grid_points():
    runs = Study(
        base={"first": N},
        variants=[{"policy": "fcfs"}, {"policy": "easy"}],
        grid={"load_factor": [1.0, 1.3]},
        replications=3,
        seed=11,
    ).runs()
    by_replication: dict[int, set[int]] = {}
    for run in runs:
        assert run.config.seed == replication_seed(11, run.replication)
        by_replication.setdefault(run.replication, set()).add(run.config.seed)
    assert all(len(seeds) == 1 for seeds in by_replication.values())
    assert len({next(iter(s)) for s in by_replication.values()}) == 3


def test_seeds_depend_only_on_the_study_seed_and_replication():
    one = Study(base={"first": N}, replications=3, seed=5, name="one").runs()
    other = Study(
        base={"first": 2 * N, "policy": "fcfs"},
        grid={"cores_per_node": [1, 2]},
        replications=3,
        seed=5,
        name="other",
    ).runs()
    assert [r.config.seed for r in one] == [replication_seed(5, r) for r in range(3)]
    assert {(r.replication, r.config.seed) for r in other} == {
        (r.replication, r.config.seed) for r in one
    }
    reseeded = Study(base={"first": N}, replications=3, seed=6).runs()
    assert not {r.config.seed for r in reseeded} & {r.config.seed for r in one}


@pytest.mark.parametrize(
    ("kwargs", "key"),
    [
        ({"base": {"seed": 3}}, "base.seed"),
        ({"grid": {"seed": [1, 2]}}, "grid.seed"),
        ({"variants": [{"policy": "fcfs"}, {"seed": 3}]}, "variants[2].seed"),
    ],
)
def test_a_configuration_may_not_set_its_seed(kwargs, key):
    with pytest.raises(StudyError, match=re.escape(key)):
        Study(**kwargs).runs()


@pytest.mark.parametrize(
    ("text", "key"),
    [
        ("[base]\nseed = 3\n", "base.seed"),
        ("[grid]\nseed = [1, 2]\n", "grid.seed"),
        ("[[variants]]\npolicy = 'fcfs'\nseed = 3\n", "variants[1].seed"),
    ],
)
def test_a_toml_configuration_may_not_set_its_seed(tmp_path, text, key):
    path = write_toml(tmp_path / "s.toml", text)
    message = runs_error(path)
    assert key in message and str(path) in message


# ---- 3. identity ---------------------------------------------------------------------


def test_run_id_regression_value():
    # Regression guard: computed once from the implementation. If it changes,
    # every stored run of every study becomes unreachable (bump ID_FORMAT on purpose).
    assert RunConfig(workload="kth", first=200).run_id() == "1821eac48c71f5ec"


def test_run_id_is_16_lowercase_hex_digits():
    for config in (RunConfig(), RunConfig(first=N, policy="fcfs", seed=9)):
        assert re.fullmatch(r"[0-9a-f]{16}", config.run_id())


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ({"load_factor": 1}, {"load_factor": 1.0}),
        ({"params": {"order": "fcfs"}}, {"params": {}}),
        ({"policy": "EASY"}, {"policy": "easy"}),
        ({"workload": "KTH"}, {"workload": "kth"}),
    ],
    ids=["load_factor-int-float", "default-param", "policy-case", "workload-case"],
)
def test_spellings_of_one_configuration_have_one_id(a, b):
    assert RunConfig(first=N, **a).run_id() == RunConfig(first=N, **b).run_id()


def test_the_reservation_lead_needs_reservations_and_changes_the_id():
    base = RunConfig(workload="kth", first=N, reservations=0.05)
    assert dataclasses.replace(base, reservation_lead=600.0).run_id() != base.run_id()
    with pytest.raises(StudyError, match=r"reservation_lead: .*reservations"):
        RunConfig(workload="kth", reservation_lead=600.0)
    with pytest.raises(StudyError, match=r"priorities: .*users"):
        RunConfig(workload="kth", users=10, priorities=0.75)


def test_a_lublin_workload_is_generated_for_the_machine():
    config = RunConfig(workload="lublin", jobs=300, nodes=64, seed=3)
    w = config.build_workload()
    assert len(w) == 300 and w.header.max_procs == 64 and max(j.size for j in w) <= 64
    assert config.identity()["workload"] == "lublin"
    again = RunConfig(workload="lublin", jobs=300, nodes=64, seed=3).build_workload()
    assert again.jobs == w.jobs
    result = config.simulation().run()
    assert len(result.jobs) == 300 and result.meta["nodes"] == 64


def test_a_population_sets_its_own_load():
    with pytest.raises(StudyError, match="load_factor"):
        RunConfig(users=10, load_factor=1.5)


def test_a_workload_file_is_identified_by_its_content(tmp_path):
    shipped = catalog.resolve("kth")
    a, b = tmp_path / "a" / "kth.swf.gz", tmp_path / "b" / "other-name.swf.gz"
    for path in (a, b):
        path.parent.mkdir()
        shutil.copyfile(shipped, path)
    id_a = RunConfig(workload=str(a), first=N).run_id()
    assert id_a == RunConfig(workload=str(b), first=N).run_id()
    digest = "sha256:" + hashlib.sha256(shipped.read_bytes()).hexdigest()
    assert RunConfig(workload=str(a)).identity()["workload"] == digest
    assert RunConfig(workload="kth").identity()["workload"] == "kth"

    text = gzip.decompress(shipped.read_bytes()).decode()
    assert "; Note: uses the EASY scheduler\n" in text
    edited = text.replace("; Note: uses the EASY scheduler\n", "; Note: uses the EASY scheduler!\n")
    c = tmp_path / "c" / "kth.swf.gz"
    c.parent.mkdir()
    c.write_bytes(gzip.compress(edited.encode()))
    assert RunConfig(workload=str(c), first=N).run_id() != id_a


def test_a_missing_workload_file_is_a_study_error_naming_the_key(tmp_path):
    with pytest.raises(StudyError, match="workload"):
        RunConfig(workload=str(tmp_path / "missing.swf")).run_id()


def test_the_label_is_not_part_of_the_id():
    a = Study(base={"first": N}, variants=[{"label": "a"}]).runs()
    b = Study(base={"first": N}, variants=[{"label": "b"}]).runs()
    c = Study(base={"first": N}).runs()
    assert a[0].label == "a" and b[0].label == "b"
    assert a[0].id == b[0].id == c[0].id


def test_normalized_fills_in_defaults_and_identity_hashes_it():
    config = RunConfig(policy="EASY", load_factor=2)
    assert config.policy.name == "easy" and config.load_factor == 2.0
    assert isinstance(config.load_factor, float)
    assert config.params == {}
    assert config.normalized().params == {"order": "fcfs"}
    identity = config.identity()
    assert identity["params"] == {"order": "fcfs"}
    assert identity["workload"] == "kth"
    assert config.normalized().run_id() == config.run_id()


# ---- 4. duplicates ------------------------------------------------------------------------


@pytest.mark.parametrize(
    "kwargs",
    [
        {"variants": [{"policy": "easy"}, {"policy": "easy", "params": {"order": "fcfs"}}]},
        {"variants": [{"label": "one"}, {"label": "two"}]},
        {"variants": [{"policy": "fcfs"}, {"policy": "FCFS"}]},
        {"grid": {"load_factor": [1, 1.0]}},
    ],
    ids=["default-spelled-out", "labels-only", "policy-case", "grid-int-float"],
)
def test_two_runs_with_one_configuration_are_an_error(kwargs):
    message = runs_error(Study(base={"first": N}, **kwargs))
    assert "same run" in message


# ---- 5. validation --------------------------------------------------------------------------

# (TOML text, what the message must name). Every case is also run through the
# Python API (the parsed document given to Study.from_dict).
INVALID = {
    "unknown-table": ("[bogus]\nx = 1\n", "bogus"),
    "unknown-study-key": ("[study]\nnmae = 'x'\n", "study.nmae"),
    "unknown-base-key": ("[base]\npolcy = 'easy'\n", "polcy"),
    "first-string": ("[base]\nfirst = 'ten'\n", "first"),
    "first-zero": ("[base]\nfirst = 0\n", "first"),
    "first-bool": ("[base]\nfirst = true\n", "first"),
    "load-factor-negative": ("[base]\nload_factor = -1\n", "load_factor"),
    "wide-sideways": ("[base]\nwide = 'sideways'\n", "wide"),
    "warmup-1.5": ("[base]\nwarmup = 1.5\n", "warmup"),
    "grid-not-a-list": ("[grid]\nload_factor = 1.2\n", "grid.load_factor"),
    "grid-empty-list": ("[grid]\npolicy = []\n", "grid.policy"),
    "grid-param-not-a-list": ("[grid]\nparams.order = 'sjf'\n", "grid.params.order"),
    "grid-unknown-key": ("[grid]\npolcy = ['easy']\n", "grid.polcy"),
    "grid-bad-value": ("[grid]\nfirst = [10, 'ten']\n", "first"),
    "variant-and-grid": (
        "[grid]\npolicy = ['easy', 'fcfs']\n[[variants]]\npolicy = 'conservative'\n",
        "variants[1].policy",
    ),
    "variant-and-grid-param": (
        "[grid]\nparams.order = ['sjf']\n[[variants]]\nparams = { order = 'fcfs' }\n",
        "variants[1].params.order",
    ),
    "variant-unknown-key": ("[[variants]]\npolcy = 'easy'\n", "variants[1].polcy"),
    "variants-not-a-list": ("[variants]\npolicy = 'easy'\n", "variants"),
    "unknown-policy": ("[base]\npolicy = 'nosuch'\n", "nosuch"),
    "unknown-policy-param": ("[base]\nparams = { bogus = 1 }\n", "bogus"),
    "bad-policy-param-value": ("[base]\nparams = { order = 'random' }\n", "order"),
    "replications-zero": ("[study]\nreplications = 0\n[base]\nfirst = 9\n", "study.replications"),
    "seed-negative": ("[study]\nseed = -1\n[base]\nfirst = 9\n", "study.seed"),
    "missing-import": (
        "[study]\nimports = ['no_such_module_xyz']\n[base]\nfirst = 9\n",
        "no_such_module_xyz",
    ),
}


@pytest.mark.parametrize(("text", "key"), INVALID.values(), ids=list(INVALID))
def test_invalid_toml_study_names_file_and_key(tmp_path, text, key):
    path = write_toml(tmp_path / "bad-study.toml", text)
    message = runs_error(path)
    assert key in message
    assert str(path) in message


@pytest.mark.parametrize(("text", "key"), INVALID.values(), ids=list(INVALID))
def test_invalid_python_study_names_key(text, key):
    message = runs_error_from_dict(tomllib.loads(text))
    assert key in message


def test_missing_import_names_the_key(tmp_path):
    path = write_toml(
        tmp_path / "s.toml", "[study]\nimports = ['no_such_module_xyz']\n[base]\nfirst = 9\n"
    )
    assert "study.imports" in runs_error(path)


def test_invalid_toml_syntax_names_the_file(tmp_path):
    path = write_toml(tmp_path / "broken.toml", "[base\nfirst = 10\n")
    with pytest.raises(StudyError) as info:
        load_study(path)
    assert str(path) in str(info.value) and "TOML" in str(info.value)


def test_missing_study_file_names_the_file(tmp_path):
    path = tmp_path / "nowhere.toml"
    with pytest.raises(StudyError) as info:
        load_study(path)
    assert str(path) in str(info.value)


def test_study_error_is_a_value_error():
    assert issubclass(StudyError, ValueError)


@pytest.mark.parametrize(
    ("values", "key"),
    [
        ({"first": "ten"}, "first"),
        ({"first": 0}, "first"),
        ({"first": True}, "first"),
        ({"load_factor": -1}, "load_factor"),
        ({"load_factor": float("inf")}, "load_factor"),
        ({"load_factor": True}, "load_factor"),
        ({"wide": "sideways"}, "wide"),
        ({"warmup": 1.5}, "warmup"),
        ({"cooldown": -1}, "cooldown"),
        ({"nodes": 0}, "nodes"),
        ({"cores_per_node": 1.5}, "cores_per_node"),
        ({"exact_estimates": "yes"}, "exact_estimates"),
        ({"kill_at_estimate": 1}, "kill_at_estimate"),
        ({"workload": ""}, "workload"),
        ({"policy": ""}, "policy"),
        ({"params": {1: "x"}}, "params"),
        ({"seed": -1}, "seed"),
        ({"polcy": "easy"}, "polcy"),
    ],
)
def test_run_config_from_dict_names_the_bad_key(values, key):
    with pytest.raises(StudyError) as info:
        RunConfig.from_dict(values, "here")
    assert str(info.value).startswith(f"here: {key}: ")


def test_unknown_policy_and_parameter_are_study_errors():
    with pytest.raises(StudyError, match="nosuch"):
        RunConfig(policy="nosuch").run_id()
    with pytest.raises(StudyError, match="bogus"):
        RunConfig(params={"bogus": 1}).normalized()


def test_imports_register_policies_before_expansion(knobs):
    module, name = knobs
    assert "unknown policy" in runs_error(Study(base={"policy": name}))
    runs = Study(base={"policy": name}, imports=[module]).runs()
    assert runs[0].config.params == {"factor": 1.0, "depth": 2, "flag": False}


@pytest.mark.parametrize("variants", [(), ({"policy": "fcfs"},)], ids=["plain", "variants"])
def test_unknown_base_key_is_reported_as_a_base_key(variants):
    # Caught when the study is built, before any expansion.
    with pytest.raises(StudyError, match=r"base\.polcy: unknown key"):
        Study(base={"polcy": "easy"}, variants=variants)


@pytest.mark.parametrize("value", ["sept", "1996-13"])
def test_month_format_is_validated(value):
    with pytest.raises(StudyError, match="month"):
        RunConfig(month=value)


# ---- typed policy parameters -----------------------------------------------------------------


def test_string_params_are_converted_before_hashing(knobs):
    module, name = knobs
    importlib.import_module(module)
    default = RunConfig(policy=name).run_id()
    assert RunConfig(policy=name, params={"factor": "1"}).run_id() == default
    assert RunConfig(policy=name, params={"depth": "2"}).run_id() == default
    assert RunConfig(policy=name, params={"flag": "false"}).run_id() == default
    assert RunConfig(policy=name, params={"factor": 1.0}).run_id() == default


@pytest.mark.parametrize(
    ("given", "other"),
    [(1, None), (2, 2.0), (2, "2")],
    ids=["int-vs-default", "int-vs-float", "int-vs-string"],
)
def test_an_int_for_a_float_param_is_the_same_run(knobs, given, other):
    module, name = knobs
    importlib.import_module(module)
    other_params = {} if other is None else {"factor": other}
    assert (
        RunConfig(policy=name, params={"factor": given}).run_id()
        == RunConfig(policy=name, params=other_params).run_id()
    )


# ---- 6. relative workload paths ---------------------------------------------------------------


def test_relative_workload_paths_resolve_against_the_study_folder(tmp_path, monkeypatch):
    folder = tmp_path / "studies"
    data = folder / "data"
    data.mkdir(parents=True)
    shutil.copyfile(catalog.resolve("kth"), data / "mine.swf.gz")
    shutil.copyfile(catalog.resolve("kth"), data / "other.swf.gz")
    path = write_toml(
        folder / "study.toml",
        """
        [base]
        workload = "data/mine.swf.gz"
        first = 300

        [grid]
        workload = ["data/mine.swf.gz", "kth"]

        [[variants]]
        workload = "data/other.swf.gz"
        policy = "fcfs"
        """,
    )
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    study = load_study(path)
    assert study.base["workload"] == str((data / "mine.swf.gz").resolve())
    assert study.variants[0]["workload"] == str((data / "other.swf.gz").resolve())
    assert study.grid["workload"] == [str((data / "mine.swf.gz").resolve()), "kth"]
    study.variants[0].pop("workload")  # a variant may not set a key the grid sets
    runs = study.runs()
    assert [r.config.workload.name for r in runs] == [str((data / "mine.swf.gz").resolve()), "kth"]
    assert runs[0].config.build_workload().jobs == runs[1].config.build_workload().jobs


def test_relative_study_path_from_another_cwd(tmp_path, monkeypatch):
    folder = tmp_path / "studies"
    folder.mkdir()
    shutil.copyfile(catalog.resolve("kth"), folder / "mine.swf.gz")
    write_toml(folder / "study.toml", "[base]\nworkload = 'mine.swf.gz'\nfirst = 300\n")
    monkeypatch.chdir(tmp_path)
    runs = load_study("studies/study.toml").runs()
    assert Path(runs[0].config.workload.name) == (folder / "mine.swf.gz").resolve()
    assert Path(runs[0].config.workload.name).is_absolute()


def test_shipped_names_are_left_alone(tmp_path, monkeypatch):
    # Even with a file of that name next to the study, a shipped name stays a shipped name.
    (tmp_path / "kth").write_text("1 0 -1 100 4 -1 -1 4 200 -1 1 7 3 11 1 2 -1 -1\n")
    path = write_toml(
        tmp_path / "study.toml",
        "[base]\nworkload = 'KTH'\nfirst = 300\n[grid]\nworkload = ['kth', 'ctc']\n",
    )
    monkeypatch.chdir(tmp_path)
    study = load_study(path)
    assert study.base["workload"] == "KTH"
    assert study.grid["workload"] == ["kth", "ctc"]


# ---- 7. the workload and the simulation ------------------------------------------------------


def test_build_workload_applies_the_transforms_in_order(kth):
    config = RunConfig(month="1996-10", first=N, exact_estimates=True, load_factor=1.3)
    built = config.build_workload()
    by_hand = scale_load(exact_estimates(first(month(kth, "1996-10"), N)), 1.3)
    assert built.jobs == by_hand.jobs
    assert built.cleaning == by_hand.cleaning
    assert built.header == by_hand.header
    assert len(built) == N
    # The order matters: windowing the first N jobs of the whole trace is another workload.
    assert month(first(kth, N), "1996-10").jobs != built.jobs


@pytest.mark.parametrize(
    "values",
    [{}, {"first": N}, {"first": N, "load_factor": 0.7}, {"first": N, "exact_estimates": True}],
)
def test_build_workload_each_transform(kth, values):
    by_hand = kth
    if "first" in values:
        by_hand = first(by_hand, values["first"])
    if values.get("exact_estimates"):
        by_hand = exact_estimates(by_hand)
    if "load_factor" in values:
        by_hand = scale_load(by_hand, values["load_factor"])
    built = RunConfig(**values).build_workload()
    assert built.jobs == by_hand.jobs
    assert built.cleaning == by_hand.cleaning


def test_simulation_matches_a_hand_built_simulation(kth):
    config = RunConfig(
        first=N,
        policy="easy",
        params={"order": "sjf"},
        nodes=40,
        cores_per_node=2,
        kill_at_estimate=False,
        wide="clamp",
        seed=5,
    )
    result = config.simulation().run()
    expected = Simulation(
        first(kth, N),
        "easy",
        nodes=40,
        cores_per_node=2,
        seed=5,
        kill_at_estimate=False,
        wide="clamp",
        params={"order": "sjf"},
    ).run()
    pd.testing.assert_frame_equal(result.jobs, expected.jobs)
    assert len(result.jobs) == N


def test_a_study_run_simulates(kth):
    run = Study(base={"first": N}, variants=[{"policy": "conservative"}]).runs()[0]
    jobs = run.config.simulation().run().jobs
    expected = Simulation(first(kth, N), "conservative", seed=run.config.seed).run().jobs
    pd.testing.assert_frame_equal(jobs, expected)


# ---- 8./9. round trips ----------------------------------------------------------------------


def example_study() -> Study:
    return Study(
        base={"first": N, "params": {"order": "fcfs"}},
        grid={"params.order": ["fcfs", "sjf"], "load_factor": [1, 1.25]},
        variants=[{"label": "plain"}, {"exact_estimates": True}],
        replications=2,
        seed=3,
        name="round-trip",
        report={"metrics": ["utilization"], "baseline": "plain"},
    )


def test_study_to_dict_round_trips():
    study = example_study()
    doc = study.to_dict()
    again = Study.from_dict(json.loads(json.dumps(doc)))
    assert [(r.id, r.label, r.replication) for r in again.runs()] == [
        (r.id, r.label, r.replication) for r in study.runs()
    ]
    assert again.to_dict() == doc
    assert doc["study"] == {"name": "round-trip", "seed": 3, "replications": 2, "imports": []}
    assert doc["report"] == {"metrics": ["utilization"], "baseline": "plain"}


def test_toml_study_to_dict_round_trips(tmp_path):
    path = write_toml(
        tmp_path / "study.toml",
        """
        [study]
        name = "toml"
        seed = 4
        replications = 2

        [base]
        first = 300

        [grid]
        params.order = ["fcfs", "sjf"]

        [[variants]]
        label = "mine"
        load_factor = 1.1

        [[variants]]
        load_factor = 1.2
        """,
    )
    study = load_study(path)
    again = Study.from_dict(study.to_dict())
    assert summary(again.runs()) == summary(study.runs())
    assert [r.id for r in again.runs()] == [r.id for r in study.runs()]
    assert len(study.runs()) == 2 * 2 * 2


@pytest.mark.parametrize(
    "config",
    [
        RunConfig(),
        RunConfig(
            workload="ctc",
            month="1996-10",
            first=N,
            exact_estimates=True,
            load_factor=1.5,
            policy="EASY",
            params={"order": "sjf"},
            nodes=256,
            cores_per_node=2,
            kill_at_estimate=False,
            wide="drop",
            overhead={"rate_mb_s": 8, "per": "processor"},
            warmup=0.1,
            cooldown=20,
            seed=123,
        ),
        RunConfig(overhead="memory"),
    ],
    ids=["defaults", "everything-set", "overhead-memory"],
)
def test_run_config_dict_round_trip(config):
    again = RunConfig.from_dict(config.to_dict())
    assert again == config
    assert again.run_id() == config.run_id()
    via_json = RunConfig.from_dict(json.loads(json.dumps(config.to_dict())))
    assert via_json == config and via_json.run_id() == config.run_id()
    assert list(config.to_dict()) == list(CONFIG_KEYS)


def test_to_dict_params_is_a_copy():
    config = RunConfig(params={"order": "sjf"})
    config.to_dict()["params"]["order"] = "fcfs"
    assert config.params == {"order": "sjf"}


def test_non_string_values_are_checked_against_the_type_hints():
    # A TOML value of the wrong type fails at expansion, not later inside a worker.
    with pytest.raises(StudyError, match="expected one of"):
        RunConfig(params={"order": 1}).normalized()
    with pytest.raises(StudyError, match=r"run: params: policy easy: order=True, expected one of"):
        Study(base={"params": {"order": True}}).runs()


@pytest.mark.parametrize(
    ("table", "key"),
    [
        ("[report]\nmetricz = ['utilization']\n", "report.metricz: unknown key"),
        ("[report]\nmetrics = 'utilization'\n", "report.metrics: expected a list"),
        ("[report]\nkind = 'R2'\n", "report.kind: expected R, ratio"),
        ("[report]\ncategories = 'yes'\n", "report.categories: expected true, false or a"),
        ("[report]\ncategories = { scheme = ['16'] }\n", "report.categories: expected"),
        ("[report]\ncategories = { schemes = ['8'] }\n", "report.categories: expected"),
        ("[report]\ncategories = { estimates = 'well' }\n", "report.categories: expected"),
        ("[report]\ncategories = { stats = [] }\n", "report.categories: expected"),
    ],
)
def test_report_table_is_checked(tmp_path, table, key):
    path = tmp_path / "s.toml"
    path.write_text("[base]\nworkload = 'kth'\n" + table)
    with pytest.raises(StudyError, match=re.escape(key)):
        load_study(path)


def test_a_parameter_without_a_type_hint_takes_any_value(monkeypatch):
    from schedsim.model import policy as base

    class Untyped(base.Policy):
        def __init__(self, k=3) -> None:  # no hint: values are taken as given
            self.k = k

        def schedule(self, view):
            return []

    monkeypatch.setitem(base.REGISTRY, "untyped", Untyped)
    assert RunConfig(policy="untyped", params={"k": 5}).normalized().params == {"k": 5}
    assert RunConfig(policy="untyped", params={"k": "x"}).normalized().params == {"k": "x"}


# ---- 10. suspension overhead -------------------------------------------------------------


def test_run_ids_without_overhead_are_those_from_before_the_key():
    # Computed before `overhead` existed: adding the key must not move any old run.
    assert RunConfig().run_id() == "a3de95d61eaa93df"
    ss = RunConfig(
        workload="ctc",
        policy="ss",
        params={"sf": 1.5},
        month="1996-07",
        exact_estimates=True,
        load_factor=1.2,
    )
    assert ss.run_id() == "2510dd2dd36103b1"
    assert RunConfig(workload="ctc", policy="is", nodes=128, wide="drop").run_id() == (
        "f831596917374989"
    )
    assert "overhead" not in RunConfig().identity()
    assert RunConfig(overhead="none").run_id() == RunConfig().run_id()


def test_overhead_run_id_regression_value():
    assert RunConfig(overhead="memory").run_id() == "d9444629b2d1a70c"


@pytest.mark.parametrize(
    "spelling",
    [
        "memory",
        "MEMORY",
        {},
        {"low_mb": 100, "high_mb": 1000, "rate_mb_s": 2, "per": "job"},
        {"rate_mb_s": 2.0},
    ],
    ids=["memory", "upper-case", "empty-table", "paper-table", "one-key"],
)
def test_the_paper_overhead_has_one_spelling(spelling):
    config = RunConfig(first=N, overhead=spelling)
    assert config.overhead == "memory"
    assert config.run_id() == RunConfig(first=N, overhead="memory").run_id()
    assert config.memory_overhead() == MemoryOverhead()


def test_an_overhead_table_is_completed_with_the_paper_values():
    config = RunConfig(overhead={"rate_mb_s": 8, "per": "processor"})
    assert config.overhead == {
        "low_mb": 100.0,
        "high_mb": 1000.0,
        "rate_mb_s": 8.0,
        "per": "processor",
    }
    assert config.memory_overhead() == MemoryOverhead(rate_mb_s=8.0, per="processor")
    assert config.to_dict()["overhead"] == config.overhead
    assert config.run_id() == RunConfig(overhead={"per": "processor", "rate_mb_s": 8.0}).run_id()
    ids = {
        RunConfig(overhead=o).run_id()
        for o in (None, "memory", {"rate_mb_s": 8}, {"per": "processor"}, {"low_mb": 0})
    }
    assert len(ids) == 5


@pytest.mark.parametrize(
    ("value", "key", "why"),
    [
        ({"rate": 1}, "overhead.rate", "unknown key (known: low_mb, high_mb, rate_mb_s, per)"),
        ({"rate_mb_s": 0}, "overhead.rate_mb_s", "expected a positive number"),
        ({"rate_mb_s": float("inf")}, "overhead.rate_mb_s", "expected a positive number"),
        ({"low_mb": -1}, "overhead.low_mb", "expected a number of MB >= 0"),
        ({"high_mb": "1GB"}, "overhead.high_mb", "expected a number of MB >= 0"),
        ({"low_mb": True}, "overhead.low_mb", "expected a number"),
        ({"per": "node"}, "overhead.per", "expected 'job' or 'processor'"),
        ({"low_mb": 500, "high_mb": 200}, "overhead.high_mb", "expected at least low_mb"),
        ("disk", "overhead", "expected 'none', 'memory' or a table"),
        (True, "overhead", "expected 'none', 'memory' or a table"),
    ],
)
def test_bad_overhead_names_the_key(value, key, why):
    with pytest.raises(StudyError) as info:
        RunConfig.from_dict({"overhead": value}, "here")
    assert str(info.value).startswith(f"here: {key}: {why}")


def test_bad_overhead_in_a_toml_variant_names_file_variant_and_key(tmp_path):
    path = write_toml(
        tmp_path / "s.toml",
        """
        [base]
        first = 10
        [[variants]]
        policy = "easy"
        [[variants]]
        policy = "ss"
        overhead = { per = "node" }
        """,
    )
    message = runs_error(path)
    assert message.startswith(f"{path}: variants[2]: overhead.per: expected 'job' or")


def test_overhead_in_toml_base_variant_and_grid(tmp_path):
    path = write_toml(
        tmp_path / "s.toml",
        """
        [base]
        first = 10
        policy = "ss"
        [grid]
        overhead = ["none", "memory", { rate_mb_s = 8 }]
        [[variants]]
        label = "plain"
        [[variants]]
        label = "tss"
        policy = "tss"
        """,
    )
    runs = load_study(path).runs()
    assert [(r.label, r.config.overhead) for r in runs] == [
        ("plain", None),
        ("plain", "memory"),
        ("plain", {"low_mb": 100.0, "high_mb": 1000.0, "rate_mb_s": 8.0, "per": "job"}),
        ("tss", None),
        ("tss", "memory"),
        ("tss", {"low_mb": 100.0, "high_mb": 1000.0, "rate_mb_s": 8.0, "per": "job"}),
    ]
    assert len({r.id for r in runs}) == 6
    # "memory" and the paper's table spelled out are one run: a duplicate.
    dup = Study(base={"first": 10}, grid={"overhead": ["memory", {"per": "job"}]})
    assert "same run" in runs_error(dup)


def test_simulation_charges_the_configured_overhead():
    config = RunConfig(first=N, policy="ss", overhead={"rate_mb_s": 4})
    sim = config.simulation()
    assert sim.overhead == MemoryOverhead(rate_mb_s=4.0)
    result = sim.run()
    assert result.meta["overhead"] == repr(MemoryOverhead(rate_mb_s=4.0))
    assert result.jobs["suspensions"].sum() > 0
    assert result.jobs["overhead_time"].sum() > 0
    plain = RunConfig(first=N, policy="ss").simulation()
    assert plain.overhead is None
    assert plain.run().jobs["overhead_time"].sum() == 0


# ---- 11. the shipped studies of seeds 000 and 004 ---------------------------------------------

PAPERS = Path(__file__).resolve().parent.parent / "papers"


def test_seed000_study_covers_the_thesis_scenarios():
    study = load_study(PAPERS / "kettimuthu2003" / "study.toml")
    runs = study.runs()
    assert len(runs) == 183
    assert {r.config.workload.name for r in runs} == {"ctc"}
    assert {r.config.month for r in runs} == {"1996-07"}
    labels = ["NS", "SS sf=1.5", "SS sf=2", "SS sf=5", "TSS", "IS"]
    readings = [
        "SS sf=2 hold=top",
        "SS sf=2 hold=all",
        "SS sf=2 prefer=width",
        "SS sf=2 resumed=start",
    ]
    holds = readings[:2]
    # The readings combined (round 3): SS's hold with its other readings, TSS under each
    # hold (and with each reentry), and section 3.3's width formula.
    combined = [f"SS sf=2 hold={h} {o}" for o in ("prefer=width", "resumed=start")
                for h in ("top", "all")]  # fmt: skip
    formula = ["SS sf=2 width=formula", "SS sf=2 hold=all width=formula"]
    tss = [
        "TSS hold=top", "TSS hold=all",
        *(f"TSS hold={h} reentry={e}" for h in ("top", "all") for e in ("limit", "open")),
    ]  # fmt: skip

    def scenario(exact=False, overhead=None, load=0.8):
        # The thesis's normal load is load factor 0.8 here (the subset search).
        return [
            r.label
            for r in runs
            if (r.config.exact_estimates, r.config.overhead, r.config.load_factor)
            == (exact, overhead, load)
        ]

    assert scenario(exact=True) == [
        *labels, *readings, "TSS averages=thesis", "TSS reentry=limit", "TSS reentry=open",
        *tss, *combined, formula[0], "TSS width=formula", formula[1],
        "TSS hold=all width=formula",
    ]  # fmt: skip
    assert scenario() == [*labels, *readings, *combined, *formula]
    assert scenario(overhead="memory") == [
        "NS", "SS sf=2", "TSS", "IS", formula[0], *holds, formula[1],
    ]  # fmt: skip
    # The overhead with accurate estimates (the report's reading overhead=accurate): NS,
    # IS and every SS reading run with the overhead above, each also run without it.
    accurate = scenario(exact=True, overhead="memory")
    assert accurate == ["NS", "SS sf=2", "IS", formula[0], "SS sf=2 hold=top",
                        "SS sf=2 hold=all", formula[1]]  # fmt: skip
    assert set(accurate) <= set(scenario(exact=True))
    # The thesis's 1.1-1.6: both holds, resumed=start, the width formula alone and with
    # hold=all (and prefer=width at 1.6).
    series = ["IS", "NS", "SS sf=2", *holds, readings[3], *formula]
    for load in (0.88, 0.96, 1.04, 1.12, 1.2):
        assert sorted(scenario(load=load)) == sorted(series)
    assert sorted(scenario(load=1.28)) == sorted([*series, readings[2]])
    # The thesis's 1.8 (saturation): NS, SS, both holds and the width formula (alone and
    # with hold=all).
    assert sorted(scenario(load=1.44)) == sorted(["NS", "SS sf=2", *holds, *formula])
    # normal=1.0: the thesis's loads 1.0-1.8 from the original trace.
    for load in (1.0, 1.1, 1.3, 1.4, 1.5, 1.6, 1.8):
        assert sorted(scenario(load=load)) == ["IS", "NS", "SS sf=2"]
    # normal=0.75: the thesis's loads 1.0-1.8 from load factor 0.75 (its 1.6 is 1.2, above),
    # NS, IS and each SS reading that runs the load series.
    from_075 = sorted(["IS", "NS", "SS sf=2", *holds, *formula])
    for load in (0.75, 0.825, 0.9, 0.975, 1.05, 1.125, 1.35):
        assert sorted(scenario(load=load)) == from_075
    assert set(from_075) <= set(scenario(load=1.2))
    # Every label says its readings: each word after "SS sf=2" or "TSS" is a parameter.
    for r in runs:
        words = r.label.split()[2:] if r.label.startswith("SS sf=2") else r.label.split()[1:]
        if r.label.startswith(("SS sf=2", "TSS")):
            for word in words:
                key, value = word.split("=")
                assert r.config.params[key] == value, r.label
    policies = {r.label: (r.config.policy.name, r.config.params.get("sf")) for r in runs}
    assert policies["NS"] == ("easy", None) and policies["IS"] == ("is", None)
    assert policies["SS sf=1.5"] == ("ss", 1.5) and policies["TSS"] == ("tss", 2.0)
    assert runs[0].config.params == {"order": "fcfs"}  # NS: FCFS priority
    categories = study.report["categories"]
    assert categories["schemes"] == ["16", "4"]
    assert categories["estimates"] == ["all", "well", "poor"]


def test_seed004_study_is_the_papers_grid():
    from schedsim.app import registry

    if "pfcfs1" not in registry.names():  # pragma: no cover - policies/gang.py not there yet
        pytest.skip("the pfcfs policies are not registered")
    study = load_study(PAPERS / "schwiegelshohn1998" / "study.toml")
    runs = study.runs()
    # FCFS, and PFCFS1-3 under each reading of the queue, with every job preempted, with
    # the greedy's other orders and with the wide jobs' wait counted from submission (the
    # queue waiting and moving); FCFS and PFCFS1-3 under both queue readings again with
    # the jobs' full run times (kill_at_estimate = false).
    assert len(runs) == (10 + 6 + 9 + 6 + 7) * 2 * 11
    orders = ("all", "narrowest", "newest")
    labels = {f"pfcfs{k}-{q}" for k in (1, 2, 3)
              for q in ("waits", "moves", *orders, *(f"moves-{o}" for o in orders),
                        "waits-submit", "moves-submit",
                        "waits-nokill", "moves-nokill")}  # fmt: skip
    assert {r.label for r in runs} == {"fcfs", "fcfs-nokill", *labels}
    for r in runs:
        nokill = r.label.endswith("-nokill")
        assert r.config.kill_at_estimate is not nokill
        reading = r.label.removesuffix("-nokill").split("-", 1)[1:]
        if not r.label.startswith("fcfs"):
            queue, _, order = reading[0].partition("-")
            if queue in orders:  # "pfcfs1-all": the queue waits
                queue, order = "waits", queue
            submit = order == "submit"
            assert r.config.params["queue_in_cycle"] == queue
            assert r.config.params["preempt"] == ("greedy" if submit or not order else order)
            assert r.config.params["wait_from"] == ("submit" if submit else "head")
    assert {r.config.nodes for r in runs} == {128, 256}
    months = sorted({r.config.month for r in runs})
    assert months[0] == "1996-07" and months[-1] == "1997-05" and len(months) == 11
    assert all(r.config.wide == "drop" for r in runs)
    assert all(r.config.params.get("penalty", 0.0) == 0.0 for r in runs)
    assert study.report == {
        "metrics": ["makespan", "weighted_completion_time", "weighted_flow_time"],
        "baseline": "fcfs",
        "kind": "percent",
        "x": "none",
        "paper": "schwiegelshohn1998",
    }


# ---- bounds on size-like and time-scaling values ------------------------------------

#: (configuration, key the error names, what it says it expects): one value past each
#: bound of schedsim.app.limits.
BEYOND = [
    ({"users": 10, "days": 1e9}, "days", "a number of days from 0.0417 (an hour) to 36,525"),
    ({"users": 10, "days": float("inf")}, "days", "a number of days from 0.0417"),
    ({"users": 10, "days": 1e-300}, "days", "a number of days from 0.0417 (an hour)"),
    ({"users": 10**6}, "users", "a positive number of users, at most 100,000"),
    ({"workload": "lublin", "jobs": 10**8}, "jobs", "a positive number of jobs, at most"),
    ({"first": 10**8}, "first", "a positive number of jobs, at most 10,000,000"),
    ({"load_factor": 1e-300}, "load_factor", "a positive number from 0.001 to 1000"),
    ({"load_factor": 1e4}, "load_factor", "a positive number from 0.001 to 1000"),
    ({"reservations": 0.1, "reservation_lead": 1e9}, "reservation_lead",
     "a number of seconds from 0 to 3.1536e+07 (a year)"),
    ({"users": 10, "max_runtime": 1e9}, "max_runtime", "a positive number of seconds, at most"),
    ({"workload": "lublin", "lublin_alpha": 1.0}, "lublin_alpha", "a number from 5.23 to 20.92"),
    ({"workload": "lublin", "lublin_alpha": 100}, "lublin_alpha", "a number from 5.23"),
    ({"nodes": 2**25}, "nodes", "33,554,432 nodes x 1 cores per node = 33,554,432 cores: more "
     "than the 16,777,216 (2**24)"),
    ({"nodes": 2**12, "cores_per_node": 2**13}, "nodes", "4,096 nodes x 8,192 cores per node"),
    ({"cores_per_node": 2**25}, "cores_per_node", "33,554,432 cores per node: more than"),
    ({"workload": "lublin", "cores_per_node": 2**18}, "cores_per_node",
     "128 nodes x 262,144 cores per node"),
    ({"estimates": "f:5000"}, "estimates", "f:F with F at most 1000"),
    ({"estimates": "tsafrir:1e9+crash"}, "estimates", "f:F with F at most 1000, tsafrir:MAX"),
    ({"overhead": {"high_mb": 1e7}}, "overhead.high_mb", "a number of MB >= 0, at most 1e+06"),
    ({"overhead": {"low_mb": 2e6, "high_mb": 3e6}}, "overhead.low_mb", "a number of MB >= 0"),
    ({"overhead": {"rate_mb_s": 1e-300}}, "overhead.rate_mb_s",
     "a positive number of MB/s, at least 0.1"),
]  # fmt: skip


@pytest.mark.parametrize(("values", "key", "what"), BEYOND, ids=[f"{k}-{i}" for i, (_, k, _) in
                         enumerate(BEYOND)])  # fmt: skip
def test_a_value_beyond_its_bound_is_a_one_line_error_naming_the_key(values, key, what):
    with pytest.raises(StudyError) as info:
        RunConfig.from_dict(values, "here")
    message = str(info.value)
    assert message.startswith(f"here: {key}: expected {what}") or message.startswith(
        f"here: {key}: {what}"
    ), message
    assert "\n" not in message


@pytest.mark.parametrize(
    "values",
    [
        {"users": 100_000, "days": 36_525},
        {"workload": "lublin", "jobs": 10_000_000, "lublin_alpha": 20.92},
        {"load_factor": 0.001},
        {"load_factor": 1000},
        {"reservations": 0.1, "reservation_lead": 365 * 86400},
        {"users": 10, "max_runtime": float("inf")},
        {"nodes": 2**12, "cores_per_node": 2**12},
        {"estimates": "f:1000"},
        {"estimates": "tsafrir:8760h"},
        {"overhead": {"low_mb": 1e6, "high_mb": 1e6, "rate_mb_s": 0.1}},
    ],
)
def test_values_at_their_bounds_are_accepted(values):
    RunConfig.from_dict(values)


def test_a_load_factor_that_stretches_times_past_2_43_s_names_the_key(tmp_path):
    trace = tmp_path / "late.swf"
    trace.write_text(
        "; MaxProcs: 4\n"
        "1 0 -1 10 1 -1 -1 1 10 -1 1 1 1 1 1 1 -1 -1\n"
        "2 20000000000 -1 10 1 -1 -1 1 10 -1 1 1 1 1 1 1 -1 -1\n"
    )
    config = RunConfig(workload=str(trace), load_factor=0.001)
    with pytest.raises(StudyError, match=r"^load_factor: 0.001 stretches the workload's times "):
        config.build_workload()
    assert len(RunConfig(workload=str(trace), load_factor=0.01).build_workload()) == 2


def test_the_command_line_refuses_days_without_end(tmp_path, capsys):
    from schedsim.app.cli import main

    code = main(["run", "--users", "10", "--days", "1e9", "--out", str(tmp_path / "o")])
    err = capsys.readouterr().err.strip()
    assert code == 2 and "\n" not in err and "days" in err and "36,525" in err
    assert not (tmp_path / "o" / "summary.json").exists()


# ---- study files: empty, and the report's metrics -------------------------------------


@pytest.mark.parametrize(
    "text",
    ["", "\n# nothing\n", "[study]\nname = 'x'\n", "[report]\nmetrics = ['utilization']\n",
     "[base]\n"],
)  # fmt: skip
def test_a_study_that_describes_no_run_is_refused(tmp_path, text):
    path = write_toml(tmp_path / "empty.toml", text)
    with pytest.raises(StudyError, match=r"empty\.toml: the study describes no run"):
        load_study(path)


def test_an_unknown_report_metric_is_refused_when_the_study_loads(tmp_path):
    path = write_toml(
        tmp_path / "s.toml", "[base]\nfirst = 9\n[report]\nmetrics = ['utilization', 'slowdwon']\n"
    )
    with pytest.raises(StudyError) as info:
        load_study(path)
    message = str(info.value)
    assert message.startswith(f"{path}: report.metrics: unknown metric 'slowdwon' (known: ")
    assert "mean_bounded_slowdown" in message and "daily_throughput" in message
    assert "\n" not in message


def test_report_metrics_are_named_as_the_report_names_their_columns(tmp_path):
    # ``jobs`` and ``days`` are configuration keys too: their summary entries are the
    # runs table's ``summary.jobs`` and ``summary.days`` (schedsim.app.report.reading).
    ok = Study(base={"first": 9}, report={"metrics": ["summary.jobs", "abort_share"]})
    assert ok.report["metrics"] == ["summary.jobs", "abort_share"]
    with pytest.raises(StudyError, match=r"report\.metrics: unknown metric 'jobs'"):
        Study(base={"first": 9}, report={"metrics": ["jobs"]})


def test_the_known_metrics_are_every_entry_of_a_summary():
    from schedsim.app.report.quantities import SUMMARY_METRICS

    config = RunConfig(first=50)
    keys = set(config.simulation().run().summary())
    closed = set(RunConfig(users=3, days=1).simulation().run().summary())
    partial = config.simulation().run(until=config.build_workload()[25].submit).summary()
    outages = set(RunConfig(first=50, failures="mtbf=10d,repair=1h").simulation().run().summary())
    assert "unfinished" in partial and "node_failures" in outages
    assert set(SUMMARY_METRICS) == keys | closed | set(partial) | outages


def test_shipped_studies_pass_the_report_check():
    # studies/example.toml and machines.toml, and the papers' own (papers/<paper>/*.toml).
    paths = sorted([*(PAPERS.parent / "studies").glob("*.toml"), *PAPERS.glob("*/*.toml")])
    # feitelson2009 has study-longer.toml, study-night.toml and study-night-alpha.toml too;
    # zeng2009 study-rounding, -alpha-w2, -contention, -ns and -pairs
    assert len(paths) == 18
    for path in paths:
        load_study(path)
