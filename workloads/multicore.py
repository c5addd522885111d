"""Multi-core workloads of Zeng & Sodan (seed 003): slowdown draws, Equations 7 and 8, W1, W2.

X. Zeng and A. Sodan, "Job Scheduling with Lookahead Group Matchmaking for
Time/Space Sharing on Multi-core Parallel Machines". Their machine has 128
nodes of two dual-core CPUs (4 cores; section 5.1). Contention on a node is
modelled statistically (section 4.9, Table 4) by three slowdowns:

* SL_scr, the **core self slowdown**: processes of one job on cores of the
  same CPU;
* SL_sno, the **node self slowdown**: processes of one job on different CPUs
  of the same node;
* SL_cos, the **coscheduling slowdown**: processes of different jobs on the
  same node.

This module holds what a workload needs of that model (it sits below the
simulation layer, so the contention model, `schedsim.model.slowdowns`,
imports it from here and the two share one set of draws): Table 4's
distributions, the draws keyed by job id, Equation 8 (processes per node
under space sharing) and Equation 7 (job sizes adapted to multi-core nodes),
the preparation of section 4.8 applied to a Lublin-Feitelson workload, the
builders of W1 and W2 and the characteristics of Table 5.

**Draws** (`SlowdownDistribution`). Table 4 gives, per slowdown, the
probability of each range [a, a + 0.1); a draw picks a range by its
probability, then a value uniformly within it (the paper gives no shape
inside a range; uniform is the least informed choice). A job's SL_scr and
SL_sno are drawn once per job, SL_cos once per unordered pair of jobs, each
from a numpy Generator seeded by ``SeedSequence(seed, spawn_key=(named
stream "slowdowns" of the seed, kind, ids))`` (`keyed_rng`), so a value
depends on the seed and the ids only, never on the order in which jobs or
pairs are met, nor on any other random component of the run.

**The paper's α** (`ALPHA_W1` = 10.33, `ALPHA_W2` = 9.83, Table 5). The
Lublin-Feitelson generator draws log interarrival times from
Gamma(AARR * ARAR, BARR); the typeless AARR is 10.2303 and ARAR 1.0225, so
the all-day shape, `schedsim.workloads.lublin.ALPHA`, is 10.4605, which is
what ``generate(alpha=...)`` takes. Section 5.1 says W1 *reduced* the load
of the original parameters by 5% "via slightly increasing the inter-arrival
times". Read as all-day shapes, 10.33 < 10.46 would do the opposite (8%
*more* jobs per day). Read as the generator's AARR (the α of the model's
table, 10.2303, edited to 10.33), it does what the text says: the all-day
shape becomes 10.33 * ARAR = 10.562, and the exact long-run rate drops from
94.8 to 89.4 jobs per day (-5.8%, the paper's "5%"); W2's 9.83 * ARAR =
10.051 gives 120.7 jobs per day (+35% on W1). So the paper's α is taken as
AARR by default (``alpha_means="aarr"``); ``alpha_means="shape"`` passes it
to ``generate`` as the all-day shape (102.3 and 137.7 jobs per day), which
is what `schedsim.workloads.lublin`'s docstring assumed. Table 5's "Load =
10.6" and "13.0" are in no unit the paper defines, and are not used.

Choices where the paper is silent or contradicts itself
-------------------------------------------------------
* **Thresholds.** Equation 7 writes ``<=`` where the text of section 4.8
  says "less than"; the equation is followed. The three cases partition all
  jobs: 4 per node when SL_scr * SL_sno <= MAX_SL, else 2 when SL_sno <=
  SELF_SL.2, else 1.
* **Rounding of Equation 7** (``rounding``). ``oSize * 2 / SL_sno`` is no
  whole number, and would leave few powers of two, while section 4.8 asks to
  keep the share of power-of-two sizes. Reading the equation as "the job
  runs on oSize / SL nodes with PPN processes each" (its node time under
  space sharing, nodes times the slowed run time, is then oSize * T, the
  original one: the load the section wants to keep), the default ``"pow2"``
  rounds that node count to the nearest whole number, and for a power-of-two
  oSize to the nearest power of two (in log2), so such jobs stay powers of
  two; the new size is PPN times the node count. ``"nodes"`` rounds every
  node count to the nearest whole number; ``"processes"`` rounds Equation 7's
  value itself (at least 2, so a parallel job stays parallel). Halves round
  up. The node count is capped at the machine's nodes (a speedup, SL < 1,
  could ask for more), and counted in the cleaning step.
* **Equation 8 for a job smaller than its PPN** (2 or 3 processes given 4
  per node) puts all of them on one node: PPN = min(Eq. 8, size).
* **Work** in Table 5 (W_S, W_M, W_L) is not defined by the paper; it is
  size times run time here (processes x seconds at rate 1), and ``work="nodes"``
  uses node time under space sharing instead.
* **Power-of-two share** in Table 5 (75%) is not defined either; it is
  taken among parallel jobs (the Lublin model's POW2_PROB, 0.576 of all
  jobs, is 76% of the parallel ones; with sizes that round to a power of two
  by chance, 83%).
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Literal

import numpy as np

from schedsim.workloads import lublin, models
from schedsim.workloads.job import Job
from schedsim.workloads.streams import stream, stream_seed
from schedsim.workloads.transforms import with_attribute
from schedsim.workloads.workload import CleaningStep, Members, Workload

__all__ = [
    "ALPHA_W1",
    "ALPHA_W2",
    "CORES_PER_NODE",
    "CPUS_PER_NODE",
    "MAX_SL",
    "MEDIUM_MAX",
    "NODES",
    "SELF_SL2",
    "SHORT_MAX",
    "SL_COS",
    "SL_SCR",
    "SL_SNO",
    "STREAM",
    "TABLE5",
    "Characteristics",
    "SlowdownDistribution",
    "SlowdownDraws",
    "adapt_sizes",
    "adapted_size",
    "characteristics",
    "draw_pair",
    "draw_self",
    "equation7",
    "keyed_rng",
    "paper_workload",
    "processes_per_node",
    "self_slowdown",
    "w1",
    "w2",
]

#: Table 6: the largest slowdown a job should suffer, and the largest self
#: slowdown with 2 processes of a job per node.
MAX_SL = 1.25
SELF_SL2 = 1.12
#: The paper's node (section 5.1): two dual-core CPUs.
CPUS_PER_NODE = 2
CORES_PER_NODE = 4
#: Machine size M (Table 5).
NODES = 128
#: Table 5's α for W1 ("normal load") and W2 ("high load"): see the module docstring.
ALPHA_W1 = 10.33
ALPHA_W2 = 9.83
#: Job types by run time (section 5.1): short <= 10 min < medium <= 3 h < long.
SHORT_MAX = 600.0
MEDIUM_MAX = 10_800.0
#: The named random stream of the slowdown draws (DESIGN.md, "Randomness").
STREAM = "slowdowns"

Rounding = Literal["pow2", "nodes", "processes"]
AlphaMeans = Literal["aarr", "shape"]
# Spawn-key tags: a job's self slowdowns and a pair's coscheduling slowdowns
# come from different generators even when the ids coincide.
_SELF, _PAIR = 0, 1


@dataclass(frozen=True)
class SlowdownDistribution:
    """A slowdown drawn as Table 4 models it: a range by its probability, then uniform in it.

    ``edges`` bound the ranges [edges[i], edges[i + 1]); ``probs[i]`` is the
    probability of range i (they sum to 1; a range of probability 0 is never
    drawn).
    """

    edges: tuple[float, ...]
    probs: tuple[float, ...]

    def __post_init__(self) -> None:
        if len(self.edges) != len(self.probs) + 1 or not self.probs:
            raise ValueError("a slowdown distribution needs one more edge than probabilities")
        rising = all(a < b for a, b in zip(self.edges, self.edges[1:], strict=False))
        if not rising or self.edges[0] <= 0:
            raise ValueError(f"range edges must be positive and increasing, got {self.edges}")
        if min(self.probs) < 0 or not math.isclose(sum(self.probs), 1.0, abs_tol=1e-9):
            raise ValueError(f"range probabilities must be >= 0 and sum to 1, got {self.probs}")

    def sample(self, rng: np.random.Generator, n: int) -> np.ndarray:
        """``n`` slowdowns: per draw one uniform picks the range, a second the value in it."""
        cum = np.cumsum(self.probs)
        cum[-1] = 1.0  # rounding must not leave a sliver above the last range
        pick = np.searchsorted(cum, rng.random(n), side="right")
        edges = np.asarray(self.edges)
        lo, hi = edges[pick], edges[pick + 1]
        return lo + (hi - lo) * rng.random(n)

    def draw(self, rng: np.random.Generator) -> float:
        """One slowdown."""
        return float(self.sample(rng, 1)[0])


_EDGES = tuple(round(0.9 + 0.1 * k, 1) for k in range(10))  # 0.9, 1.0, ..., 1.8
#: Table 4, columns SL_scr, SL_sno and SL_cos.
SL_SCR = SlowdownDistribution(_EDGES, (0.0, 0.25, 0.17, 0.17, 0.13, 0.17, 0.08, 0.03, 0.0))
SL_SNO = SlowdownDistribution(_EDGES, (0.25, 0.45, 0.12, 0.05, 0.13, 0.0, 0.0, 0.0, 0.0))
SL_COS = SlowdownDistribution(_EDGES, (0.0, 0.68, 0.17, 0.07, 0.03, 0.02, 0.01, 0.01, 0.01))


def _word(job_id: int) -> int:
    # Spawn keys are non-negative; ids span int64, which maps one to one onto uint64.
    return int(job_id) % 2**64


def keyed_rng(seed: int, *key: int, stream_name: str = STREAM) -> np.random.Generator:
    """The generator of one keyed draw: the named stream ``stream_name`` of ``seed``,
    extended by ``key`` (non-negative ints). Same seed and key, same draws."""
    base = stream_seed(seed, stream_name)
    return np.random.default_rng(
        np.random.SeedSequence(base.entropy, spawn_key=(*base.spawn_key, *key))
    )


def draw_self(seed: int, job_id: int, *, stream_name: str = STREAM) -> tuple[float, float]:
    """Job ``job_id``'s (SL_scr, SL_sno), drawn once from its own keyed generator."""
    rng = keyed_rng(seed, _SELF, _word(job_id), stream_name=stream_name)
    return SL_SCR.draw(rng), SL_SNO.draw(rng)


