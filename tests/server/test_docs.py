"""docs/protocol.md and docs/schema stay true to the protocol as built."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import msgspec
import pytest

from dennou.server import protocol as p

DOCS = Path(__file__).resolve().parents[2] / "docs"
SERVER_BY_TYPE = {str(c.__struct_config__.tag): c for c in p.SERVER_MESSAGES}


def example_lines() -> list[tuple[str, dict[str, Any]]]:
    text = (DOCS / "protocol.md").read_text(encoding="utf-8")
    out = []
    for block in re.findall(r"```jsonl\n(.*?)```", text, re.S):
        for line in block.splitlines():
            direction, _, raw = line.partition(" ")
            out.append((direction, json.loads(raw)))
    return out


def test_schema_files_are_generated_from_the_protocol() -> None:
    expected = p.schemas()
    files = {f.name for f in (DOCS / "schema").glob("*.json")}
    assert files == set(expected), "run: python -m dennou.server.protocol docs/schema"
    for name, schema in expected.items():
        assert json.loads((DOCS / "schema" / name).read_text()) == schema, name


def test_every_message_type_is_documented() -> None:
    text = (DOCS / "protocol.md").read_text(encoding="utf-8")
    for tag in [*p.BY_TYPE, *SERVER_BY_TYPE]:
        assert f"`{tag}`" in text, tag


def test_the_example_session_is_valid_protocol() -> None:
    lines = example_lines()
    assert len(lines) > 20
    seen = set()
    for direction, message in lines:
        assert direction in (">", "<")
        kinds = p.BY_TYPE if direction == ">" else SERVER_BY_TYPE
        seen.add((direction, message["type"]))
        msgspec.convert(message, kinds[message["type"]])


def test_the_example_session_matches_the_json_schemas() -> None:
    jsonschema = pytest.importorskip("jsonschema")
    for direction, message in example_lines():
        side = "client" if direction == ">" else "server"
        schema = json.loads((DOCS / "schema" / f"{side}.{message['type']}.json").read_text())
        jsonschema.validate(message, schema)
