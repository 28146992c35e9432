"""docs/protocol.md, docs/schema and the OpenAPI document stay true to the server as built:
the same codes, routes and messages everywhere; the example session and the two
afternoon clients are real and run."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any, get_args

import httpx
import msgspec
import pytest

from dennou.server import protocol as p
from dennou.server.app import ENDPOINTS
from dennou.server.errors import CODES, ErrorCode, http_status
from dennou.server.openapi import document
from tests.services import require_node

from . import example_session
from .conftest import LiveServer, ServerProcess

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"
PROTOCOL = (DOCS / "protocol.md").read_text(encoding="utf-8")
SERVER_BY_TYPE = {str(c.__struct_config__.tag): c for c in p.SERVER_MESSAGES}


def section(number: int) -> str:
    return PROTOCOL.split(f"\n## {number}.", 1)[1].split("\n## ", 1)[0]


def test_schema_files_are_generated_from_the_protocol() -> None:
    expected = p.schemas()
    files = {f.name for f in (DOCS / "schema").glob("*.json")}
    assert files == set(expected), "run: python -m dennou.server.protocol docs/schema"
    for name, schema in expected.items():
        assert json.loads((DOCS / "schema" / name).read_text()) == schema, name


def test_every_message_type_is_documented() -> None:
    for tag in [*p.BY_TYPE, *SERVER_BY_TYPE]:
        assert f"`{tag}`" in section(2) + section(3), tag


def test_every_error_code_is_in_the_schema_and_in_section_4_and_nothing_else() -> None:
    """The error schema lacked `internal`; codes and prose drifted apart."""
    table = re.findall(r"^\| `(\w+)` \| (\d+) \|", section(4), re.M)
    documented = {code: int(status) for code, status in table}
    schema = json.loads((DOCS / "schema" / "server.error.json").read_text())
    in_schema = set(schema["$defs"]["Error"]["properties"]["code"]["enum"])
    assert set(documented) == set(CODES) == in_schema == set(get_args(ErrorCode))
    for code, status in documented.items():
        assert status == http_status(code), code
    reasons = json.loads((DOCS / "schema" / "server.event.json").read_text())
    enum = json.dumps(reasons)
    for reason in ("timeout", "absent", "error", "illegal", "resign", "abort", "claim"):
        assert f'"{reason}"' in enum and f"`{reason}`" in section(3), reason
    assert "a few hundred" not in PROTOCOL and "300" in section(3)


def test_every_http_route_is_documented_with_its_statuses() -> None:
    """Every route's status codes and reply bodies in §6 (§11: tournaments) and in OpenAPI."""
    rows = section(6) + section(11)
    spec = document(ENDPOINTS)
    for e in ENDPOINTS:
        path = re.sub(r"\?.*", "", e.path)
        row = next(
            (line for line in rows.splitlines() if line.startswith(f"| `{e.method} {path}")), None
        )
        assert row is not None, f"§6 has no row for {e.method} {path}"
        assert f"{e.status} " in row, (e.path, e.status)
        for code in e.errors:
            assert f"`{code}`" in row and str(http_status(code)) in row, (e.path, code)
        operation = spec["paths"][e.path][e.method.lower()]
        statuses = set(operation["responses"])
        assert str(e.status) in statuses
        assert {str(http_status(c)) for c in (*e.errors, "store", "internal")} <= statuses


def test_the_api_index_openapi_and_docs_are_served(live: LiveServer) -> None:
    """/api answers an index; /docs serves interactive documentation from local files."""
    index = httpx.get(f"{live.http}/api").json()
    assert {(x["method"], x["path"]) for x in index["endpoints"]} == {
        (e.method, e.path) for e in ENDPOINTS
    }
    assert index["websocket"].endswith("/ws") and index["docs"].endswith("/docs")
    spec = httpx.get(f"{live.http}/openapi.json").json()
    assert spec == json.loads(json.dumps(document(ENDPOINTS)))
    page = httpx.get(f"{live.http}/docs")
    assert page.status_code == 200 and "swagger-ui" in page.text
    for url in re.findall(r'(?:src|href)="([^"]+)"', page.text):
        assert url.startswith("/"), f"/docs loads {url} from elsewhere"
        assert httpx.get(f"{live.http}{url}").status_code == 200, url
    assert "validatorUrl: null" in httpx.get(f"{live.http}/docs/init.js").text