def draw_pair(seed: int, a: int, b: int, *, stream_name: str = STREAM) -> tuple[float, float]:
    """The two SL_cos of the unordered pair {a, b}: (slowdown of the lower id next to
    the higher, slowdown of the higher next to the lower), drawn in that order from
    the pair's keyed generator, so ``draw_pair(s, a, b) == draw_pair(s, b, a)``."""
    if a == b:
        raise ValueError(f"a job is not coscheduled with itself (job {a})")
    lo, hi = sorted((int(a), int(b)))
    rng = keyed_rng(seed, _PAIR, _word(lo), _word(hi), stream_name=stream_name)
    first = SL_COS.draw(rng)
    return first, SL_COS.draw(rng)


class SlowdownDraws:
    """Each job's (SL_scr, SL_sno) and each pair's SL_cos, drawn once (`draw_self`,
    `draw_pair`) and kept: what the contention model applies and what a policy that
    predicts slowdowns reads, so that with one ``seed`` the two agree.

    A job's attributes ``sl_scr`` and ``sl_sno`` (`adapt_sizes`) win over the draw.
    ``pairs`` sets SL_cos by hand, ``(job, mate) -> slowdown of job next to mate``;
    with ``pair="symmetric"`` one value serves both ways (a given one, or the first
    of the pair's draws), with ``"directed"`` (Equation 6's SL_{A,i} and SL_{i,A})
    each direction has its own.
    """

    def __init__(
        self,
        seed: int,
        *,
        pairs: Mapping[tuple[int, int], float] | None = None,
        pair: Literal["directed", "symmetric"] = "directed",
        stream_name: str = STREAM,
    ) -> None:
        if pair not in ("directed", "symmetric"):
            raise ValueError(f"pair must be one of ('directed', 'symmetric'), got {pair!r}")
        self.seed = int(seed)
        self.pairs = dict(pairs or {})
        for (a, b), sl in self.pairs.items():
            if a == b or not sl > 0:
                raise ValueError(f"pairs[{(a, b)}] = {sl!r}: need two jobs and a slowdown > 0")
        self.pair = pair
        self.stream_name = stream_name
        # Memos of the keyed draws: they only save time (a draw is a function of its key).
        self._self: dict[int, tuple[float, float]] = {}
        self._pair: dict[tuple[int, int], tuple[float, float]] = {}

    def self_slowdowns(self, job: Job) -> tuple[float, float]:
        """The job's (SL_scr, SL_sno): its attributes when present, else drawn."""
        attrs = job.attrs
        if "sl_scr" in attrs and "sl_sno" in attrs:
            return float(attrs["sl_scr"]), float(attrs["sl_sno"])
        drawn = self._self.get(job.id)
        if drawn is None:
            drawn = self._self[job.id] = draw_self(self.seed, job.id, stream_name=self.stream_name)
        return float(attrs.get("sl_scr", drawn[0])), float(attrs.get("sl_sno", drawn[1]))

    def cos(self, job_id: int, mate_id: int) -> float:
        """SL_cos of job ``job_id`` next to job ``mate_id``."""
        given = self.pairs.get((job_id, mate_id))
        if given is None and self.pair == "symmetric":
            given = self.pairs.get((mate_id, job_id))
        if given is not None:
            return float(given)
        key = (min(job_id, mate_id), max(job_id, mate_id))
        drawn = self._pair.get(key)
        if drawn is None:
            drawn = self._pair[key] = draw_pair(self.seed, *key, stream_name=self.stream_name)
        if self.pair == "symmetric" or job_id == key[0]:
            return drawn[0]
        return drawn[1]


