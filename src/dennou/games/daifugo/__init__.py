"""Daifugo (大富豪): the rules in :mod:`.engine`, the game in :mod:`.game` (see the docs page)."""

from dennou.games.daifugo.cards import can_follow
from dennou.games.daifugo.game import GAME, Daifugo
from dennou.games.daifugo.rules import DaifugoRules

__all__ = ["GAME", "Daifugo", "DaifugoRules", "can_follow"]
