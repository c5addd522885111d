"""Seed 003's workloads (schedsim.workloads.multicore): Equation 7 sizes, W1, W2, Table 5.

Sizes after Equation 7 on hand-picked slowdowns, the per-job draws shared
with the contention model, serial jobs kept serial, W1 and W2 repeatable from
a seed, and Table 5's shares measured on one generated W1 beside the paper's.
"""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from schedsim import Simulation
from schedsim.model.slowdowns import StatisticalContention
from schedsim.policies.backfilling import EASY
from schedsim.workloads import lublin
from schedsim.workloads import multicore as M
from schedsim.workloads.job import Job
from schedsim.workloads.streams import stream
from schedsim.workloads.transforms import first
from schedsim.workloads.workload import Workload

from invariants import check_invariants


def hand(size: int, scr: float, sno: float, i: int) -> Job:
    return Job(i, float(i), 100.0, size, 100.0, attrs={"sl_scr": scr, "sl_sno": sno})


def test_sizes_after_equation_7_on_hand_picked_draws() -> None:
    # (old size, SL_scr, SL_sno) -> new size; MAX_SL 1.25, SELF_SL.2 1.12, 128 nodes.
    cases = [
        ((1, 1.0, 1.0), 1),  # serial: unchanged whatever the slowdowns
        ((1, 1.6, 1.3), 1),
        ((16, 1.1, 1.1), 64),  # 4 per node (1.21 <= 1.25): 13.2 nodes -> 16 (power of two)
        ((12, 1.1, 1.1), 40),  # 4 per node: 12 / 1.21 = 9.92 -> 10 nodes
        ((12, 1.3, 1.1), 22),  # 2 per node (1.43 > 1.25, 1.1 <= 1.12): 10.9 -> 11 nodes
        ((8, 1.3, 1.1), 16),  # 2 per node: 7.27 nodes -> 8 (power of two)
        ((12, 1.1, 1.2), 12),  # 1 per node (1.32 > 1.25, 1.2 > 1.12): unchanged
        ((128, 1.0, 0.95), 512),  # 4 per node, 134.7 nodes -> 128 (power of two <= machine)
        ((120, 1.0, 0.95), 504),  # 4 per node, 126.3 -> 126 nodes (not a power of two)
    ]
    jobs = [hand(*args, i) for i, (args, _) in enumerate(cases, start=1)]
    w = Workload.from_jobs(jobs, max_nodes=128, max_procs=128)
    out = M.adapt_sizes(w, seed=0)
    assert [j.size for j in out] == [new for _, new in cases]
    assert [(j.submit, j.run_time, j.estimate) for j in out] == [
        (j.submit, j.run_time, j.estimate) for j in w
    ]
    assert out.header.max_nodes == 128 and out.header.max_procs == 512
    step = out.cleaning[-1]
    assert step.name.startswith("sizes by Equation 7") and step.count == 6
    # "nodes" rounding leaves powers of two to chance; "processes" rounds Equation 7 itself.
    nodes = M.adapt_sizes(w, seed=0, rounding="nodes")
    assert [j.size for j in nodes][2:6] == [52, 40, 22, 14]
    processes = M.adapt_sizes(w, seed=0, rounding="processes")
    assert [j.size for j in processes][2:6] == [53, 40, 22, 15]  # 52.9, 39.7, 21.8, 14.5


def test_a_capped_size_is_counted() -> None:
    # 120 / 0.9 = 133.3 nodes on a 128-node machine: capped at 128 nodes (x 4).
    w = Workload.from_jobs([hand(120, 1.0, 0.9, 1)], max_nodes=128)
    out = M.adapt_sizes(w, seed=0)
    assert out[0].size == 512
    assert "1 capped at the machine's nodes" in out.cleaning[-1].detail


def test_drawn_slowdowns_are_the_contention_models() -> None:
    base = lublin.generate(2_000, 128, np.random.default_rng(1), job_types=False)
    out = M.adapt_sizes(base, seed=17)
    model = StatisticalContention(17)
    for old, new in zip(base, out, strict=True):
        scr, sno = new.attrs["sl_scr"], new.attrs["sl_sno"]
        assert (scr, sno) == M.draw_self(17, old.id) == model.self_slowdowns(old)
        assert new.size == M.adapted_size(old.size, scr, sno)
        if old.size == 1:
            assert new.size == 1  # serial jobs stay serial
        else:
            assert new.size > 1 and new.size % M.processes_per_node(new.size, scr, sno) == 0
    assert sum(j.size == 1 for j in out) == sum(j.size == 1 for j in base)
    # Slowdowns a job carries already are kept; only the missing ones are drawn.
    given = base.with_jobs([dataclasses.replace(base[0], attrs={"sl_sno": 1.05})])
    kept = M.adapt_sizes(given, seed=17)[0]
    assert (kept.attrs["sl_scr"], kept.attrs["sl_sno"]) == (M.draw_self(17, base[0].id)[0], 1.05)


