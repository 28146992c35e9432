"""JSON: structs, tuples and sets as plain JSON data, and anything as JSON bytes."""

from __future__ import annotations

from typing import Any

import msgspec


def to_json(value: Any) -> Any:
    """Plain JSON data (dicts, lists, str, numbers) from structs, tuples, sets and the like."""
    return msgspec.json.decode(msgspec.json.encode(value))


encode = msgspec.json.Encoder().encode
"""Compact JSON bytes of a value (what the protocol sends and the store keeps)."""
