"""Run identity (schedsim.app.study.RunConfig.run_id): complete, stable, and recorded.

Two configurations that give different schedules must have different ids (a
sweep names and resumes runs by them), and equal ones (a default spelled out
or not) the same id. Every configuration key and every parameter of the
parameter tables (``workload_params``, ``contention_params``, ``user_params``)
has an alternative value below; a key added later fails
`test_every_key_has_an_alternative_value` until it gets one.
"""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path
from typing import Any

import pandas as pd
import pytest

from schedsim.app.param_tables import (
    CONTENTION_PARAMS,
    USER_PARAMS,
    WORKLOAD_PARAMS,
    ParamTable,
)
from schedsim.app.study import CONFIG_KEYS, RunConfig, Study, StudyError
from schedsim.model.sources import EPOCH

N = 300  # jobs: fast, yet a real queue

DATA = Path(__file__).parent / "data"
OPEN = {"workload": "kth", "first": N}
CLOSED = {"workload": "kth", "users": 10}
LUBLIN = {"workload": "lublin", "jobs": N}
ZENG_W1 = {"workload": "zeng-w1", "jobs": N}
ZENG_W2 = {"workload": "zeng-w2", "jobs": N}
RESERVED = {**OPEN, "reservations": 0.05}
STATISTICAL = {**ZENG_W1, "contention": "statistical", "kill_at_estimate": False}
FAILING = {**OPEN, "failures": "mtbf=30d,repair=4h"}
TWO_PARTITIONS = {
    "group": [
        {"name": "thin", "nodes": 90, "memory": "128M"},
        {"name": "fat", "nodes": 10, "memory": "1G"},
    ],
    "partition": [
        {"name": "batch", "groups": ["thin", "fat"], "default": True},
        {"name": "bigmem", "groups": ["fat"]},
    ],
}
LARGE = {**OPEN, "machine": TWO_PARTITIONS, "large_memory": 0.1,
         "large_memory_partition": "bigmem"}  # fmt: skip

#: Every configuration key: (a configuration it applies to, another value of it).
KEY_CHANGES: dict[str, tuple[dict[str, Any], Any]] = {
    "workload": (OPEN, "ctc"),
    "month": (OPEN, "1996-10"),
    "first": (OPEN, N + 1),
    "exact_estimates": (OPEN, True),
    "load_factor": (OPEN, 1.2),
    "policy": (OPEN, "fcfs"),
    "params": (OPEN, {"order": "sjf"}),
    "nodes": (OPEN, 64),
    "cores_per_node": (OPEN, 2),
    "kill_at_estimate": (OPEN, False),
    "wide": (OPEN, "drop"),
    "overhead": (OPEN, "memory"),
    "warmup": (OPEN, 10),
    "cooldown": (OPEN, 0.1),
    "seed": (OPEN, 7),
    "estimates": (OPEN, "f:1"),
    "users": (OPEN, 10),
    "days": (CLOSED, 3),
    "daily_cycle": (CLOSED, False),
    "weekdays": (CLOSED, [0, 1, 2, 3, 4]),
    "max_runtime": (CLOSED, 7200),
    "jobs": (LUBLIN, N + 1),
    "lublin_alpha": (LUBLIN, 9.83),
    "limit_in": (OPEN, "work"),
    "pieces": (OPEN, False),
    "log_decisions": (OPEN, True),
    "strict": (OPEN, True),
    "log_reservations": (OPEN, True),
    "priorities": (OPEN, 0.75),
    "reservations": (OPEN, 0.05),
    "reservation_lead": (RESERVED, 600.0),
    "contention": (OPEN, "statistical"),
    "max_runtime_as": (CLOSED, "cap"),
    "workload_params": (LUBLIN, {"start_hour": 6.0}),
    "contention_params": (STATISTICAL, {"mates": "product"}),
    "user_params": (CLOSED, {"min_jobs": 10}),
    "user_logs": (CLOSED, ["kth", "sdsc-sp2"]),
    "machine": (OPEN, {"group": [{"name": "sp2", "nodes": 100, "memory": "128M"}]}),
    "failures": (OPEN, "mtbf=30d,repair=4h"),
    "outages": (OPEN, str(DATA / "outages.txt")),
    "on_failure": (FAILING, "lose"),
    "large_memory": (LARGE, 0.2),
    "large_memory_partition": (LARGE, "batch"),
}

