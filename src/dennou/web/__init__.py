"""The web app: people play, watch and replay every game in a browser.

The host's app (:func:`dennou.server.app.create_app`) mounts the pages and static files
(:mod:`dennou.web.routes`) and the web app's HTTP API (:mod:`dennou.web.api`), and wraps
everything in the security headers (:mod:`dennou.server.security`); the browser's files live in
``static/`` (ES modules, Web Components, CSS: nothing to build). See ``docs/web.md``.
"""
