"""The web app (issue 13): people play, watch and replay every game in a browser.

``dennou serve`` mounts :func:`routes` and wraps the app in :class:`SecurityHeaders`; the
browser's files live in ``static/`` (ES modules, Web Components, CSS: nothing to build). See
``docs/web.md``.
"""

from __future__ import annotations

from dennou.web.routes import routes, session_account
from dennou.web.security import SecurityHeaders, session_token

__all__ = ["SecurityHeaders", "routes", "session_account", "session_token"]
