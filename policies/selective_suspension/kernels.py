"""Selective Suspension's compiled loops: the board's bookkeeping
(`schedsim.policies.selective_suspension.board`), when an idle job could first
preempt (`board_earliest`, `may_preempt`), and passes without preemption
(`board_starts`), for ``ss`` and ``tss`` (`schedsim.policies.selective_suspension.fast`).

SS on a busy machine keeps hundreds of jobs suspended, each tied to its
home nodes (seed 000, section 3.3), and every start, end and suspension
touches a few dozen of those homes. Done with numpy, each such event is a
few dozen array calls whose fixed cost dwarfs the work; here each is one
call into a loop compiled by numba. The loops do the same arithmetic, in
the same order, as the numpy expressions or list methods they replace (no
``fastmath``), so schedules are the same bit for bit; the rule they follow is
`schedsim.policies.selective_suspension.rule`'s.

Widths are coded as integers: `TEXT`, `FORMULA` and `NONE` (see
`schedsim.policies.selective_suspension.rule.width_rule` for the width rule of
sections 3.2 and 3.3). Thresholds of free nodes are ``-inf``.

Compiled code is cached next to this module, or in the user's cache
directory where that is read-only (``cache=True``), so only the first run
on a machine pays for compiling (about 4 s, on the development machine); later
processes load it (about 0.5 s, at their first SS pass): `schedsim.policies.compiled`.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from schedsim.policies.preemption_kernels import first_fit_avoiding

__all__ = [
    "FORMULA",
    "NONE",
    "RULES",
    "TEXT",
    "add_home",
    "board_earliest",
    "board_starts",
    "fresh_bars",
    "fresh_earliest",
    "home_bar",
    "home_bars_shared",
    "ladder_insert",
    "ladder_remove",
    "may_preempt",
    "occupy",
    "ready_in_order",
    "ready_on_board",
    "remove_home",
    "suspended_earliest",
    "vacate",
]

#: The width rule as a code: n_i >= n_j / 2 (text), n_i / n_j < 2 (formula), none.
TEXT, FORMULA, NONE = 0, 1, 2
#: The codes by the rule's name (`schedsim.policies.selective_suspension.rule.Width`).
RULES = {"text": TEXT, "formula": FORMULA, "none": NONE}


@njit(cache=True)
def _out_of_reach(rule: int, width: int, size: int) -> bool:
    # Whether a job of ``size`` may not suspend one of ``width`` (0: a free node).
    if rule == TEXT:
        return width > 2 * size
    if rule == FORMULA:
        return width > 0 and 2 * width <= size
    return False


@njit(cache=True)
def _when(now, sf, bar, tau, est):
    # When a threshold of ``tau`` now, growing by 1 per ``est``, reaches ``sf`` times ``bar``.
    return now + (sf * bar - tau) * est


@njit(cache=True)
def _slot_threshold(now, s, est, submit, done):
    # A suspended job's threshold now: its xfactor, (wait + estimate) / estimate.
    e = est[s]
    return (now - submit[s] - done[s] + e) / e


@njit(cache=True)
def _slot_bar(s, top, stuck):
    # A suspended job's bar: the highest threshold on its home (at least 0; inf when stuck).
    return math.inf if stuck[s] > 0 else max(top[s], 0.0)


@njit(cache=True)
def occupy(
    nodes, tau, width, job_id, rule, node_tau, node_wide, owner, node_slots, node_deg, top,
    stuck, size, ladder_tau, ladder_id, ladder_wide, count, free_homes,
):  # fmt: skip
    """Job ``job_id`` of threshold ``tau`` and ``width`` starts on ``nodes``: it joins the
    ladder of ``count`` running jobs (`ladder_insert`) and raises the homes it overlaps
    (``free_homes[0]`` counts the homes all free). Returns the new count."""
    count = ladder_insert(ladder_tau, ladder_id, ladder_wide, count, tau, job_id, width)
    for n in nodes:
        owner[n] = job_id
        node_tau[n] = tau
        node_wide[n] = width
        for k in range(node_deg[n]):
            s = node_slots[n, k]
            if tau > top[s]:
                if top[s] == -math.inf:
                    free_homes[0] -= 1
                top[s] = tau
            if _out_of_reach(rule, width, size[s]):
                stuck[s] += 1
    return count


@njit(cache=True)
def vacate(
    nodes, rule, node_tau, node_wide, owner, node_slots, node_deg, top, stuck, size, homes,
    lens, ladder_tau, ladder_id, ladder_wide, count, free_homes,
):  # fmt: skip
    """The job on ``nodes`` leaves them and the ladder of ``count`` running jobs
    (`ladder_remove`): lower the homes whose highest threshold was its own
    (``free_homes[0]`` counts the homes all free). Returns the new count."""
    count = ladder_remove(ladder_tau, ladder_id, ladder_wide, count, owner[nodes[0]])
    tau = node_tau[nodes[0]]
    width = node_wide[nodes[0]]
    met = 0
    for n in nodes:
        node_tau[n] = -math.inf
        node_wide[n] = 0
        met += node_deg[n]
    # The homes to measure again, each once: a victim's home lies within the
    # nodes of the job that suspended it, so most are met on many of them.
    redo = np.empty(met, dtype=np.int64)
    m = 0
    for n in nodes:
        for k in range(node_deg[n]):
            s = node_slots[n, k]
            if _out_of_reach(rule, width, size[s]):
                stuck[s] -= 1
            if top[s] == tau:
                top[s] = math.nan  # queued: equal to nothing, so met again it stays queued once
                redo[m] = s
                m += 1
    for j in range(m):
        s = redo[j]
        best = -math.inf
        for i in range(lens[s]):
            t = node_tau[homes[s, i]]
            if t > best:
                best = t
        top[s] = best
        if best == -math.inf:
            free_homes[0] += 1
    return count


@njit(cache=True)
def add_home(
    s, nodes, rule, node_tau, node_wide, node_slots, node_deg, top, stuck, size, homes, free_homes
):  # fmt: skip
    """Slot ``s`` (a job of ``size[s]`` just suspended) gets its home ``nodes``
    (``free_homes[0]`` counts the homes all free)."""
    best = -math.inf
    count = 0
    for i in range(len(nodes)):
        n = nodes[i]
        homes[s, i] = n
        node_slots[n, node_deg[n]] = s
        node_deg[n] += 1
        if node_tau[n] > best:
            best = node_tau[n]
        if _out_of_reach(rule, node_wide[n], size[s]):
            count += 1
    top[s] = best
    stuck[s] = count
    if best == -math.inf:
        free_homes[0] += 1


@njit(cache=True)
def remove_home(s, nodes, node_slots, node_deg):
    """Slot ``s`` leaves the nodes of its home (its job resumes)."""
    for n in nodes:
        last = node_deg[n] - 1
        for k in range(last + 1):
            if node_slots[n, k] == s:
                node_slots[n, k] = node_slots[n, last]
                node_deg[n] = last
                break


@njit(cache=True)
def home_bar(nodes, size, rule, node_tau, node_wide):
    """The bar of a job of ``size`` whose home is ``nodes``: the highest threshold on it
    (at least 0), or inf when a job on it is out of its reach."""
    best = 0.0
    for n in nodes:
        if _out_of_reach(rule, node_wide[n], size):
            return math.inf
        if node_tau[n] > best:
            best = node_tau[n]
    return best


@njit(cache=True)
def home_bars_shared(
    avail, e_nodes, e_cores, e_starts, e_tau, e_width, h_nodes, h_cores, h_starts, sizes, rule
):  # fmt: skip
    """Several cores per node: the bar of each suspended job's re-entry (section 3.3).

    The running jobs are laid end to end in the order the pass tries them
    (`rule.running_order`: the most expendable first), job ``e`` holding
    ``e_cores[p]`` on ``e_nodes[p]`` for ``p`` from ``e_starts[e]`` to
    ``e_starts[e + 1]``, with threshold ``e_tau[e]`` (inf: protected) and
    width ``e_width[e]``; the homes likewise (``h_starts`` has one entry more
    than ``sizes``). A re-entry takes the jobs that hold a core its home still
    lacks, in that order, until none lacks (`schedsim.policies.preemption.home_victims`),
    and every one of them must be a candidate: the bar is the highest threshold
    among them (at least 0), inf when one is out of reach or protected or when
    they never make up the home. Exact on ``avail`` and these jobs, so a lower
    bound for a pass that starts from them (its cores only get fewer).
    """
    out = np.empty(len(sizes))
    short = np.zeros(len(avail), dtype=np.int64)
    for s in range(len(sizes)):
        lacking = 0
        for p in range(h_starts[s], h_starts[s + 1]):
            n = h_nodes[p]
            short[n] = max(h_cores[p] - avail[n], 0)
            if short[n] > 0:
                lacking += 1
        best = 0.0
        for e in range(len(e_tau)):
            if lacking == 0:
                break
            gives = False
            for p in range(e_starts[e], e_starts[e + 1]):
                n = e_nodes[p]
                if short[n] > 0:
                    gives = True
                    short[n] -= min(e_cores[p], short[n])
                    if short[n] == 0:
                        lacking -= 1
            if gives:
                if _out_of_reach(rule, e_width[e], sizes[s]):
                    best = math.inf
                    break
                if e_tau[e] > best:
                    best = e_tau[e]
        if lacking > 0:
            best = math.inf
        out[s] = best
        for p in range(h_starts[s], h_starts[s + 1]):
            short[h_nodes[p]] = 0
    return out


@njit(cache=True)
def suspended_earliest(now, sf, active, top, stuck, est, submit, done):
    """The first time any suspended job may re-enter by preempting (inf: none may).

    A slot's threshold grows from ``(now - submit - done + est) / est``; it may
    preempt once that exceeds ``sf`` times its bar (its home's highest
    threshold, at least 0; inf when stuck behind a job out of its reach).
    """
    first = math.inf
    for s in range(len(active)):
        if not active[s]:
            continue
        tau = _slot_threshold(now, s, est, submit, done)
        when = _when(now, sf, _slot_bar(s, top, stuck), tau, est[s])
        if when < first:
            first = when
    return first


@njit(cache=True)
def fresh_bars(sizes, free, taus, widths, rule):
    """For each fresh job of ``sizes[i]`` processors, the bar it must exceed to preempt.

    The lowest-threshold running jobs (``taus`` ascending, then inf;
    ``widths`` theirs) it may suspend by the width rule that, with ``free``
    processors, make up its size: the threshold of the last of them; 0 when
    the free processors suffice, inf when they never do.
    """
    out = np.empty(len(sizes))
    for i in range(len(sizes)):
        out[i] = _fresh_bar(sizes[i], free, taus, widths, rule)
    return out


@njit(cache=True)
def _fresh_bar(size, free, taus, widths, rule):
    # `fresh_bars` for one job.
    need = size - free
    if need <= 0:
        return 0.0
    got = 0
    for j in range(len(widths)):
        if _out_of_reach(rule, widths[j], size):
            continue
        got += widths[j]
        if got >= need:
            return taus[j]
    return math.inf


@njit(cache=True)
def fresh_earliest(now, sf, sizes, est, taus, avail, ladder_taus, widths, rule):
    """The first time any of these fresh jobs may preempt, with ``avail`` free
    processors per node: `fresh_bars`, then the time each job's threshold
    (``taus`` now, growing by 1 per ``est``) reaches ``sf`` times its bar; the
    earliest of them (inf: none ever may)."""
    bars = fresh_bars(sizes, avail.sum(), ladder_taus, widths, rule)
    first = math.inf
    for i in range(len(sizes)):
        when = _when(now, sf, bars[i], taus[i], est[i])
        if when < first:
            first = when
    return first


@njit(cache=True)
def board_earliest(
    now, sf, first, sizes, est, taus, avail, ladder_taus, widths, rule, soonest, held,
    active, top, stuck, h_est, h_submit, h_done,
):  # fmt: skip
    """`fresh_earliest` of these fresh jobs, or ``first`` if sooner; then, when
    ``held`` and that is after ``soonest``, `suspended_earliest` if sooner still.

    The plan of SS's next tick on the board in one call: the suspended jobs
    only matter when the others leave the next tick later than the soonest.
    """
    if len(sizes):
        first = min(
            first, fresh_earliest(now, sf, sizes, est, taus, avail, ladder_taus, widths, rule)
        )
    if held and first > soonest:
        first = min(first, suspended_earliest(now, sf, active, top, stuck, h_est, h_submit, h_done))
    return first


@njit(cache=True)
def _idle_before(tau_a, submit_a, id_a, tau_b, submit_b, id_b):
    # SS's order of idle jobs: decreasing threshold, then submit time, then id.
    if tau_a != tau_b:
        return tau_a > tau_b
    if submit_a != submit_b:
        return submit_a < submit_b
    return id_a < id_b


@njit(cache=True)
def board_starts(
    now, free, q_size, q_est, q_submit, q_done, q_id, avail, avoid, free_homes, active, top,
    h_size, h_est, h_submit, h_done, h_id, homes, lens,
):  # fmt: skip
    """SS's pass with no preemption, one core per node: the idle jobs that start now.

    The candidates are the queued jobs no wider than the ``free`` processors
    and, when ``free_homes`` says some are, the suspended jobs (slots) whose
    home is all free. In decreasing threshold (``(now - submit - done +
    est) / est``), then submit time, then id, each starts if it still fits:
    a queued one first fit on ``avail`` avoiding the suspended jobs' homes
    (``avoid``, `first_fit_avoiding`), a suspended one on its home. Takes the
    processors from ``avail``. Returns the starts in order, a queued job's
    row ``i`` as ``i`` and a slot ``s`` as ``len(q_size) + s``, and the nodes
    the queued ones take, one after another. The same decisions as
    `schedsim.policies.selective_suspension.fast.SelectiveSuspension._board_pass` makes job
    by job with `schedsim.policies.preemption.Idle.start_if_free`.
    """
    nq = len(q_size)
    ns = 0
    if free_homes > 0:
        for s in range(len(active)):
            if active[s] and top[s] == -math.inf:
                ns += 1
    cand = np.empty(nq + ns, dtype=np.int64)
    tau = np.empty(nq + ns)
    submit = np.empty(nq + ns)
    ids = np.empty(nq + ns, dtype=np.int64)
    m = 0
    for i in range(nq):
        if q_size[i] <= free:
            cand[m] = i
            tau[m] = (now - q_submit[i] - q_done[i] + q_est[i]) / q_est[i]
            submit[m] = q_submit[i]
            ids[m] = q_id[i]
            m += 1
    if ns:
        for s in range(len(active)):
            if active[s] and top[s] == -math.inf:
                cand[m] = nq + s
                tau[m] = (now - h_submit[s] - h_done[s] + h_est[s]) / h_est[s]
                submit[m] = h_submit[s]
                ids[m] = h_id[s]
                m += 1
    # Insertion sort: a pass has a few candidates.
    for a in range(1, m):
        c, t, u, d = cand[a], tau[a], submit[a], ids[a]
        b = a - 1
        while b >= 0 and _idle_before(t, u, d, tau[b], submit[b], ids[b]):
            cand[b + 1], tau[b + 1], submit[b + 1], ids[b + 1] = cand[b], tau[b], submit[b], ids[b]
            b -= 1
        cand[b + 1], tau[b + 1], submit[b + 1], ids[b + 1] = c, t, u, d
    started = np.empty(m, dtype=np.int64)
    nodes = np.empty(free, dtype=np.int64)
    k = 0
    used = 0
    left = free
    for a in range(m):
        c = cand[a]
        if c < nq:
            size = q_size[c]
            if size > left:
                continue
            got = first_fit_avoiding(avail, avoid, size)
            if not len(got):
                continue
            for n in got:
                avail[n] -= 1
                nodes[used] = n
                used += 1
        else:
            s = c - nq
            size = h_size[s]
            if size > left:
                continue
            fits = True
            for i in range(lens[s]):
                if avail[homes[s, i]] < 1:
                    fits = False
                    break
            if not fits:
                continue
            for i in range(lens[s]):
                avail[homes[s, i]] -= 1
        started[k] = c
        k += 1
        left -= size
    return started[:k], nodes[:used]


#: The reading ``hold`` (`schedsim.policies.selective_suspension.rule.hold_home`), coded:
#: which suspended jobs that cannot re-enter keep their home's free nodes.
KEEP_TOP, KEEP_ALL = 1, 2


@njit(cache=True)
def board_starts_kept(
    now, free, q_size, q_est, q_submit, q_done, q_id, avail, avoid, active, top, h_size,
    h_est, h_submit, h_done, h_id, homes, lens, keep, head, kept,
):  # fmt: skip
    """`board_starts` under the reading ``hold``: a suspended job that does not fit keeps
    its home's free nodes from the jobs after it (``keep``: `KEEP_ALL` every one,
    `KEEP_TOP` only slot ``head``, the job heading the idle order; -1 when a queued
    job heads it). The candidates are `board_starts`'s and the suspended jobs that
    may keep a node (a free node on their home; with `KEEP_TOP` the head alone), in
    the same order. The nodes kept are taken from ``avail`` and counted in ``kept``
    (``avail + kept`` is what is free). The same decisions as the plain pass makes
    job by job (`schedsim.policies.selective_suspension.plain`).
    """
    nq = len(q_size)
    ns = 0
    for s in range(len(active)):
        if active[s] and _may_start_or_keep(s, top, avail, homes, lens, keep, head):
            ns += 1
    cand = np.empty(nq + ns, dtype=np.int64)
    tau = np.empty(nq + ns)
    submit = np.empty(nq + ns)
    ids = np.empty(nq + ns, dtype=np.int64)
    m = 0
    for i in range(nq):
        if q_size[i] <= free:
            cand[m] = i
            tau[m] = (now - q_submit[i] - q_done[i] + q_est[i]) / q_est[i]
            submit[m] = q_submit[i]
            ids[m] = q_id[i]
            m += 1
    for s in range(len(active)):
        if active[s] and _may_start_or_keep(s, top, avail, homes, lens, keep, head):
            cand[m] = nq + s
            tau[m] = (now - h_submit[s] - h_done[s] + h_est[s]) / h_est[s]
            submit[m] = h_submit[s]
            ids[m] = h_id[s]
            m += 1
    order = _idle_sorted(tau[:m], submit[:m], ids[:m])
    started = np.empty(m, dtype=np.int64)
    nodes = np.empty(free, dtype=np.int64)
    k = 0
    used = 0
    left = free
    for a in range(m):
        c = cand[order[a]]
        if c < nq:
            size = q_size[c]
            if size > left:
                continue
            got = first_fit_avoiding(avail, avoid, size)
            if not len(got):
                continue
            for n in got:
                avail[n] -= 1
                nodes[used] = n
                used += 1
        else:
            s = c - nq
            size = h_size[s]
            fits = size <= left
            if fits:
                for i in range(lens[s]):
                    if avail[homes[s, i]] < 1:
                        fits = False
                        break
            if not fits:
                if keep == KEEP_ALL or s == head:
                    for i in range(lens[s]):
                        n = homes[s, i]
                        if avail[n] > 0:
                            kept[n] += avail[n]
                            left -= avail[n]
                            avail[n] = 0
                continue
            for i in range(lens[s]):
                avail[homes[s, i]] -= 1
        started[k] = c
        k += 1
        left -= size
    return started[:k], nodes[:used]


@njit(cache=True)
def _may_start_or_keep(s, top, avail, homes, lens, keep, head):
    # A suspended job (slot ``s``) a pass under ``hold`` must visit: its home all free,
    # or (the one that keeps, `board_starts_kept`) a free node on it to keep.
    if top[s] == -math.inf:
        return True
    if keep != KEEP_ALL and s != head:
        return False
    for i in range(lens[s]):  # noqa: SIM110 (a loop numba compiles; no generator)
        if avail[homes[s, i]] > 0:
            return True
    return False


@njit(cache=True)
def _idle_sorted(tau, submit, ids):
    # The positions in SS's order of idle jobs (`_idle_before`), by merge sort: a pass
    # under ``hold`` may visit hundreds of suspended jobs.
    m = len(tau)
    order = np.arange(m)
    buf = np.empty(m, dtype=np.int64)
    width = 1
    while width < m:
        for lo in range(0, m, 2 * width):
            mid = min(lo + width, m)
            hi = min(lo + 2 * width, m)
            a, b, k = lo, mid, lo
            while a < mid and b < hi:
                x, y = order[a], order[b]
                if _idle_before(tau[y], submit[y], ids[y], tau[x], submit[x], ids[x]):
                    buf[k] = y
                    b += 1
                else:
                    buf[k] = x
                    a += 1
                k += 1
            while a < mid:
                buf[k] = order[a]
                a += 1
                k += 1
            while b < hi:
                buf[k] = order[b]
                b += 1
                k += 1
        order, buf = buf, order
        width *= 2
    return order


@njit(cache=True)
def ready_on_board(
    now, sf, preempt, sizes, est, taus, nf, free, ladder_taus, widths, rule, slots, top, stuck
):
    """Which idle jobs may start now: the ``nf`` fresh ones first, then the suspended
    ones of ``slots`` (their columns follow in ``sizes``, ``est`` and ``taus``).

    A fresh job fits ``free`` processors or, when ``preempt``, its threshold
    is past ``sf`` times its bar (`fresh_bars`); a suspended one has its
    home free or, when ``preempt``, its threshold past ``sf`` times its home's
    bar. Necessary conditions: the caller still tries each job.
    """
    n = len(sizes)
    ok = np.zeros(n, dtype=np.bool_)
    bars = fresh_bars(sizes[:nf], free, ladder_taus, widths, rule)
    for i in range(nf):
        ok[i] = sizes[i] <= free or (preempt and _when(now, sf, bars[i], taus[i], est[i]) <= now)
    for k in range(nf, n):
        s = slots[k - nf]
        free_home = top[s] == -math.inf
        ok[k] = free_home or (
            preempt and _when(now, sf, _slot_bar(s, top, stuck), taus[k], est[k]) <= now
        )
    return ok


@njit(cache=True)
def ready_in_order(
    now, sf, preempt, sizes, est, taus, submit, ids, nf, free, ladder_taus, widths, rule,
    slots, top, stuck, pivot,
):  # fmt: skip
    """The idle jobs `ready_on_board` lets through, in SS's idle order (decreasing
    threshold, then submit time, then id: `_idle_before`), and of those only the jobs
    after idle job ``pivot`` in that order (-1: all): what a full pass on the board
    tries, at its start and after each preemption (the jobs after the one that
    preempted). Positions as in ``sizes``: the ``nf`` fresh jobs, then ``slots``."""
    ok = ready_on_board(
        now, sf, preempt, sizes, est, taus, nf, free, ladder_taus, widths, rule, slots, top,
        stuck,
    )  # fmt: skip
    pick = np.empty(len(ok), dtype=np.int64)
    m = 0
    for k in range(len(ok)):
        if not ok[k]:
            continue
        if pivot >= 0 and not _idle_before(
            taus[pivot], submit[pivot], ids[pivot], taus[k], submit[k], ids[k]
        ):
            continue
        pick[m] = k
        m += 1
    pick = pick[:m]
    return pick[_idle_sorted(taus[pick], submit[pick], ids[pick])]


@njit(cache=True)
def ladder_insert(taus, ids, widths, count, tau, job_id, width):
    """Insert a running job into the ladder (the first ``count`` entries, sorted by
    threshold then id, then an inf threshold); returns the new count."""
    p = count
    while p > 0 and (taus[p - 1] > tau or (taus[p - 1] == tau and ids[p - 1] > job_id)):
        p -= 1
    for i in range(count, p - 1, -1):  # the inf after the last entry moves too
        taus[i + 1] = taus[i]
        ids[i + 1] = ids[i]
        widths[i + 1] = widths[i]
    taus[p] = tau
    ids[p] = job_id
    widths[p] = width
    return count + 1


@njit(cache=True)
def ladder_remove(taus, ids, widths, count, job_id):
    """Take job ``job_id`` out of the ladder (see `ladder_insert`); returns the new count."""
    p = 0
    while ids[p] != job_id:
        p += 1
    for i in range(p, count):
        taus[i] = taus[i + 1]
        ids[i] = ids[i + 1]
        widths[i] = widths[i + 1]
    return count - 1


@njit(cache=True)
def may_preempt(
    now, sf, sizes, est, taus, free, ladder_taus, widths, rule, active, top, stuck, h_est,
    h_submit, h_done,
):  # fmt: skip
    """Whether any idle job might preempt in a pass that starts from this state.

    A necessary condition, for a pass in which the free processors only get
    fewer until a first preemption: a fresh job needs its bar passed with at
    most ``size - 1`` free (with as many it would start instead), a suspended
    one the highest threshold on its home, which must hold a running job
    (a free node can only go to a job started in the pass, which no one may
    suspend), and none out of its reach.
    """
    for i in range(len(sizes)):
        bar = _fresh_bar(sizes[i], min(free, sizes[i] - 1), ladder_taus, widths, rule)
        if _when(now, sf, bar, taus[i], est[i]) <= now:
            return True
    for s in range(len(active)):
        if not active[s] or stuck[s] > 0 or top[s] == -math.inf:
            continue
        tau = _slot_threshold(now, s, h_est, h_submit, h_done)
        if _when(now, sf, _slot_bar(s, top, stuck), tau, h_est[s]) <= now:
            return True
    return False