_ZENG = {"alpha_means": "shape", "rounding": "nodes", "max_sl": 1.3, "self_sl2": 1.2}
#: Every parameter table (key, and the workload for workload_params): (a configuration
#: it applies to, another value of each of its parameters).
TABLE_CHANGES: dict[tuple[str, str], tuple[dict[str, Any], dict[str, Any]]] = {
    ("workload_params", "lublin"): (LUBLIN, {"job_types": False, "start_hour": 6.0}),
    ("workload_params", "zeng-w1"): (ZENG_W1, _ZENG),
    ("workload_params", "zeng-w2"): (ZENG_W2, _ZENG),
    ("contention_params", "statistical"): (
        STATISTICAL,
        {"cpus_per_node": 1, "mates": "product", "self_and_cos": "max", "pair": "symmetric"},
    ),
    ("user_params", "users"): (
        CLOSED,
        {
            "session_gap": 600.0,
            "max_break": 3600.0,
            "min_jobs": 50,
            "day_start": 7.0,
            "day_end": 19.0,
            "arrive_until": 9.0,
            "unix_start_time": EPOCH + 86400,
            "response_unit": "seconds",
            "continue_at_zero": 0.7,
            "continue_slope": 0.1,
        },
    ),
}

#: The tables the project has, keyed as `TABLE_CHANGES` is.
TABLES: dict[tuple[str, str], ParamTable] = {
    **{("workload_params", name): table for name, table in WORKLOAD_PARAMS.items()},
    ("contention_params", "statistical"): CONTENTION_PARAMS,
    ("user_params", "users"): USER_PARAMS,
}

PARAM_CASES = [
    (key, context, name, value)
    for (key, context), (_, values) in TABLE_CHANGES.items()
    for name, value in values.items()
]
PARAM_IDS = [f"{key}-{context}-{name}" for key, context, name, _ in PARAM_CASES]


def with_param(base: dict[str, Any], key: str, name: str, value: Any) -> RunConfig:
    return RunConfig(**base, **{key: {name: value}})


# ---- every key and every parameter changes the id ----------------------------------


def test_every_key_has_an_alternative_value():
    assert set(KEY_CHANGES) == set(CONFIG_KEYS)


def test_every_table_parameter_has_an_alternative_value():
    assert set(TABLE_CHANGES) == set(TABLES)
    for where, table in TABLES.items():
        assert set(TABLE_CHANGES[where][1]) == set(table.params), where


@pytest.mark.parametrize(("key", "change"), KEY_CHANGES.items(), ids=list(KEY_CHANGES))
def test_changing_any_key_changes_the_id(key, change):
    base, value = change
    config = RunConfig(**base)
    assert dataclasses.replace(config, **{key: value}).run_id() != config.run_id()


@pytest.mark.parametrize(("key", "context", "name", "value"), PARAM_CASES, ids=PARAM_IDS)
def test_changing_any_table_parameter_changes_the_id(key, context, name, value):
    base = TABLE_CHANGES[key, context][0]
    assert with_param(base, key, name, value).run_id() != RunConfig(**base).run_id()


@pytest.mark.parametrize(("key", "context", "name", "value"), PARAM_CASES, ids=PARAM_IDS)
def test_a_default_spelled_out_keeps_the_id(key, context, name, value):
    base = TABLE_CHANGES[key, context][0]
    default = TABLES[key, context].params[name].default
    plain = RunConfig(**base).run_id()
    assert with_param(base, key, name, default).run_id() == plain
    # As the command line gives it: a string, converted by the type hint.
    assert with_param(base, key, name, str(default)).run_id() == plain


