"""Star Hi-Lo rules, one test per rule (``docs/games/hilo.md``, sections named in each)."""

from __future__ import annotations

import json
import random
from dataclasses import replace

import pytest

from dennou.core.actions import Action
from dennou.core.errors import (
    ConfigError,
    GameOverError,
    IllegalActionError,
    InvalidActionError,
    NotYourTurnError,
)
from dennou.core.game import CHANCE
from dennou.games.hilo import GAME, HiloRules
from dennou.games.hilo.actions import (
    Check,
    Draw,
    Guess,
    Pick,
    RandomCheck,
    RandomGuess,
    SecretGuess2,
    SecretGuess3,
    Target,
)
from dennou.games.hilo.rules import MAX_NUMBER
from dennou.games.hilo.state import HiloState
from tests.games.hilo.helpers import act, kinds, rejected, start

T = 1_000  # the target of most tests


# --- Objects -----------------------------------------------------------------------------------
def test_objects_2_to_8_players_start_at_5_points_seat_0_first() -> None:
    """rules: Objects — 2-8 players, 5 points each game, seat 0 first."""
    for n in (1, 9):
        with pytest.raises(ConfigError):
            GAME.new(HiloRules(), [f"p{i}" for i in range(n)])
    state = start(8)
    assert state.points == (5,) * 8
    assert state.accounts == (0,) * 8 and state.stars == (0,) * 8
    assert GAME.to_act(state) == {0}


def test_objects_target_is_an_explicit_chance_draw_in_the_seed_range() -> None:
    """rules: Objects — the target is drawn uniformly from 0..3,276,732,767 (a chance action)."""
    state = GAME.new(HiloRules(), ["a", "b"])
    assert GAME.to_act(state) == {CHANCE}
    outcomes = GAME.legal_actions(state, CHANCE)
    assert len(outcomes) == MAX_NUMBER + 1 == 3_276_732_768
    assert Target(0) in outcomes and Target(MAX_NUMBER) in outcomes
    assert Target(MAX_NUMBER + 1) not in outcomes and Target(-1) not in outcomes
    rng = random.Random(1)
    draws = [GAME.sample_chance(state, rng) for _ in range(200)]
    assert all(d in outcomes for d in draws)
    assert len({d.x for d in draws if isinstance(d, Target)}) == 200
    # The target is hidden from everyone while the game is on.
    after, events = GAME.apply(state, CHANCE, Target(123_456))
    assert "123456" not in json.dumps([e.data for e in events])
    for seat in (0, 1, None):
        assert GAME.view(after, seat)["target"] is None
        assert "123456" not in json.dumps(GAME.view(after, seat))


# --- 2.1 guess ---------------------------------------------------------------------------------
def test_2_1_guess_right_is_plus_2_wrong_is_minus_1() -> None:
    """rules: A turn, 2.1 — right +2, wrong -1."""
    state, _ = act(start(), Guess(T - 1, "high"))
    assert state.points[0] == 7
    state, _ = act(state, Guess(T - 1, "low"))
    assert state.points[1] == 4
    state, _ = act(state, Guess(T + 1, "low"))
    assert state.points[0] == 9


def test_2_1_x_equal_to_the_target_is_wrong() -> None:
    """rules: A turn, 2.1 — X == target counts as wrong, whichever direction."""
    for direction in ("high", "low"):
        state, events = act(start(), Guess(T, direction))
        assert state.points[0] == 4
        assert events[0].data["right"] is False


def test_2_1_guess_is_public() -> None:
    """rules: A turn, 2.1 — X, direction and result are public."""
    state, _ = act(start(3), Guess(500, "high"))
    for seat in (0, 1, 2, None):
        (entry,) = [e for e in GAME.view(state, seat)["log"] if e["kind"] == "guess"]
        assert entry["data"] == {
            "seat": 0,
            "action": "2.1",
            "x": 500,
            "direction": "high",
            "right": True,
            "delta": 2,
            "points": 7,
        }
        assert entry.get("audience") is None


