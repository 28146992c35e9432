"""Browser security: the session cookie, the same-origin check and the response headers.

The browser's session is a session secret (not an API token: signing out deletes it on the
server) in an ``HttpOnly``, ``SameSite=Strict`` cookie, ``Secure`` over HTTPS or when the host
is told it is behind an HTTPS proxy (``dennou serve --secure-cookies``, which also sends HSTS):
page scripts can never read it, and browsers do not send it with requests that other sites
start. State-changing HTTP calls that the cookie authorises additionally need a same-origin
``Origin`` (or ``Sec-Fetch-Site``) and a JSON body (which a plain cross-site form cannot send
without a CORS preflight, and this server answers none). The WebSocket handshake accepts the
cookie only from a same-origin page (browsers always send ``Origin`` there), which stops
cross-site WebSocket hijacking.
"""

from __future__ import annotations

from collections.abc import Mapping
from urllib.parse import urlsplit

from starlette.requests import HTTPConnection
from starlette.responses import Response
from starlette.types import ASGIApp, Message, Receive, Scope, Send

COOKIE = "dennou_session"
"""Name of the session cookie (its value is a browser session's secret)."""

HSTS = "max-age=31536000"
"""``Strict-Transport-Security`` under ``--secure-cookies``: a year, this host only."""

_POLICY = {
    "default-src": "'none'",
    "script-src": "'self'",
    "style-src": "'self'",
    "img-src": "'self' data:",
    "font-src": "'self'",
    "connect-src": "'self'",
    "manifest-src": "'self'",
    "base-uri": "'none'",
    "form-action": "'self'",
    "frame-ancestors": "'none'",
}


def _csp(**changes: str) -> str:
    return "; ".join(f"{k} {v}" for k, v in {**_POLICY, **changes}.items())


CSP = _csp()
"""The Content-Security-Policy of every response: no inline scripts or styles, no framing,
connections (``fetch``, WebSocket) to this server only."""

CSP_BY_PATH: tuple[tuple[str, str], ...] = (
    # Swagger UI (served from local files) styles its elements inline; scripts stay 'self'.
    ("/docs", _csp(**{"style-src": "'self' 'unsafe-inline'"})),
    # the plain status page has one inline <style> element and no script
    ("/status", _csp(**{"style-src": "'unsafe-inline'", "script-src": "'none'"})),
)
"""Paths (prefixes) whose pages need a looser policy than :data:`CSP`, and that policy."""

HEADERS: Mapping[str, str] = {
    "content-security-policy": CSP,
    "x-content-type-options": "nosniff",
    "x-frame-options": "DENY",
    "referrer-policy": "same-origin",
    "cross-origin-opener-policy": "same-origin",
    "permissions-policy": "camera=(), microphone=(), geolocation=()",
}
"""Headers added to every HTTP response."""


_CSP_KEY = b"content-security-policy"


class SecurityHeaders:
    """ASGI middleware adding :data:`HEADERS` to every HTTP response (not to WebSockets).

    Args:
        app: The app.
        hsts: Add ``Strict-Transport-Security`` (:data:`HSTS`): the host is served over HTTPS.
    """

    def __init__(self, app: ASGIApp, hsts: bool = False) -> None:
        self.app = app
        headers = {**HEADERS, "strict-transport-security": HSTS} if hsts else HEADERS
        self._raw = [(k.encode(), v.encode()) for k, v in headers.items()]

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Pass the request on; add the headers to the response's start."""
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        path: str = scope.get("path", "")
        raw = self._raw
        for prefix, policy in CSP_BY_PATH:
            if path == prefix or path.startswith(prefix + "/"):
                raw = [(k, policy.encode() if k == _CSP_KEY else v) for k, v in self._raw]
                break

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                present = {k.lower() for k, _ in message.get("headers", [])}
                extra = [(k, v) for k, v in raw if k not in present]
                message = {**message, "headers": [*message.get("headers", []), *extra]}
            await send(message)

        await self.app(scope, receive, send_with_headers)


def own_origin(conn: HTTPConnection) -> str:
    """``scheme://host[:port]`` of this server as the browser addressed it (the Host header)."""
    scheme = conn.url.scheme
    scheme = {"ws": "http", "wss": "https"}.get(scheme, scheme)
    host = conn.headers.get("host", "")
    return f"{scheme}://{host}".lower()


def same_origin(conn: HTTPConnection) -> bool:
    """Whether a request comes from this server's own pages (or from no browser at all).

    Browsers send ``Origin`` with every POST/DELETE and WebSocket handshake and
    ``Sec-Fetch-Site`` with every request; tools such as ``curl`` send neither, and are not
    a cross-site risk (they hold no victim's cookie).
    """
    origin = conn.headers.get("origin")
    if origin is not None:
        if origin == "null":
            return False
        parts = urlsplit(origin)
        return f"{parts.scheme}://{parts.netloc}".lower() == own_origin(conn)
    site = conn.headers.get("sec-fetch-site")
    return site is None or site in ("same-origin", "none")


def secure_cookies(conn: HTTPConnection) -> bool:
    """Whether the session cookie is ``Secure``.

    It is when the request came over HTTPS (directly, or as a trusted proxy's
    ``X-Forwarded-Proto`` says), or the operator said the host is behind HTTPS
    (``dennou serve --secure-cookies``).
    """
    return conn.url.scheme in ("https", "wss") or bool(
        getattr(conn.app.state, "secure_cookies", False)
    )


def set_session(response: Response, conn: HTTPConnection, secret: str, max_age: float) -> None:
    """Put the session cookie (a session's secret, for ``max_age`` seconds) on a response."""
    response.set_cookie(
        COOKIE,
        secret,
        max_age=int(max_age),
        path="/",
        httponly=True,
        samesite="strict",
        secure=secure_cookies(conn),
    )


def clear_session(response: Response, conn: HTTPConnection) -> None:
    """Delete the session cookie."""
    response.delete_cookie(
        COOKIE, path="/", httponly=True, samesite="strict", secure=secure_cookies(conn)
    )


def session_token(conn: HTTPConnection) -> str | None:
    """The session cookie's secret, if the request may use it (same origin); else ``None``."""
    token = conn.cookies.get(COOKIE)
    if not token or not same_origin(conn):
        return None
    return token


__all__ = [
    "COOKIE",
    "CSP",
    "CSP_BY_PATH",
    "HEADERS",
    "HSTS",
    "SecurityHeaders",
    "clear_session",
    "same_origin",
    "secure_cookies",
    "session_token",
    "set_session",
]
