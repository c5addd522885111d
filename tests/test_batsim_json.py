"""Batsim's JSON workloads (schedsim.workloads.batsim_json): reading, refusing, writing.

The reader is checked on a file laid out as Batsim's documented example workloads
(``nb_res``, jobs with ``id``, ``subtime``, ``walltime``, ``res`` and ``profile``,
delay profiles), written out here by hand; on each kind of id Batsim accepts; and on
every refusal, whose message must be one line naming the file, the job and the
field. The writer is checked against the plain ``json`` module (an independent
reader), on a slice of the shipped KTH log, and by a round trip on random workloads.
"""

from __future__ import annotations

import gzip
import json
import math
import pickle
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from schedsim.workloads import catalog
from schedsim.workloads.batsim_json import (
    STEP_RENUMBERED,
    BatsimJSONError,
    read_batsim_json,
    write_batsim_json,
)
from schedsim.workloads.job import Job
from schedsim.workloads.swf import STEP_NO_ESTIMATE
from schedsim.workloads.transforms import first
from schedsim.workloads.workload import Workload

#: A workload as Batsim's documentation and example workloads lay one out: integer
#: ids, times in seconds, one walltime of -1 (no limit), delay profiles shared by jobs.
DOCUMENTED = """\
{
    "nb_res": 4,
    "jobs": [
        {"id": 0, "subtime": 0, "walltime": 100, "res": 4, "profile": "delay10"},
        {"id": 1, "subtime": 3, "walltime": 100, "res": 1, "profile": "delay10"},
        {"id": 2, "subtime": 6.5, "walltime": 20.25, "res": 2, "profile": "delay20.25"},
        {"id": 3, "subtime": 9, "walltime": -1, "res": 1, "profile": "delay10"}
    ],

    "profiles": {
        "delay10": {
            "type": "delay",
            "delay": 10
        },
        "delay20.25": {
            "type": "delay",
            "delay": 20.25
        }
    }
}
"""


def write(tmp_path: Path, doc: Any, name: str = "w.json") -> Path:
    path = tmp_path / name
    path.write_text(doc if isinstance(doc, str) else json.dumps(doc), encoding="utf-8")
    return path


def workload_doc(*jobs: dict[str, Any], **top: Any) -> dict[str, Any]:
    """A workload of ``jobs`` (each a delay job of 10 s on one resource unless it says
    otherwise) and its profiles; ``top`` adds or replaces top-level fields."""
    entries = []
    for k, job in enumerate(jobs):
        entry = {"id": str(k + 1), "subtime": k, "walltime": 100, "res": 1, "profile": "d10"}
        entry.update(job)
        entries.append({key: value for key, value in entry.items() if value is not DROP})
    doc = {
        "nb_res": 8,
        "jobs": entries,
        "profiles": {"d10": {"type": "delay", "delay": 10}},
    }
    doc.update(top)
    return {key: value for key, value in doc.items() if value is not DROP}


#: A field to leave out (`workload_doc`).
DROP = object()


# -- reading ------------------------------------------------------------------------


def test_reads_a_workload_laid_out_as_batsims_examples(tmp_path: Path) -> None:
    w = read_batsim_json(write(tmp_path, DOCUMENTED, "test_delays.json"))
    assert list(w) == [
        Job(0, 0.0, 10.0, 4, 100.0),
        Job(1, 3.0, 10.0, 1, 100.0),
        Job(2, 6.5, 20.25, 2, 20.25),
        Job(3, 9.0, 10.0, 1, 10.0),
    ]
    assert w.header.max_procs == w.header.machine_size == 4
    assert w.name == "test_delays"
    assert w.source == str(tmp_path / "test_delays.json")
    # The walltime of -1 is no limit: the run time is the estimate, and the summary says so.
    (step,) = w.cleaning
    assert step.name == STEP_NO_ESTIMATE
    assert step.count == 1
    assert step.members is not None and step.members.ids == (3,)
    assert all(isinstance(j.id, int) and isinstance(j.size, int) for j in w)


def test_integer_and_string_ids_map_to_their_numbers(tmp_path: Path) -> None:
    doc = workload_doc({"id": 7}, {"id": "8"}, {"id": "w0!9"}, {"id": "-3"}, {"id": "010"})
    w = read_batsim_json(write(tmp_path, doc))
    assert [j.id for j in w] == [7, 8, 9, -3, 10]
    assert w.cleaning == ()
    assert all(not j.attrs for j in w)