# --- 2.2 random guess --------------------------------------------------------------------------
def test_2_2_random_guess_host_draws_x_then_the_player_picks() -> None:
    """rules: A turn, 2.2 — the host draws X (chance), the player names High/Low after seeing X."""
    state, events = act(start(), RandomGuess())
    assert GAME.to_act(state) == {CHANCE} and state.phase == "draw"
    assert len(GAME.legal_actions(state, CHANCE)) == MAX_NUMBER + 1
    state, events = GAME.apply(state, CHANCE, Draw(400))
    assert GAME.to_act(state) == {0} and state.phase == "pick"
    assert list(GAME.legal_actions(state, 0)) == [Pick("high"), Pick("low")]
    for seat in (0, 1, None):
        assert GAME.view(state, seat)["x"] == 400
    right, events = act(state, Pick("high"))
    assert right.points[0] == 6 and events[0].data["right"] is True
    assert events[0].data["action"] == "2.2" and events[0].audience is None
    wrong, events = act(state, Pick("low"))
    assert wrong.points[0] == 5 and events[0].data["right"] is False
    assert GAME.to_act(right) == {1}


def test_2_2_x_equal_to_the_target_is_right() -> None:
    """rules: A turn, 2.2 — X == target counts as right, whichever direction."""
    state, _ = act(start(), RandomGuess())
    state, _ = GAME.apply(state, CHANCE, Draw(T))
    for direction in ("high", "low"):
        after, events = act(state, Pick(direction))
        assert events[0].data["right"] is True and after.points[0] == 6


# --- 2.3 check ---------------------------------------------------------------------------------
def test_2_3_check_needs_10_points() -> None:
    """rules: A turn, 2.3 — a check needs points >= 10."""
    message = rejected(start(points=(9, 5)), Check(T), IllegalActionError)
    assert "2.3" in message and "10" in message
    assert Check(T) in GAME.legal_actions(start(points=(10, 5)), 0)
    act(start(points=(10, 5)), Check(T))


def test_2_3_check_miss_is_minus_5_and_public() -> None:
    """rules: A turn, 2.3 — a miss costs 5 points; X and the result are public."""
    state, events = act(start(points=(10, 5)), Check(T + 7))
    assert state.points[0] == 5 and state.phase == "turn" and GAME.to_act(state) == {1}
    assert events[0].kind == "check" and events[0].audience is None
    assert events[0].data["x"] == T + 7 and events[0].data["hit"] is False


def test_2_3_check_hit_wins_a_star_ends_the_game_and_archives_points() -> None:
    """rules: End of a game (3, 4) — a hit: a star, the game ends, points go to the accounts."""
    state, _ = act(start(3), Guess(0, "high"))  # ann 7
    state, _ = act(state, Guess(0, "low"))  # bob 4
    state = replace(state, points=(7, 4, 12))
    state, events = act(state, Check(T))
    assert "game_over" in kinds(events)
    assert state.stars == (0, 0, 1)
    assert state.accounts == (7, 4, 12)
    assert state.phase == "target" and GAME.to_act(state) == {CHANCE}
    assert state.game_no == 2 and state.first == 1
    assert state.points == (5, 5, 5) and state.target is None
    (summary,) = state.history
    assert (summary.target, summary.end, summary.winner, summary.stars) == (T, "check", 2, 1)
    # The next game's first turn goes to the seat after the previous first seat.
    state, _ = GAME.apply(state, CHANCE, Target(5))
    assert GAME.to_act(state) == {1}
    # The revealed target of the finished game is public.
    assert GAME.view(state, None)["games"][0]["target"] == T


# --- 2.4 random check --------------------------------------------------------------------------
def test_2_4_random_check_needs_minus_20_or_below() -> None:
    """rules: A turn, 2.4 — a random check needs points <= -20."""
    message = rejected(start(points=(-19, 5)), RandomCheck(), IllegalActionError)
    assert "2.4" in message and "-20" in message
    assert RandomCheck() in GAME.legal_actions(start(points=(-20, 5)), 0)


