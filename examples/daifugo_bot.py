"""An example contestant for a Daifugo tournament: any ``dennou.core.bot.Bot`` plays remotely.

It plays its biggest group first (the weakest among groups of that size) and passes only when
it must; in the exchange it gives the first honest choice. Run it in a host tournament with

    PYTHONPATH=. dennou bot run examples.daifugo_bot:BigGroupsFirst --tournament ID --token TOKEN
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from dennou.core.actions import Action
from dennou.core.bot import Bot
from dennou.core.game import JSON
from dennou.games.daifugo import cards
from dennou.games.daifugo.actions import Play


class BigGroupsFirst(Bot):
    """Biggest group first, weakest among equals."""

    name = "biggroups"

    def act(self, view: JSON, legal: Sequence[Action], rng: random.Random) -> Action:
        """Choose from the legal actions using the view only."""
        plays = [a for a in legal if isinstance(a, Play)]
        if view["phase"] != "play" or not plays:
            return legal[0]

        def key(play: Play) -> tuple[int, int]:
            held = cards.parse_cards(play.cards) or ()
            rank = min((cards.rank_of(c) for c in held if c != cards.JOKER), default=99)
            return (len(play.cards), -rank)

        return max(plays, key=key)