def test_an_int_for_a_float_parameter_is_the_same_run():
    a = with_param(LUBLIN, "workload_params", "start_hour", 6)
    assert a.run_id() == with_param(LUBLIN, "workload_params", "start_hour", 6.0).run_id()
    assert a.workload_params == {"start_hour": 6.0}


def test_normalized_completes_the_tables_and_identity_keeps_what_moved():
    config = RunConfig(**CLOSED, user_params={"min_jobs": 10})
    normalized = config.normalized()
    assert normalized.user_params == {**USER_PARAMS.defaults(), "min_jobs": 10}
    assert normalized.run_id() == config.run_id()
    assert config.identity()["user_params"] == {"min_jobs": 10}
    assert "user_params" not in RunConfig(**CLOSED).identity()
    # A table that does not apply stays empty.
    assert RunConfig(**OPEN).normalized().user_params == {}
    # Without the daily cycle its parameters are not the run's.
    off = RunConfig(**CLOSED, daily_cycle=False).normalized().user_params
    assert "day_start" not in off and off["session_gap"] == 1200.0


#: (configuration, its id before the parameter tables existed): runs of the shipped
#: studies (studies/*.toml) and others, computed with the code before the tables.
KNOWN_IDS = [
    ({"workload": "kth", "first": 200}, "1821eac48c71f5ec"),
    (LUBLIN, "386cf65c274cc17d"),
    (CLOSED, "dbae1b457874d937"),
    ({**CLOSED, "daily_cycle": False, "days": 3}, "4f0cd24223b6aa33"),
    ({**STATISTICAL, "jobs": N}, "0014e621a45ded98"),
    (
        {"first": 10000, "load_factor": 1.0, "policy": "fcfs", "nodes": 100, "seed": 2575998552},
        "c3ec8cbfa9a63ab5",
    ),
    (
        {"workload": "ctc", "month": "1996-07", "exact_estimates": True, "load_factor": 0.8,
         "params": {"order": "fcfs"}, "nodes": 430, "seed": 1538491980},
        "b3dfa0bc600d4cd4",
    ),
    (
        {"workload": "ctc", "load_factor": 1.0, "policy": "singlequeue", "seed": 4251232594,
         "params": {"speculation": True, "speculate_above": 1000.0, "speculative_limit": 180.0,
                    "guard": "all"}},
        "5d37c25c79ef530c",
    ),
    (
        {"policy": "creasy", "params": {"alpha": 0.0}, "seed": 2415293818, "users": 50,
         "days": 14.0, "daily_cycle": True, "max_runtime_as": "cap"},
        "579245ff10c54ccc",
    ),
    (
        {"exact_estimates": True, "policy": "creasy", "params": {"alpha": 6000.0},
         "seed": 2415293818, "users": 250, "days": 14.0, "daily_cycle": False,
         "max_runtime_as": "cap"},
        "f3a06d084956d7fd",
    ),
    (
        {"workload": "zeng-w1", "policy": "scojo", "params": {"inner": "ssp"},
         "kill_at_estimate": False, "seed": 258796851, "contention": "statistical"},
        "d341ca2751d09228",
    ),
    (
        {"workload": "zeng-w2", "policy": "scojo", "params": {"inner": "glts-ns", "block_size": 32},
         "kill_at_estimate": False, "seed": 3637446246, "contention": "statistical"},
        "122704357f0f11bb",
    ),
    (
        {"workload": "ctc", "month": "1996-07", "policy": "fcfs", "nodes": 128, "wide": "drop",
         "seed": 2141739898},
        "c1f0a7fc288ae4bd",
    ),
]  # fmt: skip


@pytest.mark.parametrize(("values", "known"), KNOWN_IDS)
def test_ids_from_before_the_tables_are_unchanged(values, known):
    assert RunConfig(**values).run_id() == known


# ---- the parameters reach what they change -------------------------------------------


def built(config: RunConfig) -> Any:
    """What the run is made of, as far as the parameter tables reach it."""
    if config.users is not None:
        pop = config.population()
        model = pop.model
        return (model.session_gap, tuple(model.breaks), len(model.pools), pop.cycle,
                pop.unix_start_time, model.continuation)  # fmt: skip
    contention = config.contention_model()
    w = config.build_workload()
    return w.header, w.jobs, repr(contention)


