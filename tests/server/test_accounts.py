"""Per-player history and the per-game accounts (口座) hook, with a toy game that uses it."""

from __future__ import annotations

import asyncio
import json
import re
import time
from collections.abc import Iterator, Mapping, Sequence
from contextlib import closing
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import httpx
import pytest

from dennou.client import Client, run_bot
from dennou.core.actions import Action, ActionCodec
from dennou.core.bot import RandomBot
from dennou.core.errors import IllegalActionError, NotYourTurnError
from dennou.core.game import HOST_ACCOUNTS, JSON, Event, Game, GameSpec, Outcome, Rules, Seat
from dennou.core.registry import Registry
from dennou.server.testing import LiveServer, ServerProcess


class Bet(Action, frozen=True, tag="bet"):
    amount: int


class PotRules(Rules, frozen=True):
    balances: tuple[int, ...] = (100, 100)


@dataclass(frozen=True)
class PotState:
    rules: PotRules
    players: tuple[str, ...]
    bets: tuple[int | None, ...] = (None, None)


class Pot(Game[PotState, PotRules]):
    """Both bet (sealed) up to their balance; the higher bet takes the lower one."""

    spec = GameSpec("pot", "Pot", 1, 2, 2, simultaneous=True)
    rules_type = PotRules
    codec = ActionCodec(Bet)

    def host_accounts_in(
        self, rules: dict[str, Any], accounts: Sequence[Mapping[str, Any] | None]
    ) -> dict[str, Any]:
        return {**rules, "balances": [(a or {}).get("balance", 100) for a in accounts]}

    def new(self, rules: PotRules, players: Sequence[str]) -> PotState:
        self.check_players(players)
        return PotState(rules, tuple(players))

    def to_act(self, state: PotState) -> frozenset[Seat]:
        return frozenset(i for i, b in enumerate(state.bets) if b is None)

    def legal_actions(self, state: PotState, seat: Seat) -> Sequence[Action]:
        if seat not in self.to_act(state):
            return []
        return [Bet(a) for a in range(0, state.rules.balances[seat] + 1, 10)]

    def apply(self, state: PotState, seat: Seat, action: Action) -> tuple[PotState, list[Event]]:
        if seat not in self.to_act(state):
            raise NotYourTurnError("not your turn")
        if action not in self.legal_actions(state, seat):
            raise IllegalActionError("bet a multiple of 10 up to your balance")
        assert isinstance(action, Bet)
        bets = list(state.bets)
        bets[seat] = action.amount
        return replace(state, bets=tuple(bets)), [
            Event("bet", f"seat {seat} bet", audience=frozenset({seat}))
        ]

    def apply_default(self, state: PotState, seat: Seat) -> tuple[PotState, list[Event]]:
        return self.apply(state, seat, Bet(0))

    def view(self, state: PotState, seat: Seat | None) -> JSON:
        over = not self.to_act(state)
        return {
            "game": "pot",
            "rules": {"balances": list(state.rules.balances)},
            "players": list(state.players),
            "seat": seat,
            "bets": [b if over or i == seat else None for i, b in enumerate(state.bets)],
        }

    def outcome(self, state: PotState) -> Outcome:
        a, b = state.bets
        assert a is not None and b is not None
        balances = list(state.rules.balances)
        if a != b:
            win, lose = (0, 1) if a > b else (1, 0)
            stake = min(a, b)
            balances[win] += stake
            balances[lose] -= stake
        return Outcome.from_scores(
            [float(x) for x in balances], detail={HOST_ACCOUNTS: [{"balance": x} for x in balances]}
        )


POT = Pot()