def test_serve_prints_where_everything_is(server: ServerProcess) -> None:
    """`dennou serve` printed nothing at start-up."""
    log = server.log.read_text()
    for what in ("web page", "API", "/docs", "WebSocket", "data", "dennou.sqlite3"):
        assert what in log, what
    assert f"http://127.0.0.1:{server.port}/api" in log, "the address really bound"


def test_the_example_session_is_what_the_server_sends(server: ServerProcess) -> None:
    """§8 is generated from a real run; playing it again gives the same messages."""
    blocks = example_session.play(server)
    assert example_session.render(blocks) == example_session.documented(), (
        "the server no longer says what §8 shows: run python -m tests.server.example_session"
    )
    for block in blocks:
        for direction, message in block:
            kinds = p.BY_TYPE if direction == ">" else SERVER_BY_TYPE
            msgspec.convert(message, kinds[message["type"]])


def test_the_afternoon_clients_are_on_the_page_verbatim() -> None:
    for path in ("examples/afternoon/client.py", "examples/js-client/afternoon.mjs"):
        code = (ROOT / path).read_text(encoding="utf-8").rstrip("\n")
        assert code in PROTOCOL, f"§9 does not show {path} as it is"


def afternoon(server: ServerProcess, command: list[str], game: str, *args: str) -> dict[str, Any]:
    token = server.register(f"c{os.urandom(4).hex()}")
    done = subprocess.run(
        [*command, server.ws, token, game, *args],
        capture_output=True,
        text=True,
        timeout=180,
        check=False,
        cwd=ROOT,
    )
    assert done.returncode == 0, done.stderr
    result: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    assert result["status"] == "finished", result
    return result


@pytest.mark.parametrize("language", ["python", "javascript"])
def test_the_afternoon_clients_play_numeron_and_a_daifugo_set(
    server: ServerProcess, language: str
) -> None:
    """A client written from the page alone plays the games, the Daifugo exchange included."""
    if language == "python":
        command = [sys.executable, "examples/afternoon/client.py"]
    else:
        require_node()
        command = ["node", "examples/js-client/afternoon.mjs"]
    numeron = afternoon(server, command, "numeron", '{"digits": 3}')
    assert numeron["outcome"]["detail"]["end"] in ("numeron", "forfeit")
    daifugo = afternoon(server, command, "daifugo", '{"games": 2}', "bot:random", "bot:random")
    record = httpx.get(f"{server.http}/api/tables/{daifugo['table']}/record").text
    assert '"give"' in record  # the exchange was played by the client or the bots


def test_the_documents_name_the_limits_the_host_runs_with() -> None:
    """Page sizes and caps in the OpenAPI document and the index are the host's ``Limits``."""
    from dennou.server.limits import Limits

    limits = Limits(page_size=7, page_max=9, games_page_size=3, seats_known=11, replay_frames=5)
    spec = document(ENDPOINTS, limits)

    def query(path: str, name: str) -> str:
        params = spec["paths"][path]["get"]["parameters"]
        described: str = next(q for q in params if q["name"] == name)["description"]
        return described

    assert query("/api/tables", "limit") == "tables in the page (default 7, at most 9)"
    assert query("/api/games-over", "limit") == "games in the page (default 3, at most 9)"
    assert "(at most 11)" in query("/api/tournaments/{tournament}/seats", "known")
    assert query("/api/tables/{table}/replay", "count") == "frames to answer (at most 5)"
    text = json.dumps(spec)
    for name in msgspec.structs.asdict(limits):
        assert "{" + name not in text, f"{{{name}}} left unfilled"
    assert "default 50, at most 200" in json.dumps(document(ENDPOINTS))


def test_tournament_routes_are_declared_once_like_the_lobbys() -> None:
    """Tournaments and leaderboards are endpoints of the one list (index, OpenAPI, routes)."""
    from dennou.server import tournaments

    assert not hasattr(tournaments, "openapi_paths") and not hasattr(tournaments, "routes")
    declared = {(e.method, e.path) for e in ENDPOINTS}
    assert {(e.method, e.path) for e in tournaments.ENDPOINTS} <= declared
    assert ("POST", "/api/tournaments") in declared
    assert ("GET", "/api/leaderboard/{game}") in declared
    operation = document(ENDPOINTS)["paths"]["/api/tournaments"]["post"]
    assert {"201", "401", "429"} <= set(operation["responses"])
