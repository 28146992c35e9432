"""Star Hi-Lo bots: ``random`` plays every kind legally; ``bayes`` chooses by expected value."""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import replace

from dennou.arena import make_bot, play
from dennou.games.hilo import GAME, HiloRules
from dennou.games.hilo.actions import (
    Check,
    Guess,
    RandomCheck,
    SecretGuess2,
)
from dennou.games.hilo.bayes import BayesBot, HiloRandomBot
from dennou.games.hilo.state import HiloState
from tests.games.hilo.helpers import act, start


def _decide(bot: BayesBot, state: HiloState, seat: int = 0) -> object:
    view = GAME.view(state, seat)
    return bot.act(view, GAME.legal_actions(state, seat), random.Random(0))


def test_bots_by_name() -> None:
    assert isinstance(make_bot(GAME, "random"), HiloRandomBot)
    bot = make_bot(GAME, "bayes:star_value=300:patience=0.95:opponents=false")
    assert isinstance(bot, BayesBot)
    assert (bot.star_value, bot.patience, bot.opponents) == (300.0, 0.95, False)


def test_random_bot_plays_every_kind_legally() -> None:
    """Uniform over kinds: over a few series it uses every action the rules allow it."""
    rules = HiloRules(max_number=50, max_games=3, random_check_max=0, check_min=3)
    used: Counter[str] = Counter()
    for seed in range(3):
        record = play(GAME, rules, [HiloRandomBot(), HiloRandomBot(), HiloRandomBot()], seed)
        assert all(step.default is None for step in record.steps), "a random action was illegal"
        used.update(s.action["type"] for s in record.steps if s.action and s.seat != -1)
    assert set(used) >= {
        "guess",
        "random_guess",
        "pick",
        "check",
        "random_check",
        "secret_guess_3",
        "secret_guess_2",
    }


def test_bayes_halves_in_public_at_the_start() -> None:
    """Nothing known: a public guess at the median (EV +0.5, and a bit for its own check)."""
    action = _decide(BayesBot(), start(3))
    assert isinstance(action, Guess)
    assert abs(action.x - GAME.make_rules().max_number // 2) <= 1


def test_bayes_checks_a_known_target() -> None:
    """The public log pins the target and it has 10 points: the check is a sure star."""
    state = start(2, max_number=1000, target=600)
    state, _ = act(state, Guess(599, "high"))
    state, _ = act(state, Guess(601, "low"))
    assert _decide(BayesBot(), replace(state, points=(10, 5))) == Check(600)


def test_bayes_farms_when_it_knows_but_cannot_check_yet() -> None:
    """Known target, 5 points: a sure +2 guess that tells nobody anything."""
    state = start(2, max_number=1000, target=600)
    state, _ = act(state, Guess(599, "high"))
    state, _ = act(state, Guess(601, "low"))
    action = _decide(BayesBot(), replace(state, points=(5, 5)))
    assert action in (Guess(599, "high"), Guess(601, "low"))


def test_bayes_keeps_the_last_bits_secret_when_a_rival_could_check() -> None:
    """Four targets left and a rival with 12 points: a public halving would hand it a 1-in-2
    check, so the bot pays 2 points for a secret guess (2.6, never the dominated 2.5)."""
    state = start(2, max_number=1000, target=600)
    state, _ = act(state, Guess(599, "high"))
    state, _ = act(state, Guess(604, "low"))  # 600..603 are left, and it is seat 0's turn
    state = replace(state, points=(7, 12))
    assert isinstance(_decide(BayesBot(), state), SecretGuess2)
    # Blind to rivals, it halves in public.
    assert isinstance(_decide(BayesBot(opponents=False), state), Guess)
    # A rival that cannot check (9 points) is no threat.
    assert isinstance(_decide(BayesBot(), replace(state, points=(7, 9))), Guess)


def test_bayes_uses_its_own_secret_results() -> None:
    """After its secret guess it knows 2 of the 4 targets; the rival still sees 4."""
    state = start(2, max_number=1000, target=600)
    state, _ = act(state, Guess(599, "high"))
    state, _ = act(state, Guess(604, "low"))
    state, _ = act(replace(state, points=(7, 12)), SecretGuess2(601, "high"))  # wrong: 600..601
    state, _ = act(state, Guess(0, "high"))  # the rival farms
    mine = BayesBot().options(GAME.view(state, 0))
    assert any(o.why.startswith("halve 2 ") for o in mine)
    assert all(o.action.x in (600, 601) for o in mine if isinstance(o.action, SecretGuess2))
    state, _ = act(state, Guess(0, "high"))
    theirs = BayesBot().options(GAME.view(state, 1))
    assert any(o.why.startswith("halve 4 ") for o in theirs)


def test_bayes_random_check_only_when_it_pays() -> None:
    """2.4 at -20 or below: 3 stars at 1 in 4 pays; at 1 in 3.3 billion it never does."""
    small = start(2, max_number=3, target=2, points=(-20, 5))
    assert _decide(BayesBot(), small) == RandomCheck()
    seed_range = start(2, points=(-20, 5))
    assert _decide(BayesBot(), seed_range) != RandomCheck()


def test_bayes_beats_random() -> None:
    """A few series against two random players: bayes wins them all."""
    for seed in range(3):
        record = play(GAME, None, [HiloRandomBot(), BayesBot(), HiloRandomBot()], seed)
        assert record.outcome is not None and record.outcome["ranks"][1] == 1
        assert all(step.default is None for step in record.steps)
