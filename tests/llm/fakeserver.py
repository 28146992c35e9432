"""A loopback chat-completions endpoint that misbehaves on purpose (or answers by the schema).

Modes: ``first`` answers the schema's first legal action and, where ``say`` is offered, one
line in each offered channel (plus, with ``stray``, a line in a channel never offered);
``garbage`` answers text that is not JSON; ``slow`` sleeps before answering; ``refuse`` answers
HTTP 500. Every request body is kept (``requests``) so tests can read the prompts.
"""

from __future__ import annotations

import json
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


class FakeEndpoint:
    """An OpenAI-compatible endpoint on ``127.0.0.1`` in a thread.

    Args:
        mode: ``first``, ``garbage``, ``slow`` or ``refuse``.
        sleep: Seconds ``slow`` waits.
        stray: A channel ``first`` also talks in, though never offered.
        json_schema: Whether ``response_format`` of type ``json_schema`` is accepted (else 422,
            like llama-cpp-python).
    """

    def __init__(
        self,
        mode: str = "first",
        *,
        sleep: float = 0.0,
        stray: str | None = None,
        json_schema: bool = True,
    ) -> None:
        self.mode = mode
        self.sleep = sleep
        self.stray = stray
        self.json_schema = json_schema
        self.requests: list[dict[str, Any]] = []
        endpoint = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: Any) -> None:
                pass

            def do_GET(self) -> None:
                self._send(200, {"object": "list", "data": [{"id": "fake", "object": "model"}]})

            def do_POST(self) -> None:
                size = int(self.headers.get("Content-Length", "0"))
                body = json.loads(self.rfile.read(min(size, 1 << 24)))
                endpoint.requests.append(body)
                status, payload = endpoint.answer(body)
                self._send(status, payload)

            def _send(self, status: int, payload: Any) -> None:
                data = json.dumps(payload).encode()
                try:
                    self.send_response(status)
                    self.send_header("Content-Type", "application/json")
                    self.send_header("Content-Length", str(len(data)))
                    self.end_headers()
                    self.wfile.write(data)
                except OSError:
                    pass  # the client gave up (its clock ran out)

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.base_url = f"http://127.0.0.1:{self.server.server_address[1]}/v1"
        self._thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self._thread.start()

    def answer(self, body: dict[str, Any]) -> tuple[int, Any]:
        fmt = body.get("response_format") or {}
        if fmt.get("type") == "json_schema" and not self.json_schema:
            return 422, {"detail": "response_format.type: json_object or text"}
        if self.mode == "refuse":
            return 500, {"error": {"message": "down"}}
        if self.mode == "slow":
            time.sleep(self.sleep)
        if self.mode == "garbage":
            return 200, _completion("this is not json {")
        schema = fmt.get("schema") or (fmt.get("json_schema") or {}).get("schema") or {}
        properties = schema.get("properties", {})
        action = properties.get("action", {})
        reply: dict[str, Any] = {
            "action": (action.get("enum") or action.get("examples") or ["?"])[0]
        }
        say = properties.get("say")
        if say is not None:
            channels = say["items"]["properties"]["channel"]["enum"]
            reply["say"] = [{"channel": c, "text": f"hello {c}"} for c in channels]
            if self.stray:
                reply["say"].insert(0, {"channel": self.stray, "text": "stray line"})
        return 200, _completion(json.dumps(reply))

    def prompts(self) -> list[str]:
        """The text of every message sent, one string per request."""
        return ["\n".join(m["content"] for m in r["messages"]) for r in self.requests]

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


def _completion(content: str) -> dict[str, Any]:
    return {
        "id": "x",
        "object": "chat.completion",
        "created": 0,
        "model": "fake",
        "choices": [
            {
                "index": 0,
                "message": {"role": "assistant", "content": content},
                "finish_reason": "stop",
            }
        ],
        "usage": {"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15},
    }
