"""The readings of Selective Suspension the thesis leaves open, worked by hand.

Kettimuthu 2003 (chapter 3) fixes SS's rule but not every detail; three
readings are parameters of ``ss-plain`` (`schedsim.policies.selective_suspension.rule`):
which threshold a resumed job runs with (``resumed``), whether the free
cores of a suspended job that heads the idle jobs are kept for it
(``hold``), and which candidates a fresh job suspends first (``prefer``).
Each test below is a small schedule, worked out by hand from the thesis's
definitions (xfactor τ = (wait + estimate) / estimate, constant while a job
runs; a job may suspend those of τ below its own / SF at the preemption
routine's ticks, every 60 s), in which the reading changes what happens.
Estimates are exact throughout; SF is 2.
"""

from __future__ import annotations

from itertools import product

import pytest

from schedsim import Simulation
from schedsim.workloads.job import Job
from schedsim.workloads.workload import Workload

from invariants import check_invariants, check_preemption, record_holdings


def _run(jobs: list[Job], nodes: int, **params: object) -> dict[int, dict[str, float]]:
    workload = Workload.from_jobs(jobs, max_procs=nodes)
    sim = Simulation(workload, "ss-plain", nodes=nodes, params={"sf": 2.0, **params})
    log = record_holdings(sim)
    result = sim.run()
    check_invariants(result, workload, nodes)
    check_preemption(result, log, nodes)
    table = result.jobs.set_index("id")
    return {int(i): {"start": float(r.start), "end": float(r.end)} for i, r in table.iterrows()}


def _job(jid: int, submit: float, run: float, size: int) -> Job:
    return Job(jid, submit, run, size, run)


def test_a_resumed_job_runs_with_its_resumption_threshold_or_its_first_one() -> None:
    # One node. Job 1 (10,000 s) starts at 0 with τ = 1. Job 2 (5,000 s, also
    # submitted at 0) passes 2 x 1 just after 5,000 s and suspends it at the
    # tick 5,040; it ends at 10,040, and job 1 resumes after 5,000 s suspended:
    # its τ is then (5,000 + 10,000) / 10,000 = 1.5 ("resume"), or the 1.0 of its
    # first start ("start"). Job 3 (1,000 s) comes at 10,100 and must pass
    # 2 x 1.5 (wait over 2,000 s: the tick 12,120) or 2 x 1.0 (wait over 1,000 s:
    # the tick 11,160).
    jobs = [_job(1, 0, 10_000, 1), _job(2, 0, 5_000, 1), _job(3, 10_100, 1_000, 1)]
    text = _run(jobs, 1)
    first = _run(jobs, 1, resumed="start")
    assert text[2]["start"] == first[2]["start"] == 5_040
    assert text[3]["start"] == 12_120
    assert first[3]["start"] == 11_160


def test_a_suspended_job_at_the_head_keeps_its_free_home_node() -> None:
    # Two nodes. Job 1 (2 nodes, 10,000 s) starts at 0; job 2 (2 nodes, 1,000 s,
    # submitted at 0) suspends it at the tick 1,020 and ends at 2,020. Job 3
    # (1 node, 3,000 s, submitted at 1,500) then heads the idle jobs (τ 1.17
    # against job 1's 1.10) and starts on one of job 1's nodes. Job 4 (1 node,
    # 50,000 s) comes at 2,100, τ 1.0: job 1 heads the idle jobs now.
    # hold="none": job 4 takes the free node at once, and job 1 gets both only by
    # suspending job 4, when its τ passes 2 (wait over 10,000 s: the tick 11,040,
    # job 3 having ended at 5,020). hold="top": the free node waits for job 1,
    # which resumes when job 3 ends at 5,020 and runs to 13,980; job 4 starts then.
    jobs = [
        _job(1, 0, 10_000, 2),
        _job(2, 0, 1_000, 2),
        _job(3, 1_500, 3_000, 1),
        _job(4, 2_100, 50_000, 1),
    ]
    text = _run(jobs, 2)
    kept = _run(jobs, 2, hold="top")
    assert text[3]["start"] == kept[3]["start"] == 2_020
    assert text[4]["start"] == 2_100
    assert text[1]["end"] == 11_040 + 10_000 - 1_020
    assert kept[1]["end"] == 5_020 + 10_000 - 1_020
    assert kept[4]["start"] == kept[1]["end"]


def test_a_fresh_job_suspends_the_widest_candidates_first() -> None:
    # Four nodes, all started at 0 with τ = 1: job 1 on 2 nodes, jobs 2 and 3 on
    # one each. Job 4 (2 nodes, 100 s) passes τ 2 after 100 s and suspends, at the
    # tick 120, the lowest thresholds first: all equal, the latest submitted and
    # then the highest ids first, jobs 3 and 2 ("threshold"); or the widest, job 1
    # alone ("width").
    jobs = [
        _job(1, 0, 5_000, 2),
        _job(2, 0, 5_000, 1),
        _job(3, 0, 5_000, 1),
        _job(4, 0, 100, 2),
    ]
    text = _run(jobs, 4)
    wide = _run(jobs, 4, prefer="width")
    assert text[4]["start"] == wide[4]["start"] == 120
    assert text[1]["end"] == 5_000
    assert text[2]["end"] == text[3]["end"] == 5_100
    assert wide[1]["end"] == 5_100
    assert wide[2]["end"] == wide[3]["end"] == 5_000


