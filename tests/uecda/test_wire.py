"""Protocol 20070's tables and what they say in Daifugo terms (rules/uecda.md, "Protocol 20070").

Round trips are checked on every legal play of random games under the ``uecda`` preset: a play
written as a table reads back as the same play; the client's mirror of a seat's knowledge gives
exactly the engine's legal plays.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dennou.core.game import CHANCE
from dennou.games.daifugo import GAME
from dennou.games.daifugo import cards as C
from dennou.games.daifugo.actions import Play
from dennou.games.daifugo.views import TABLE_KEYS, table_view
from dennou.uecda import wire
from dennou.uecda.client import Mirror

UECDA = GAME.make_rules({"preset": "uecda", "games": 3})


def play_decisions(seed: int, rules: Any = UECDA, limit: int = 800) -> Iterator[tuple[Any, int]]:
    """``(state, seat)`` at each play decision of a random game (chance drawn by ``seed``)."""
    rng = random.Random(seed)
    state = GAME.new(rules, [f"p{i}" for i in range(5)])
    for _ in range(limit):
        acting = GAME.to_act(state)
        if not acting:
            return
        if CHANCE in acting:
            state, _ = GAME.apply(state, CHANCE, GAME.sample_chance(state, rng))
            continue
        seat = min(acting)
        legal = GAME.legal_actions(state, seat)
        if state.phase == "play":
            yield state, seat
        state, _ = GAME.apply(state, seat, legal[rng.randrange(len(legal))])


def test_a_table_is_480_bytes_of_big_endian_ints() -> None:
    table = wire.empty_table()
    table[0][0], table[7][14], table[3][5] = 20070, 1, -7
    data = wire.encode_table(table)
    assert len(data) == wire.TABLE_BYTES == 480
    assert data[:4] == (20070).to_bytes(4, "big") and data[-4:] == (1).to_bytes(4, "big")
    back = wire.decode_table(data)
    assert back[0][0] == 20070 and back[3][5] == 0  # negative values go out as 0, as tndhms
    assert wire.decode_int(wire.encode_int(9)) == 9
    with pytest.raises(wire.BadTable, match="480 bytes"):
        wire.decode_table(data[:-1])


def test_profile_names_are_kept_safe_and_short() -> None:
    assert wire.read_profile(wire.profile_table("fujigokoro")) == (20070, "fujigokoro")
    table = wire.profile_table("x" * 20)
    assert wire.read_profile(table)[1] == "x" * 14
    table[1][:4] = [ord("<"), ord("b"), ord(">"), 0]
    assert wire.read_profile(table)[1] == "_b_"


@pytest.mark.parametrize(
    ("cells", "message"),
    [
        ({(0, 3): 3}, "0, 1 or 2"),
        ({(0, 0): 1}, "where no card is"),
        ({(4, 1): 1}, "where no card is"),
        ({(0, 3): 2, (1, 3): 2}, "2 jokers"),
        ({(0, 3): 1, (4, 5): 2}, "goes only with the four cards"),
    ],
)
def test_malformed_play_tables_are_refused_with_the_reason(
    cells: dict[tuple[int, int], int], message: str
) -> None:
    table = wire.empty_table()
    for (r, c), v in cells.items():
        table[r][c] = v
    with pytest.raises(wire.BadTable, match=message):
        wire.play_of_table(table)


def test_hands_go_both_ways_with_the_joker_at_row_4() -> None:
    hand = ["3d", "5s", "10s", "2c", "JK"]
    table = wire.hand_table(hand)
    assert table[2][1] == 1 and table[0][3] == 1 and table[0][8] == 1 and table[3][13] == 1
    assert table[4][1] == 2
    assert sorted(wire.cards_of_table(table)) == sorted(hand)


@settings(max_examples=12, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_every_legal_play_written_as_a_table_reads_back_as_the_same_play(seed: int) -> None:
    for state, seat in play_decisions(seed):
        reverse = state.revolution != state.back
        for action in GAME.legal_actions(state, seat):
            if not isinstance(action, Play):
                continue
            back = wire.play_of_table(wire.play_table(action.cards, reverse=reverse))
            assert GAME.allows(state, seat, Play(cards=tuple(back)))
            assert GAME.reading(state, seat, Play(cards=tuple(back))) == GAME.reading(
                state, seat, action
            ), (action.cards, back)


@settings(max_examples=12, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_the_clients_mirror_gives_exactly_the_engines_legal_plays(seed: int) -> None:
    """What a seat is told (its turn table and the last field table) is enough to list its
    legal plays: the mirror's state lists the same plays as the real one."""
    for state, seat in play_decisions(seed):
        view = GAME.view(state, seat)
        mirror = Mirror(GAME, seat)
        mirror.game_no = state.game_no
        mirror.new_game(wire.hand_table(view["hand"]))
        mirror.game_no = state.game_no
        if state.field:
            top = state.field[-1]
            mirror.field(
                wire.field_table(
                    list(top.combo.strs()),
                    actor=top.seat,
                    empty_field=False,
                    back=state.back,
                    revolution=state.revolution,
                    lock=wire.lock_flag(view),
                    counts=view["counts"],
                    classes=wire.classes(view),
                    reverse=state.reverse,
                )
            )
        mirror.turn(wire.turn_table(view, seat))
        want = sorted(str(a) for a in GAME.legal_actions(state, seat))
        got = sorted(str(a) for a in GAME.legal_actions(mirror.state("play"), seat))
        assert got == want, (C.cards_str(C.cards_in(state.hands[seat])), view["layout"])


@settings(max_examples=10, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_the_table_view_is_exactly_that_part_of_the_seats_view(seed: int) -> None:
    for state, _ in play_decisions(seed):
        for seat in range(5):
            view = GAME.view(state, seat)
            assert table_view(state, seat) == {k: view[k] for k in TABLE_KEYS}
