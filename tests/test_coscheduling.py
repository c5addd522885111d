"""Space sharing (SSP) and G-LOMARC-TS (Zeng & Sodan 2009, seed 003): worked by hand.

`schedsim.policies.spacesharing` and `schedsim.policies.glts`.

Nodes of 4 cores (2 CPUs of 2 cores, section 4.9). Slowdowns are set by
hand, as job attributes (SL_scr, SL_sno) and as pairs of the contention
model (SL_cos), to values exact in binary, so times compare exactly; the
policy predicts with a model holding the same pairs. Every schedule is put
through `invariants.check_invariants` (rates are not 1: ``unit_rate=False``).
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from schedsim import Simulation
from schedsim.app import registry
from schedsim.model.results import Result
from schedsim.model.slowdowns import StatisticalContention
from schedsim.policies.glts import (
    CST,
    CSTWS,
    GLTS,
    GLTSFirstBlockOnly,
    GLTSNoHeuristics,
    GLTSNoSorting,
    Member,
    run_group,
    space_gain,
)
from schedsim.policies.spacesharing import SSP, Slowdowns
from schedsim.workloads.job import Job
from schedsim.workloads.workload import Workload

from invariants import check_invariants
from test_invariants import FAST, Case, cases

VARIANTS = {
    "ssp": SSP,
    "glts": GLTS,
    "cst": CST,
    "cstws": CSTWS,
    "glts-fbo": GLTSFirstBlockOnly,
    "glts-ns": GLTSNoSorting,
    "glts-nh": GLTSNoHeuristics,
}


def job(jid: int, submit: float, run: float, size: int, scr: float = 1.0, sno: float = 1.0,
        estimate: float | None = None) -> Job:  # fmt: skip
    est = run if estimate is None else estimate
    return Job(jid, submit, run, size, est, attrs={"sl_scr": scr, "sl_sno": sno})


def simulate(jobs: list[Job], policy, nodes: int, pairs=None) -> Result:
    model = StatisticalContention(0, pairs=pairs)
    policy.model = Slowdowns(0, pairs=pairs)
    w = Workload.from_jobs(jobs, max_procs=nodes * 4)
    sim = Simulation(w, policy, nodes=nodes, cores_per_node=4, contention=model,
                     kill_at_estimate=False)  # fmt: skip
    result = sim.run()
    check_invariants(result, w, nodes * 4, unit_rate=False, exact=False)
    return result


def row(result: Result, jid: int):
    return result.jobs.set_index("id").loc[jid]


def placement(result: Result, jid: int) -> list[tuple[str, str]]:
    pieces = result.pieces
    assert pieces is not None
    mine = pieces[pieces["job"] == jid]
    return sorted(set(zip(mine["nodes"].astype(str), mine["cores"].astype(str), strict=True)))


def test_the_predicted_slowdowns_are_the_models() -> None:
    # Drawn (no attributes, no pairs) and set by hand, the scheduler's predictions are
    # what a default StatisticalContention of the same seed applies.
    jobs = [Job(i, 0.0, 1.0, 4, 1.0) for i in range(1, 6)] + [job(6, 0, 1, 4, 1.5, 0.875)]
    for seed in (0, 7):
        model, mine = StatisticalContention(seed), Slowdowns(seed)
        for a in jobs:
            assert mine.self_slowdowns(a) == model.self_slowdowns(a)
            for ppn in (1, 2, 4):
                assert mine.node_slowdown(a, ppn, []) == model.node_slowdown(a, ppn, [])
            for b in jobs:
                if a.id != b.id:
                    assert mine.cos(a.id, b.id) == model.cos(a.id, b.id)
                    assert mine.node_slowdown(a, 2, [b.id]) == model.node_slowdown(a, 2, [b.id])
    assert Slowdowns(0, pairs=PAIRS).cos(1, 2) == 1.125


# -- SSP ---------------------------------------------------------------------------------


def test_ssp_processes_per_node_follow_equation_8() -> None:
    # MAX_SL 1.25, SELF_SL2 1.12 (Table 6). 4 nodes, every job submitted at 0.
    jobs = [
        job(1, 0, 100, 8, scr=1.125, sno=1.0),  # 1.125 <= 1.25: PPN 4 -> 2 nodes
        job(2, 0, 100, 4, scr=1.5, sno=1.0),  # 1.5 > 1.25, SL_sno 1 <= 1.12: PPN 2 -> 2 nodes
        job(3, 0, 100, 2, scr=1.5, sno=1.25),  # both above: PPN 1 -> 2 nodes
        job(4, 0, 100, 1),  # serial: PPN 1
    ]
    result = simulate(jobs, SSP(), nodes=4)
    ppn = result.jobs.set_index("id")["ppn"]
    assert [ppn[i] for i in (1, 2, 3, 4)] == [4, 2, 1, 1]
    cases_ = result.jobs.set_index("id")["cos_case"]
    assert [cases_[i] for i in (1, 2, 3, 4)] == ["case5", "case4", "case4", "case4"]
    # 1 on nodes 0-1 (4 cores each), 2 on nodes 2-3 (2 each): one job per node.
    assert row(result, 1)["start"] == 0 and row(result, 2)["start"] == 0
    # Job 1 runs at 1 / (SL_scr * SL_sno) = 1 / 1.125, planned so; job 2 at 1 / SL_sno = 1.
    assert row(result, 1)["end"] == 112.5 and row(result, 2)["end"] == 100
    # 3 (2 nodes) is reserved at 100 on 2's nodes; 4 (1 node) then at 112.5, when 1 ends.
    assert row(result, 3)["start"] == 100
    assert row(result, 3)["end"] == 200  # one process per node: no self slowdown
    assert row(result, 4)["start"] == 112.5
    # Cores k of node n are 4n + k: 4 a node, 2 a node, 1 a node.
    assert placement(result, 1) == [("0-1", "0-7")]
    assert placement(result, 2) == [("2-3", "8-9 12-13")]
    assert placement(result, 3) == [("2-3", "8 12")]


def test_ssp_conservative_backfilling_by_hand() -> None:
    # Two nodes, no slowdown (PPN 4 for every parallel job, rate 1).
    #  1: 1 node, runs 60 of an estimate of 100, from 0.
    #  2: 2 nodes, estimate 50: reserved at 100 (when 1 frees node 0).
    #  3: 1 node, 90 s, submitted at 1: backfills on node 1 (ends 91 <= 100).
    #  4: 1 node, 200 s, submitted at 2: would delay 2, reserved at 150.
    # 1 ends at 60: compression moves 2 to 91 (when 3 frees node 1), 4 to 141.
    jobs = [
        job(1, 0, 60, 4, estimate=100),
        job(2, 0, 50, 8),
        job(3, 1, 90, 4),
        job(4, 2, 200, 4),
    ]
    policy = SSP()
    result = simulate(jobs, policy, nodes=2)
    starts = [row(result, i)["start"] for i in (1, 2, 3, 4)]
    assert starts == [0, 91, 1, 141]
    # R_est: each job's response by the plan when it arrived (3: 91 - 1; 4: 350 - 2).
    assert policy.r_est == {1: 100, 2: 150, 3: 90, 4: 348}
    assert policy.r_max(4) == 1.5 * 0.75 * 348


# -- utilization gain (section 4.6) ---------------------------------------------------------


@pytest.mark.parametrize("sl_32", [1.25, 2.0])
def test_figure_5_gain_is_equation_5_by_hand(sl_32: float) -> None:
    # Figure 5: Job 3 primary (8 processes, 2 per node: 4 nodes), Jobs 1 and 2 matched
    # (4 processes each, 2 nodes each). Work (T at one process per node): 3: 100,
    # 2: 40, 1: 200. Each matched job runs at 1/1.25 next to 3; 3 runs at 1/SL_q,
    # SL_q = max(SL_{3,1} = 1.25, SL_{3,2}) while 2 runs, 1/1.25 after.
    # 2 ends at 40 * 1.25 = 50; 3 has done 50 / sl_32 by then, the rest at 1/1.25:
    t_g = 50 + (100 - 50 / sl_32) * 1.25
    # Equation 5 with T_i the work done in the group: 1's is t_g / 1.25.
    t1, t2, t3 = t_g / 1.25, 40.0, 100.0
    by_hand = (t1 * 4 + t2 * 4 + t3 * 8 - t_g * 8 / 2) / (t_g * 8 / 2)
    run = run_group(8, 100.0, 2, [1.25, sl_32], 1.0,
                    [Member(4, 200.0, 1.25), Member(4, 40.0, 1.25)])  # fmt: skip
    assert run.length == pytest.approx(t_g, rel=1e-12)
    assert run.gain == pytest.approx(by_hand, rel=1e-12)
    assert [p[1] for p in run.periods] == [(0, 1), (0,)]
    assert run.primary_end == run.length  # the group disbands when 3 ends
    # 1 runs on alone (at 1) for its last 200 - t1.
    assert run.matched_ends[0] == pytest.approx(t_g + 200 - t1)
    if sl_32 == 1.25:
        assert by_hand == pytest.approx(860 / 500)  # (400 + 160 + 800 - 500) / 500


def test_space_sharing_gain_is_equation_6_without_matched_jobs() -> None:
    assert space_gain(4, 1.25) == pytest.approx(2.2)
    assert run_group(8, 100.0, 4, [], 1.0, []).gain == -1.0  # no group: no period at all


# -- groups ------------------------------------------------------------------------------------

#: SL_cos of 1 next to 2 and 2 next to 1: 1.125, below MAX_SL (pre-selection).
PAIRS = {(1, 2): 1.125, (2, 1): 1.125}


def group_jobs() -> list[Job]:
    # Both 4 processes with SL_scr 2 (4 per node too slow), SL_sno 1: PPN 2 alone
    # and in a group; 2 nodes each. Long enough not to be short (> 600 s).
    return [job(1, 0, 1000, 4, scr=2.0), job(2, 0, 2000, 4, scr=2.0)]


def test_a_group_forms_and_disbands_when_its_primary_ends() -> None:
    # Space sharing would run 1 on both nodes for 1000 s, then 2 for 2000 s. The group:
    # 1 (primary) and 2 share nodes 0-1, 2 cores each, both at 1 / 1.125.
    # 1 ends at 1125: the group disbands; 2 has done 1000 and runs on alone at 1.
    # Gain: (1125 * (4 + 4) / 1.125 - 1125 * 2) / (1125 * 2) = 8/1.125/2 - 1.
    # R_max of 1: 1.5 * 0.75 * R_est (1000) = 1125: just met.
    policy = GLTS()
    result = simulate(group_jobs(), policy, nodes=2, pairs=PAIRS)
    assert [row(result, i)["end"] for i in (1, 2)] == [1125, 2125]
    assert placement(result, 1) == [("0-1", "0-1 4-5")]
    assert placement(result, 2) == [("0-1", "2-3 6-7")]
    (group,) = policy.groups
    assert group[:4] == (0, 1, "2", 0.0)
    assert group[4] == pytest.approx(8 / 1.125 / 2 - 1)
    assert group[5:] == (1125.0, "primary ended")
    table = result.jobs.set_index("id")
    assert table.loc[1, "cos_case"] == "case1-primary"
    assert table.loc[2, "cos_case"] == "case1-matched"
    assert set(table["group"]) == {0}
    # Under SSP the same jobs take 1000 + 2000 s one after the other.
    ssp = simulate(group_jobs(), SSP(), nodes=2, pairs=PAIRS)
    assert row(ssp, 2)["end"] == 3000


def test_a_group_disbands_when_its_matched_jobs_end() -> None:
    # Swap the lengths: the matched job ends first (at 1125) and the group disbands.
    jobs = [job(1, 0, 2000, 4, scr=2.0), job(2, 0, 1000, 4, scr=2.0)]
    policy = GLTS()
    simulate(jobs, policy, nodes=2, pairs=PAIRS)
    (group,) = policy.groups
    assert group[5:] == (1125.0, "all matched ended")


def test_no_group_when_the_gain_is_too_small() -> None:
    policy = GLTS(min_utilgain=3.0)  # the pair's gain is 2.56
    result = simulate(group_jobs(), policy, nodes=2, pairs=PAIRS)
    assert policy.groups == [] and row(result, 2)["end"] == 3000


def test_the_fairness_check_rejects_a_group_past_r_max() -> None:
    # With F_slack = 1 and no adjustment, R_max of 1 is its R_est, 1000 s: in the group
    # it ends at 1125 and the group is discarded; both jobs are space shared.
    policy = GLTS(f_slack=1.0, adjust=1.0)
    result = simulate(group_jobs(), policy, nodes=2, pairs=PAIRS)
    assert policy.groups == []
    assert [row(result, i)["end"] for i in (1, 2)] == [1000, 3000]
    # A job that the group would push past its R_max, with the paper's F_slack: 2
    # (2 nodes, 100 s, short: no candidate) is planned at 1000 behind 1 (R_est 1100,
    # R_max 1.125 * 1100 = 1237.5); 3 is 2 of above, the candidate. Behind the
    # group of 1 and 3 (nodes busy until 2125) 2 would end at 2225: no group.
    jobs = [job(1, 0, 1000, 4, scr=2.0), job(2, 0, 100, 4, scr=2.0), job(3, 0, 2000, 4, scr=2.0)]
    pairs = {(1, 3): 1.125, (3, 1): 1.125}
    policy = GLTS()
    result = simulate(jobs, policy, nodes=2, pairs=pairs)
    assert policy.groups == []
    assert policy.r_est[2] == 1100
    assert [row(result, i)["end"] for i in (1, 2, 3)] == [1000, 1100, 3100]
    # Without job 2 the same pair forms a group.
    policy = GLTS()
    simulate([jobs[0], jobs[2]], policy, nodes=2, pairs=pairs)
    assert len(policy.groups) == 1


def test_case_2_a_waiting_job_joins_a_running_one() -> None:
    # 1 (4 processes, PPN 2 on nodes 0-1) runs alone from 0 (nothing to match). 2 (the
    # same shape, 1000 s) arrives at 100: no free node, its reservation is at 2000.
    # Case 2 starts it at once on 1's nodes (the other 2 cores of each), both at
    # 1 / 1.125: 2 ends at 100 + 1125 = 1225 (the group disbands: its primary ended);
    # 1 has done 100 + 1000 by then and runs its last 900 alone: 2125, within its
    # R_max (1.125 x 2000). Case 3 (1 as primary) has the same gain: Case 2 is first.
    jobs = [job(1, 0, 2000, 4, scr=2.0), job(2, 100, 1000, 4, scr=2.0)]
    policy = GLTS()
    result = simulate(jobs, policy, nodes=2, pairs=PAIRS)
    assert [row(result, i)["end"] for i in (1, 2)] == [2125, 1225]
    assert row(result, 2)["start"] == 100
    assert placement(result, 2) == [("0-1", "2-3 6-7")]
    (group,) = policy.groups
    assert group[:4] == (0, 2, "1", 100.0)
    assert group[4] == pytest.approx(8 / 1.125 / 2 - 1)
    assert group[5:] == (1225.0, "primary ended")
    assert result.jobs.set_index("id").loc[2, "cos_case"] == "case2-primary"
    # Space sharing keeps 2 waiting until 2000.
    assert row(simulate(jobs, SSP(), nodes=2, pairs=PAIRS), 2)["start"] == 2000


def test_case_3_a_running_primary_takes_the_first_waiting_job() -> None:
    # As above, but 2 has 2 processes (one node): as a primary its window (1 node) is
    # too small for 1's 2 nodes, so no Case 2; 1 as primary (Case 3) takes 2 on node 0.
    # Gain: (t x (4 + 2) / 1.125 - t x 2) / (t x 2) on 1's 2 nodes. 1 runs at 1 / 1.125
    # (its slowest node) while 2 runs: 2 ends at 1225 (all matched ended), 1 at 2125.
    jobs = [job(1, 0, 2000, 4, scr=2.0), job(2, 100, 1000, 2, scr=2.0)]
    policy = GLTS()
    result = simulate(jobs, policy, nodes=2, pairs=PAIRS)
    assert [row(result, i)["end"] for i in (1, 2)] == [2125, 1225]
    assert placement(result, 2) == [("0", "2-3")]
    (group,) = policy.groups
    assert group[:4] == (0, 1, "2", 100.0)
    assert group[4] == pytest.approx(6 / 1.125 / 2 - 1)
    assert group[5:] == (1225.0, "all matched ended")
    assert result.jobs.set_index("id").loc[2, "cos_case"] == "case3-matched"


def test_parameters_are_the_papers_and_are_checked() -> None:
    p = GLTS().params()
    assert (p["max_sl"], p["self_sl2"], p["min_utilgain"]) == (1.25, 1.12, 0.45)
    assert p["block_size"] == 16
    assert (p["matched_larger"], p["running_prim_num"], p["matched_longer"]) == (0.125, 8, 3000)
    assert (p["f_slack"], p["n_high"], p["adjust"]) == (1.5, 12, 0.75)
    assert [VARIANTS[n]().variant for n in ("cst", "cstws", "glts-fbo", "glts-ns", "glts-nh")] \
        == ["cst", "cstws", "fbo", "ns", "nh"]  # fmt: skip
    with pytest.raises(ValueError):
        GLTS(variant="nope")  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        SSP(f_slack=0)


def test_the_policies_are_registered() -> None:
    for name, cls in VARIANTS.items():
        assert registry.get(name) is cls


# -- invariants ------------------------------------------------------------------------------


def most_jobs_on_a_node(result: Result) -> int:
    """The most jobs holding cores of one node at one instant (a suspended job holds none)."""
    pieces = result.pieces
    assert pieces is not None
    pieces = pieces[pieces["kind"] != "suspended"]
    events: dict[int, list[tuple[float, int]]] = {}
    for nodes, start, end in zip(pieces["nodes"], pieces["start"], pieces["end"], strict=True):
        if end <= start:
            continue
        for part in str(nodes).split():
            first, _, last = part.partition("-")
            for n in range(int(first), int(last or first) + 1):
                events.setdefault(n, []).extend([(start, 1), (end, -1)])
    most = 0
    for evs in events.values():
        held = 0
        for _, step in sorted(evs):  # ends (-1) sort before starts at one instant
            held += step
            most = max(most, held)
    return most


@pytest.mark.parametrize("name", sorted(VARIANTS))
@settings(FAST, max_examples=10)
@given(case=cases(multicore=True), seed=st.integers(0, 3))
def test_invariants_on_random_workloads(name: str, case: Case, seed: int) -> None:
    w = case.workload
    nodes = case.cores // case.cores_per_node
    policy = VARIANTS[name](seed=seed)
    sim = Simulation(w, policy, nodes=nodes, cores_per_node=case.cores_per_node,
                     contention=StatisticalContention(seed), kill_at_estimate=False)  # fmt: skip
    result = sim.run()
    check_invariants(result, w, case.cores, unit_rate=False, exact=False)
    # Space sharing: one job a node; a group: the primary and one matched job a node.
    assert most_jobs_on_a_node(result) <= (1 if name == "ssp" else 2)


def test_ssp_keeps_its_promises() -> None:
    # Conservative backfilling with exact estimates and exactly predicted slowdowns:
    # no job starts later than the first reservation it was given, and the logged
    # reservations hold whole nodes.
    from schedsim.workloads.multicore import w1

    w = w1(5, n_jobs=400)
    sim = Simulation(w, SSP(seed=5), nodes=128, cores_per_node=4,
                     contention=StatisticalContention(5), kill_at_estimate=False,
                     log_reservations=True)  # fmt: skip
    result = sim.run()
    promised = result.reservations
    assert promised is not None and len(promised) > 0
    assert (promised["size"] % 4 == 0).all()
    first = promised.groupby("job")["start"].first()
    starts = result.jobs.set_index("id")["start"]
    assert (starts[first.index] <= first + 1e-6).all()


def test_the_variants_are_glts_on_nodes_of_one_core() -> None:
    # No groups without cores to share: the variants make glts's schedule (why the
    # single-core checks of every policy in test_invariants run glts alone).
    from test_invariants import random_workload

    w = random_workload(3, 60, 16)
    tables = {}
    for name, cls in VARIANTS.items():
        if name == "ssp":
            continue
        result = Simulation(w, cls(seed=1), nodes=16).run()  # as test_invariants runs them
        tables[name] = result.jobs[["id", "start", "end", "nodes"]]
    for name, table in tables.items():
        assert table.equals(tables["glts"]), name


def _pair_groups(variant: str, **readings: str) -> list[int]:
    """The matched job of each pair CST or CSTWS would check, in order, for a primary of
    4 processes (PPN 2, 2 nodes, 1000 s) and three pre-selected candidates in FCFS order
    (job ids 2, 3, 4), each with one slowdown for both (SL_{A,j} = SL_{j,A}):

    * 2: 2 processes on 1 node, SL 1.0625: gain 6000 / (1062.5 x 2) - 1 = 1.82;
    * 3: 4 processes on 2 nodes, SL 1.125: gain 8000 / (1125 x 2) - 1 = 2.56;
    * 4: 4 processes on 2 nodes, SL 1.25: gain 8000 / (1250 x 2) - 1 = 2.2.
    """
    from types import SimpleNamespace

    from schedsim.policies.glts import _Candidate, _Primary

    policy = GLTS(variant=variant, **readings)  # type: ignore[arg-type]
    primary = _Primary(SimpleNamespace(id=1, size=4), 2, 2, 1000.0, 1.0)  # type: ignore[arg-type]
    cands = [
        _Candidate(SimpleNamespace(id=jid, size=size), 2, nodes, Member(size, 1000.0, sl), sl)  # type: ignore[arg-type]
        for jid, size, nodes, sl in ((2, 2, 1, 1.0625), (3, 4, 2, 1.125), (4, 4, 2, 1.25))
    ]
    groups = policy._kept_groups(primary, 2, cands)
    assert all(len(g.matched) == 1 for g in groups)
    return [g.matched[0].job.id for g in groups]


def test_cst_and_cstws_pairs_under_each_reading() -> None:
    # The readings used so far: CST checks its pairs best gain first, CSTWS in FCFS order.
    assert _pair_groups("cst") == [3, 4, 2]
    assert _pair_groups("cstws") == [2, 3, 4]
    # CST's "best" as the least slowdown (the most complementary match).
    assert _pair_groups("cst", pair_best="slowdown") == [2, 3, 4]
    # "Taking the first match": only the best (CST) or the first (CSTWS) is checked.
    assert _pair_groups("cst", pair_tries="one") == [3]
    assert _pair_groups("cst", pair_best="slowdown", pair_tries="one") == [2]
    assert _pair_groups("cstws", pair_tries="one") == [2]


def test_cst_only_coschedules_under_pair_sharing_coschedule() -> None:
    # group_jobs on 8 nodes: both fit the free nodes with one process per node (4 + 4
    # <= 8), a low load, so CST and CSTWS space share them as GLTS does: 1 and 2 run
    # alone from 0 on nodes of their own, ending at 1000 and 2000. "Only coscheduling"
    # pairs them at once (the gain 2.56 passes 0.45): 1125 and 2125 as in the group test.
    for cls in (CST, CSTWS):
        alone = cls()
        result = simulate(group_jobs(), alone, nodes=8, pairs=PAIRS)
        assert alone.groups == [] and [row(result, i)["end"] for i in (1, 2)] == [1000, 2000]
        paired = cls(pair_sharing="coschedule")
        result = simulate(group_jobs(), paired, nodes=8, pairs=PAIRS)
        assert [row(result, i)["end"] for i in (1, 2)] == [1125, 2125]
        assert [g[1:3] for g in paired.groups] == [(1, "2")]
    # Past the low load (4 + 4 > 2 nodes) a pair is taken over space sharing with 4
    # processes per node (SL_scr = SL_sno = 1), whose gain, 3, is the higher: 1 and 2 on
    # a node each end at 1000 and 2000; paired (2 per node on nodes 0-1), at 1125, 2125.
    jobs = [job(1, 0, 1000, 4), job(2, 0, 2000, 4)]
    choose = CST()
    result = simulate(jobs, choose, nodes=2, pairs=PAIRS)
    assert choose.groups == [] and [row(result, i)["end"] for i in (1, 2)] == [1000, 2000]
    only = CST(pair_sharing="coschedule")
    result = simulate(jobs, only, nodes=2, pairs=PAIRS)
    assert [row(result, i)["end"] for i in (1, 2)] == [1125, 2125]
    assert only.groups[0][1:3] == (1, "2")


def test_self_and_cos_max_predicts_the_larger_slowdown_as_the_model_applies() -> None:
    # group_jobs' pair under "max": on nodes 0-1 each job runs at 1 / max(SL_sno 1,
    # SL_cos 1.125) = 1 / 1.125, as under the product (SL_sno is 1): the same group.
    # With SL_sno 1.1 (2 processes of a job on a node slow it by 1.1) the product gives
    # 1.1 x 1.125 = 1.2375 and "max" 1.125, in the run and in the scheduler's plan.
    jobs = [job(1, 0, 1000, 4, scr=2.0, sno=1.1), job(2, 0, 2000, 4, scr=2.0, sno=1.1)]
    for how, rate in (("product", 1.1 * 1.125), ("max", 1.125)):
        policy = GLTS(self_and_cos=how)  # type: ignore[arg-type]
        assert policy.model.self_and_cos == how  # type: ignore[attr-defined]
        model = StatisticalContention(0, pairs=PAIRS, self_and_cos=how)  # type: ignore[arg-type]
        policy.model = Slowdowns(0, pairs=PAIRS, self_and_cos=how)  # type: ignore[arg-type]
        assert policy.model.node_slowdown(jobs[0], 2, [2]) == pytest.approx(rate)
        assert model.node_slowdown(jobs[0], 2, [2]) == pytest.approx(rate)
        w = Workload.from_jobs(jobs, max_procs=8)
        result = Simulation(w, policy, nodes=2, cores_per_node=4, contention=model,
                            kill_at_estimate=False).run()  # fmt: skip
        check_invariants(result, w, 8, unit_rate=False, exact=False)
        # 1, the primary, ends at 1000 x rate; its group ran as the scheduler planned.
        assert row(result, 1)["end"] == pytest.approx(1000 * rate)
        assert len(policy.groups) == 1
    with pytest.raises(ValueError, match="self_and_cos must be one of product, max"):
        SSP(self_and_cos="sum")  # type: ignore[arg-type]
    assert "self_and_cos" not in SSP().params()
    assert SSP(self_and_cos="max").params()["self_and_cos"] == "max"


def test_the_pair_readings_are_checked_and_passed_on() -> None:
    from schedsim.policies.scojo import ScojoPECT

    with pytest.raises(ValueError, match="pair_best must be one of gain, slowdown"):
        CST(pair_best="most")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="pair_tries must be one of until_pass, one"):
        CSTWS(pair_tries="two")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="pair_best is CST's"):
        CSTWS(pair_best="slowdown")
    with pytest.raises(ValueError, match="not glts's"):
        GLTS(pair_tries="one")
    with pytest.raises(ValueError, match="not ssp's"):
        ScojoPECT(inner="ssp", pair_best="slowdown")
    with pytest.raises(ValueError, match="pair_sharing must be one of choose, coschedule"):
        CST(pair_sharing="always")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="not glts's"):
        GLTS(pair_sharing="coschedule")
    assert ScojoPECT(inner="cstws", pair_sharing="coschedule").params()["pair_sharing"] == (
        "coschedule"
    )
    scojo = ScojoPECT(inner="cst", pair_best="slowdown", pair_tries="one")
    assert {(vm.pair_best, vm.pair_tries) for vm in scojo.vms.values()} == {("slowdown", "one")}  # type: ignore[attr-defined]
    assert scojo.params()["pair_best"] == "slowdown"
    # Under the defaults the parameters are not shown: the runs' records stay as they were.
    assert "pair_best" not in ScojoPECT(inner="cst").params()
    assert "pair_tries" not in CST().params()
    assert (
        ScojoPECT.LATER_PARAMS
        == GLTS.LATER_PARAMS
        == {
            "self_and_cos": "product",
            "pair_best": "gain",
            "pair_tries": "until_pass",
            "pair_sharing": "choose",
        }
    )