@pytest.mark.parametrize(("key", "context", "name", "value"), PARAM_CASES, ids=PARAM_IDS)
def test_every_table_parameter_reaches_the_run(key, context, name, value):
    base = TABLE_CHANGES[key, context][0]
    assert built(with_param(base, key, name, value)) != built(RunConfig(**base))


def test_alpha_as_the_shape_is_another_schedule_and_another_run():
    base = {**ZENG_W1, "policy": "easy", "kill_at_estimate": False}
    aarr = RunConfig(**base)
    shape = RunConfig(**base, workload_params={"alpha_means": "shape"})
    assert shape.run_id() != aarr.run_id()
    a, b = aarr.simulation().run().jobs, shape.simulation().run().jobs
    assert not a[["submit", "start", "end"]].equals(b[["submit", "start", "end"]])


def test_the_contention_parameters_reach_the_model():
    config = RunConfig(**STATISTICAL, contention_params=TABLE_CHANGES[
        "contention_params", "statistical"][1])  # fmt: skip
    model = config.contention_model()
    assert (model.cpus_per_node, model.mates, model.self_and_cos, model.pair) == (
        1, "product", "max", "symmetric")  # fmt: skip


# ---- a table that does not apply, a bad parameter -----------------------------------


@pytest.mark.parametrize(
    ("values", "key", "why"),
    [
        ({**OPEN, "workload_params": {"rounding": "nodes"}}, "workload_params",
         "applies only to a generated workload"),
        ({**OPEN, "contention_params": {"mates": "max"}}, "contention_params",
         'applies only with contention = "statistical"'),
        ({**OPEN, "user_params": {"min_jobs": 3}}, "user_params",
         "applies only to a closed-loop run"),
        ({**CLOSED, "daily_cycle": False, "user_params": {"day_start": 7}},
         "user_params.day_start", "applies only with the daily cycle on"),
        ({**LUBLIN, "workload_params": {"rounding": "nodes"}}, "workload_params.rounding",
         "unknown key (known: job_types, start_hour)"),
        ({**LUBLIN, "workload_params": {"alpha": 9}}, "workload_params.alpha",
         "not settable here (the configuration key lublin_alpha sets it"),
        ({**ZENG_W1, "workload_params": {"n_jobs": 9}}, "workload_params.n_jobs",
         "not settable here (the configuration key jobs sets it"),
        ({**STATISTICAL, "contention_params": {"stream_name": "x"}},
         "contention_params.stream_name", "not settable here"),
        ({**STATISTICAL, "contention_params": {"pairs": {}}}, "contention_params.pairs",
         "not settable here (its value is a"),
        ({**ZENG_W1, "workload_params": {"rounding": "up"}}, "workload_params.rounding",
         "expected one of 'pow2', 'nodes', 'processes', got 'up'"),
        ({**LUBLIN, "workload_params": {"job_types": "maybe"}}, "workload_params.job_types",
         "expected true or false, got 'maybe'"),
        ({**LUBLIN, "workload_params": {"start_hour": 24}}, "workload_params.start_hour",
         "expected an hour in [0, 24), got 24"),
        ({**LUBLIN, "workload_params": {"start_hour": "nan"}}, "workload_params.start_hour",
         "expected an hour in [0, 24)"),
        ({**ZENG_W1, "workload_params": {"max_sl": 10}}, "workload_params.max_sl",
         "expected a slowdown in [0.5, 4], got 10"),
        ({**CLOSED, "user_params": {"min_jobs": 0}}, "user_params.min_jobs",
         "expected a positive number of jobs"),
        ({**CLOSED, "user_params": {"min_jobs": 1.5}}, "user_params.min_jobs",
         "expected an integer, got 1.5"),
        ({**CLOSED, "user_params": {"session_gap": 1e9}}, "user_params.session_gap",
         "expected a number of seconds above 0, at most 604800 (a week)"),
        ({**CLOSED, "user_params": {"session_gap": 30000}}, "user_params.session_gap",
         "expected session_gap < max_break"),
        ({**CLOSED, "user_params": {"day_start": 11}}, "user_params.day_start",
         "expected day_start <= arrive_until <= day_end"),
        ({**CLOSED, "user_params": {"unix_start_time": EPOCH + 3600}},
         "user_params.unix_start_time", "expected a UTC midnight"),
        ({**STATISTICAL, "contention_params": {"cpus_per_node": 3}},
         "contention_params.cpus_per_node", "3 CPUs cannot share the 4 cores of a node"),
        ({**STATISTICAL, "contention_params": ["mates"]}, "contention_params",
         "expected a table of parameters"),
    ],
)  # fmt: skip
def test_a_bad_table_is_a_one_line_error_naming_its_key(values, key, why):
    with pytest.raises(StudyError) as info:
        RunConfig.from_dict(values, "here")
    message = str(info.value)
    assert message.startswith(f"here: {key}: {why}"), message
    assert "\n" not in message


