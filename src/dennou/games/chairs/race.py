"""The island and the race: map generation and the race's resolution (pure functions).

The race is an event simulation. Each runner leaves the totem at their start time (seeded jitter
plus ``block_delay`` per blocker) for the first chair on their list whose lamp is not lit (lit =
someone sat on it earlier); arriving at a free chair, they sit; arriving at a taken chair or one a
blocker stands on, they run on from there to the next chair on their list that is not lit. The
earliest arrival wins a chair (equal times: the lower seat). Nobody sits after ``time_limit``.
"""

from __future__ import annotations

import heapq
import math
import random
from collections.abc import Mapping, Sequence

from dennou.games.chairs.state import Leg, Run

TOTEM = (0, 0)


def distance(a: tuple[int, int], b: tuple[int, int]) -> float:
    """Straight-line distance in metres."""
    return math.hypot(a[0] - b[0], a[1] - b[1])


def generate_map(rng: random.Random, chairs: int, radius: int) -> list[tuple[int, int]]:
    """Scatter ``chairs`` chairs over a round island of ``radius`` metres (seeded).

    Chairs keep a spacing that shrinks only if the island is too crowded, stay off the shore
    (95% of the radius) and away from the totem, and are distinct integer points.
    """
    spacing = 2 * radius * math.sqrt(0.3 / chairs)
    inner = radius * 0.95
    points: list[tuple[int, int]] = []
    while len(points) < chairs:
        for _ in range(400):
            x, y = rng.randint(-radius, radius), rng.randint(-radius, radius)
            p = (x, y)
            if x * x + y * y > inner * inner or distance(p, TOTEM) < max(1.0, spacing / 2):
                continue
            if p in points or any(distance(p, q) < spacing for q in points):
                continue
            points.append(p)
            break
        else:
            spacing *= 0.8
    return points


def resolve_race(
    positions: Mapping[int, tuple[int, int]],
    blocked: frozenset[int],
    runners: Sequence[tuple[int, float, Sequence[int]]],
    *,
    speed: float,
    time_limit: float,
) -> list[Run]:
    """Run the race.

    Args:
        positions: Chair number -> spot, for the chairs in play.
        blocked: Chairs a blocker stands on (nobody may take them this period).
        runners: ``(seat, start time, order list)`` per player.
        speed: Metres per second.
        time_limit: Seconds; nobody sits later.

    Returns:
        One :class:`Run` per runner, in the order given.
    """
    taken: dict[int, int] = {}
    where: dict[int, tuple[int, int]] = {}
    nxt: dict[int, int] = {}
    legs: dict[int, list[Leg]] = {}
    lists = {seat: list(order) for seat, _, order in runners}
    # (time, kind, seat, chair): arrivals (kind 0) before departures (kind 1) at equal times so
    # that a runner choosing a target sees every lamp lit by then; then lower seat first.
    heap: list[tuple[float, int, int, int]] = []
    for seat, start, _ in runners:
        where[seat], nxt[seat], legs[seat] = TOTEM, 0, []
        heapq.heappush(heap, (start, 1, seat, 0))
    while heap:
        t, kind, seat, chair = heapq.heappop(heap)
        if t > time_limit:
            break
        if kind == 1:
            order = lists[seat]
            i = nxt[seat]
            while i < len(order) and order[i] in taken:
                i += 1
            if i == len(order):
                continue
            nxt[seat] = i + 1
            target = order[i]
            arrive = t + distance(where[seat], positions[target]) / speed
            heapq.heappush(heap, (arrive, 0, seat, target))
            continue
        where[seat] = positions[chair]
        shown = round(t, 3)  # the record shows milliseconds; the race itself runs on exact times
        if chair in blocked:
            legs[seat].append(Leg(chair, shown, "blocked"))
        elif chair in taken:
            legs[seat].append(Leg(chair, shown, "taken"))
        else:
            taken[chair] = seat
            legs[seat].append(Leg(chair, shown, "seated"))
            continue
        heapq.heappush(heap, (t, 1, seat, 0))
    seat_of = {s: c for c, s in taken.items()}
    return [Run(seat, start, 0, tuple(legs[seat]), seat_of.get(seat)) for seat, start, _ in runners]
