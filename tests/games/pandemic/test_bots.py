"""The Pandemic bots (docs/games/pandemic.md; bots in docs/games/pandemic.md)."""

from __future__ import annotations

import random

import pytest

from dennou.arena.bots import make_bot
from dennou.arena.play import play
from dennou.core.game import CHANCE
from dennou.core.talk import pair_channel
from dennou.games.pandemic import GAME, PandemicRules
from dennou.games.pandemic.actions import Check, Contact, Cure, Idle, Infect
from dennou.games.pandemic.belief import BeliefBot, qualify_chance, value
from tests.games.pandemic.helpers import start, tick


def _bot(seat: int, rules: PandemicRules, n: int) -> BeliefBot:
    bot = BeliefBot()
    bot.reset(seat=seat, rules=rules, players=[f"p{i}" for i in range(n)])
    return bot


def test_belief_knows_who_is_infected_from_the_log_and_announcements() -> None:
    """An announcement of 2 infected after a lone contact pins the infection on that pair."""
    state = start((1,), n=5, rounds=2, ticks=2)
    state, _ = tick(state, {1: Contact(2), 2: Contact(1)})
    state, _ = tick(state, {})
    assert state.announcements[-1].infected == 2
    bot = _bot(0, state.rules, 5)
    p = bot.p_infected(GAME.view(state, 0))
    assert p == pytest.approx([0, 1, 1, 0, 0], abs=1e-6)


def test_belief_prefers_a_likely_normal_partner_among_offers() -> None:
    """Offered by an infected and a normal player, it asks the normal one back."""
    state = start((1,), n=5, rounds=2, ticks=2)
    state, _ = tick(state, {1: Contact(2), 2: Contact(1)})
    state, _ = tick(state, {})
    for seat in (1, 3):
        state, _ = GAME.talk(state, seat, pair_channel(0, seat), "contact 2.1")
    bot = _bot(0, state.rules, 5)
    view = GAME.view(state, 0)
    assert bot.act(view, GAME.legal_actions(state, 0), random.Random(0)) == Contact(3)


def test_belief_cures_when_it_knows_it_is_infected_with_a_vaccine() -> None:
    """Seat 2 earns 2 vaccines, touches the infected seat 0, checks: it then cures."""
    state = start((0,), n=6, rounds=1, ticks=8)
    state, _ = tick(state, {2: Contact(3), 3: Contact(2)})
    state, _ = tick(state, {2: Contact(4), 4: Contact(2)})
    state, _ = tick(state, {2: Contact(0), 0: Contact(2)})
    state, _ = tick(state, {2: Check()})
    assert GAME.view(state, 2)["checks"][-1] == {
        "round": 1,
        "tick": 4,
        "infected": True,
        "vaccines": 1,
    }
    bot = _bot(2, state.rules, 6)
    assert bot.act(GAME.view(state, 2), GAME.legal_actions(state, 2), random.Random(0)) == Cure()


def test_belief_checks_when_its_status_is_uncertain_and_matters() -> None:
    """After touching a possibly infected player while holding vaccines, it checks."""
    state = start((5,), n=6, rounds=1, ticks=8)
    state, _ = tick(state, {0: Contact(1), 1: Contact(0)})
    state, _ = tick(state, {0: Contact(2), 2: Contact(0)})
    state, _ = tick(state, {0: Contact(3), 3: Contact(0)})
    # Seat 0 has 3 vaccines if its partners were normal; seat 4 may be the infected one.
    state, _ = tick(state, {0: Contact(4), 4: Contact(0)})
    bot = _bot(0, state.rules, 6)
    view = GAME.view(state, 0)
    p = bot.p_infected(view)
    assert 0.05 < p[0] < 0.95
    assert bot.act(view, GAME.legal_actions(state, 0), random.Random(0)) in (Check(), Cure())


def test_belief_avoids_a_known_infected_player_on_the_last_tick() -> None:
    """On the last tick an infection is fatal: it will not ask a likely infected player."""
    state = start((1,), n=5, rounds=1, ticks=3)
    state, _ = tick(state, {1: Contact(2), 2: Contact(1)})
    state, _ = tick(state, {0: Check()})
    for seat in (1, 2):
        state, _ = GAME.talk(state, seat, pair_channel(0, seat), "contact 1.3")
    bot = _bot(0, state.rules, 5)
    action = bot.act(GAME.view(state, 0), GAME.legal_actions(state, 0), random.Random(0))
    assert action not in (Contact(1), Contact(2))


def test_value_and_qualify_chance() -> None:
    """A normal position is worth its qualification chance; infected ends are worth nothing."""
    rules = PandemicRules()
    assert qualify_chance(3, [5, 4, 3, 3, 1, 1, 0], rules) == pytest.approx(3 / 3)
    assert qualify_chance(1, [5, 4, 3, 3, 1, 1, 0], rules) == pytest.approx(2 / 3)
    assert qualify_chance(0, [5, 4, 3, 3, 1, 1, 0], rules) == 0.0
    assert value(True, 3, 0, [], rules) == 0.0
    assert (
        value(False, 2, 5, [], rules) > value(True, 3, 5, [], rules) > value(True, 0, 5, [], rules)
    )


@pytest.mark.parametrize("specs", [["belief"] * 4, ["belief", "random"] * 3])
def test_belief_plays_whole_games_legally(specs: list[str]) -> None:
    """The bot only ever plays legal actions (the arena notes anything else)."""
    # With 6 places for 4 players nobody needs a vaccine: the bot rightly never risks a contact.
    rules = PandemicRules(rounds=2, ticks=4, infected=1, qualifiers=2)
    record = play(GAME, rules, [make_bot(GAME, s) for s in specs], seed=3)
    assert all(step.default is None for step in record.steps)
    kinds = {step.action["type"] for step in record.steps if step.action and step.seat != CHANCE}
    assert "contact" in kinds
    assert record.outcome is not None


def test_belief_bot_options_from_spec() -> None:
    bot = make_bot(GAME, "belief:cure_prob=0.5:cap=100:talk=false")
    assert isinstance(bot, BeliefBot) and bot.cap == 100 and not bot.talk
    state = start((0, 1))
    bot.reset(seat=3, rules=state.rules, players=state.players)
    action = bot.act(GAME.view(state, 3), GAME.legal_actions(state, 3), random.Random(0))
    assert action in GAME.legal_actions(state, 3)
    assert isinstance(action, Contact | Check | Cure | Idle)


def test_infect_chance_for_bots_is_not_asked() -> None:
    state = GAME.new(PandemicRules(), [f"p{i}" for i in range(12)])
    assert GAME.legal_actions(state, 0) == []
    assert Infect((0, 1)) in GAME.legal_actions(state, CHANCE)