def test_a_grid_varies_a_table_parameter_and_a_variant_merges_over_the_base():
    study = Study(
        base={**LUBLIN, "workload_params": {"start_hour": 6}},
        grid={"workload_params.job_types": [True, False]},
        variants=[{"label": "a"}, {"label": "b", "workload_params": {"start_hour": 12}}],
    )
    runs = study.runs()
    assert [r.config.workload_params for r in runs] == [
        {"job_types": True, "start_hour": 6.0},
        {"job_types": False, "start_hour": 6.0},
        {"job_types": True, "start_hour": 12.0},
        {"job_types": False, "start_hour": 12.0},
    ]
    assert len({r.id for r in runs}) == 4


def test_a_toml_grid_of_a_table_parameter(tmp_path):
    from schedsim.app.study import load_study

    path = tmp_path / "s.toml"
    path.write_text(
        '[base]\nworkload = "zeng-w1"\njobs = 300\n'
        '[grid]\nworkload_params.alpha_means = ["aarr", "shape"]\n'
    )
    runs = load_study(path).runs()
    assert [r.config.workload_params["alpha_means"] for r in runs] == ["aarr", "shape"]
    path.write_text('[base]\nworkload = "zeng-w1"\n[grid]\nworkload_params = ["x"]\n')
    with pytest.raises(StudyError, match=r"grid\.workload_params: give one list per parameter"):
        load_study(path)


# ---- keys named as the user wrote them -----------------------------------------------

NAMES = {
    "nodes": "--nodes",
    "kill_at_estimate": "--keep-run-times",
    "overhead.rate_mb_s": "--overhead-rate",
    "workload_params": "--workload-param",
    "policy": "--policy",
    "params": "--param",
    "days": "--days",
}


@pytest.mark.parametrize(
    ("values", "start"),
    [
        ({"nodes": 0}, "--nodes: expected a positive integer"),
        ({"kill_at_estimate": "no"}, "--keep-run-times: expected true or false"),
        ({"overhead": {"rate_mb_s": 0}}, "--overhead-rate: expected a positive number of MB/s"),
        ({**LUBLIN, "workload_params": {"start_hour": 30}}, "--workload-param start_hour: "),
        (
            {**CLOSED, "days": 1e9},
            "--days: expected a number of days from 0.0417 (an hour) to 36,525",
        ),
        ({"first": 0}, "first: expected"),  # not in the mapping: the key itself
        ({"bogus": 1}, "bogus: unknown key"),
    ],
)
def test_errors_spell_the_key_as_the_user_wrote_it(values, start):
    with pytest.raises(StudyError) as info:
        RunConfig.from_dict(values, names=NAMES)
    assert str(info.value).startswith(start), str(info.value)
    with pytest.raises(StudyError) as info:
        RunConfig.from_dict(values, "file.toml: base", names=NAMES)
    assert str(info.value).startswith(f"file.toml: base: {start}"), str(info.value)


