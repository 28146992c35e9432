"""One test per rule of docs/games/numeron.md, named after it (the source's examples included)."""

from __future__ import annotations

import copy
import random
from dataclasses import replace

import pytest

from dennou.core.errors import (
    ConfigError,
    GameOverError,
    IllegalActionError,
    InvalidActionError,
    NotYourTurnError,
)
from dennou.core.game import CHANCE
from dennou.games.numeron import GAME as G
from dennou.games.numeron import NumeronRules, judge
from dennou.games.numeron.actions import Call, Change, Decline, Move, NoItem, SetNumber, Shuffle
from dennou.games.numeron.state import all_numbers
from tests.games.numeron.helpers import kinds, run, start

NO_ITEMS: tuple[str, ...] = ()


# --- Judging -----------------------------------------------------------------------------------
def test_judge_seed_example_031_930_is_1_1() -> None:
    """rules: Judging — secret 031, call 930 -> 1-1."""
    assert judge("031", "930") == (1, 1)


def test_judge_seed_example_031_071_is_2_0() -> None:
    """rules: Judging — secret 031, call 071 -> 2-0."""
    assert judge("031", "071") == (2, 0)


def test_judge_rejects_bad_numbers() -> None:
    """rules: Judging — a call is a number of the same length with distinct digits."""
    for secret, call in [("031", "0311"), ("031", "011"), ("031", "0a1")]:
        with pytest.raises(InvalidActionError):
            judge(secret, call)


def test_all_eat_call_is_numeron_and_wins_at_once() -> None:
    """rules: Judging — a call with all EATs is Numeron; its caller wins at once."""
    state = start("031", "782")
    state, events = run(state, (0, "call 782"))
    assert state.phase == "over" and state.winner == 0 and state.end == "numeron"
    assert G.outcome(state).scores == (1.0, 0.0)
    assert kinds(events, "call")[0].data == {"seat": 0, "number": "782", "eat": 3, "bite": 0}


def test_calls_and_judgments_are_public() -> None:
    """rules: Judging — calls and judgments are public (spectators included)."""
    state, _ = run(start("031", "782"), (0, "call 789"))
    log = G.view(state, None)["log"]
    assert any(e["kind"] == "call" and e["data"]["eat"] == 2 for e in log)


# --- Setup ------------------------------------------------------------------------------------
def test_setup_is_sealed_and_simultaneous() -> None:
    """rules: Setup — both set at the same time; nobody sees the other's number."""
    state = G.new(NumeronRules(), ["alice", "bob"])
    assert G.to_act(state) == {0, 1}
    state, _ = G.apply(state, 1, SetNumber("031"))
    assert G.to_act(state) == {0}
    for seat in (0, None):
        assert "031" not in str(G.view(state, seat))
    assert G.view(state, 1)["my_number"] == "031"


def test_setup_leading_zero_allowed() -> None:
    """rules: Setup — a leading 0 is allowed ("031")."""
    state = start("012", "031")
    assert state.numbers == ("012", "031")


@pytest.mark.parametrize("bad", ["01", "0123", "011", "0a1", "", " 12", "１２３"])
def test_setup_rejects_bad_numbers_and_keeps_state(bad: str) -> None:
    """rules: Setup — that many distinct digits 0-9."""
    state = G.new(NumeronRules(), ["alice", "bob"])
    before = copy.deepcopy(state)
    with pytest.raises(IllegalActionError, match="distinct digits"):
        G.apply(state, 0, SetNumber(bad))
    assert state == before


@pytest.mark.parametrize("digits", [3, 4, 5])
def test_digits_three_to_five(digits: int) -> None:
    """rules: Setup — digits 3, 4 or 5."""
    number = "01234"[:digits]
    state = start(number, "56789"[:digits], digits=digits)
    assert state.phase in ("defence", "call")


def test_digits_outside_three_to_five_is_config_error() -> None:
    """rules: Setup — digits 3, 4 or 5 (anything else is a config error)."""
    for digits in ("2", "6"):
        with pytest.raises(ConfigError):
            G.make_rules({"digits": digits})