def test_2_4_random_check_miss_is_0_and_public() -> None:
    """rules: A turn, 2.4 — the host draws X; a miss is 0 points; X and the result are public."""
    state, _ = act(start(points=(-25, 5)), RandomCheck())
    assert GAME.to_act(state) == {CHANCE}
    state, events = GAME.apply(state, CHANCE, Draw(T + 1))
    assert state.points[0] == -25 and GAME.to_act(state) == {1}
    assert events[0].kind == "random_check" and events[0].data["hit"] is False
    assert events[0].audience is None and events[0].data["x"] == T + 1


def test_2_4_random_check_hit_gives_three_stars_and_ends_the_series() -> None:
    """rules: A turn, 2.4 and End of the series (5) — a hit is 3 game stars: first place."""
    state, _ = act(start(3, points=(-20, 40, 40)), RandomCheck())
    state, events = GAME.apply(state, CHANCE, Draw(T))
    assert state.stars == (3, 0, 0)
    assert state.phase == "over" and "series_over" in kinds(events)
    outcome = GAME.outcome(state)
    assert outcome.ranks == (1, 2, 2) and outcome.scores == (1.0, 0.5, 0.5)
    assert state.history[0].end == "random_check" and state.history[0].stars == 3


# --- 2.5 / 2.6 secret guesses ------------------------------------------------------------------
@pytest.mark.parametrize(
    ("cls", "cost", "aid"), [(SecretGuess3, 3, "2.5"), (SecretGuess2, 2, "2.6")]
)
def test_2_5_2_6_secret_guess_costs_whatever_the_result(cls: type, cost: int, aid: str) -> None:
    """rules: A turn, 2.5/2.6 — the cost (3 or 2) is paid whether right or wrong."""
    for x, direction, right in ((T - 1, "high", True), (T - 1, "low", False), (T, "high", False)):
        state, events = act(start(), cls(x, direction))
        assert state.points[0] == 5 - cost
        (private,) = [e for e in events if e.kind == "secret_result"]
        assert private.data["right"] is right  # X == target is wrong
        assert private.data["action"] == aid


@pytest.mark.parametrize(("cls", "cost"), [(SecretGuess3, 3), (SecretGuess2, 2)])
def test_2_5_2_6_secret_guess_needs_points_for_its_cost(cls: type, cost: int) -> None:
    """rules: A turn, 2.5/2.6 — a secret guess whose cost the player cannot pay is illegal."""
    message = rejected(start(points=(cost - 1, 5)), cls(5, "high"), IllegalActionError)
    assert str(cost) in message
    assert cls(5, "high") in GAME.legal_actions(start(points=(cost, 5)), 0)


def test_2_5_2_6_only_the_actor_learns_x_and_the_result() -> None:
    """rules: A turn, 2.5/2.6 and What each player sees — others see only that it was used."""
    state, events = act(start(3), SecretGuess2(777, "high"))
    public, private = events
    assert public.kind == "secret_guess" and public.audience is None
    assert "777" not in json.dumps(public.data) and "right" not in public.data
    assert private.audience == frozenset({0})
    for seat in (1, 2, None):
        view = GAME.view(state, seat)
        assert "777" not in json.dumps(view)
        assert [e["kind"] for e in view["log"]].count("secret_guess") == 1
    mine = GAME.view(state, 0)
    assert mine["my_secrets"] == [{"action": "2.6", "x": 777, "direction": "high", "right": True}]
    assert GAME.view(state, 1)["my_secrets"] == []


# --- turn fee, floor ---------------------------------------------------------------------------
def test_turn_fee_is_paid_above_10_points_only() -> None:
    """rules: A turn, 1 (備考) — points >= 11 pay 1 at the start of a turn; -30..10 pay nothing."""
    for before, after in ((11, 10), (12, 11), (30, 29), (10, 10), (5, 5), (0, 0), (-30, -30)):
        state = start(points=(5, before))
        state, events = act(state, Guess(0, "low"))  # ann: wrong, 4; bob's turn begins
        assert state.points[1] == after, before
        assert ("fee" in kinds(events)) == (before > 10)