def test_w1_and_w2_are_repeatable_from_a_seed() -> None:
    a, b = M.w1(5, n_jobs=2_000), M.w1(5, n_jobs=2_000)
    assert a.jobs == b.jobs and [dict(j.attrs) for j in a] == [dict(j.attrs) for j in b]
    assert M.w1(6, n_jobs=2_000).jobs != a.jobs
    assert a.header.max_nodes == 128 and a.header.max_procs == 512
    assert a.name == "zeng-sodan-128x4"
    # W2's smaller α: shorter gaps, the same number of jobs in less time.
    high = M.w2(5, n_jobs=2_000)
    assert high == M.w2(5, n_jobs=2_000)
    assert high[-1].submit - high[0].submit < a[-1].submit - a[0].submit


def test_the_papers_alpha_is_the_generators_aarr() -> None:
    # Default: 10.33 is AARR, the all-day shape 10.33 * ARAR; "shape" passes it as is.
    w = M.paper_workload(10.33, 2, n_jobs=500)
    shape = 10.33 * lublin.TYPELESS.arar
    base = lublin.generate(500, 128, stream(2, "lublin"), job_types=False, alpha=shape)
    assert [j.submit for j in w] == [j.submit for j in base]
    as_shape = M.paper_workload(10.33, 2, n_jobs=500, alpha_means="shape")
    plain = lublin.generate(500, 128, stream(2, "lublin"), job_types=False, alpha=10.33)
    assert [j.submit for j in as_shape] == [j.submit for j in plain]
    with pytest.raises(ValueError, match="alpha_means"):
        M.paper_workload(10.33, 2, n_jobs=10, alpha_means="rush")  # type: ignore[arg-type]


#: Absolute tolerances against Table 5 for one 10,000-job W1 (seed 1). Job shares:
#: about 4 binomial standard errors (0.005 for 64%). Work shares are dominated by
#: a few long wide jobs; over seeds 0-2 the medium share ranged 0.239-0.255, so
#: 0.04. Short work 0.5% +- 0.3%.
TOLERANCE = {
    "short": 0.02, "medium": 0.02, "long": 0.02, "medium_of_ml": 0.03, "long_of_ml": 0.03,
    "work_short": 0.003, "work_medium": 0.04, "work_long": 0.04, "serial": 0.02,
}  # fmt: skip


def test_table_5_shares_of_w1() -> None:
    w = M.w1(1)
    assert len(w) == 10_000
    got = M.characteristics(w).as_dict()
    paper = M.TABLE5.as_dict()
    for key, tol in TOLERANCE.items():
        assert abs(got[key] - paper[key]) <= tol, (key, got[key], paper[key])
    # Table 5's 75% power-of-two sizes is not reproduced under any reading tried
    # (share of parallel jobs here 0.84; Lublin's POW2_PROB is 76% of the parallel
    # jobs, 83% with sizes that round to a power of two by chance). What section 4.8
    # asks is kept: Equation 7 leaves the share of the Lublin workload it adapts.
    shape = M.ALPHA_W1 * lublin.TYPELESS.arar
    base = lublin.generate(10_000, 128, stream(1, "lublin"), job_types=False, alpha=shape)
    assert abs(got["pow2"] - M.characteristics(base).pow2) < 0.03
    assert abs(got["pow2"] - paper["pow2"]) > 0.05  # the known gap, stated


def test_characteristics_by_hand() -> None:
    jobs = [
        Job(1, 0.0, 600.0, 1, 600.0),  # short (<= 10 min), serial
        Job(2, 0.0, 601.0, 4, 601.0),  # medium, power of two
        Job(3, 0.0, 10_800.0, 3, 10_800.0),  # medium (<= 3 h)
        Job(4, 0.0, 10_801.0, 2, 10_801.0, attrs={"sl_scr": 1.0, "sl_sno": 1.0}),  # long
    ]
    c = M.characteristics(jobs)
    assert (c.short, c.medium, c.long) == (0.25, 0.5, 0.25)
    assert (c.medium_of_ml, c.serial, c.pow2) == (2 / 3, 0.25, 2 / 3)
    total = 600 + 4 * 601 + 3 * 10_800 + 2 * 10_801
    assert c.work_short == pytest.approx(600 / total)
    assert c.work_long == pytest.approx(2 * 10_801 / total)
    # Node time: job 4 has 2 processes on one node (SL 1): 1 node x 10,801 s.
    nodes = M.characteristics(jobs, work="nodes")
    assert nodes.work_long == pytest.approx(10_801 / (total - 10_801))
    with pytest.raises(ValueError, match="without jobs"):
        M.characteristics([])
    with pytest.raises(ValueError, match="work"):
        M.characteristics(jobs, work="area")  # type: ignore[arg-type]


def test_w1_runs_under_the_contention_model() -> None:
    # The first 1,000 jobs of W1 under EASY on 128 nodes of 4 cores. Estimates are
    # T_i (one process per node, no contention), so jobs are not killed at them.
    w = first(M.w1(1), 1_000)
    model = StatisticalContention(1)
    sim = Simulation(w, EASY(), cores_per_node=4, seed=1, contention=model, kill_at_estimate=False)
    result = sim.run()
    assert result.meta["nodes"] == 128 and result.meta["total_cores"] == 512
    assert (result.jobs["outcome"] == "completed").all()
    assert result.pieces is not None and result.pieces["rate"].min() < 1.0  # some slowed
    check_invariants(result, w, 512, unit_rate=False)