@pytest.mark.parametrize(
    ("ids", "why"),
    [
        (["job_b", "job_a", "3"], 'such as "job_b"'),
        (["w0!1", "w1!1", "2"], '"w0!1" and "w1!1" both name number 1'),
        (["1", "01", "2"], '"1" and "01" both name number 1'),
        ([str(2**53), "1", "2"], "below 2**53"),
    ],
)
def test_ids_that_are_no_distinct_numbers_are_renumbered_in_file_order(
    tmp_path: Path, ids: list[str], why: str
) -> None:
    # The first job is submitted last: numbers follow the file, not the submit order.
    doc = workload_doc(*({"id": i, "subtime": s} for i, s in zip(ids, (50, 0, 10), strict=True)))
    w = read_batsim_json(write(tmp_path, doc))
    assert [(j.id, j.attrs["batsim_id"]) for j in w] == [(2, ids[1]), (3, ids[2]), (1, ids[0])]
    (step,) = w.cleaning
    assert step.name == STEP_RENUMBERED
    assert step.count == 3
    assert why in step.detail


def test_missing_walltime_is_the_run_time_and_counted(tmp_path: Path) -> None:
    doc = workload_doc({"walltime": DROP}, {"walltime": -1.0}, {"walltime": 30})
    w = read_batsim_json(write(tmp_path, doc))
    assert [j.estimate for j in w] == [10.0, 10.0, 30.0]
    (step,) = w.cleaning
    assert str(step) == f"{STEP_NO_ESTIMATE}: 2 jobs (walltime absent or -1)"
    assert step.members is not None and step.members.ids == (1, 2)


def test_nb_res_is_optional(tmp_path: Path) -> None:
    w = read_batsim_json(write(tmp_path, workload_doc({}, nb_res=DROP)))
    assert w.header.max_procs is None
    assert w.header.machine_size is None


def test_newer_batsims_delay_profile_type_is_read(tmp_path: Path) -> None:
    doc = workload_doc({}, profiles={"d10": {"type": "DelayProfile", "delay": 10, "ret": 0}})
    assert read_batsim_json(write(tmp_path, doc))[0].run_time == 10.0


def test_extra_scalar_fields_are_kept_as_attributes(tmp_path: Path) -> None:
    job = {
        "extra_data": '{"queue": "big"}',
        "priority": 3,
        "weight": 0.5,
        "urgent": True,
        "user": "alice",  # a Job field's name: kept under another
        "dependencies": ["1"],  # not one value: left out
        "note": None,
    }
    (read,) = read_batsim_json(write(tmp_path, workload_doc(job)))
    assert dict(read.attrs) == {
        "extra_data": '{"queue": "big"}',
        "priority": 3,
        "weight": 0.5,
        "urgent": True,
        "batsim_user": "alice",
    }
    assert read.user == -1


def test_gzip_and_a_byte_order_mark_are_read(tmp_path: Path) -> None:
    text = json.dumps(workload_doc({}, {})).encode()
    (tmp_path / "z.json.gz").write_bytes(gzip.compress(b"\xef\xbb\xbf" + text))
    w = read_batsim_json(tmp_path / "z.json.gz")
    assert len(w) == 2
    assert w.name == "z"


# -- refusals -----------------------------------------------------------------------


def refused(path: Path) -> str:
    with pytest.raises(BatsimJSONError) as info:
        read_batsim_json(path)
    message = str(info.value)
    assert "\n" not in message
    assert message.startswith(str(path))
    return message


#: (the second job's fields, the field named, words of the message). The message
#: must say ``job 2 (id ...)``: the job's place in the file and its id.
BAD_JOBS: list[tuple[dict[str, Any], str, str]] = [
    ({"subtime": DROP}, "subtime", "missing"),
    ({"res": DROP}, "res", "missing"),
    ({"profile": DROP}, "profile", "missing"),
    ({"subtime": True}, "subtime", "true is a boolean, not a number of seconds"),
    ({"subtime": "5"}, "subtime", '"5" is a string, not a number of seconds'),
    ({"subtime": -1}, "subtime", "-1 is negative"),
    ({"subtime": 1e300}, "subtime", "too large"),
    ({"subtime": 10**400}, "subtime", "too large"),
    ({"subtime": 2.0**43 - 5}, "subtime", "too late"),
    ({"walltime": -5}, "walltime", "-5 is negative"),
    ({"walltime": 0}, "walltime", "0 is no time limit"),
    ({"walltime": None}, "walltime", "null is not a number"),
    ({"walltime": [100]}, "walltime", "a list, not a number"),
    ({"res": 0}, "res", "0 is less than 1"),
    ({"res": -2}, "res", "-2 is less than 1"),
    ({"res": 2.5}, "res", "2.5 is not a whole number"),
    ({"res": True}, "res", "true is a boolean"),
    ({"res": "4"}, "res", '"4" is a string'),
    ({"res": 2**31 + 1}, "res", "too large"),
    ({"profile": "nope"}, "profile", '"nope" is not among the file\'s profiles'),
    ({"profile": 10}, "profile", "10 is a number, not a profile name"),
    ({"profile": "par"}, "profile", 'profile "par" has type "parallel_homogeneous"'),
    ({"profile": "seq"}, "profile", 'profile "seq" has type "composed"'),
    ({"profile": "untyped"}, "profile", 'profile "untyped" has no type'),
    ({"profile": "nodelay"}, "profile", 'profile "nodelay" has no delay'),
    ({"profile": "negative"}, "profile", 'profile "negative": delay -3 is negative'),
]