def test_turn_fee_comes_before_the_action_so_11_may_check() -> None:
    """rules: A turn, 1-2 — the fee is paid first; conditions use the points after it."""
    state, _ = act(start(points=(5, 11)), Guess(0, "low"))
    assert state.points[1] == 10 and Check(T) in GAME.legal_actions(state, 1)


def test_floor_points_never_go_below_minus_30() -> None:
    """rules: Objects — any loss below -30 is clamped to -30."""
    state, events = act(start(points=(-30, 5)), Guess(T, "high"))
    assert state.points[0] == -30 and events[0].data["delta"] == 0
    state, _ = act(start(points=(-29, 5)), Guess(T, "high"))
    assert state.points[0] == -30
    rules = {"check_min": -40, "check_miss": -5}
    state, _ = act(start(points=(-27, 5), **rules), Check(T + 1))
    assert state.points[0] == -30


# --- end of a game -----------------------------------------------------------------------------
def test_everyone_loses_when_all_are_negative_at_the_end_of_a_round() -> None:
    """rules: End of a game (備考) — a full round ending with everyone negative: no star."""
    state = start(3, points=(-1, -1, -1))
    state, events = act(state, Guess(0, "low"))  # all negative, but the round is not over
    assert state.phase == "turn" and "everyone_loses" not in kinds(events)
    state, _ = act(state, Guess(0, "low"))
    state, events = act(state, Guess(0, "low"))
    assert "everyone_loses" in kinds(events)
    assert state.stars == (0, 0, 0) and state.accounts == (-2, -2, -2)
    assert state.history[0].end == "everyone_loses" and state.history[0].winner is None
    assert state.phase == "target" and state.game_no == 2


def test_everyone_loses_needs_everyone_negative() -> None:
    """rules: End of a game (備考) — zero is not negative: the game goes on."""
    state = start(2, points=(-1, 1))
    state, _ = act(state, Guess(0, "low"))  # -2
    state, events = act(state, Guess(0, "low"))  # 0
    assert state.points == (-2, 0) and "everyone_loses" not in kinds(events)
    assert state.phase == "turn" and state.game_no == 1


def test_round_follows_the_games_first_seat() -> None:
    """rules: End of a game — a round ends after the seat before the game's first seat plays."""
    state = start(3, points=(-1, -1, -1))
    state = replace(state, first=1, turn=1)
    state, _ = act(state, Guess(0, "low"))
    state, events = act(state, Guess(0, "low"))
    assert "everyone_loses" not in kinds(events) and GAME.to_act(state) == {0}
    state, events = act(state, Guess(0, "low"))
    assert "everyone_loses" in kinds(events)


def test_max_rounds_extension_ends_a_game_without_a_star() -> None:
    """Extension (docs/games/hilo.md): ``max_rounds`` ends a game like everyone-loses."""
    state = start(2, max_rounds=2)
    for _ in range(3):
        state, events = act(state, Guess(0, "high"))
        assert "max_rounds" not in kinds(events)
    state, events = act(state, Guess(0, "high"))
    assert "max_rounds" in kinds(events) and state.history[0].end == "max_rounds"
    assert state.accounts == (9, 9)


# --- end of the series -------------------------------------------------------------------------
def _win_game(state: HiloState, seat: int, target: int = T) -> HiloState:
    """Draw ``target``, play sure guesses until ``seat``'s turn, and let it check the target."""
    state, _ = GAME.apply(state, CHANCE, Target(target))
    while GAME.to_act(state) != {seat}:
        state, _ = act(state, Guess(0, "high"))
    state = replace(state, points=tuple(10 if s == seat else p for s, p in enumerate(state.points)))
    state, _ = act(state, Check(target))
    return state


