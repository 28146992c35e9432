"""Reports of talk to the operators: a person reports a line they could read, only operators
read and resolve reports (docs/protocol.md section 6; docs/security.md, "Talk").
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from dennou.server.testing import WS, LiveServer

OPERATOR = "olga"


@pytest.fixture
def live(tmp_path: Path) -> Iterator[LiveServer]:
    server = LiveServer(
        tmp_path / "data",
        rate=1000.0,
        burst=2000.0,
        operators=(OPERATOR,),
        limits={"reports_per_account": 2},
    )
    yield server
    server.stop()


def bearer(token: str) -> dict[str, str]:
    return {"authorization": f"Bearer {token}"}


def said(ws: WS, table: str, channel: str, text: str) -> int:
    """Say a line; returns the table version it came at (the answer is the line's event)."""
    event = ws.request({"type": "talk", "table": table, "channel": channel, "text": text})
    assert event["step"] == "talk", event
    return int(str(event["version"]))


def test_a_reported_line_reaches_only_the_operators_who_resolve_it(live: LiveServer) -> None:
    tokens = {name: live.register(name) for name in ("ann", "ben", "cat", OPERATOR)}
    ann, ben = live.connect(tokens["ann"]), live.connect(tokens["ben"])
    made = ann.request(
        {
            "type": "create_table",
            "game": "smuggling",
            "seats": ["me", "open", "open", "open"],
        }
    )
    table = str(made["table"]["id"])  # type: ignore[index]
    for seat, ws in ((1, ben),):
        ws.request({"type": "join", "table": table, "seat": seat})
    cat = live.connect(tokens["cat"])
    cat.request({"type": "join", "table": table, "seat": 2})
    olga = live.connect(tokens[OPERATOR])
    olga.request({"type": "join", "table": table, "seat": 3})
    ann.drain()
    public = said(ben, table, "public", "you are all <b>fools</b>")
    url = f"{live.http}/api/tables/{table}/reports"

    # ann reports ben's public line; the report keeps the words as ann read them
    reply = httpx.post(
        url, json={"version": public, "reason": "rude"}, headers=bearer(tokens["ann"])
    )
    assert reply.status_code == 201, reply.text
    report = reply.json()
    assert (report["talker"], report["text"], report["channel"]) == (
        "ben",
        "you are all <b>fools</b>",
        "public",
    )
    # once per line and reporter; never one's own line; never a version that is no line
    again = httpx.post(url, json={"version": public}, headers=bearer(tokens["ann"]))
    assert again.status_code == 409
    own = httpx.post(url, json={"version": public}, headers=bearer(tokens["ben"]))
    assert own.status_code == 400
    nothing = httpx.post(url, json={"version": public + 1000}, headers=bearer(tokens["cat"]))
    assert nothing.status_code == 404
    assert httpx.post(url, json={"version": public}).status_code == 401
    assert httpx.post(url, json={"version": 0}, headers=bearer(tokens["cat"])).status_code == 400

    # only operators read and resolve reports
    assert httpx.get(f"{live.http}/api/reports", headers=bearer(tokens["ann"])).status_code == 403
    assert httpx.get(f"{live.http}/api/reports").status_code == 401
    listed = httpx.get(f"{live.http}/api/reports", headers=bearer(tokens[OPERATOR])).json()
    assert [r["id"] for r in listed["reports"]] == [report["id"]]
    resolve = f"{live.http}/api/reports/{report['id']}"
    forbidden = httpx.post(resolve, json={"resolution": "dismissed"}, headers=bearer(tokens["ann"]))
    assert forbidden.status_code == 403
    done = httpx.post(resolve, json={"resolution": "warned"}, headers=bearer(tokens[OPERATOR]))
    assert done.status_code == 200 and done.json()["resolved_by"] == OPERATOR
    assert httpx.get(f"{live.http}/api/reports", headers=bearer(tokens[OPERATOR])).json() == {
        "reports": []
    }
    old = httpx.get(
        f"{live.http}/api/reports", params={"resolved": 1}, headers=bearer(tokens[OPERATOR])
    ).json()
    assert [r["resolution"] for r in old["reports"]] == ["warned"]
    missing = httpx.post(
        f"{live.http}/api/reports/999",
        json={"resolution": "warned"},
        headers=bearer(tokens[OPERATOR]),
    )
    assert missing.status_code == 404
    for ws in (ann, ben, cat, olga):
        ws.close()


def test_a_private_line_cannot_be_reported_by_one_who_never_read_it(live: LiveServer) -> None:
    """A team line is the team's: the other team's reports find no line there."""
    tokens = {name: live.register(name) for name in ("ann", "ben", "cat", "dan")}
    conns = {name: live.connect(token) for name, token in tokens.items()}
    made = conns["ann"].request(
        {"type": "create_table", "game": "smuggling", "seats": ["me", "open", "open", "open"]}
    )
    table = str(made["table"]["id"])  # type: ignore[index]
    for seat, name in enumerate(("ben", "cat", "dan"), 1):
        conns[name].request({"type": "join", "table": table, "seat": seat})
    conns["ann"].drain()
    view = conns["ann"].request({"type": "get_view", "table": table})
    team = next(c for c in view["channels"] if str(c).startswith("team:"))  # type: ignore[attr-defined]
    version = said(conns["ann"], table, str(team), "just between us")
    url = f"{live.http}/api/tables/{table}/reports"
    answers = {
        name: httpx.post(url, json={"version": version}, headers=bearer(tokens[name])).status_code
        for name in ("ben", "cat", "dan")
    }
    # the teammate read it and may report it; the other team never read it: no line for them
    assert sorted(answers.values()) == [201, 404, 404], answers
    # an account's open reports are bounded (reports_per_account is 2 here)
    line = said(conns["ben"], table, "public", "one")
    assert httpx.post(url, json={"version": line}, headers=bearer(tokens["cat"])).status_code == 201
    line = said(conns["ben"], table, "public", "two")
    assert httpx.post(url, json={"version": line}, headers=bearer(tokens["cat"])).status_code == 201
    line = said(conns["ben"], table, "public", "three")
    over = httpx.post(url, json={"version": line}, headers=bearer(tokens["cat"]))
    assert over.status_code == 429
    for ws in conns.values():
        ws.close()
