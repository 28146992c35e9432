"""A host's address, as every command and client takes it.

``--server`` accepts the same forms everywhere: ``http://HOST:PORT``, ``https://HOST:PORT``,
``ws://HOST:PORT/ws``, ``wss://HOST:PORT/ws`` and a bare ``HOST:PORT`` (plain HTTP). From any of
them :func:`host_urls` gives both the WebSocket URL and the HTTP base, so a command that needs
one never fails because it was given the other.
"""

from __future__ import annotations

import urllib.parse
from typing import NamedTuple

from dennou.core.errors import ConfigError

FORMS = "http(s)://HOST:PORT, ws(s)://HOST:PORT/ws or HOST:PORT"
"""The forms a server address may take (for error messages and help texts)."""


class HostURLs(NamedTuple):
    """A host's two addresses: ``ws`` (``ws://h:p/ws``) and ``http`` (``http://h:p``)."""

    ws: str
    http: str


def host_urls(server: str) -> HostURLs:
    """The WebSocket URL and HTTP base of a host given in any of the :data:`FORMS`.

    Raises:
        ConfigError: Not an address of a host (the message shows the forms expected).
    """
    text = server.strip()
    if "://" not in text:
        text = "http://" + text
    try:
        parts = urllib.parse.urlsplit(text)
        port = parts.port
    except ValueError as exc:
        raise ConfigError(f"--server: {server!r} is not {FORMS} ({exc})") from None
    if parts.scheme not in ("http", "https", "ws", "wss") or not parts.hostname:
        raise ConfigError(f"--server: expected {FORMS}, got {server!r}")
    if parts.query or parts.fragment or parts.username or parts.password:
        raise ConfigError(f"--server: expected {FORMS} (no query or user), got {server!r}")
    secure = parts.scheme in ("https", "wss")
    host = parts.hostname if ":" not in parts.hostname else f"[{parts.hostname}]"
    netloc = host if port is None else f"{host}:{port}"
    path = parts.path.rstrip("/")
    base = path.removesuffix("/ws")
    ws_path = path if parts.scheme.startswith("ws") and path else base + "/ws"
    return HostURLs(
        ws=f"{'wss' if secure else 'ws'}://{netloc}{ws_path}",
        http=f"{'https' if secure else 'http'}://{netloc}{base}",
    )


__all__ = ["FORMS", "HostURLs", "host_urls"]
