"""The OpenAPI document of the HTTP lobby, generated from the routes' declared types.

Nothing here is written by hand per route: paths, parameters, bodies, replies and error statuses
all come from :data:`dennou.server.http_api.ENDPOINTS` and the msgspec types they name, so the
document cannot drift from the server.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Sequence
from typing import Any

import msgspec

from dennou.server import protocol as p
from dennou.server.errors import CODES, http_status
from dennou.server.http_api import ENDPOINTS, Endpoint, ErrorBody, Record, described
from dennou.server.limits import Limits
from dennou.server.security import COOKIE as SESSION_COOKIE

_ALWAYS = ("store", "internal")
"""Codes any route may answer (the server failed)."""


def document(
    endpoints: Sequence[Endpoint] = ENDPOINTS, limits: Limits | None = None
) -> dict[str, Any]:
    """The OpenAPI 3.1 document of ``endpoints`` (the app's: ``app.state.endpoints``).

    Limits named in the text are the values of ``limits`` (the host's; default: the defaults).
    The WebSocket protocol is in ``docs/protocol.md``.
    """
    limits = limits or Limits()
    types: list[Any] = [ErrorBody]
    for endpoint in endpoints:
        if endpoint.reply is not Record:
            types.append(endpoint.reply)
        if endpoint.body is not None:
            types.append(endpoint.body)
    schemas, components = msgspec.json.schema_components(
        types, ref_template="#/components/schemas/{name}"
    )
    by_type = dict(zip([repr(t) for t in types], schemas, strict=True))
    error = {"$ref": "#/components/schemas/ErrorBody"}
    paths: dict[str, dict[str, Any]] = defaultdict(dict)
    for e in endpoints:
        reply = (
            {"type": "string", "description": (Record.__doc__ or "").strip()}
            if e.reply is Record
            else by_type[repr(e.reply)]
        )
        responses: dict[str, Any] = {
            str(e.status): {
                "description": "Created" if e.status == 201 else "OK",
                "content": {e.media: {"schema": reply}},
            }
        }
        by_status: dict[int, list[str]] = defaultdict(list)
        for code in (*e.errors, *_ALWAYS):
            by_status[http_status(code)].append(code)
        for status, codes in sorted(by_status.items()):
            responses[str(status)] = {
                "description": "; ".join(f"`{c}`: {CODES[c][1]}" for c in codes),
                "content": {"application/json": {"schema": error}},
            }
        operation: dict[str, Any] = {
            "summary": described(e.summary, limits),
            "description": (e.handler.__doc__ or "").strip(),
            "operationId": e.handler.__name__,
            "responses": responses,
        }
        parameters = [
            {"name": name, "in": "path", "required": True, "schema": {"type": "string"}}
            for name in re.findall(r"{(\w+)}", e.path)
        ]
        parameters += [
            {
                "name": q.name,
                "in": "query",
                "description": described(q.description, limits),
                "schema": {"type": q.type},
            }
            for q in e.query
        ]
        if parameters:
            operation["parameters"] = parameters
        if e.body is not None:
            operation["requestBody"] = {
                "required": e.body is not None,
                "content": {"application/json": {"schema": by_type[repr(e.body)]}},
            }
        schemes: list[dict[str, list[str]]] = [{"token": []}] if e.auth is not None else []
        if e.cookie:
            schemes.append({"session": []})
        if schemes:
            operation["security"] = schemes if e.auth == "required" else [{}, *schemes]
        paths[e.path][e.method.lower()] = operation
    return {
        "openapi": "3.1.0",
        "info": {
            "title": "dennou lobby (電脳)",
            "version": str(p.PROTOCOL),
            "description": (
                "The HTTP lobby of a dennou host. Games are played over the WebSocket at /ws "
                "(docs/protocol.md). Send `Authorization: Bearer <token>` where a route needs an "
                "account; every error is `{code, error, message, context}`."
            ),
        },
        "components": {
            "schemas": components,
            "securitySchemes": {
                "token": {"type": "http", "scheme": "bearer"},
                "session": {
                    "type": "apiKey",
                    "in": "cookie",
                    "name": SESSION_COOKIE,
                    "description": "the web app's session (same-origin requests only)",
                },
            },
        },
        "paths": dict(paths),
    }


__all__ = ["document"]
