"""Conversion of structs, tuples and sets to plain JSON data."""

from __future__ import annotations

from typing import Any

import msgspec


def to_json(value: Any) -> Any:
    """Plain JSON data (dicts, lists, str, numbers) from structs, tuples, sets and the like."""
    return msgspec.json.decode(msgspec.json.encode(value))