PROFILES = {
    "d10": {"type": "delay", "delay": 10},
    "par": {"type": "parallel_homogeneous", "cpu": 1e10, "com": 0},
    "seq": {"type": "composed", "repeat": 2, "seq": ["d10"]},
    "untyped": {"delay": 10},
    "nodelay": {"type": "delay"},
    "negative": {"type": "delay", "delay": -3},
}


@pytest.mark.parametrize(("fields", "field", "words"), BAD_JOBS)
def test_a_bad_job_is_refused_naming_job_id_and_field(
    tmp_path: Path, fields: dict[str, Any], field: str, words: str
) -> None:
    doc = workload_doc({}, {"id": "w0!7", **fields}, profiles=PROFILES)
    path = write(tmp_path, doc)
    message = refused(path)
    assert message.startswith(f'{path}: job 2 (id "w0!7"): field {field}: ')
    assert words in message


def test_the_documented_example_of_a_message(tmp_path: Path) -> None:
    path = write(tmp_path, workload_doc({}, {}, {"id": "w0!7", "walltime": -5}))
    assert refused(path) == f'{path}: job 3 (id "w0!7"): field walltime: -5 is negative'


def test_non_finite_numbers_python_reads_are_refused(tmp_path: Path) -> None:
    for literal in ("NaN", "Infinity", "-Infinity"):
        text = json.dumps(workload_doc({"walltime": 7})).replace("7", literal)
        message = refused(write(tmp_path, text))
        assert message.endswith(f"field walltime: {literal} is not a finite number")


@pytest.mark.parametrize(
    ("job_id", "words"),
    [
        (True, "field id: true is a boolean, not a string or an integer"),
        (1.5, "field id: 1.5 is a number, not a string or an integer"),
        (None, "field id: null is no value, not a string or an integer"),
        ("", "field id: an empty string"),
        (DROP, "field id: missing"),
    ],
)
def test_a_bad_id_is_refused(tmp_path: Path, job_id: Any, words: str) -> None:
    path = write(tmp_path, workload_doc({}, {"id": job_id}))
    shown = ' (id "")' if job_id == "" else ""  # a string, though an empty one
    assert refused(path) == f"{path}: job 2{shown}: {words}" + (
        " (Batsim requires id, subtime, res and profile)" if job_id is DROP else ""
    )


@pytest.mark.parametrize("again", [3, "3"])
def test_a_repeated_id_is_refused(tmp_path: Path, again: Any) -> None:
    # 3 and "3" are one id to Batsim (w0!3).
    path = write(tmp_path, workload_doc({"id": 3}, {"id": "5"}, {"id": again}))
    message = refused(path)
    assert message.startswith(f'{path}: job 3 (id "3"): field id: the id of job 1 too')


@pytest.mark.parametrize(
    ("doc", "words"),
    [
        ([], "JSON, but not a Batsim workload: the top level is a list"),
        ({"nb_res": 4}, 'JSON, but not a Batsim workload: no "jobs" list (its keys: "nb_res")'),
        (workload_doc(jobs={"1": {}}), "field jobs: an object, not a list of jobs"),
        (workload_doc(jobs=[]), "field jobs: an empty list: no jobs"),
        (workload_doc({}, profiles=DROP), "field profiles: missing, not an object"),
        (workload_doc({}, profiles=["d10"]), "field profiles: a list, not an object"),
        (workload_doc({}, nb_res=0), "field nb_res: 0 is less than 1"),
        (workload_doc({}, nb_res=True), "field nb_res: true is a boolean"),
        (workload_doc({}, nb_res=None), "field nb_res: null is no value"),
        (workload_doc({}, nb_res=4.5), "field nb_res: 4.5 is not a whole number"),
        (workload_doc(jobs=[[1, 2]]), "job 1: a list, not a job object"),
    ],
)
def test_json_that_is_no_workload_is_refused(tmp_path: Path, doc: Any, words: str) -> None:
    path = write(tmp_path, doc)
    assert refused(path).startswith(f"{path}: {words}")


