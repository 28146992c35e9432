"""The server's garbage-collection policy (``server/collector.py``): full collections that never
scan long-lived objects, with the frozen objects bounded so that cyclic garbage is found."""

from __future__ import annotations

import gc
import weakref
from collections.abc import Iterator

import pytest

from dennou.server.collector import FULL_COLLECTION_EVERY, LongLivedObjects


class Node:
    """An object that can form a cycle and be watched by a weak reference."""

    def __init__(self) -> None:
        self.other: Node | None = None


@pytest.fixture
def policy() -> Iterator[LongLivedObjects]:
    gc.unfreeze()
    policy = LongLivedObjects(growth=2.0)  # small: a test grows the heap past it
    policy.install()
    try:
        yield policy
    finally:
        policy.uninstall()


def cycle_garbage(*, frozen: bool = False) -> weakref.ref[Node]:
    """A two-object cycle nothing else refers to: only a collection that scans it frees it.

    ``frozen``: it lives through a middle collection (and is frozen) before it is dropped.
    """
    a, b = Node(), Node()
    a.other, b.other = b, a
    if frozen:
        gc.collect(1)
    return weakref.ref(a)


def test_install_freezes_what_lives_now_and_makes_full_collections_rarer(
    policy: LongLivedObjects,
) -> None:
    assert gc.get_threshold()[2] == FULL_COLLECTION_EVERY
    assert policy.baseline > 0
    assert gc.get_freeze_count() > policy.baseline // 2  # some died since, by reference counting
    assert policy.reclaims == 1


def test_what_survives_a_middle_collection_is_frozen_not_promoted(
    policy: LongLivedObjects,
) -> None:
    before = gc.get_freeze_count()
    kept = [[i] for i in range(1000)]
    gc.collect(1)
    assert gc.get_freeze_count() >= before + len(kept)
    assert all(gc.is_tracked(x) for x in kept)
    # the oldest generation holds nothing a full collection would have to scan again
    assert len(gc.get_objects(generation=2)) < 100
    gc.collect(1)  # frozen objects are still freed by reference counting
    frozen = gc.get_freeze_count()
    del kept
    assert gc.get_freeze_count() <= frozen - 1000


def test_young_cycles_are_still_collected_at_once(policy: LongLivedObjects) -> None:
    watched = cycle_garbage()
    gc.collect(0)
    assert watched() is None


def test_cyclic_garbage_among_frozen_objects_waits_for_the_bound(
    policy: LongLivedObjects,
) -> None:
    watched = cycle_garbage(frozen=True)
    gc.collect()  # a full collection does not see it
    assert watched() is not None
    assert not policy.reclaiming


def test_past_the_bound_one_full_collection_scans_everything_and_finds_the_cycles(
    policy: LongLivedObjects,
) -> None:
    watched = cycle_garbage(frozen=True)
    grown = [[i] for i in range(int(policy.baseline * policy.growth) + 1000)]
    gc.collect(1)
    assert not policy.reclaiming  # counted at full collections only
    gc.collect()  # the frozen objects are now past twice what they were: unfrozen
    assert policy.reclaiming
    assert gc.get_freeze_count() == 0
    assert watched() is not None  # still there until the next full collection
    gc.collect(1)
    assert policy.reclaiming and gc.get_freeze_count() == 0  # nothing frozen meanwhile
    gc.collect()
    assert watched() is None
    assert not policy.reclaiming and policy.reclaims == 2
    assert policy.baseline >= len(grown)  # the survivors frozen again
    assert gc.get_freeze_count() >= len(grown)
    gc.collect()
    assert not policy.reclaiming  # the new bound is twice the new baseline


def test_growth_must_leave_room_to_grow() -> None:
    with pytest.raises(ValueError, match="above 1"):
        LongLivedObjects(growth=1.0)