@pytest.mark.parametrize(
    ("key", "value"), [("resumed", "later"), ("hold", "every"), ("prefer", "random")]
)
def test_an_unknown_reading_is_refused(key: str, value: str) -> None:
    with pytest.raises(ValueError, match=key):
        _run([_job(1, 0, 10, 1)], 1, **{key: value})


def test_runs_with_the_text_readings_keep_their_ids() -> None:
    # Runs stored before the readings existed keep their ids; another reading is another run.
    from schedsim.app.study import RunConfig

    def run_id(**params: object) -> str:
        base = {"workload": "kth", "first": 10, "policy": "ss-plain"}
        return RunConfig.from_dict({**base, "params": {"sf": 2.0, **params}}).run_id()

    text = run_id(resumed="resume", hold="none", prefer="threshold")
    assert run_id() == text
    assert run_id(hold="top") != text


def _every_reading() -> list[dict[str, str]]:
    from schedsim.policies.selective_suspension.rule import READINGS

    return [dict(zip(READINGS, values, strict=True)) for values in product(*READINGS.values())]


@pytest.mark.parametrize("readings", _every_reading(), ids=lambda r: "-".join(r.values()))
def test_ss_and_ss_plain_make_one_schedule_under_every_reading(readings: dict[str, str]) -> None:
    # Every combination of the readings (`rule.READINGS`, so a reading added there is
    # tried here too): the accelerated ss and the plain rule make the same job table
    # and the same piece log. (ss runs the plain rule for a reading other than the
    # text's, `fast.SelectiveSuspension._plain`; with the text's it runs its own.)
    from schedsim.workloads.catalog import load
    from schedsim.workloads.transforms import first

    workload = first(load("kth"), 300)
    results = [
        Simulation(workload, name, nodes=100, params={"sf": 2.0, **readings}).run()
        for name in ("ss", "ss-plain")
    ]
    assert results[0].jobs.equals(results[1].jobs)
    assert results[0].pieces is not None and results[1].pieces is not None
    assert results[0].pieces.equals(results[1].pieces)
    assert results[0].jobs["suspensions"].sum() > 0


def test_a_reading_is_defined_once_and_taken_by_both_versions() -> None:
    # `rule.READINGS` is the one definition: ss and ss-plain take every reading, with the
    # same values (type hint) and the text's as the default, and keep run ids with it.
    import typing

    from schedsim.app import registry
    from schedsim.policies.selective_suspension.rule import READINGS, TEXT_READINGS

    for name in ("ss", "ss-plain"):
        accepted = registry.parameters(name)
        hints = typing.get_type_hints(registry.get(name).__init__)
        for reading, values in READINGS.items():
            assert accepted[reading].default == values[0], (name, reading)
            assert typing.get_args(hints[reading]) == values, (name, reading)
        assert registry.get(name).LATER_PARAMS == TEXT_READINGS
    tss = registry.parameters("tss")  # TSS: hold, and the text's other readings
    assert tss["hold"].default == "none" and "resumed" not in tss and "prefer" not in tss
    assert registry.get("tss").LATER_PARAMS == {"hold": "none"}


def test_tss_with_the_thesis_averages_protects_by_table_2_3() -> None:
    # VS Seq's limit is 1.5 x Table 2.3's 2.6 = 3.9: a running VS Seq job of threshold
    # 3.8 may be suspended, one of 4.0 may not.
    from schedsim.model.view import JobView
    from schedsim.policies.selective_suspension.tunable import TABLE_2_3, TunableSelectiveSuspension

    tss = TunableSelectiveSuspension(averages="thesis")
    assert tss.average(0) == TABLE_2_3[0] == 2.6
    job = JobView.of(Job(1, 0.0, 60.0, 1, 60.0))
    assert not tss.protected(job, 3.8)
    assert tss.protected(job, 4.0)
    assert tss.params()["averages"] == "thesis"
    assert tss.params()["hold"] == "none" and "resumed" not in tss.params()


@pytest.mark.parametrize("hold", ["none", "top", "all"])
def test_tss_keeps_its_protection_under_every_hold(hold: str) -> None:
    # tss makes the schedule of TSS's protection on the plain rule under every hold
    # (with "top" or "all" it runs that plain rule); the protection matters here (a
    # limit of 1 x the online averages: 28 suspensions against ss's 35 with "all"): ss
    # under the same hold makes another schedule.
    from schedsim.policies.selective_suspension.tunable import PlainTunableSelectiveSuspension
    from schedsim.workloads.catalog import load
    from schedsim.workloads.transforms import first

    workload = first(load("kth"), 300)
    tss = Simulation(workload, "tss", nodes=100, params={"sf": 2.0, "hold": hold, "limit": 1.0})
    ss = Simulation(workload, "ss", nodes=100, params={"sf": 2.0, "hold": hold})
    reference = PlainTunableSelectiveSuspension(2.0, hold=hold, limit=1.0)  # type: ignore[arg-type]
    tss, plain, ss = tss.run(), Simulation(workload, reference, nodes=100).run(), ss.run()
    assert tss.jobs.equals(plain.jobs)
    assert tss.pieces is not None and plain.pieces is not None
    assert tss.pieces.equals(plain.pieces)
    assert not tss.jobs.equals(ss.jobs)
