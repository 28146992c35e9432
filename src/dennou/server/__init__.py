"""The host: a Starlette app serving every registered game over WebSocket and HTTP.

See ``docs/protocol.md``. :func:`create_app` builds the ASGI app; :mod:`dennou.server.cli` has
the ``serve`` and ``bot run`` commands.
"""

from __future__ import annotations

from typing import Any

__all__ = ["create_app"]


def __getattr__(name: str) -> Any:
    # The app (Starlette, the store, every game) loads on first use, not with the package:
    # `dennou --help` and the client commands import `dennou.server.cli` without it.
    if name == "create_app":
        from dennou.server.app import create_app

        return create_app
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
