"""Daifugo (大富豪): see ``engine`` and ``docs/games/daifugo.md``."""

from dennou.games.daifugo.cards import can_follow
from dennou.games.daifugo.engine import GAME, Daifugo
from dennou.games.daifugo.rules import DaifugoRules

__all__ = ["GAME", "Daifugo", "DaifugoRules", "can_follow"]