def test_later_errors_of_the_configuration_keep_the_spelling(tmp_path):
    config = RunConfig.from_dict({"policy": "nosuch"}, names=NAMES)
    with pytest.raises(StudyError, match=r"^--policy: unknown policy 'nosuch'"):
        config.run_id()
    config = RunConfig.from_dict({"params": {"bogus": 1}}, names=NAMES)
    with pytest.raises(StudyError, match=r"^--param: policy easy has no parameter 'bogus'"):
        config.simulation()
    missing = str(tmp_path / "missing.swf")
    config = RunConfig.from_dict({"workload": missing}, names={"workload": "--workload"})
    with pytest.raises(StudyError, match=r"^--workload: "):
        config.run_id()
    # Without names, the configuration's own key; the spelling is no part of the run.
    with pytest.raises(StudyError, match=r"^policy: unknown policy"):
        RunConfig(policy="nosuch").run_id()
    assert RunConfig.from_dict(OPEN, names=NAMES) == RunConfig(**OPEN)


def test_an_error_carries_its_key_for_callers_that_spell_it_themselves():
    with pytest.raises(StudyError) as info:
        RunConfig(nodes=-1)
    assert info.value.key == "nodes" and info.value.why.startswith("expected a positive")


# ---- the result records the run ------------------------------------------------------


def test_the_summary_records_the_run_id_and_the_configuration(tmp_path):
    config = RunConfig(**LUBLIN, policy="fcfs", workload_params={"start_hour": 6})
    result = config.simulation().run()
    normalized = config.normalized()
    assert result.meta["run_id"] == config.run_id()
    assert result.meta["config"] == normalized.to_dict()
    result.save(tmp_path / "out")
    meta = json.loads((tmp_path / "out" / "summary.json").read_text())["meta"]
    assert meta["run_id"] == config.run_id()
    # The recorded configuration is the run: read back, it has the same id.
    assert RunConfig.from_dict(meta["config"]).run_id() == meta["run_id"]
    assert meta["config"]["workload_params"] == {"job_types": True, "start_hour": 6.0}


def test_a_sweeps_summaries_carry_the_id_of_their_folder(tmp_path):
    from schedsim.app.sweep import sweep

    study = Study(base=OPEN, grid={"policy": ["fcfs", "easy"]}, replications=2)
    sweep(study, tmp_path, workers=0)
    folders = sorted((tmp_path / "runs").iterdir())
    assert len(folders) == 4
    for folder in folders:
        meta = json.loads((folder / "summary.json").read_text())["meta"]
        assert meta["run_id"] == folder.name
        config = json.loads((folder / "config.json").read_text())["config"]
        assert meta["config"] == config


def test_meta_given_to_a_simulation_is_merged_and_may_not_replace_the_models():
    from schedsim import Simulation
    from schedsim.workloads.catalog import load
    from schedsim.workloads.transforms import first

    w = first(load("kth"), 50)
    result = Simulation(w, "fcfs", meta={"study": "mine"}).run()
    assert result.meta["study"] == "mine" and result.meta["policy"] == "fcfs"
    with pytest.raises(ValueError, match=r"model's own meta keys \['seed'\]"):
        Simulation(w, "fcfs", meta={"seed": 3}).run()
    with pytest.raises(TypeError, match="meta must be a mapping"):
        Simulation(w, "fcfs", meta=[("a", 1)])  # type: ignore[arg-type]
    partial = Simulation(w, "fcfs", meta={"study": "mine"}).run(until=w[10].submit)
    assert partial.meta["study"] == "mine"
    pd.testing.assert_frame_equal(
        Simulation(w, "fcfs", meta={"study": "mine"}).run().jobs, Simulation(w, "fcfs").run().jobs
    )


def test_every_numeric_table_parameter_has_an_axis_with_its_unit():
    from schedsim.app.report.quantities import CONFIG_AXES

    for (key, _), table in TABLES.items():
        for name, param in table.params.items():
            if param.hint in (int, float):
                assert CONFIG_AXES.get(f"{key}.{name}", ("", ""))[1], (key, name)
