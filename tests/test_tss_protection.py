"""TSS's protection and a suspended job's re-entry (Kettimuthu 2003, section 3.5.1).

TSS keeps a running job whose threshold exceeds 1.5 times its category's average
slowdown from being suspended. Whether that also keeps a suspended job from
re-entering over protected jobs on its home is the reading ``reentry``
(`schedsim.policies.selective_suspension.tunable`): ``"blocked"`` (the text's
section 3.3 "for both of the above scenarios"), ``"limit"`` (a suspended job past
its own limit re-enters over them, section 3.5's "Preemption of a job is disabled
when its threshold exceeds this limit") or ``"open"`` (the protection holds against
fresh jobs only). The schedule below is worked out by hand; estimates are exact,
SF is 2, the preemption routine runs every 60 s.
"""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest

from schedsim import Simulation
from schedsim.workloads.job import Job
from schedsim.workloads.workload import Workload

from invariants import check_invariants, check_preemption, record_holdings

#: One node: V (1,500 s), B (1,000 s) and P (3,000 s), all submitted at 0.
JOBS = [
    Job(1, 0.0, 1_500.0, 1, 1_500.0),
    Job(2, 0.0, 1_000.0, 1, 1_000.0),
    Job(3, 0.0, 3_000.0, 1, 3_000.0),
]


def _averages(path: Path, value: float) -> str:
    """A category table (`Result.category_table`'s layout) with every average ``value``."""
    table = pd.DataFrame(
        value,
        index=pd.Index(["VS", "S", "L", "VL"], name="runtime"),
        columns=pd.Index(["Seq", "N", "W", "VW"], name="size"),
    )
    table.to_csv(path)
    return str(path)


def _run(policy: str, params: dict[str, object]) -> dict[int, tuple[float, float, int]]:
    workload = Workload.from_jobs(JOBS, max_procs=1)
    sim = Simulation(workload, policy, nodes=1, params={"sf": 2.0, **params})
    log = record_holdings(sim)
    result = sim.run()
    check_invariants(result, workload, 1)
    check_preemption(result, log, 1)
    table = result.jobs.set_index("id")
    return {int(i): (float(r.start), float(r.end), int(r.suspensions)) for i, r in table.iterrows()}


@pytest.mark.parametrize("policy", ["tss", "ss"])
def test_a_protected_job_keeps_a_suspended_job_out_unless_the_reading_lets_it_in(
    tmp_path: Path, policy: str
) -> None:
    # Every category's average is 1: the limit is 1.5 for every job.
    # V starts at 0 with τ 1 (not protected: 1 <= 1.5). B passes 2 x 1 at 1,000 s and
    # suspends V at the tick 1,020; B ends at 2,020. Then P, τ (2,020 + 3,000) / 3,000 =
    # 1.673, is just ahead of V, τ (1,000 + 1,500) / 1,500 = 1.667, and starts on V's
    # node: protected (1.673 > 1.5) until it ends at 5,020. V passes 2 x 1.673 after
    # 3,520 s suspended, at the tick 4,560, its own τ 3.36 far past its limit.
    # reentry="blocked": P's protection keeps V out until 5,020; V ends at 5,500.
    # "limit" (V is past its own limit) and "open": V suspends P at 4,560 and ends at
    # 5,040; P resumes and ends at 5,500. SS, which protects no one, does the same.
    averages = _averages(tmp_path / "avg.csv", 1.0)
    blocked = _run(policy, {"averages": averages} if policy == "tss" else {})
    if policy == "ss":
        assert blocked[1] == (0.0, 5_040.0, 1)
        assert blocked[3] == (2_020.0, 5_500.0, 1)
        return
    assert blocked[2] == (1_020.0, 2_020.0, 0)
    assert blocked[3] == (2_020.0, 5_020.0, 0)
    assert blocked[1] == (0.0, 5_500.0, 1)
    for reentry in ("limit", "open"):
        let_in = _run(policy, {"averages": averages, "reentry": reentry})
        assert let_in[1] == (0.0, 5_040.0, 1), reentry
        assert let_in[3] == (2_020.0, 5_500.0, 1), reentry