def test_items_with_three_digits_is_config_error() -> None:
    """rules: Setup — an item set with 3 digits is a config error."""
    with pytest.raises(ConfigError, match="4 or 5 digits"):
        G.make_rules({"digits": "3", "items": "double"})


def test_default_items_one_of_each_with_four_digits_none_with_three() -> None:
    """rules: Setup — default: one use of each of the seven items, only with 4 or 5 digits."""
    assert len(start("0123", "4567", digits=4).items[0]) == 7
    assert start("012", "345").items == ((), ())


def test_unknown_rules_option_is_config_error() -> None:
    """rules: every decision is a named option; unknown options are refused."""
    with pytest.raises(ConfigError, match="unknown rules option"):
        G.make_rules({"digit": "4"})


def test_coin_flip_decides_first_caller() -> None:
    """rules: Setup — who calls first: a seeded coin flip by the host."""
    state = G.new(NumeronRules(), ["alice", "bob"])
    state, _ = run(state, (0, "set 012"), (1, "set 345"))
    assert G.to_act(state) == {CHANCE}
    flips = {G.sample_chance(state, random.Random(s)).first for s in range(20)}  # type: ignore[attr-defined]
    assert flips == {0, 1}
    state, _ = G.apply(state, CHANCE, G.parse_action("coin 1"))
    assert state.attacker == 1 and state.first == 1


def test_first_seat0_option_skips_the_coin() -> None:
    """rules: Setup — option: seat 0 calls first."""
    state = start("012", "345", first="seat0")
    assert state.first == 0 and G.to_act(state) == {0}


# --- Turn structure ---------------------------------------------------------------------------
def test_defence_window_comes_before_the_attack_item() -> None:
    """rules: A turn — 1. defence window (B), 2. attack item (A), 3. call."""
    state = start("0123", "4567", digits=4)
    assert state.phase == "defence" and G.to_act(state) == {1}
    state, _ = run(state, (1, "decline"))
    assert state.phase == "attack_item" and G.to_act(state) == {0}
    state, _ = run(state, (0, "no_item"))
    assert state.phase == "call" and G.to_act(state) == {0}


@pytest.mark.parametrize(("digits", "count"), [(4, 5), (5, 1)])
def test_defence_lists_exactly_the_items_apply_accepts(digits: int, count: int) -> None:
    """rules: Items, SHUFFLE / CHANGE / MOVE — the defence window's legal actions are exactly
    those ``apply`` accepts, each once: every number, position, digit and step tried, out of
    range ones included."""
    rng = random.Random(digits)
    pool = all_numbers(digits)
    for number in rng.sample(pool, count):
        items = ("shuffle", "change", "move")
        state = start(pool[0], number, digits=digits, items=items)
        assert state.phase == "defence" and G.to_act(state) == {1}
        listed = list(G.legal_actions(state, 1))
        assert len(set(listed)) == len(listed)
        span = range(-1, digits + 1)
        tries = [
            Decline(),
            *(Shuffle(n) for n in pool),
            *(Change(p, d) for p in span for d in range(-1, 11)),
            *(Move(i, j, k) for i in span for j in span for k in range(-1, 11)),
        ]
        accepted = set()
        for action in tries:
            try:
                G.apply(state, 1, action)
            except (IllegalActionError, InvalidActionError):
                continue
            accepted.add(action)
        assert set(listed) == accepted, number


def test_no_defence_window_when_defender_has_no_defence_item() -> None:
    """rules: A turn — no window when B has none left."""
    state = start("0123", "4567", digits=4, items=("target",))
    assert state.phase == "attack_item"


def test_turn_passes_to_defender_as_attacker() -> None:
    """rules: A turn — 4. the turn passes to B as attacker."""
    state, _ = run(start("012", "345"), (0, "call 678"))
    assert state.attacker == 1 and state.turn == 2


def test_one_item_per_turn() -> None:
    """rules: A turn — a player uses at most one item per turn."""
    state = start("0123", "4567", digits=4)
    state, _ = run(state, (1, "decline"), (0, "slash"))
    assert state.phase == "call"
    with pytest.raises(IllegalActionError):
        G.apply(state, 0, G.parse_action("high_low"))