def test_series_ends_after_the_game_in_which_someone_reaches_3_game_stars() -> None:
    """rules: End of the series and ranking (5) — the series ends at 3 game stars."""
    state = GAME.new(HiloRules(), ["a", "b"])
    for game, seat in enumerate((0, 1, 0, 1), 1):
        state = _win_game(state, seat)
        assert state.phase == "target"
        assert state.game_no == game + 1
    state = _win_game(state, 0)
    assert state.phase == "over" and state.stars == (3, 2)
    assert GAME.to_act(state) == frozenset()
    outcome = GAME.outcome(state)
    assert outcome.ranks == (1, 2) and outcome.result(0) == "win"
    with pytest.raises(GameOverError):
        GAME.apply(state, 0, Guess(0, "high"))


def test_series_ends_after_max_games() -> None:
    """rules: End of the series and ranking (5) — a configured maximum number of games."""
    state = GAME.new(HiloRules(max_games=2), ["a", "b", "c"])
    state = _win_game(state, 2)
    assert state.phase == "target"
    state = _win_game(state, 2)
    assert state.phase == "over"
    assert GAME.outcome(state).ranks[2] == 1


def test_first_seat_rotates_each_game() -> None:
    """rules: End of a game (3, 4) — the next game starts with the seat after the last first."""
    state = GAME.new(HiloRules(), ["a", "b", "c"])
    firsts = []
    for _ in range(4):
        firsts.append(state.first)
        state = _win_game(state, (firsts[-1] + 1) % 3, target=7)
    assert firsts == [0, 1, 2, 0]


def test_outcome_ranks_by_the_final_standings() -> None:
    """rules: End of the series and ranking (5) — half stars from accounts rank the rest."""
    state = start(3, max_games=1, points=(12, 60, 55))
    state, _ = act(state, Check(T))
    outcome = GAME.outcome(state)
    # ann: 1 game star, 12 left; bob 60 -> 1.0 star, 10 left; cid 55 -> 1.0 star, 5 left.
    assert outcome.ranks == (1, 2, 3)
    tied = start(2, max_games=1, points=(10, 60))
    tied, _ = act(tied, Check(T))
    # ann: 1 game star and 10; bob: 60 -> two half stars and 10: equal on all counts.
    assert GAME.outcome(tied).ranks == (1, 1) and GAME.outcome(tied).scores == (1.0, 1.0)
    assert [s["name"] for s in outcome.detail["standings"]] == ["ann", "bob", "cid"]
    with pytest.raises(IllegalActionError):
        GAME.outcome(start())


# --- bad input ---------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "text",
    [
        "guess",
        "guess 12",
        "guess twelve high",
        "guess 12 up",
        "guess 12 high extra",
        "check",
        "check 1.5",
        "pick sideways",
        "secret_guess_2 5",
        "fold",
        '{"type": "guess", "x": "12", "direction": "high"}',
        '{"type": "guess", "x": 12, "direction": "HIGH"}',
        '{"type": "check", "x": true}',
        '{"type": "guess", "x": 12, "direction": "high", "extra": 1}',
    ],
)
def test_malformed_actions_raise_invalid_action(text: str) -> None:
    """rules: A turn — malformed input is rejected with a clear error, nothing changes."""
    rejected(start(), text, InvalidActionError)


@pytest.mark.parametrize(
    "action",
    [
        Guess(-1, "high"),
        Guess(MAX_NUMBER + 1, "low"),
        Guess(True, "high"),
        Guess(5, "up"),  # type: ignore[arg-type]
        SecretGuess2(-5, "low"),
        SecretGuess3(10**12, "low"),
    ],
)
def test_out_of_range_or_bad_numbers_raise_and_leave_the_state(action: Action) -> None:
    """rules: A turn — X out of 0..3,276,732,767 is illegal; the player keeps the turn."""
    state = start()
    message = rejected(state, action, IllegalActionError)
    assert "3,276,732,767" in message or "direction" in message
    assert GAME.to_act(state) == {0}


def test_out_of_range_check_needs_points_and_range() -> None:
    """rules: A turn, 2.3 — X out of range is refused even with points for a check."""
    rejected(start(points=(10, 5)), Check(MAX_NUMBER + 1), IllegalActionError)
    rejected(start(points=(10, 5)), "check -3", IllegalActionError)