def test_accounts_persist_across_games_and_history_is_kept(tmp_path: Path) -> None:
    games = Registry({"numeron": "dennou.games.numeron:GAME", "pot": f"{__name__}:POT"})
    live = LiveServer(tmp_path / "data", games=games)
    try:
        tokens = [live.register("ann"), live.register("ben")]
        balances_seen = []
        for round_ in range(3):

            async def one(r: int = round_) -> list[Any]:
                async with await Client.open(live.ws_url, tokens[0]) as client:
                    info = await client.create_table("pot", ["open", "open"], rated=True)
                bots = [
                    run_bot(
                        RandomBot(),
                        live.ws_url,
                        tokens[i],
                        table=info["id"],
                        seed=r * 2 + i,
                        games=games,
                    )
                    for i in (0, 1)
                ]
                return list(await asyncio.gather(*bots))

            results = asyncio.run(one())
            table = httpx.get(f"{live.http}/api/tables/{results[0].table}").json()
            balances_seen.append(table["rules"]["balances"])
            # ann and ben race for the two open seats: each result says which seat its bot got
            scores = results[0].outcome["scores"]
            final = [scores[results[0].seat], scores[results[1].seat]]
            ann = httpx.get(f"{live.http}/api/accounts/ann").json()
            ben = httpx.get(f"{live.http}/api/accounts/ben").json()
            assert [ann["accounts"]["pot"]["balance"], ben["accounts"]["pot"]["balance"]] == final
            assert len(ann["history"]) == round_ + 1
            # when a game ended reads as ISO 8601 in UTC, to the second
            ended = ann["history"][0]["finished_at"]
            assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ", ended), ended
            moment = datetime.strptime(ended, "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=UTC)
            assert abs(moment.timestamp() - time.time()) < 120
        assert balances_seen[0] == [100, 100]
        for balances in balances_seen:
            assert sum(balances) == 200  # money moves between the accounts, never appears
    finally:
        live.stop()


# --- names, passwords, sessions and API tokens ------------------------------------------------
@pytest.fixture
def live(tmp_path: Path) -> Iterator[LiveServer]:
    server = LiveServer(tmp_path / "data")
    yield server
    server.stop()


def _signed_in(live: LiveServer, name: str, password: str, *, register: bool) -> httpx.Client:
    """A browser-like client (its own cookie jar, this server's Origin) signed in."""
    client = httpx.Client(base_url=live.http, headers={"origin": live.http}, timeout=30)
    body = {"name": name, "password": password, "register": register}
    reply = client.post("/api/session", json=body)
    assert reply.status_code == 201, reply.text
    return client


def _hello_with_cookie(live: LiveServer, secret: str) -> dict[str, Any]:
    from websockets.sync.client import connect

    headers = {"cookie": f"dennou_session={secret}", "origin": live.http}
    with connect(live.ws_url, additional_headers=headers) as ws:
        ws.send(json.dumps({"type": "hello", "protocol": 1, "token": None, "id": 1}))
        return dict(json.loads(ws.recv(10)))


def test_unicode_names_are_accepted_normalised_and_confusables_refused(
    live: LiveServer,
) -> None:
    def post(name: str) -> httpx.Response:
        return httpx.post(f"{live.http}/api/accounts", json={"name": name}, timeout=10)

    made = post("ボブ")
    assert made.status_code == 201 and made.json()["name"] == "ボブ"
    assert post("ﾎﾞﾌﾞ").status_code == 409  # half-width katakana: NFKC makes it ボブ
    assert post("山田-たろう_タロウ.2").status_code == 201  # Japanese mixes its scripts
    assert post("Ölçü").json()["name"] == "Ölçü"
    assert post("ape").status_code == 201
    twin = post("аре")  # Cyrillic а, р, е: the same skeleton as Latin "ape"
    assert twin.status_code == 409 and twin.json()["code"] == "conflict"
    assert post("ll").status_code == 201
    assert post("Il").status_code == 409  # capital I next to l
    for bad in (
        "\u0430lice",  # Cyrillic а among Latin letters
        "bob\u202e",  # a bidirectional override
        "bo\u200db",  # a zero-width joiner
        "bo b",
        "bob\x00",
        "\u0301bob",  # a combining mark with no letter
        "uecda:bob",  # the UECda port's seats
        "admin",
        "ADMIN",
        "x" * 33,
        "",
    ):
        reply = post(bad)
        assert reply.status_code == 400 and reply.json()["code"] == "bad_message", bad
    assert httpx.get(f"{live.http}/api/accounts/ボブ").status_code == 200


def test_a_program_account_gets_its_first_token_once_and_may_set_a_password_later(
    live: LiveServer,
) -> None:
    made = httpx.post(f"{live.http}/api/accounts", json={"name": "prog"}, timeout=10).json()
    bearer = {"authorization": f"Bearer {made['token']}"}
    me = httpx.get(f"{live.http}/api/me", headers=bearer).json()
    assert me == {"name": "prog", "has_password": False}
    # no password yet: signing in with one fails like a wrong password
    with httpx.Client(base_url=live.http, headers={"origin": live.http}) as browser:
        body = {"name": "prog", "password": "long enough"}
        assert browser.post("/api/session", json=body).status_code == 401
    short = httpx.post(f"{live.http}/api/me/password", json={"password": "short"}, headers=bearer)
    assert short.status_code == 400
    done = httpx.post(
        f"{live.http}/api/me/password", json={"password": "long enough"}, headers=bearer
    )
    assert done.status_code == 200 and done.json()["has_password"] is True
    # changing it again needs the current one
    again = {"password": "another one"}
    assert httpx.post(f"{live.http}/api/me/password", json=again, headers=bearer).status_code == 401
    with closing(_signed_in(live, "PROG", "long enough", register=False)) as browser:  # any case
        assert browser.get("/api/session").json() == {"name": "prog"}
    # a password at creation: the first token is still there for the program
    both = httpx.post(
        f"{live.http}/api/accounts", json={"name": "prog2", "password": "pass phrase"}
    ).json()
    assert both["token"] and both["name"] == "prog2"
    _signed_in(live, "prog2", "pass phrase", register=False).close()


def test_signing_out_ends_the_session_on_the_server_and_the_account_signs_in_again(
    live: LiveServer,
) -> None:
    client = _signed_in(live, "ann", "correct horse", register=True)
    secret = client.cookies.get("dennou_session")
    assert secret
    assert _hello_with_cookie(live, secret).get("account") == "ann"
    # the cookie is a session, not an API token
    as_bearer = httpx.get(f"{live.http}/api/me", headers={"authorization": f"Bearer {secret}"})
    assert as_bearer.status_code == 401
    assert client.delete("/api/session").status_code == 200
    # the old secret is dead on the server, even where a copy of the cookie survives
    stale = httpx.get(
        f"{live.http}/api/session",
        headers={"origin": live.http, "cookie": f"dennou_session={secret}"},
    )
    assert stale.json() == {"name": None}
    assert _hello_with_cookie(live, secret).get("account") is None
    wrong = client.post("/api/session", json={"name": "ann", "password": "wrong horse"})
    assert wrong.status_code == 401 and "set-cookie" not in wrong.headers
    again = client.post("/api/session", json={"name": "ann", "password": "correct horse"})
    assert again.status_code == 201 and again.json() == {"name": "ann"}
    assert client.cookies.get("dennou_session") not in (None, secret)
    assert client.get("/api/session").json() == {"name": "ann"}
    client.close()


def test_api_tokens_are_named_listed_without_their_secret_and_revoked_by_their_owner_only(
    live: LiveServer,
) -> None:
    ann = _signed_in(live, "ann", "correct horse", register=True)
    ben_token = live.register("ben")
    made = ann.post("/api/me/tokens", json={"name": "my bot"})
    assert made.status_code == 201
    token = made.json()["token"]
    bearer = {"authorization": f"Bearer {token}"}
    assert httpx.get(f"{live.http}/api/me", headers=bearer).json()["name"] == "ann"
    listed = ann.get("/api/me/tokens").json()["tokens"]
    assert [t["name"] for t in listed] == ["my bot"]
    assert listed[0]["last_used_at"] is not None and "token" not in listed[0]
    assert token not in ann.get("/api/me/tokens").text
    token_id = listed[0]["id"]
    # ben cannot see or revoke ann's token; nor can another site, with ann's cookie
    ben = {"authorization": f"Bearer {ben_token}"}
    assert httpx.get(f"{live.http}/api/me/tokens", headers=ben).json()["tokens"][0]["name"] == (
        "first token"
    )
    gone = httpx.delete(f"{live.http}/api/me/tokens/{token_id}", headers=ben)
    assert gone.status_code == 404
    evil = ann.delete(f"/api/me/tokens/{token_id}", headers={"origin": "http://evil.example"})
    assert evil.status_code == 403
    evil_make = ann.post(
        "/api/me/tokens", json={"name": "x"}, headers={"origin": "http://evil.example"}
    )
    assert evil_make.status_code == 403
    assert httpx.get(f"{live.http}/api/me", headers=bearer).status_code == 200
    # ann revokes it: it stops working at once
    assert ann.delete(f"/api/me/tokens/{token_id}").json() == {"tokens": []}
    assert httpx.get(f"{live.http}/api/me", headers=bearer).status_code == 401
    assert live.connect().request({"type": "hello", "token": token})["code"] == "unauthorized"
    assert ann.post("/api/me/tokens", json={"name": "\u202e"}).status_code == 400
    ann.close()


def test_sign_in_attempts_are_limited_per_address_and_per_account(tmp_path: Path) -> None:
    live = LiveServer(
        tmp_path / "data", limits={"sign_in_per_address": 4, "sign_in_failures_per_account": 2}
    )
    try:
        with closing(_signed_in(live, "ann", "correct horse", register=True)) as browser:
            wrong = {"name": "ann", "password": "wrong horse"}
            assert [browser.post("/api/session", json=wrong).status_code for _ in range(3)] == [
                401,
                401,
                429,  # the account's failures: even the right password waits now
            ]
            right = {"name": "ann", "password": "correct horse"}
            assert browser.post("/api/session", json=right).status_code == 429
            other = {"name": "nobody", "password": "whatever1"}
            assert browser.post("/api/session", json=other).status_code == 429  # the address
    finally:
        live.stop()


def test_passwords_are_bounded_and_stored_only_as_argon2id_hashes(live: LiveServer) -> None:
    url = f"{live.http}/api/accounts"
    assert httpx.post(url, json={"name": "a1", "password": "x" * 7}).status_code == 400
    assert httpx.post(url, json={"name": "a2", "password": "x" * 257}).status_code == 400
    assert httpx.post(url, json={"name": "a3", "password": "a3"}).status_code == 400
    assert httpx.post(url, json={"name": "ann", "password": "correct horse"}).status_code == 201
    stored = live.call(lambda hub: hub.store.call(hub.store.store.account_by_key, "ann"))
    assert stored is not None and stored[1] is not None
    assert stored[1].startswith("$argon2id$") and "correct horse" not in stored[1]


def test_secure_cookies_mark_the_session_cookie_secure_and_send_hsts(tmp_path: Path) -> None:
    plain = ServerProcess(tmp_path / "plain")
    secure = ServerProcess(tmp_path / "secure", args=["--secure-cookies"])
    try:
        for server in (plain, secure):
            server.start()
            reply = httpx.post(
                f"{server.http}/api/session",
                json={"name": "ann", "password": "correct horse", "register": True},
                headers={"origin": server.http},
                timeout=30,
            )
            assert reply.status_code == 201, reply.text
            cookie = reply.headers["set-cookie"].lower()
            assert "httponly" in cookie and "samesite=strict" in cookie
            hsts = httpx.get(server.http + "/").headers.get("strict-transport-security")
            if server is secure:
                assert "; secure" in cookie and hsts == "max-age=31536000"
            else:
                assert "secure" not in cookie and hsts is None
    finally:
        plain.stop()
        secure.stop()
