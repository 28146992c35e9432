"""The host: a Starlette app serving every registered game over WebSocket and HTTP.

See ``docs/protocol.md``. :func:`create_app` builds the ASGI app; :mod:`dennou.server.cli` has
the ``serve`` and ``bot run`` commands.
"""

from __future__ import annotations

from dennou.server.app import create_app

__all__ = ["create_app"]
