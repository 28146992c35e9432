"""Rock-paper-scissors with talk (じゃんけん): the tests' toy eighth game.

It lives with the tests and is listed only where a test lists it (``REGISTRY.add`` in-process,
``DENNOU_EXTRA_GAMES=rps=tests.rps:GAME`` for a server), so that it never shows in a real
host's lobby; ``tests/rps/test_rps.py`` plays it everywhere a game goes.
"""

from __future__ import annotations

from tests.rps.bots import BOTS
from tests.rps.engine import Rps
from tests.rps.views import RpsViews

GAME = Rps(views=RpsViews, bots=BOTS)

TARGET = "tests.rps:GAME"
"""Where the registry finds the game (its registry line)."""
