"""Matches between bots: ``play`` one game, ``match`` many, with bot lookup by name."""

from dennou.arena.bots import make_bot, parse_bot_spec
from dennou.arena.play import play

__all__ = ["make_bot", "parse_bot_spec", "play"]
