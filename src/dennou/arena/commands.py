"""How a bot spec names a program run through the engine bridge (:mod:`dennou.arena.bridge`).

Apart from the bridge so that telling a command from a built-in bot imports none of its
machinery.
"""

from __future__ import annotations

COMMAND = "cmd:"
"""Prefix of a command bot's spec: ``cmd:./mybot --depth 3``."""


def is_command(spec: str) -> bool:
    """Whether a bot spec is a command (``cmd:./mybot args``)."""
    return spec.lstrip().startswith(COMMAND)


__all__ = ["COMMAND", "is_command"]
