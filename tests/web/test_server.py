"""The web app's server side: pages, static files, headers, the cookie session, CSRF, replays.

Sign in, CSP, replay, leaderboard; docs/protocol.md sections 6 and "Browser sessions".
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator
from pathlib import Path

import httpx
import pytest
from websockets.sync.client import connect

from dennou.server.testing import WS, LiveServer
from dennou.web.routes import PAGES, STATIC

from ..server.checks import quick_rules
from .games import rated_numeron_game


@pytest.fixture
def live(tmp_path: Path) -> Iterator[LiveServer]:
    server = LiveServer(tmp_path / "data", rate=1000.0, burst=2000.0)
    yield server
    server.stop()


@pytest.fixture
def sign_up(live: LiveServer) -> Iterator[Callable[[str], httpx.Client]]:
    """Browser-like clients signed in through /api/session (the cookie in each one's jar).

    The clients are closed when the test ends, so none leaves a socket open.
    """
    clients: list[httpx.Client] = []

    def signed_in(name: str) -> httpx.Client:
        client = httpx.Client(base_url=live.http, headers={"origin": live.http}, timeout=10)
        clients.append(client)
        body = {"name": name, "password": f"{name} password", "register": True}
        reply = client.post("/api/session", json=body)
        assert reply.status_code == 201, reply.text
        return client

    yield signed_in
    for client in clients:
        client.close()


def play_numeron_to_end(live: LiveServer, token: str) -> str:
    """A whole rated 3-digit Numeron game of a seat against the random bot; returns its id."""
    return rated_numeron_game(live.connect(token))


def test_every_page_is_the_shell_with_its_module_and_a_strict_csp(live: LiveServer) -> None:
    for path, page in [
        ("/", "lobby"),
        ("/tables/t1", "table"),
        ("/games/t1", "replay"),
        ("/replay", "replay"),
        ("/players/ann", "player"),
        ("/leaderboard", "leaderboard"),
        ("/leaderboard/daifugo", "leaderboard"),
    ]:
        reply = httpx.get(live.http + path)
        assert reply.status_code == 200
        assert f'src="/static/pages/{page}.js"' in reply.text
        csp = reply.headers["content-security-policy"]
        assert "script-src 'self'" in csp and "frame-ancestors 'none'" in csp
        assert "connect-src 'self'" in csp and "unsafe-inline" not in csp
        assert reply.headers["x-content-type-options"] == "nosniff"
        # no inline script or style: every <script> has a src, no style attributes or blocks
        assert not re.search(r"<script(?![^>]*\bsrc=)", reply.text)
        assert "<style" not in reply.text and "style=" not in reply.text
    assert set(PAGES) == {p.stem for p in (STATIC / "pages").glob("*.js")}


def test_static_files_are_served_with_types_and_revalidation(live: LiveServer) -> None:
    js = httpx.get(live.http + "/static/lib/client.js")
    assert js.status_code == 200 and "javascript" in js.headers["content-type"]
    etag = js.headers["etag"]
    again = httpx.get(live.http + "/static/lib/client.js", headers={"if-none-match": etag})
    assert again.status_code == 304
    assert httpx.get(live.http + "/static/i18n/ja.json").json()["game.daifugo"] == "大富豪"
    assert httpx.get(live.http + "/static/../routes.py").status_code == 404


def test_no_module_writes_html() -> None:
    """User text is shown as text: no innerHTML/outerHTML/insertAdjacentHTML anywhere."""
    for path in STATIC.rglob("*.js"):
        text = path.read_text(encoding="utf-8")
        for bad in ("innerHTML", "outerHTML", "insertAdjacentHTML", "document.write"):
            assert bad not in text, f"{path.name} uses {bad}"


def test_sign_up_sets_an_httponly_samesite_cookie_and_never_shows_a_secret(
    live: LiveServer, sign_up: Callable[[str], httpx.Client]
) -> None:
    client = sign_up("ann")
    cookie = client.cookies.get("dennou_session")
    assert cookie
    reply = client.get("/api/session")
    assert reply.json() == {"name": "ann"}
    # a new sign-up again, to read the raw Set-Cookie header
    raw = httpx.post(
        live.http + "/api/session",
        json={"name": "bob", "password": "bob password", "register": True},
        headers={"origin": live.http},
    )
    header = raw.headers["set-cookie"].lower()
    assert "httponly" in header and "samesite=strict" in header and "path=/" in header
    assert "token" not in raw.json() and raw.json() == {"name": "bob"}
    # the cookie is a session, not an API token
    made = httpx.post(
        live.http + "/api/tables",
        json={"game": "numeron", "seats": ["open", "bot:random"]},
        headers={"authorization": f"Bearer {cookie}"},
    )
    assert made.status_code == 401
    # sign in elsewhere with an API token (a new session), and sign out
    token = client.post("/api/me/tokens", json={"name": "laptop"}).json()["token"]
    with httpx.Client(base_url=live.http, headers={"origin": live.http}) as other:
        assert other.post("/api/session", json={"token": token}).json() == {"name": "ann"}
        assert other.cookies.get("dennou_session") not in (None, token, cookie)
        assert other.delete("/api/session").status_code == 200
        assert other.get("/api/session").json() == {"name": None}
        bad = other.post("/api/session", json={"token": "nope"})
        assert bad.status_code == 401
        new = {"name": "bad name!", "password": "a password", "register": True}
        assert other.post("/api/session", json=new).status_code == 400
        taken = {"name": "ann", "password": "a password", "register": True}
        assert other.post("/api/session", json=taken).status_code == 409
        # a name alone no longer makes an account that can never sign in again
        assert other.post("/api/session", json={"name": "cy"}).status_code == 400
    assert client.get("/api/session").json() == {"name": "ann"}  # ann's own session lives on


def test_cross_site_session_calls_are_refused(
    live: LiveServer, sign_up: Callable[[str], httpx.Client]
) -> None:
    """CSRF: a foreign Origin, a cross-site fetch or a form-encoded body changes nothing."""
    url = live.http + "/api/session"
    eve = {"name": "eve", "password": "eve password", "register": True}
    evil = httpx.post(url, json=eve, headers={"origin": "http://evil.example"})
    assert evil.status_code == 403 and evil.json()["code"] == "forbidden"
    assert "set-cookie" not in evil.headers
    site = httpx.post(url, json=eve, headers={"sec-fetch-site": "cross-site"})
    assert site.status_code == 403
    null = httpx.post(url, json=eve, headers={"origin": "null"})
    assert null.status_code == 403
    form = httpx.post(url, data=eve, headers={"origin": live.http})
    assert form.status_code == 400
    # nothing was created
    assert httpx.get(live.http + "/api/accounts/eve").status_code == 404
    # signing out from another site is refused too
    client = sign_up("ann")
    out = client.delete("/api/session", headers={"origin": "http://evil.example"})
    assert out.status_code == 403
    assert client.get("/api/session").json() == {"name": "ann"}


def _hello(live: LiveServer, headers: dict[str, str]) -> dict[str, object]:
    with connect(live.ws_url, additional_headers=headers) as ws:
        ws.send(json.dumps({"type": "hello", "protocol": 1, "token": None, "id": 1}))
        return dict(json.loads(ws.recv(10)))


def test_websocket_hello_authenticates_from_the_cookie_of_a_same_origin_page(
    live: LiveServer, sign_up: Callable[[str], httpx.Client]
) -> None:
    client = sign_up("ann")
    cookie = f"dennou_session={client.cookies.get('dennou_session')}"
    same = _hello(live, {"cookie": cookie, "origin": live.http})
    assert same["type"] == "welcome" and same["account"] == "ann"
    # Cross-site WebSocket hijacking: another origin's page gets a guest, not ann.
    foreign = _hello(live, {"cookie": cookie, "origin": "http://evil.example"})
    assert foreign["type"] == "welcome" and foreign.get("account") is None
    # No cookie: a guest, as before; a token still wins over the cookie.
    assert _hello(live, {"origin": live.http}).get("account") is None
    token = live.register("bob")
    with connect(live.ws_url, additional_headers={"cookie": cookie}) as ws:
        ws.send(json.dumps({"type": "hello", "token": token, "id": 1}))
        assert json.loads(ws.recv(10))["account"] == "bob"


def test_view_messages_list_the_talk_channels_open_now(live: LiveServer) -> None:
    token = live.register("ann")
    ws = live.connect(token)
    made = ws.request({"type": "create_table", "game": "numeron", "seats": ["me", "bot:random"]})
    table = made["table"]["id"]  # type: ignore[index]
    view = ws.request({"type": "get_view", "table": table})
    assert view["type"] == "view" and view["channels"] == ["public"]
    watcher = live.connect(None)
    watcher.request({"type": "spectate", "table": table})
    seen = watcher.request({"type": "get_view", "table": table})
    assert seen["channels"] == ["spectators"] and seen["seat"] is None
    ws.close()
    watcher.close()


def test_replay_of_a_finished_table_as_each_seat_and_as_a_spectator(live: LiveServer) -> None:
    token = live.register("ann")
    table = play_numeron_to_end(live, token)
    base = f"{live.http}/api/tables/{table}/replay"
    spectator = httpx.get(base, params={"from": 0, "count": 100}).json()
    steps = spectator["steps"]
    assert spectator["game"] == "numeron" and spectator["players"][0] == "ann"
    assert spectator["outcome"]["ranks"] and len(spectator["frames"]) == min(100, steps + 1)
    first = spectator["frames"][0]
    assert first["version"] == 0 and first["step"] is None and first["view"]["seat"] is None
    # a spectator never sees a number before the end; seat 0 sees its own from the set on
    for frame in spectator["frames"][:-1]:
        assert "my_number" not in frame["view"]
        assert all(e["kind"] != "number" for e in frame["events"])
    mine = httpx.get(base, params={"seat": 0, "from": 1, "count": 5}).json()
    assert mine["frames"][0]["version"] == 1
    assert any(f["view"].get("my_number") == "012" for f in mine["frames"])
    last = httpx.get(base, params={"from": steps, "count": 1}).json()["frames"][0]
    assert last["version"] == steps and last["view"]["phase"] == "over"
    assert last["view"]["numbers"][0] == "012"  # every number shown once the game is over
    assert httpx.get(base, params={"seat": 5}).status_code == 400
    assert httpx.get(base, params={"seat": "x"}).status_code == 400
    assert httpx.get(f"{live.http}/api/tables/nope/replay").status_code == 404


def test_replay_is_refused_while_the_game_runs(live: LiveServer) -> None:
    token = live.register("ann")
    ws = live.connect(token)
    made = ws.request({"type": "create_table", "game": "numeron", "seats": ["me", "bot:random"]})
    table = made["table"]["id"]  # type: ignore[index]
    reply = httpx.get(f"{live.http}/api/tables/{table}/replay")
    assert reply.status_code == 409
    ws.close()


def test_a_dropped_record_file_replays_the_same_as_the_stored_table(live: LiveServer) -> None:
    token = live.register("ann")
    table = play_numeron_to_end(live, token)
    text = httpx.get(f"{live.http}/api/tables/{table}/record").text
    body = {"record": text, "seat": 1, "from": 0, "count": 100}
    headers = {"origin": live.http}
    dropped = httpx.post(live.http + "/api/replay", json=body, headers=headers).json()
    stored = httpx.get(
        f"{live.http}/api/tables/{table}/replay", params={"seat": 1, "count": 100}
    ).json()
    assert dropped["audience"] == "file" and stored["audience"] == "spectators"
    del dropped["audience"], stored["audience"]
    assert dropped == stored
    bad = httpx.post(live.http + "/api/replay", json={"record": "nonsense"}, headers=headers)
    assert bad.status_code == 400 and bad.json()["code"] == "config"
    assert "line 1" in bad.json()["message"]
    # a record whose steps do not replay is bad input too, not a host failure
    broken = text.replace('"call"', '"jump"', 1)
    refused = httpx.post(live.http + "/api/replay", json={"record": broken})
    assert refused.status_code == 400 and refused.json()["code"] == "config"
    # the file is the caller's own: no session is needed, and nothing is stored
    assert httpx.post(live.http + "/api/replay", json=body).status_code == 200
    big = httpx.post(
        live.http + "/api/replay", content=b" " * (9 << 20), headers={"content-type": "x"}
    )
    assert big.status_code == 413


def test_games_over_and_results_per_account(live: LiveServer) -> None:
    token = live.register("ann")
    table = play_numeron_to_end(live, token)
    first = play_numeron_to_end(live, token)
    over = httpx.get(live.http + "/api/games-over").json()
    assert [g["id"] for g in over["games"]] == [first, table] and over["next"] is None
    game = over["games"][1]
    assert game["players"][0] == "ann" and game["outcome"]["ranks"]
    assert game["status"] == "finished"
    page = httpx.get(live.http + "/api/games-over", params={"limit": 1}).json()
    assert [g["id"] for g in page["games"]] == [first] and page["next"] == 1
    rest = httpx.get(live.http + "/api/games-over", params={"limit": 1, "offset": 1}).json()
    assert [g["id"] for g in rest["games"]] == [table] and rest["next"] is None
    none = httpx.get(live.http + "/api/games-over", params={"game": "daifugo"}).json()
    assert none == {"games": [], "next": None}
    assert httpx.get(live.http + "/api/games-over", params={"limit": 0}).status_code == 400
    assert httpx.get(live.http + "/api/games-over", params={"limit": "x"}).status_code == 400
    board = httpx.get(live.http + "/api/results/numeron").json()
    [row] = board["rows"]
    history = httpx.get(live.http + "/api/accounts/ann").json()["history"]
    assert row["name"] == "ann" and row["games"] == 2
    assert row["wins"] == sum(1 for h in history if h["result"] == "win")
    assert row["mean_score"] == sum(h["score"] for h in history) / 2
    assert httpx.get(live.http + "/api/results/nope").status_code == 404


def test_an_aborted_game_is_listed_and_replays(live: LiveServer) -> None:
    """Table status `aborted`: the game is over, its record published."""
    ws = live.connect(live.register("ann"))
    ben = live.connect(live.register("ben"))
    made = ws.request({"type": "create_table", "game": "numeron", "seats": ["me", "open"]})
    table = str(made["table"]["id"])  # type: ignore[index]
    ben.request({"type": "join", "table": table})
    ws.wait_for("turn", table=table)
    ended = ws.request({"type": "abort", "table": table})  # before anyone's first move
    assert ended["type"] == "event" and ended["reason"] == "abort", ended
    ws.wait_for("end", table=table)
    ben.close()
    over = httpx.get(live.http + "/api/games-over").json()["games"]
    assert [(g["id"], g["status"]) for g in over] == [(table, "aborted")]
    replay = httpx.get(f"{live.http}/api/tables/{table}/replay").json()
    last = replay["frames"][-1]
    assert last["step"]["kind"] == "end" and last["step"]["reason"] == "abort"
    ws.close()


def test_a_replay_shows_each_reader_only_the_talk_the_record_gives_them(
    live: LiveServer,
) -> None:
    """Records are filtered per reader (docs/security.md): a team line is `[private]` in every
    frame a stranger replays, even as that team's seat; the speaker reads it."""
    token = live.register("ann")
    ws = live.connect(token)
    made = ws.request(
        {
            "type": "create_table",
            "game": "smuggling",
            "rules": quick_rules("smuggling"),
            "seats": ["me", "bot:random"],
        }
    )
    table = str(made["table"]["id"])  # type: ignore[index]
    turn = ws.wait_for("turn", table=table)
    team = next(c for c in turn["channels"] if c.startswith("team:"))  # type: ignore[attr-defined]
    for channel, text in ((team, "our secret plan"), ("public", "hello all")):
        assert ws.request({"type": "talk", "table": table, "channel": channel, "text": text})
    assert ws.request({"type": "resign", "table": table})["type"] == "event"
    ws.close()
    url = f"{live.http}/api/tables/{table}/replay"
    for seat in ("spectator", "0", "1"):
        stranger = httpx.get(url, params={"seat": seat, "reveal": 1}).json()
        assert stranger["audience"] == "spectators"
        text = json.dumps(stranger)
        assert "our secret plan" not in text and "hello all" in text, seat
    ann = httpx.get(url, params={"seat": 0}, headers={"authorization": f"Bearer {token}"}).json()
    assert ann["audience"] == "seat 0" and "our secret plan" in json.dumps(ann)
    signed = httpx.post(
        live.http + "/api/session", json={"token": token}, headers={"origin": live.http}
    )
    secret = signed.cookies["dennou_session"]
    cookie = {"cookie": f"dennou_session={secret}", "origin": live.http}
    assert httpx.get(url, params={"seat": 0}, headers=cookie).json()["audience"] == "seat 0"
    # a cookie from another site's page is not the reader
    foreign = {"cookie": f"dennou_session={secret}", "origin": "http://evil.example"}
    assert httpx.get(url, headers=foreign).json()["audience"] == "spectators"


def test_reveal_lists_what_each_seat_saw_that_a_spectator_did_not(live: LiveServer) -> None:
    """Every hand is revealed once the game is over."""
    token = live.register("ann")
    table = play_numeron_to_end(live, token)
    url = f"{live.http}/api/tables/{table}/replay"
    steps = httpx.get(url, params={"count": 1}).json()["steps"]
    window = {"from": steps - 3, "count": 2}  # before the end: numbers still hidden live
    plain = httpx.get(url, params=window).json()
    assert all(f["hidden"] is None for f in plain["frames"])
    shown = httpx.get(url, params={**window, "reveal": 1}).json()
    for frame in shown["frames"]:
        hidden = frame["hidden"]
        assert len(hidden) == 2 and hidden[0]["my_number"] == "012"
        assert "my_number" not in frame["view"] and "log" not in hidden[0]
    assert httpx.get(url, params={"reveal": "yes"}).status_code == 400


def test_the_status_page_moved_to_status(live: LiveServer) -> None:
    page = httpx.get(live.http + "/status")
    assert page.status_code == 200 and "dennou" in page.text


def test_ws_helper_still_works_for_plain_clients(live: LiveServer) -> None:
    ws = WS(live.ws_url)
    assert ws.request({"type": "hello", "token": None}).get("account") is None
    ws.close()


def test_every_static_file_ships_as_package_data() -> None:
    """The README's install has nothing to build: pyproject's package data covers static/."""
    import fnmatch
    import tomllib

    root = Path(__file__).resolve().parents[2]
    config = tomllib.loads((root / "pyproject.toml").read_text(encoding="utf-8"))
    patterns = config["tool"]["setuptools"]["package-data"]["dennou.web"]
    files = [p.relative_to(STATIC.parent).as_posix() for p in STATIC.rglob("*") if p.is_file()]
    assert len(files) > 20
    for name in files:
        assert any(fnmatch.fnmatch(name, pattern) for pattern in patterns), name


def test_the_web_api_is_in_the_api_index_openapi_and_docs(live: LiveServer) -> None:
    """The web app's routes are declared like the lobby's (docs/protocol.md §6)."""
    index = {(e["method"], e["path"]) for e in httpx.get(live.http + "/api").json()["endpoints"]}
    for route in [
        ("GET", "/api/session"),
        ("POST", "/api/session"),
        ("DELETE", "/api/session"),
        ("GET", "/api/tables/{table}/replay"),
        ("POST", "/api/replay"),
        ("GET", "/api/games-over"),
        ("GET", "/api/results/{game}"),
        ("GET", "/api/players/{name}/ratings"),
        ("GET", "/api/ratings"),
        ("GET", "/api/games"),
    ]:
        assert route in index, route
    spec = httpx.get(live.http + "/openapi.json").json()
    assert spec["components"]["securitySchemes"]["session"]["in"] == "cookie"
    replay = spec["paths"]["/api/tables/{table}/replay"]["get"]
    assert {"session": []} in replay["security"] and {} in replay["security"]
    assert {q["name"] for q in replay["parameters"]} >= {"table", "seat", "from", "reveal"}


def test_docs_and_status_get_only_the_inline_styles_they_need(live: LiveServer) -> None:
    for path in ("/docs", "/status"):
        csp = httpx.get(live.http + path).headers["content-security-policy"]
        assert "'unsafe-inline'" in csp.split("style-src", 1)[1].split(";")[0], path
        script = csp.split("script-src", 1)[1].split(";")[0]
        assert "unsafe" not in script and "frame-ancestors 'none'" in csp, path
    api = httpx.get(live.http + "/api/games").headers["content-security-policy"]
    assert "unsafe-inline" not in api


def test_a_players_rating_chart_has_a_point_per_rated_game_and_tables_show_seat_ratings(
    live: LiveServer,
) -> None:
    """Rated games move the leaderboard once each; the chart keeps every move (protocol §6)."""
    import time

    token = live.register("ann")
    tables = [play_numeron_to_end(live, token) for _ in range(2)]
    deadline = time.monotonic() + 30
    points: list[dict[str, object]] = []
    while time.monotonic() < deadline:  # the host rates finished tables in the background
        points = httpx.get(live.http + "/api/players/ann/ratings").json()["points"]
        if len(points) == 2:
            break
        time.sleep(0.2)
    assert [p["table_id"] for p in points] == tables
    assert [p["games"] for p in points] == [1, 2] and {p["game"] for p in points} == {"numeron"}
    board = httpx.get(live.http + "/api/leaderboard/numeron").json()
    [now] = [r for b in board["boards"] for r in b["ratings"] if r["name"] == "ann"]
    assert (now["mu"], now["sigma"]) == (points[-1]["mu"], points[-1]["sigma"])
    bot = httpx.get(live.http + "/api/players/bot:random/ratings").json()["points"]
    assert [p["games"] for p in bot] == [1, 2]
    seats = httpx.get(live.http + "/api/ratings", params={"tables": f"{tables[0]},nope"}).json()
    [(table, rows)] = seats["tables"].items()
    assert table == tables[0]
    assert [(r["seat"], r["name"], r["games"]) for r in rows] == [(0, "ann", 2), (1, "random", 2)]
    assert rows[0]["ordinal"] == now["mu"] - 3 * now["sigma"]
    assert httpx.get(live.http + "/api/ratings").status_code == 400
    many = ",".join(f"t{i}" for i in range(201))
    assert httpx.get(live.http + "/api/ratings", params={"tables": many}).status_code == 400
    assert httpx.get(live.http + "/api/players/nobody/ratings").json() == {
        "name": "nobody",
        "points": [],
    }