def test_under_limit_a_suspended_job_gets_in_only_past_its_own_limit(tmp_path: Path) -> None:
    # The protection an idle job meets (`CategoryLimit.protection_for`), every average at
    # 3 (limit 4.5): a queued job meets it under every reading; a suspended one under
    # "blocked" always, under "open" never, under "limit" while its own threshold is at
    # most its limit.
    from schedsim.policies.selective_suspension.tunable import TunableSelectiveSuspension

    from test_selective import queued, suspended

    averages = _averages(tmp_path / "avg.csv", 3.0)
    blocked, limit, open_ = (
        TunableSelectiveSuspension(averages=averages, reentry=r)  # type: ignore[arg-type]
        for r in ("blocked", "limit", "open")
    )
    fresh = queued(JOBS[0])
    out = suspended(JOBS[0], [0], 0.0, 100.0)
    for policy in (blocked, limit, open_):
        assert policy.protection_for(fresh, 10.0) == policy.protected
    assert blocked.protection_for(out, 10.0) == blocked.protected
    assert open_.protection_for(out, 1.0) is None
    assert limit.protection_for(out, 4.5) == limit.protected
    assert limit.protection_for(out, 4.6) is None


def test_reentry_must_be_known_and_keeps_run_ids() -> None:
    from schedsim.app.study import RunConfig
    from schedsim.policies.selective_suspension.tunable import TunableSelectiveSuspension

    with pytest.raises(ValueError, match="reentry must be 'blocked' or 'limit' or 'open'"):
        TunableSelectiveSuspension(reentry="later")  # type: ignore[arg-type]

    def run_id(**params: object) -> str:
        base = {"workload": "kth", "first": 10, "policy": "tss"}
        return RunConfig.from_dict({**base, "params": {"sf": 2.0, **params}}).run_id()

    assert run_id() == run_id(reentry="blocked")
    assert run_id(reentry="limit") != run_id()
    params = TunableSelectiveSuspension(reentry="open").params()
    assert params["reentry"] == "open"


@pytest.mark.parametrize("hold", ["top", "all"])
@pytest.mark.parametrize("reentry", ["limit", "open"])
def test_tss_with_a_hold_and_another_reentry_runs_both_on_the_plain_rule(
    hold: str, reentry: str
) -> None:
    # The study's "TSS hold=... reentry=..." runs: tss hands the schedule to TSS's plain
    # rule (`PlainTunableSelectiveSuspension`) with both readings, so the hold is kept
    # there too: the same schedule as that plain rule's, not the one without the hold.
    from schedsim.policies.selective_suspension.tunable import (
        PlainTunableSelectiveSuspension,
        TunableSelectiveSuspension,
    )
    from schedsim.workloads.catalog import load
    from schedsim.workloads.transforms import first

    workload = first(load("kth"), 500)
    tss = TunableSelectiveSuspension(2.0, hold=hold, reentry=reentry, limit=1.0)  # type: ignore[arg-type]
    assert isinstance(tss._plain, PlainTunableSelectiveSuspension)
    assert (tss._plain.hold, tss._plain.reentry, tss._plain.limit) == (hold, reentry, 1.0)
    plain = PlainTunableSelectiveSuspension(2.0, hold=hold, limit=1.0, reentry=reentry)  # type: ignore[arg-type]
    unheld = TunableSelectiveSuspension(2.0, reentry=reentry, limit=1.0)  # type: ignore[arg-type]
    got, want, other = (Simulation(workload, p, nodes=100).run() for p in (tss, plain, unheld))
    assert got.jobs.equals(want.jobs)
    assert got.pieces is not None and want.pieces is not None
    assert got.pieces.equals(want.pieces)
    assert not got.jobs.equals(other.jobs)