def self_slowdown(ppn: int, sl_scr: float, sl_sno: float, cpus_per_node: int = 2) -> float:
    """The self slowdown of a job with ``ppn`` processes on one node (section 4.9).

    Its processes go to different CPUs first, so they use min(ppn, CPUs)
    CPUs and at most ceil(ppn / CPUs) share one CPU: SL_sno applies when
    they span 2 or more CPUs, SL_scr when 2 or more share a CPU, and both
    multiply (as Equation 7's SL_scr * SL_sno for 4 per node). On the
    paper's node: 1 process 1, 2 processes SL_sno, 3 or 4 SL_scr * SL_sno.
    """
    if ppn < 1 or cpus_per_node < 1:
        raise ValueError(f"need ppn >= 1 and cpus_per_node >= 1, got {ppn}, {cpus_per_node}")
    spread = sl_sno if min(ppn, cpus_per_node) >= 2 else 1.0
    stacked = sl_scr if -(-ppn // cpus_per_node) >= 2 else 1.0
    return spread * stacked


def processes_per_node(
    size: int, sl_scr: float, sl_sno: float, *, max_sl: float = MAX_SL, self_sl2: float = SELF_SL2
) -> int:
    """Equation 8 (section 5.1, with section 4.3): processes of a job per node under space sharing.

    1 if size = 1 or (SL_sno > SELF_SL.2 and SL_scr * SL_sno > MAX_SL);
    2 if size > 1, SL_sno <= SELF_SL.2 and SL_scr * SL_sno > MAX_SL;
    4 if size > 1 and SL_scr * SL_sno <= MAX_SL. Never more than ``size``
    (a job of 2 or 3 processes given 4 per node has them all on one node).
    """
    if size < 1:
        raise ValueError(f"a job has at least one process, got size {size}")
    if size == 1:
        return 1
    if sl_scr * sl_sno <= max_sl:
        return min(CORES_PER_NODE, size)
    return min(CPUS_PER_NODE, size) if sl_sno <= self_sl2 else 1


def _ppn_and_slowdown(
    size: int, sl_scr: float, sl_sno: float, max_sl: float, self_sl2: float
) -> tuple[int, float]:
    # Equation 7's case split, which is Equation 8's (uncapped: oSize is the old size).
    if size == 1:
        return 1, 1.0
    if sl_scr * sl_sno <= max_sl:
        return CORES_PER_NODE, sl_scr * sl_sno
    if sl_sno <= self_sl2:
        return CPUS_PER_NODE, sl_sno
    return 1, 1.0


def equation7(
    size: int, sl_scr: float, sl_sno: float, *, max_sl: float = MAX_SL, self_sl2: float = SELF_SL2
) -> float:
    """Equation 7 (section 4.8) as written: the new size of a job of ``size`` processes.

    oSize if oSize = 1 or (SL_sno > SELF_SL.2 and SL_scr * SL_sno > MAX_SL);
    oSize * 2 / SL_sno if oSize > 1, SL_sno <= SELF_SL.2 and SL_scr * SL_sno > MAX_SL;
    oSize * 4 / SL_scr / SL_sno if oSize > 1 and SL_scr * SL_sno <= MAX_SL.
    Not rounded (see `adapted_size`).
    """
    if size < 1:
        raise ValueError(f"a job has at least one process, got size {size}")
    ppn, sl = _ppn_and_slowdown(size, sl_scr, sl_sno, max_sl, self_sl2)
    return size * ppn / sl if ppn > 1 else float(size)


def adapted_size(
    size: int,
    sl_scr: float,
    sl_sno: float,
    *,
    nodes: int = NODES,
    rounding: Rounding = "pow2",
    max_sl: float = MAX_SL,
    self_sl2: float = SELF_SL2,
) -> int:
    """Equation 7 (section 4.8) in whole processes, on a machine of ``nodes`` nodes.

    With PPN and SL of Equation 7's case (4 and SL_scr * SL_sno, 2 and
    SL_sno, or 1: size unchanged), ``"pow2"`` and ``"nodes"`` give PPN times
    the node count size / SL rounded to the nearest whole number (``"pow2"``:
    to the nearest power of two when ``size`` is one), between 1 and
    ``nodes``; ``"processes"`` rounds size * PPN / SL itself, between 2 and
    ``nodes`` * PPN (module docstring).
    """
    return _adapt(size, sl_scr, sl_sno, nodes, rounding, max_sl, self_sl2)[0]


def _adapt(
    size: int,
    sl_scr: float,
    sl_sno: float,
    nodes: int,
    rounding: Rounding,
    max_sl: float,
    self_sl2: float,
) -> tuple[int, bool]:
    """`adapted_size`, and whether the machine's size capped it."""
    if rounding not in ("pow2", "nodes", "processes"):
        raise ValueError(f"rounding must be 'pow2', 'nodes' or 'processes', got {rounding!r}")
    if nodes < 1:
        raise ValueError(f"a machine has at least one node, got {nodes}")
    ppn, sl = _ppn_and_slowdown(size, sl_scr, sl_sno, max_sl, self_sl2)
    if ppn == 1:
        return size, False
    want = size / sl  # nodes at PPN per node
    if rounding == "processes":
        n = max(math.floor(want * ppn + 0.5), 2)
        return min(n, nodes * ppn), n > nodes * ppn
    if rounding == "pow2" and size & (size - 1) == 0:
        top = nodes.bit_length() - 1  # the largest power of two <= nodes
        k = max(math.floor(math.log2(want) + 0.5), 0)
        return ppn * 2 ** min(k, top), k > top
    n = max(math.floor(want + 0.5), 1)
    return ppn * min(n, nodes), n > nodes


def adapt_sizes(
    w: Workload,
    seed: int,
    *,
    nodes: int | None = None,
    rounding: Rounding = "pow2",
    max_sl: float = MAX_SL,
    self_sl2: float = SELF_SL2,
    stream_name: str = STREAM,
) -> Workload:
    """Section 4.8: a one-process-per-node workload adapted to nodes of 4 cores.

    Each job gets its SL_scr and SL_sno (attributes ``sl_scr``, ``sl_sno``):
    those it carries already, else `draw_self` of ``seed`` and its id, which
    are the values `schedsim.model.slowdowns.StatisticalContention` of the
    same seed would draw. Its size becomes `adapted_size` (Equation 7); its run
    time (T_i, with one process per node) is kept, and serial jobs stay serial.
    ``nodes`` defaults to the header's MaxNodes (else MaxProcs); the header's
    MaxProcs becomes ``nodes * 4``. One cleaning step per attribute drawn, one
    for the sizes (naming the jobs changed and those capped at the machine).
    """
    nodes = nodes or w.header.max_nodes or w.header.max_procs
    if not nodes or nodes < 1:
        raise ValueError(f"workload {w.name!r} has no MaxNodes/MaxProcs header: give nodes=")
    drawn = {j.id: draw_self(seed, j.id, stream_name=stream_name) for j in w.jobs}
    for i, name in enumerate(("sl_scr", "sl_sno")):
        if any(name not in j.attrs for j in w.jobs):
            w = with_attribute(w, name, lambda j, i=i, k=name: j.attrs.get(k, drawn[j.id][i]))
    jobs: list[Job] = []
    changed: list[int] = []
    capped = 0
    for j in w.jobs:
        sl_scr, sl_sno = float(j.attrs["sl_scr"]), float(j.attrs["sl_sno"])
        new, cap = _adapt(j.size, sl_scr, sl_sno, nodes, rounding, max_sl, self_sl2)
        capped += cap
        if new != j.size:
            changed.append(j.id)
            j = dataclasses.replace(j, size=new)
        jobs.append(j)
    detail = f"rounding {rounding!r}, {nodes} nodes of {CORES_PER_NODE} cores"
    if capped:
        detail += f"; {capped} capped at the machine's nodes"
    header = dataclasses.replace(w.header, max_nodes=nodes, max_procs=nodes * CORES_PER_NODE)
    step = CleaningStep.of(
        "sizes by Equation 7 (seed 003, section 4.8)",
        Members(detail, len(changed), ids=tuple(changed)),
    )
    out = w.with_jobs(jobs, step)
    return dataclasses.replace(out, header=header)


def paper_workload(
    alpha: float,
    seed: int,
    *,
    n_jobs: int = 10_000,
    nodes: int = NODES,
    alpha_means: AlphaMeans = "aarr",
    rounding: Rounding = "pow2",
    max_sl: float = MAX_SL,
    self_sl2: float = SELF_SL2,
) -> Workload:
    """A workload of section 4.8: Lublin-Feitelson (typeless) jobs on ``nodes`` nodes,
    sizes adapted by `adapt_sizes`.

    ``alpha`` is the paper's α: the generator's AARR (all-day shape alpha * ARAR)
    by default, or with ``alpha_means="shape"`` the all-day shape itself (module
    docstring). The jobs come from the named stream ``"lublin"`` of ``seed``, the
    slowdowns from ``"slowdowns"``. Typeless, as Table 5's 24% serial jobs say
    (the typeless SERIAL_PROB is 0.244; batch and interactive mixed give ~17%).
    ``rounding``, ``max_sl`` and ``self_sl2`` are Equation 7's (`adapt_sizes`):
    Table 6's MAX_SL and SELF_SL.2 by default.
    """
    if alpha_means not in ("aarr", "shape"):
        raise ValueError(f"alpha_means must be 'aarr' or 'shape', got {alpha_means!r}")
    shape = alpha * lublin.TYPELESS.arar if alpha_means == "aarr" else alpha
    base = lublin.generate(n_jobs, nodes, stream(seed, "lublin"), job_types=False, alpha=shape)
    out = adapt_sizes(base, seed, nodes=nodes, rounding=rounding, max_sl=max_sl, self_sl2=self_sl2)
    name = f"zeng-sodan-{nodes}x{CORES_PER_NODE}"
    return dataclasses.replace(out, name=name, source=f"{base.source}; seed 003 section 4.8")


def w1(seed: int, *, n_jobs: int = 10_000, alpha_means: AlphaMeans = "aarr") -> Workload:
    """Workload W1 of Table 5 ("normal load", α = 10.33): 128 nodes x 4 cores (simulate with
    ``cores_per_node=4``; the header's MaxProcs is 512)."""
    return paper_workload(ALPHA_W1, seed, n_jobs=n_jobs, alpha_means=alpha_means)


def w2(seed: int, *, n_jobs: int = 10_000, alpha_means: AlphaMeans = "aarr") -> Workload:
    """Workload W2 of Table 5 ("high load", α = 9.83): 128 nodes x 4 cores (simulate with
    ``cores_per_node=4``; the header's MaxProcs is 512)."""
    return paper_workload(ALPHA_W2, seed, n_jobs=n_jobs, alpha_means=alpha_means)


@dataclass(frozen=True)
class Characteristics:
    """The shares of Table 5 (fractions of 1).

    ``short``, ``medium``, ``long``: shares of jobs by run time (section 5.1);
    ``medium_of_ml``, ``long_of_ml``: their shares among medium and long jobs;
    ``work_short`` ...: shares of the work; ``serial``: share of serial
    jobs; ``pow2``: share of parallel jobs whose size is a power of two.
    """

    short: float
    medium: float
    long: float
    medium_of_ml: float
    long_of_ml: float
    work_short: float
    work_medium: float
    work_long: float
    serial: float
    pow2: float

    def as_dict(self) -> dict[str, float]:
        return dataclasses.asdict(self)


#: Table 5's shares as the paper prints them.
TABLE5 = Characteristics(
    short=0.64, medium=0.195, long=0.165, medium_of_ml=0.54, long_of_ml=0.46,
    work_short=0.005, work_medium=0.26, work_long=0.735, serial=0.24, pow2=0.75,
)  # fmt: skip


def characteristics(
    w: Workload | Sequence[Job], *, work: Literal["size", "nodes"] = "size"
) -> Characteristics:
    """Table 5's shares of a workload (section 5.1's job types; module docstring).

    ``work="size"``: a job's work is size x run time; ``"nodes"``: its node
    time under space sharing, size / PPN (Equation 8) x run time x its self
    slowdown (jobs without ``sl_scr``/``sl_sno`` attributes count one process
    per node).
    """
    jobs = list(w)
    if not jobs:
        raise ValueError("a workload without jobs has no characteristics")
    run = np.array([j.run_time for j in jobs], dtype=float)
    size = np.array([j.size for j in jobs], dtype=np.int64)
    if work == "size":
        area = size * run
    elif work == "nodes":
        area = np.array([_node_time(j) for j in jobs])
    else:
        raise ValueError(f"work must be 'size' or 'nodes', got {work!r}")
    kind = np.searchsorted([SHORT_MAX, MEDIUM_MAX], run, side="left")
    count = np.bincount(kind, minlength=3) / len(jobs)
    share = np.bincount(kind, weights=area, minlength=3) / area.sum()
    ml = count[1] + count[2]
    parallel = size > 1
    pow2 = (size & (size - 1)) == 0
    return Characteristics(
        short=float(count[0]),
        medium=float(count[1]),
        long=float(count[2]),
        medium_of_ml=float(count[1] / ml) if ml else math.nan,
        long_of_ml=float(count[2] / ml) if ml else math.nan,
        work_short=float(share[0]),
        work_medium=float(share[1]),
        work_long=float(share[2]),
        serial=float(np.mean(~parallel)),
        pow2=float(np.mean(pow2[parallel])) if parallel.any() else math.nan,
    )


def _node_time(j: Job) -> float:
    if "sl_scr" not in j.attrs or "sl_sno" not in j.attrs:
        return j.size * j.run_time
    sl_scr, sl_sno = float(j.attrs["sl_scr"]), float(j.attrs["sl_sno"])
    ppn = processes_per_node(j.size, sl_scr, sl_sno)
    return math.ceil(j.size / ppn) * j.run_time * self_slowdown(ppn, sl_scr, sl_sno)


# ---- the models a run names (schedsim.workloads.models) -----------------------------


def _build(alpha: float) -> Callable[[models.Inputs], Workload]:
    """The build function of a Table 5 workload of α ``alpha``: `paper_workload` of the
    run's seed, ``jobs`` jobs (10,000) for ``nodes`` nodes (`NODES`) and the
    ``workload_params`` as keywords (on 128 nodes, ``w1(seed, n_jobs=jobs)`` or ``w2``)."""

    def build(inputs: models.Inputs) -> Workload:
        jobs = inputs.values.get("jobs")
        return paper_workload(
            alpha,
            inputs.seed,
            n_jobs=lublin.DEFAULT_JOBS if jobs is None else jobs,
            nodes=NODES if inputs.nodes is None else inputs.nodes,
            **inputs.generator,
        )

    return build


for _name, _alpha, _load in (("zeng-w1", ALPHA_W1, "normal"), ("zeng-w2", ALPHA_W2, "high")):
    models.register(
        models.WorkloadModel(
            _name,
            f"Zeng & Sodan 2009's {_name[-2:].upper()}",
            _build(_alpha),
            params=(lublin.JOBS,),
            machine=models.ModelMachine(nodes=NODES, cores_per_node=CORES_PER_NODE),
            generator=paper_workload,
            withheld={
                "n_jobs": "the configuration key jobs sets it",
                "nodes": "the configuration key nodes sets it",
                "alpha": "the workload names it: zeng-w1 is Table 5's 10.33, zeng-w2 its 9.83",
            },
            help=f"generate Zeng & Sodan 2009's Table 5 {_name[-2:].upper()} ({_load} load) "
            f"for the machine's nodes ({NODES}) of {CORES_PER_NODE} cores",
        )
    )