def test_a_json_syntax_error_names_line_and_column(tmp_path: Path) -> None:
    path = write(tmp_path, '{\n  "nb_res": 4\n  "jobs": []\n}\n')
    assert refused(path) == f"{path}:3:3: not JSON: Expecting ',' delimiter"


def test_files_that_are_no_json_are_refused_on_one_line(tmp_path: Path) -> None:
    empty = write(tmp_path, "", "empty.json")
    assert refused(empty) == f"{empty}: an empty file: no JSON, no jobs"
    csv = write(tmp_path, "job_id,submission_time\n1,0\n", "jobs.csv")
    assert refused(csv).startswith(f"{csv}: not JSON: it looks like CSV")
    latin = tmp_path / "latin.json"
    latin.write_bytes(b'{"jobs": [\n{"id": "caf\xe9"}]}')
    assert refused(latin) == f"{latin}:2: not UTF-8 text (JSON is UTF-8)"
    broken = tmp_path / "broken.json.gz"
    broken.write_bytes(gzip.compress(b"{}")[:12])
    assert refused(broken).startswith(f"{broken}: corrupt gzip data: ")


def test_the_error_is_a_value_error_and_pickles() -> None:
    err = BatsimJSONError("w.json", "-5 is negative", 3, "w0!7", "walltime")
    assert isinstance(err, ValueError)
    back = pickle.loads(pickle.dumps(err))
    assert str(back) == str(err) == 'w.json: job 3 (id "w0!7"): field walltime: -5 is negative'
    assert (back.job, back.job_id, back.field, back.line) == (3, "w0!7", "walltime", None)
    syntax = pickle.loads(pickle.dumps(BatsimJSONError("w.json", "not JSON: x", line=2, column=5)))
    assert str(syntax) == "w.json:2:5: not JSON: x"


# -- writing ------------------------------------------------------------------------


def test_writes_batsims_layout_exactly(tmp_path: Path) -> None:
    w = Workload.from_jobs(
        [
            Job(10, 100.0, 3600.0, 4, 7200.0),
            Job(11, 160.5, 2.5, 1, 10.0),
            Job(12, 200.0, 3600.0, 2, 3600.0),
            Job(13, 250.0, 0.0, 1, 0.0),
        ],
        name="small",
        max_procs=16,
    )
    out = write_batsim_json(w, tmp_path / "small.json")
    assert out == tmp_path / "small.json"
    assert out.read_text() == (
        "{\n"
        '  "nb_res": 16,\n'
        '  "jobs": [\n'
        '    {"id": "10", "subtime": 0, "walltime": 7200, "res": 4, "profile": "delay_3600"},\n'
        '    {"id": "11", "subtime": 60.5, "walltime": 10, "res": 1, "profile": "delay_2.5"},\n'
        '    {"id": "12", "subtime": 100, "walltime": 3600, "res": 2, "profile": "delay_3600"},\n'
        '    {"id": "13", "subtime": 150, "res": 1, "profile": "delay_0"}\n'
        "  ],\n"
        '  "profiles": {\n'
        '    "delay_0": {"type": "delay", "delay": 0},\n'
        '    "delay_2.5": {"type": "delay", "delay": 2.5},\n'
        '    "delay_3600": {"type": "delay", "delay": 3600}\n'
        "  }\n"
        "}\n"
    )
    again = write_batsim_json(w, tmp_path / "again.json")
    assert again.read_bytes() == out.read_bytes()
    back = read_batsim_json(out)
    assert [(j.id, j.submit, j.run_time, j.size, j.estimate) for j in back] == [
        (j.id, j.submit - 100.0, j.run_time, j.size, j.estimate) for j in w
    ]


def test_nb_res_is_the_given_size_else_the_headers_else_the_widest_job(tmp_path: Path) -> None:
    jobs = [Job(1, 0.0, 10.0, 4, 10.0), Job(2, 5.0, 10.0, 6, 10.0)]

    def nb_res(w: Workload, **kwargs: Any) -> int:
        doc = json.loads(write_batsim_json(w, tmp_path / "n.json", **kwargs).read_text())
        return int(doc["nb_res"])

    assert nb_res(Workload.from_jobs(jobs, max_procs=8), nb_res=32) == 32
    assert nb_res(Workload.from_jobs(jobs, max_procs=8)) == 8
    assert nb_res(Workload.from_jobs(jobs, max_nodes=12)) == 12
    assert nb_res(Workload.from_jobs(jobs)) == 6
    with pytest.raises(ValueError, match="nb_res=4 is narrower than job 2"):
        nb_res(Workload.from_jobs(jobs), nb_res=4)
    with pytest.raises(ValueError, match="header's machine size, 5, is narrower than job 2"):
        nb_res(Workload.from_jobs(jobs, max_procs=5))
    with pytest.raises(ValueError, match="a machine size is a whole number above 0"):
        nb_res(Workload.from_jobs(jobs), nb_res=0)