def test_item_uses_are_public_results_are_not() -> None:
    """rules: A turn — each item use is public; spectators never see results (Spectators)."""
    state = start("0123", "3809", digits=4)
    state, _ = run(state, (1, "decline"), (0, "high_low"))
    spectator = G.view(state, None)["log"]
    assert any(e["kind"] == "item" and e["data"]["item"] == "high_low" for e in spectator)
    assert not any(e["kind"] == "item_result" for e in spectator)
    assert any(e["kind"] == "item_result" for e in G.view(state, 0)["log"])


# --- Items ------------------------------------------------------------------------------------
def test_high_low_seed_example_3809() -> None:
    """rules: Items, HIGH&LOW — 3809 -> LOW HIGH LOW HIGH."""
    _, events = run(start("0123", "3809", digits=4), (1, "decline"), (0, "high_low"))
    assert kinds(events, "item_result")[0].data["result"] == ["LOW", "HIGH", "LOW", "HIGH"]


def test_target_seed_example_782_two_in_ones_place() -> None:
    """rules: Items, TARGET — 782, TARGET 2 -> "2 is in the ones place" (4 digits: 9782)."""
    _, events = run(start("0134", "9782", digits=4, items=("target",)), (0, "target 2"))
    result = kinds(events, "item_result")[0]
    assert result.data["position"] == 3 and "ones place" in result.text


def test_target_seed_example_782_three_not_in() -> None:
    """rules: Items, TARGET — 782, TARGET 3 -> "not in"."""
    _, events = run(start("0134", "9782", digits=4, items=("target",)), (0, "target 3"))
    result = kinds(events, "item_result")[0]
    assert result.data["position"] is None and "not in" in result.text


def test_slash_seed_example_634_is_3() -> None:
    """rules: Items, SLASH — 634 -> 3 (max digit minus min digit)."""
    _, events = run(start("0129", "6345", digits=4, items=("slash",)), (0, "slash"))
    assert kinds(events, "item_result")[0].data["result"] == 6 - 3


def test_change_seed_example_1673_thousands_to_2_announced_thousands_low() -> None:
    """rules: Items, CHANGE — 1673, thousands 1 -> 2: "thousands place, LOW"."""
    state = start("1673", "4580", digits=4, coin=1, items=("change",))
    state, events = run(state, (0, Change(0, 2)))
    assert state.numbers[0] == "2673"
    item = kinds(events, "item")[0]
    assert item.data == {"seat": 0, "item": "change", "position": 0, "class": "LOW"}
    assert "thousands place, LOW" in item.text
    assert item.audience is None
    assert kinds(events, "number")[0].audience == frozenset({0})


@pytest.mark.parametrize(
    ("action", "reason"),
    [
        (Change(0, 8), "keeps the class"),
        (Change(0, 3), "not in your number"),
        (Change(0, 1), "not in your number"),
        (Change(4, 2), "position"),
        (Change(0, 10), "0-9"),
    ],
)
def test_change_rejects_other_class_or_used_digit(action: Change, reason: str) -> None:
    """rules: Items, CHANGE — same class, a digit not in the number, must actually change."""
    state = start("1673", "4580", digits=4, coin=1, items=("change",))
    before = copy.deepcopy(state)
    with pytest.raises(IllegalActionError, match=reason):
        G.apply(state, 0, action)
    assert state == before


def test_move_seed_example_1907_ones_to_thousands_by_2_gives_3905() -> None:
    """rules: Items, MOVE — 1907, take 2 from the ones and give to the thousands -> 3905."""
    state = start("1907", "4582", digits=4, coin=1, items=("move",))
    state, events = run(state, (0, Move(3, 0, 2)))
    assert state.numbers[0] == "3905"
    item = kinds(events, "item")[0]
    assert item.data == {"seat": 0, "item": "move", "source": 3, "target": 0}
    assert "amount" not in str(item.data)


