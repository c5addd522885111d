"""Compiled loops for the policies' bookkeeping: Selective Suspension's board
(`schedsim.policies.homeboard`), placement and passes without preemption
(`board_starts`), Immediate Service's check of the
suspended jobs' homes (`homes_fitting`), conservative backfilling's
compression (`compress_plan`), and CREASY's pass (`creasy_pass`).

SS on a busy machine keeps hundreds of jobs suspended, each tied to its
home nodes (seed 000, section 3.3), and every start, end and suspension
touches a few dozen of those homes. Done with numpy, each such event is a
few dozen array calls whose fixed cost dwarfs the work; here each is one
call into a loop compiled by numba. The loops do the same arithmetic, in
the same order, as the numpy expressions or list methods they replace (no
``fastmath``), so schedules are the same bit for bit. Conservative
backfilling's compression (seed 000 section 2.1.1) walks the availability
profile once per waiting job at every early end: a few microseconds each in
Python, a hundred thousand walks on a busy month. CREASY (Feitelson &
Shmueli 2009, section 2) orders its whole queue by Equation 2 at every pass,
then backfills as EASY: a dozen numpy calls on about a hundred jobs and a
Python loop over them in a loaded closed-loop run, where one compiled loop
orders only the jobs the pass can start and decides as EASY does.

Widths are coded as integers: `TEXT`, `FORMULA` and `NONE` (see
`schedsim.policies.selective` for the width rule of sections 3.2 and 3.3).
Thresholds of free nodes are ``-inf``.

Compiled code is cached next to this module, or in the user's cache
directory where that is read-only (``cache=True``), so only the first run
on a machine pays for compiling (about 4 s for SS's, 2 s for the
compression or CREASY's pass, on the development machine); later processes
load it (about 0.5 s, at their first SS pass, compiled compression or
compiled CREASY pass).
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

__all__ = [
    "COMPRESSION",
    "FORMULA",
    "NONE",
    "ORDERING",
    "RULES",
    "TEXT",
    "add_home",
    "board_earliest",
    "board_starts",
    "cache_is_cold",
    "cached_kernels",
    "compress_plan",
    "creasy_keys",
    "creasy_pass",
    "creasy_scan",
    "first_fit_avoiding",
    "fresh_bars",
    "fresh_earliest",
    "home_bar",
    "homes_fitting",
    "ladder_insert",
    "ladder_remove",
    "may_preempt",
    "occupy",
    "ready_on_board",
    "remove_home",
    "suspended_earliest",
    "suspension_kernels",
    "vacate",
]

#: The width rule as a code: n_i >= n_j / 2 (text), n_i / n_j < 2 (formula), none.
TEXT, FORMULA, NONE = 0, 1, 2
#: The codes by the rule's name (`schedsim.policies.selective.Width`).
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
def homes_fitting(avail, nodes, cores, starts):
    """Which homes have every core in ``avail``: their indices, in order.

    The homes are laid end to end: home ``i`` is ``nodes[p]`` and ``cores[p]`` for
    ``p`` from ``starts[i]`` to the next start (or the end); none is empty. A home
    is left at its first node short of cores: on a busy machine most are, early.
    `schedsim.policies.immediate.ImmediateService._fitting`.
    """
    count = len(starts)
    out = np.empty(count, dtype=np.int64)
    k = 0
    for i in range(count):
        end = starts[i + 1] if i + 1 < count else len(nodes)
        fits = True
        for p in range(starts[i], end):
            if avail[nodes[p]] < cores[p]:
                fits = False
                break
        if fits:
            out[k] = i
            k += 1
    return out[:k]


@njit(cache=True)
def first_fit_avoiding(avail, avoid, size):
    """One core per node: the first ``size`` free nodes, those in ``avoid`` only when the
    others are too few (empty when the free nodes are).
    `schedsim.policies.preemption.fit_avoiding`."""
    spare = 0
    total = 0
    for n in range(len(avail)):
        if avail[n] > 0:
            total += 1
            if avail[n] > avoid[n]:
                spare += 1
    if total < size:
        return np.empty(0, dtype=np.int64)
    # Spare nodes first; then the lowest avoided ones, as many as still needed.
    extra = size - spare if spare < size else 0
    out = np.empty(size, dtype=np.int64)
    k = 0
    for n in range(len(avail)):
        if k == size:
            break
        if avail[n] <= 0:
            continue
        if avail[n] > avoid[n]:
            out[k] = n
            k += 1
        elif extra > 0:
            out[k] = n
            k += 1
            extra -= 1
    return out


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
    `schedsim.policies.suspension.SelectiveSuspension._board_pass` makes job
    by job with `schedsim.policies.selective.Idle.start_if_free`.
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


# ---- conservative backfilling's compression --------------------------------------------
# The loops of `schedsim.policies.planning.profile.Profile` (_split, add,
# earliest_before) over arrays with room to grow: ``times[:n]`` and ``free[:n]``
# are the profile's steps. Same comparisons and sums in the same order, so the
# same steps and starts as the list-based methods, bit for bit.


@njit(cache=True)
def _bisect_left(times, n, t):
    lo, hi = 0, n
    while lo < hi:
        mid = (lo + hi) // 2
        if times[mid] < t:
            lo = mid + 1
        else:
            hi = mid
    return lo


@njit(cache=True)
def _split(times, free, n, t):
    # Index of a step starting exactly at ``t`` (made if needed), and the new length.
    i = _bisect_left(times, n, t)
    if i < n and times[i] == t:
        return i, n
    level = free[i - 1] if i > 0 else free[n - 1]  # the list's free[i - 1]
    for k in range(n, i, -1):
        times[k] = times[k - 1]
        free[k] = free[k - 1]
    times[i] = t
    free[i] = level
    return i, n + 1


@njit(cache=True)
def _delete(times, free, n, i):
    for k in range(i, n - 1):
        times[k] = times[k + 1]
        free[k] = free[k + 1]
    return n - 1


@njit(cache=True)
def _add(times, free, n, start, end, cores):
    # Profile.add: ``cores`` more free over [start, end), equal neighbours merged.
    if not end > start:
        return n
    a, n = _split(times, free, n, start)
    if end < math.inf:
        b, n = _split(times, free, n, end)
    else:
        b = n
    for k in range(a, b):
        free[k] += cores
    if b < n and free[b] == free[b - 1]:
        n = _delete(times, free, n, b)
    if a > 0 and free[a] == free[a - 1]:
        n = _delete(times, free, n, a)
    return n


@njit(cache=True)
def _earliest_before(times, free, n, cores, duration, start):
    # Profile.earliest_before: the first run of steps with ``cores`` free that lasts
    # ``duration`` or reaches ``start``; ``start`` if there is none.
    k = _bisect_left(times, n, start)
    open_ = False
    c = 0.0
    for j in range(k):
        if free[j] >= cores:
            if not open_:
                c = times[j]
                open_ = True
            if j + 1 == k or times[j + 1] >= c + duration:
                return c
        else:
            open_ = False
    return start


@njit(cache=True)
def compress_plan(times, free, n, starts, spans, cores, order):
    """Conservative compression over a profile held in arrays (seed 000 section 2.1.1).

    ``times[:n]``, ``free[:n]`` are the profile's steps, with room for four
    more per reservation; reservation ``r`` is ``(starts[r], spans[r],
    cores[r])``, taken in the order of ``order``. Each moves to its earliest
    anchor not after its start, changing the profile in place. Returns the
    profile's new length, and the reservations that moved and their new
    starts, in the order they moved.
    """
    moved = np.empty(len(order), np.int64)
    new_starts = np.empty(len(order), np.float64)
    m = 0
    for o in range(len(order)):
        r = order[o]
        start, span, c = starts[r], spans[r], cores[r]
        new = _earliest_before(times, free, n, c, span, start)
        if new < start:
            n = _add(times, free, n, start, start + span, c)
            n = _add(times, free, n, new, new + span, -c)
            moved[m] = r
            new_starts[m] = new
            m += 1
    return n, moved[:m], new_starts[:m]


# ---- CREASY's pass ---------------------------------------------------------------------


@njit(cache=True)
def _before(key, submit, ids, a, b):
    # Job a goes before job b: by key (minus the priority), then submit time, then id.
    if key[a] != key[b]:
        return key[a] < key[b]
    if submit[a] != submit[b]:
        return submit[a] < submit[b]
    return ids[a] < ids[b]


@njit(cache=True)
def creasy_keys(estimate, submit, done, now, alpha, scale):
    """Minus each queued job's CREASY priority (Feitelson & Shmueli 2009, Equation 2).

    ``alpha * scale / d**2 + wait`` with ``wait = (now - submit - done) / 60`` and
    ``d = 0.05 * (wait + estimate / 60) + 1`` (``scale`` is 0.8 x 0.05, computed by
    the caller as `schedsim.policies.creasy.criticality` computes it): the numpy
    expression's operations in its order, so the same numbers bit for bit (tested).
    """
    n = len(estimate)
    key = np.empty(n)
    for i in range(n):
        wait = (now - submit[i] - done[i]) / 60.0
        d = 0.05 * (wait + estimate[i] / 60.0) + 1.0
        key[i] = -(alpha * (scale / (d * d)) + wait)
    return key


@njit(cache=True)
def creasy_scan(size, estimate, submit, done, ids, now, alpha, scale, free):
    """The queue positions a CREASY pass with ``free`` free cores looks at, in its order.

    `schedsim.policies.creasy.CREASY.ordered`'s order, on the priorities of
    `creasy_keys`, less the jobs that cannot start: kept are the jobs that fit
    ``free`` and the first of the others (which may take the reservation); sorted
    highest priority first, ties by submit time, then id (an insertion sort: a
    handful of jobs fit a loaded machine).
    """
    n = len(size)
    key = creasy_keys(estimate, submit, done, now, alpha, scale)
    out = np.empty(n, np.int64)
    m = 0
    wide = -1
    for i in range(n):
        if size[i] <= free:
            out[m] = i
            m += 1
        elif wide < 0 or _before(key, submit, ids, i, wide):
            wide = i
    if wide >= 0:
        out[m] = wide
        m += 1
    for a in range(1, m):
        x = out[a]
        j = a - 1
        while j >= 0 and _before(key, submit, ids, x, out[j]):
            out[j + 1] = out[j]
            j -= 1
        out[j + 1] = x
    return out[:m]


@njit(cache=True)
def creasy_pass(
    size, estimate, submit, done, ids, now, alpha, scale, free, run_end, run_size, grace
):
    """One CREASY pass: EASY backfilling over the queue in CREASY's order, compiled.

    `schedsim.policies.backfilling.EASY.schedule` on the jobs `creasy_scan` keeps
    (those that fit ``free`` and the first of the others, which is all a pass can
    touch: free cores only fall during a pass). Starts jobs in order while they fit;
    the first that does not is the head and gets the reservation at the shadow
    time (`schedsim.policies.planning.easy.shadow`: the running jobs, ``run_end``
    and ``run_size``, and this pass's starts free their cores at their planned
    ends, an overrun job ``grace`` seconds on at least,
    `schedsim.policies.planning.profile.planned_end`); the rest backfill if they end
    by then or fit the extra cores.

    Returns the queue positions started, in order, the head's position (-1: none),
    and the shadow time and extra cores (meaningful only with a head).
    """
    picked = creasy_scan(size, estimate, submit, done, ids, now, alpha, scale, free)
    m = len(picked)
    started = np.empty(m, np.int64)
    s = 0
    k = 0
    head = -1
    while k < m:
        i = picked[k]
        k += 1
        if size[i] <= free:
            started[s] = i
            s += 1
            free -= size[i]
        else:
            head = i
            break
    if head < 0:
        return started[:s], head, math.inf, 0
    when, extra = _shadow(
        now, free, run_end, run_size, started[:s], estimate, size, size[head], grace
    )
    if free == 0:
        return started[:s], head, when, extra
    while k < m:
        i = picked[k]
        k += 1
        c = size[i]
        if c > free:
            continue
        if now + estimate[i] <= when:
            pass
        elif c <= extra:
            extra -= c
        else:
            continue
        started[s] = i
        s += 1
        free -= c
        if free == 0:
            break
    return started[:s], head, when, extra


@njit(cache=True)
def _shadow(now, free, run_end, run_size, started, estimate, size, cores, grace):
    # `planning.easy.shadow` over the running jobs and this pass's starts (planned to
    # end at now + estimate): the earliest planned end by which ``cores`` are free,
    # every job ending at that instant included, and the cores spare then. The
    # answer does not depend on how ties in the ends are ordered.
    if free >= cores:
        return now, free - cores
    r = len(run_end)
    n = r + len(started)
    ends = np.empty(n)
    cores_of = np.empty(n, np.int64)
    for j in range(r):
        ends[j] = _planned_end(run_end[j], now, grace)
        cores_of[j] = run_size[j]
    for j in range(len(started)):
        ends[r + j] = _planned_end(now + estimate[started[j]], now, grace)
        cores_of[r + j] = size[started[j]]
    order = np.argsort(ends)
    for a in range(n):
        free += cores_of[order[a]]
        if free >= cores:
            t = ends[order[a]]
            for b in range(a + 1, n):
                if ends[order[b]] != t:
                    break
                free += cores_of[order[b]]
            return t, free - cores
    return math.inf, 0


@njit(cache=True)
def _planned_end(expected_end, now, grace):
    # `planning.profile.planned_end`: an overrun job is planned to run as long again
    # as it has overrun, at least ``grace`` seconds.
    if expected_end > now:
        return expected_end
    return now + max(now - expected_end, grace)


# ---- numba's on-disk cache ------------------------------------------------------------


def cached_kernels() -> list[str]:
    """The kernels whose compiled code for this machine is in numba's on-disk cache.

    Read where this process's kernels load from and save to: numba picks the
    folder once per kernel when this module is imported (``cache=True``):
    ``$NUMBA_CACHE_DIR/<folder>_<hash of its path>/`` when that variable is
    set, else ``__pycache__/`` beside this file when writable, else the
    user-wide cache (``~/.cache/numba/<folder>_<hash>/`` on Linux). There each
    kernel has an index, ``kernels.<name>-<line>.py<XY>.nbi``, that counts
    only as numba reads it: written by this numba version for this very
    source (else numba ignores it) and holding code for this machine (the
    target triple, CPU name and features of its keys). Cheap: it reads the
    small index files and compiles nothing. With numba's JIT disabled there
    are no kernels to compile and the list is empty.
    """
    from numba.core.dispatcher import Dispatcher
    from numba.core.registry import cpu_target

    names = []
    try:
        machine = cpu_target.target_context.codegen().magic_tuple()
        for name, kernel in globals().items():
            if not isinstance(kernel, Dispatcher):
                continue
            index = kernel._cache._cache_file  # type: ignore[attr-defined]  # numba's index file
            try:
                overloads = index._load_index()  # {} when absent, stale or another numba's
            except Exception:  # an unreadable index: numba would compile again
                continue
            if any(key[1] == machine for key in overloads):
                names.append(name)
    except AttributeError:  # numba's internals changed: know nothing rather than fail
        return [name for name, k in globals().items() if isinstance(k, Dispatcher)]
    return names


#: The kernels of conservative backfilling's compression, which a run compiles only once
#: it needs them (`schedsim.policies.planning.conservative.PYTHON_BUDGET`). Every kernel
#: not here nor in `ORDERING` serves the suspension policies (SS, TSS, IS).
COMPRESSION = frozenset({"compress_plan", "_earliest_before", "_add", "_split", "_delete",
                         "_bisect_left"})  # fmt: skip
#: The kernels of CREASY's pass, which a run compiles only once it needs them
#: (`schedsim.policies.creasy.PYTHON_BUDGET`).
ORDERING = frozenset(
    {"creasy_pass", "creasy_scan", "creasy_keys", "_before", "_shadow", "_planned_end"}
)


def suspension_kernels() -> frozenset[str]:
    """The names of the suspension policies' kernels: every kernel but `COMPRESSION`'s
    and `ORDERING`'s."""
    from numba.core.dispatcher import Dispatcher

    others = COMPRESSION | ORDERING
    return frozenset(
        n for n, k in globals().items() if isinstance(k, Dispatcher) and n not in others
    )


def cache_is_cold() -> bool:
    """Whether none of the suspension policies' kernels (`suspension_kernels`) is in
    numba's on-disk cache (`cached_kernels`) for this machine.

    True for a machine's first SS, TSS or IS run (and the first after numba, Python
    or this file changed), which compiles them: about 4 s. A cached compression
    kernel does not count. Partly filled counts as warm, since a run compiles only
    the kernels it calls (without the board, on several cores per node or with a
    suspension overhead, SS and TSS call only a few of them), and a user who ran
    only those would otherwise be told of a compilation at every run.
    """
    kernels = suspension_kernels()
    return bool(kernels) and not kernels & set(cached_kernels())