def test_actions_out_of_phase_and_turn_are_refused() -> None:
    """rules: A turn — only the player to act may act, and only with an action due now."""
    state = start()
    rejected(state, Guess(5, "high"), NotYourTurnError, seat=1)
    rejected(state, Pick("high"), IllegalActionError)
    rejected(state, Target(5), NotYourTurnError, seat=CHANCE)
    drawing, _ = act(state, RandomGuess())
    rejected(drawing, Guess(5, "high"), NotYourTurnError, seat=0)
    picking, _ = GAME.apply(drawing, CHANCE, Draw(3))
    rejected(picking, Guess(5, "high"), IllegalActionError)
    rejected(picking, RandomGuess(), IllegalActionError)
    rejected(picking, Draw(4), NotYourTurnError, seat=CHANCE)


def test_chance_draws_out_of_range_are_refused() -> None:
    """rules: Objects — the host's numbers are in range too."""
    fresh = GAME.new(HiloRules(), ["a", "b"])
    rejected(fresh, Target(MAX_NUMBER + 1), IllegalActionError, seat=CHANCE)
    rejected(fresh, Draw(5), IllegalActionError, seat=CHANCE)


# --- text forms, defaults, views ---------------------------------------------------------------
@pytest.mark.parametrize(
    ("text", "action"),
    [
        ("guess 1638366383 high", Guess(1638366383, "high")),
        ("random_guess", RandomGuess()),
        ("pick low", Pick("low")),
        ("check 42", Check(42)),
        ("random_check", RandomCheck()),
        ("secret_guess_3 7 low", SecretGuess3(7, "low")),
        ("secret_guess_2 7 high", SecretGuess2(7, "high")),
        ('{"type": "guess", "x": 5, "direction": "low"}', Guess(5, "low")),
    ],
)
def test_text_and_json_forms(text: str, action: object) -> None:
    """docs/games/hilo.md — the text form is the tag then the fields, and round-trips."""
    assert GAME.parse_action(text) == action
    assert GAME.parse_action(str(action)) == action
    assert GAME.parse_action(GAME.dump_action(action)) == action


def test_default_is_a_random_guess_and_the_likelier_public_side() -> None:
    """Timeout default (docs/games/hilo.md): 2.2, then the side holding more public targets."""
    state, _ = act(start(), Guess(2_000, "low"))  # public: target < 2000
    state, events = GAME.apply_default(state, 1)
    assert kinds(events) == ["timeout", "random_request"] and GAME.to_act(state) == {CHANCE}
    state, _ = GAME.apply(state, CHANCE, Draw(500))
    after, events = GAME.apply_default(state, 1)  # 500..1999 above vs 0..500 below: high
    assert events[-1].data["direction"] == "high" and after.points[1] == 6
    with pytest.raises(IllegalActionError):
        GAME.apply_default(state, CHANCE)


def test_views_show_points_accounts_stars_and_hide_the_target_until_the_end() -> None:
    """rules: What each player sees — public points, accounts, stars; the target at the end."""
    state = start(2, max_games=1, points=(10, 3))
    view = GAME.view(state, 1)
    assert view["points"] == [10, 3] and view["accounts"] == [0, 0] and view["stars"] == [0, 0]
    assert view["target"] is None and view["actions"] == [
        "guess",
        "random_guess",
        "check",
        "secret_guess_3",
        "secret_guess_2",
    ]
    state, _ = act(state, Check(T))
    for seat in (0, 1, None):
        assert GAME.view(state, seat)["target"] == T
    assert "standings" in GAME.render(GAME.view(state, None))


def test_render_and_describe_legal_are_readable() -> None:
    """docs/games/hilo.md — the terminal shows the state and how to type actions."""
    state, _ = act(start(), Guess(1_000_000, "low"))
    text = GAME.render(GAME.view(state, 1))
    assert "bob to act" in text and "0..999,999" in text
    legal = GAME.describe_legal(GAME.legal_actions(state, 1))
    assert "random_guess" in legal and "guess <x 0..3276732767> high|low" in legal
    assert "check" not in legal.replace("random_check", "")