@pytest.mark.parametrize(
    "action",
    [Move(3, 0, 9), Move(0, 3, 3), Move(1, 3, 1), Move(3, 3, 1), Move(3, 0, 0), Move(5, 0, 1)],
    ids=["below-0", "above-9", "repeat", "same-position", "zero", "no-position"],
)
def test_move_rejects_out_of_range_or_repeats(action: Move) -> None:
    """rules: Items, MOVE — every digit stays in 0-9 and all stay distinct; k >= 1; i != j."""
    state = start("1907", "4582", digits=4, coin=1, items=("move",))
    before = copy.deepcopy(state)
    with pytest.raises(IllegalActionError, match="MOVE"):
        G.apply(state, 0, action)
    assert state == before


def test_shuffle_reorders_own_digits_and_only_its_use_is_announced() -> None:
    """rules: Items, SHUFFLE — reorder freely, same order allowed; only the use is announced."""
    state = start("4091", "2358", digits=4, coin=1, items=("shuffle",))
    new, events = run(state, (0, "shuffle 0914"))
    assert new.numbers[0] == "0914" and new.histories[0] == ("4091", "0914")
    assert kinds(events, "item")[0].data == {"seat": 0, "item": "shuffle"}
    feint, _ = run(state, (0, "shuffle 4091"))
    assert feint.numbers[0] == "4091"
    with pytest.raises(IllegalActionError, match="SHUFFLE"):
        G.apply(state, 0, G.parse_action("shuffle 4092"))


def test_double_reveal_chosen_by_defender_before_the_calls() -> None:
    """rules: Items, DOUBLE — A reveals one digit, B chooses which, before the calls."""
    state = start("1234", "5678", digits=4, items=("double",))
    state, _ = run(state, (0, "double"))
    assert state.phase == "reveal" and G.to_act(state) == {1}
    state, events = run(state, (1, "reveal 2"))
    revealed = kinds(events, "revealed")[0]
    assert revealed.data == {"owner": 0, "position": 2, "digit": 3}
    assert revealed.audience == frozenset({0, 1})
    assert state.phase == "call" and state.calls_left == 2


def test_double_two_calls_without_items_between() -> None:
    """rules: Items, DOUBLE — two calls in a row; nobody may use an item between them."""
    state = start("1234", "5678", digits=4, items=("double", "shuffle"))
    state, _ = run(state, (1, "decline"), (0, "double"), (1, "reveal 0"), (0, "call 9012"))
    assert state.phase == "call" and state.attacker == 0 and state.calls_left == 1
    with pytest.raises(IllegalActionError):
        G.apply(state, 1, G.parse_action("shuffle 8765"))
    state, _ = run(state, (0, "call 9013"))
    assert state.attacker == 1


def test_double_hit_on_first_call_ends_the_game() -> None:
    """rules: Judging/DOUBLE — a Numeron on the first of two calls wins at once."""
    state = start("1234", "5678", digits=4, items=("double",))
    state, _ = run(state, (0, "double"), (1, "reveal 0"), (0, "call 5678"))
    assert state.phase == "over" and state.winner == 0


@pytest.mark.parametrize("item", ["double", "high_low", "target 3", "slash"])
def test_item_not_held_is_illegal(item: str) -> None:
    """rules: Items — one use of each item in the set; an item not held is refused."""
    state = start("1234", "5678", digits=4, items=("double", "high_low", "target", "slash"))
    state = replace(
        state, items=(("high_low",) if item != "high_low" else ("slash",), state.items[1])
    )
    before = copy.deepcopy(state)
    with pytest.raises(IllegalActionError, match="holds no"):
        G.apply(state, 0, G.parse_action(item))
    assert state == before


def test_item_in_wrong_phase_is_illegal() -> None:
    """rules: A turn — defence items only in the window, attack items only before the call."""
    state = start("1234", "5678", digits=4)
    with pytest.raises(IllegalActionError, match="not allowed in the defence phase"):
        G.apply(state, 1, G.parse_action("slash"))
    state, _ = run(state, (1, "decline"))
    with pytest.raises(IllegalActionError, match="not allowed in the attack_item phase"):
        G.apply(state, 0, G.parse_action("shuffle 4321"))


def test_acting_out_of_turn_raises_not_your_turn() -> None:
    """rules: A turn — only the attacker calls; only the defender defends."""
    state = start("012", "345")
    with pytest.raises(NotYourTurnError):
        G.apply(state, 1, Call("012"))