@pytest.mark.parametrize(
    ("job", "words"),
    [
        (Job(1, 0.0, 10.0, 1, 0.0), "estimate 0 and runs 10.0 s"),
        (Job(1, 0.0, -1.0, 1, 10.0), "run_time -1.0"),
        (Job(1, 0.0, 10.0, 1, math.inf), "estimate inf"),
        (Job(1, math.nan, 10.0, 1, 10.0), "submit nan"),
        (Job(1, 0.0, 10.0, 0, 10.0), "size 0, below 1"),
    ],
)
def test_the_writer_refuses_what_batsim_cannot_hold(tmp_path: Path, job: Job, words: str) -> None:
    with pytest.raises(ValueError, match=words):
        write_batsim_json(Workload.from_jobs([job]), tmp_path / "x.json")


def test_the_writer_refuses_an_empty_workload(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="no jobs"):
        write_batsim_json(Workload.from_jobs([]), tmp_path / "x.json")


def test_round_trip_of_a_slice_of_the_kth_log(tmp_path: Path) -> None:
    w = first(catalog.load("kth"), 200)
    out = write_batsim_json(w, tmp_path / "kth.json")
    origin = w[0].submit
    assert origin > 0  # the slice does not start at 0: the shift is tested

    # Read with the json module alone: Batsim's layout, field by field.
    doc = json.loads(out.read_text())
    assert set(doc) == {"nb_res", "jobs", "profiles"}
    assert doc["nb_res"] == w.header.max_procs == 100
    assert len(doc["jobs"]) == len(w) == 200
    delays = [p["delay"] for p in doc["profiles"].values()]
    assert len(set(delays)) == len(delays)  # one profile per distinct run time
    assert all(p["type"] == "delay" for p in doc["profiles"].values())
    for entry, job in zip(doc["jobs"], w, strict=True):
        assert set(entry) == {"id", "subtime", "walltime", "res", "profile"}
        assert entry["id"] == str(job.id)
        assert entry["subtime"] == job.submit - origin
        assert entry["walltime"] == job.estimate
        assert entry["res"] == job.size and isinstance(entry["res"], int)
        assert doc["profiles"][entry["profile"]] == {"type": "delay", "delay": job.run_time}
    assert doc["jobs"][0]["subtime"] == 0

    # Read with the reader: the same jobs, submit times shifted by the first.
    back = read_batsim_json(out)
    assert back.name == "kth"
    assert back.header.max_procs == 100
    assert back.cleaning == ()
    assert [(j.id, j.submit, j.run_time, j.size, j.estimate) for j in back] == [
        (j.id, j.submit - origin, j.run_time, j.size, j.estimate) for j in w
    ]


@st.composite
def workloads(draw: st.DrawFn) -> Workload:
    """Small workloads of jobs with distinct ids (negative ones too), fractional and
    whole times, estimates above or below the run time, and jobs of 0 s."""
    times = st.one_of(
        st.integers(0, 10**6).map(float),
        st.floats(0, 1e8, allow_nan=False, allow_infinity=False),
    )
    ids = draw(st.lists(st.integers(-(10**6), 10**12), min_size=1, max_size=12, unique=True))
    jobs = []
    for job_id in ids:
        run = draw(st.one_of(times, st.just(0.0)))
        estimate = draw(st.one_of(times.filter(lambda t: t > 0), st.just(run)))
        if estimate == 0 and run > 0:
            estimate = run
        jobs.append(Job(job_id, draw(times) + 1e9, run, draw(st.integers(1, 512)), estimate))
    return Workload.from_jobs(jobs, name="random")


@settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(w=workloads())
def test_write_then_read_gives_the_same_jobs(tmp_path: Path, w: Workload) -> None:
    out = write_batsim_json(w, tmp_path / "random.json")
    back = read_batsim_json(out)
    origin = min(j.submit for j in w)
    assert [(j.id, j.submit, j.run_time, j.size, j.estimate) for j in back] == [
        (j.id, j.submit - origin, j.run_time, j.size, j.estimate) for j in w
    ]
    assert back.header.max_procs == max(j.size for j in w)
    # Writing what was read gives the same file: the format is stable.
    assert write_batsim_json(back, tmp_path / "again.json").read_bytes() == out.read_bytes()
