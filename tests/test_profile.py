"""The availability profile: anchor points, reservations, compression search."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from schedsim.policies.planning.profile import INF, Profile


def profile_with(total: int, blocks: list[tuple[float, float, int]], now: float = 0.0) -> Profile:
    p = Profile(now, total)
    for start, duration, cores in blocks:
        p.reserve(start, duration, cores)
    return p


def test_empty_profile_anchors_now():
    p = Profile(5.0, 8)
    assert p.earliest(8, 100.0, 5.0) == 5.0


def test_anchor_waits_for_enough_cores_for_the_whole_duration():
    # 4 cores; 3 busy until 10; 2 busy during [20, 30).
    p = profile_with(4, [(0, 10, 3), (20, 10, 2)])
    assert p.free == [1, 4, 2, 4] and p.times == [0, 10, 20, 30]
    assert p.earliest(1, 100, 0) == 0
    assert p.earliest(2, 5, 0) == 10  # fits in [10, 20)
    assert p.earliest(3, 5, 0) == 10
    assert p.earliest(3, 15, 0) == 30  # [10, 25) would cross the 2-core dip
    assert p.earliest(2, 15, 0) == 10  # 2 free during the dip is enough


def test_reserve_and_release_restore_the_profile():
    p = profile_with(4, [(0, 10, 3)])
    before = (list(p.times), list(p.free))
    p.reserve(10, 5, 4)
    p.release(10, 5, 4)
    assert (p.times, p.free) == before
    p.check()


def test_advance_forgets_the_past():
    p = profile_with(4, [(0, 10, 3), (20, 10, 2)])
    p.advance(15)
    assert p.times == [15, 20, 30] and p.free == [4, 2, 4]
    assert p.free_at(25) == 2


def test_never_fitting_job_is_an_error():
    with pytest.raises(ValueError, match="never be free"):
        Profile(0, 4).earliest(5, 1, 0)


blocks = st.lists(
    st.tuples(
        st.integers(0, 50).map(float),
        st.integers(1, 30).map(float),
        st.integers(1, 4),
    ),
    max_size=8,
)


@settings(max_examples=300, deadline=None)
@given(
    blocks=blocks, cores=st.integers(1, 4), duration=st.integers(0, 40), start=st.integers(0, 60)
)
def test_compression_search_matches_the_general_search(blocks, cores, duration, start):
    """earliest_before(...) == earliest(..., limit=start, own=reservation), on random profiles."""
    total = 8
    p = Profile(0.0, total)
    for b_start, b_dur, b_cores in blocks:
        if min(p.free) >= b_cores:  # only blocks that keep the profile feasible
            p.reserve(b_start, b_dur, b_cores)
    # The job holds a reservation at a feasible start, as compression assumes.
    start = p.earliest(cores, duration, float(start))
    p.reserve(start, duration, cores)
    own = (start, start + duration, cores)
    general = p.earliest(cores, duration, 0.0, limit=start, own=own)
    assert p.earliest_before(cores, duration, start) == general
    assert general <= start
    p.check()
    assert p.free[-1] == total and p.times[-1] < INF