@pytest.mark.parametrize("call", ["12", "1234", "112", "1a2", "", "-12"])
def test_bad_calls_raise_and_keep_state(call: str) -> None:
    """rules: Judging — a call is a number of the same length with distinct digits."""
    state = start("012", "345")
    before = copy.deepcopy(state)
    with pytest.raises(IllegalActionError, match="distinct digits"):
        G.apply(state, 0, Call(call))
    assert state == before


@pytest.mark.parametrize(
    "data", ['{"type": "call", "number": 123}', '{"type": "call"}', "call", "fly 123", "{"]
)
def test_malformed_actions_are_invalid(data: str) -> None:
    """Malformed input cannot be parsed as an action (InvalidActionError)."""
    with pytest.raises(InvalidActionError):
        G.parse_action(data)


# --- equal_turns ------------------------------------------------------------------------------
def test_equal_turns_second_player_hit_on_last_turn_is_draw() -> None:
    """rules: Judging — option equal_turns: the second gets one last turn; a hit is a draw."""
    state = start("012", "345", equal_turns=True)
    state, _ = run(state, (0, "call 345"))
    assert state.phase == "call" and state.attacker == 1 and state.last_turn
    state, _ = run(state, (1, "call 012"))
    assert state.phase == "over" and state.winner is None and state.end == "draw"
    assert G.outcome(state).scores == (0.5, 0.5)
    assert G.outcome(state).ranks == (1, 1)


def test_equal_turns_second_player_miss_first_wins() -> None:
    """rules: Judging — equal_turns: a miss on the last turn leaves the first caller the winner."""
    state = start("012", "345", equal_turns=True)
    state, _ = run(state, (0, "call 345"), (1, "call 013"))
    assert state.phase == "over" and state.winner == 0


def test_equal_turns_off_by_default() -> None:
    """rules: Judging — equal_turns defaults off, as the source."""
    state, _ = run(start("012", "345"), (0, "call 345"))
    assert state.phase == "over"


def test_second_caller_hit_wins_outright_with_equal_turns() -> None:
    """rules: Judging — equal_turns only gives the *second* caller a last turn."""
    state = start("012", "345", equal_turns=True)
    state, _ = run(state, (0, "call 678"), (1, "call 012"))
    assert state.phase == "over" and state.winner == 1


# --- Time -------------------------------------------------------------------------------------
def test_timeout_in_defence_window_declines() -> None:
    """rules: Time — on timeout in the defence window: decline."""
    state = start("1234", "5678", digits=4)
    state, events = G.apply_default(state, 1)
    assert state.phase == "attack_item" and kinds(events, "timeout")


def test_timeout_for_attack_item_uses_none() -> None:
    """rules: Time — for an attack item: none."""
    state, _ = run(start("1234", "5678", digits=4), (1, "decline"))
    state, _ = G.apply_default(state, 0)
    assert state.phase == "call" and len(state.items[0]) == 7


def test_timeout_for_call_loses_the_call() -> None:
    """rules: Time — for a call: the player loses the call and the host notes it."""
    state = start("012", "345")
    state, events = G.apply_default(state, 0)
    assert kinds(events, "lost_call") and state.attacker == 1
    assert not kinds(events, "call")


def test_three_turns_of_timeouts_in_a_row_forfeit() -> None:
    """rules: Time — a player who times out three turns in a row forfeits (option)."""
    state = start("012", "345")
    for _ in range(2):
        state, _ = G.apply_default(state, 0)
        state, _ = run(state, (1, "call 678"))
    assert state.strikes[0] == 2
    state, _ = G.apply_default(state, 0)
    assert state.phase == "over" and state.winner == 1 and state.end == "forfeit"


def test_a_made_call_resets_the_timeout_count() -> None:
    """rules: Time — only turns *in a row* count toward the forfeit."""
    state = start("012", "345")
    state, _ = G.apply_default(state, 0)
    state, _ = run(state, (1, "call 678"), (0, "call 678"), (1, "call 679"))
    assert state.strikes[0] == 0


