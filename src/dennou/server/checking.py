"""Test mode: every message the server sends, checked against the protocol's JSON Schemas.

The test servers (:mod:`dennou.server.testing`) turn it on, so every test in the suite that
talks to a server also checks that what it was sent is what ``docs/schema/`` promises. A message
that does not validate is appended to a file (JSON lines: the message and the error) that the
test server reads when it stops.
"""

from __future__ import annotations

import json
import threading
from pathlib import Path
from typing import Any

from dennou.server import protocol as p


class MessageChecker:
    """Validates server messages against :func:`dennou.server.protocol.schemas`.

    Args:
        path: Where violations are appended.
    """

    def __init__(self, path: str | Path) -> None:
        import jsonschema  # a test dependency (dennou[dev])

        self.path = Path(path)
        self._lock = threading.Lock()
        self._validators: dict[str, Any] = {}
        for name, schema in p.schemas().items():
            side, tag, _ = name.split(".")
            if side == "server":
                self._validators[tag] = jsonschema.Draft202012Validator(schema)
        self.checked = 0

    def __call__(self, data: bytes) -> None:
        """Check one encoded message; note it if it does not validate."""
        message = json.loads(data)
        validator = self._validators.get(message.get("type"))
        self.checked += 1
        errors = (
            ["unknown type"]
            if validator is None
            else [e.message for e in validator.iter_errors(message)]
        )
        if errors:
            line = json.dumps({"message": message, "errors": errors[:5]}, ensure_ascii=False)
            with self._lock, self.path.open("a", encoding="utf-8") as fh:
                fh.write(line + "\n")


def violations(path: str | Path) -> list[dict[str, Any]]:
    """The violations noted in ``path`` (none if it does not exist)."""
    file = Path(path)
    if not file.exists():
        return []
    return [json.loads(line) for line in file.read_text(encoding="utf-8").splitlines() if line]


__all__ = ["MessageChecker", "violations"]