def test_forfeit_after_zero_never_forfeits() -> None:
    """rules: Time — the forfeit is an option (0: never)."""
    state = start("012", "345", forfeit_after=0)
    for _ in range(5):
        state, _ = G.apply_default(state, 0)
        state, _ = run(state, (1, "call 678"))
    assert state.phase != "over"


def test_timeout_at_setup_host_draws_a_number() -> None:
    """rules: Time — (decided here) a player who does not set a number gets one from the host."""
    state = G.new(NumeronRules(), ["alice", "bob"])
    state, _ = run(state, (1, "set 345"))
    state, _ = G.apply_default(state, 0)
    assert G.to_act(state) == {CHANCE}
    drawn = G.sample_chance(state, random.Random(3))
    state, _ = G.apply(state, CHANCE, drawn)
    assert state.numbers[0] is not None and state.phase == "coin"


def test_timeout_at_reveal_shows_leftmost_digit() -> None:
    """rules: Time — (decided here) a defender who times out choosing DOUBLE's reveal shows 0."""
    state, _ = run(start("1234", "5678", digits=4, items=("double",)), (0, "double"))
    state, events = G.apply_default(state, 1)
    assert kinds(events, "revealed")[0].data["position"] == 0


# --- Spectators and views ---------------------------------------------------------------------
def test_spectators_never_see_numbers_until_the_end() -> None:
    """rules: Spectators — spectators never see either number until the game ends."""
    state = start("0123", "4567", digits=4)
    view = G.view(state, None)
    assert "0123" not in str(view) and "4567" not in str(view)
    state, _ = run(state, (1, "decline"), (0, "no_item"), (0, "call 4567"))
    assert G.view(state, None)["numbers"] == ["0123", "4567"]


def test_spectator_line_with_digit_is_refused() -> None:
    """rules: Spectators — a spectator line containing a digit is refused with a reason."""
    state = start("012", "345")
    with pytest.raises(IllegalActionError, match="spectators may not post digits"):
        G.talk(state, None, "public", "it's 3 something")
    with pytest.raises(IllegalActionError, match="digits"):
        G.talk(state, None, "public", "全角の３")
    new, events = G.talk(state, None, "public", "nice call", name="guest")
    assert new.talk[-1].speaker is None and events[0].text == (
        "[public] guest (spectator): nice call"
    )


def test_players_may_post_digits() -> None:
    """rules: Spectators — only spectators are forbidden from posting numbers."""
    state = start("012", "345")
    new, _ = G.talk(state, 0, "public", "I bet it has a 7")
    assert new.talk[-1].text == "I bet it has a 7"


def test_player_sees_own_number_history_and_own_results() -> None:
    """rules: What each player sees — own number and its history, results of own items."""
    state = start("4091", "2358", digits=4, coin=1, items=("shuffle", "slash"))
    state, _ = run(state, (0, "shuffle 0914"), (1, "slash"))
    mine = G.view(state, 0)
    assert mine["my_number"] == "0914" and mine["my_numbers"] == ["4091", "0914"]
    theirs = G.view(state, 1)
    assert "0914" not in str(theirs) and "4091" not in str(theirs)
    assert any(e["kind"] == "item_result" for e in theirs["log"])


def test_game_over_rejects_everything() -> None:
    """The contract: a finished game raises GameOverError."""
    state, _ = run(start("012", "345"), (0, "call 345"))
    with pytest.raises(GameOverError):
        G.apply(state, 1, Call("012"))
    with pytest.raises(GameOverError):
        G.apply_default(state, 1)
    assert G.talk_channels(state, 0) == frozenset()


def test_text_json_and_object_forms_parse_alike() -> None:
    """The codec: text form, JSON text and JSON object are the same action."""
    for form in (
        "call 0318",
        '{"type": "call", "number": "0318"}',
        {"type": "call", "number": "0318"},
    ):
        assert G.parse_action(form) == Call("0318")
    assert G.parse_action("change 0 2") == Change(0, 2)
    assert G.parse_action("move 3 0 2") == Move(3, 0, 2)
    assert G.parse_action("decline") == Decline() and G.parse_action("no_item") == NoItem()
    assert NO_ITEMS == ()
