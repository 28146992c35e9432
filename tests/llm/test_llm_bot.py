"""The ``llm`` bot against a loopback endpoint that answers by the schema or misbehaves."""

from __future__ import annotations

import json
import socket
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from dennou.arena.bots import make_bot, resolve_bot
from dennou.arena.entrants import check_entrant, parse_entrants
from dennou.arena.llm import (
    LOG_ENV,
    LLMBot,
    declare_model,
    forget_models,
    parse_declaration,
    parse_llm_spec,
)
from dennou.arena.play import play
from dennou.core.errors import ConfigError
from dennou.core.game import Event, Game
from dennou.core.record import Record
from dennou.games import get

from .fakeserver import FakeEndpoint


@pytest.fixture
def endpoint() -> Iterator[FakeEndpoint]:
    fake = FakeEndpoint("first")
    yield fake
    fake.close()


def _closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _llm(game: Game[Any, Any], url: str, extra: str = "") -> Any:
    return make_bot(game, f"llm:base_url={url}:model=fake{extra}")


def _numeron(bot: Any, seed: int = 1, time_limit: float = 10.0) -> Record:
    game = get("numeron")
    return play(game, None, [bot, make_bot(game, "random")], seed, time_limit=time_limit)


def _llm_steps(record: Record) -> list[Any]:
    return [s for s in record.steps if s.seat == 0 and s.talk is None]


def test_a_spec_takes_a_url_with_colons_and_checks_its_options() -> None:
    options = parse_llm_spec("llm:base_url=http://127.0.0.1:8080/v1:model=m:temperature=0.2")
    assert options == {"base_url": "http://127.0.0.1:8080/v1", "model": "m", "temperature": "0.2"}
    game = get("numeron")
    bot = make_bot(game, "llm:base_url=http://127.0.0.1:8080/v1:lang=ja:talk=false")
    assert isinstance(bot, LLMBot) and bot.lang == "ja" and not bot.talk and bot.game is game
    with pytest.raises(ConfigError, match="temperature"):
        make_bot(game, "llm:temperature=9")
    with pytest.raises(ConfigError, match="api_key_env"):
        make_bot(game, "llm:api_key_env=$(rm)")
    [entrant] = parse_entrants("llm:base_url=http://127.0.0.1:1/v1")
    check_entrant(game, entrant)
    with pytest.raises(ConfigError, match="declared"):
        check_entrant(game, entrant, remote_ok=True)


def test_a_host_refuses_an_undeclared_model_and_seats_a_declared_one_with_seat_options() -> None:
    game = get("numeron")
    with pytest.raises(ConfigError, match="declared"):
        resolve_bot(game, "llm:base_url=http://10.0.0.1/v1")
    name, options = parse_declaration("tiny=http://127.0.0.1:9/v1,model=m,key_env=TINY_KEY")
    assert name == "tiny"
    assert options == {"base_url": "http://127.0.0.1:9/v1", "model": "m", "api_key_env": "TINY_KEY"}
    declare_model(name, options)
    try:
        factory, kwargs = resolve_bot(game, "tiny:lang=ja")
        assert factory is LLMBot and kwargs["base_url"] == "http://127.0.0.1:9/v1"
        assert kwargs["lang"] == "ja"
        with pytest.raises(ConfigError, match="operator"):
            resolve_bot(game, "tiny:model=other")
    finally:
        forget_models()
    with pytest.raises(ConfigError, match="URL"):
        parse_declaration("tiny=ftp://x")


def test_a_model_that_answers_by_the_schema_plays_without_defaults(
    endpoint: FakeEndpoint, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    log = tmp_path / "llm.jsonl"
    monkeypatch.setenv(LOG_ENV, str(log))
    bot = _llm(get("numeron"), endpoint.base_url)
    record = _numeron(bot)
    assert record.outcome is not None
    steps = _llm_steps(record)
    assert steps and all(s.default is None for s in steps), [s.note for s in steps]
    entries = [json.loads(line) for line in log.read_text().splitlines()]
    assert len(entries) == len(endpoint.requests) and entries[0]["reply"]
    assert all("OPENAI_API_KEY" not in line for line in log.read_text().splitlines())
    assert bot.stats.exchanges and bot.stats.exchanges[0].completion_tokens == 5


def test_an_endpoint_without_json_schema_gets_the_schema_as_a_json_object() -> None:
    fake = FakeEndpoint("first", json_schema=False)
    try:
        record = _numeron(_llm(get("numeron"), fake.base_url))
    finally:
        fake.close()
    assert all(s.default is None for s in _llm_steps(record))
    kinds = [r["response_format"]["type"] for r in fake.requests]
    assert kinds[0] == "json_schema" and set(kinds[1:]) == {"json_object"}


def test_a_malformed_reply_is_a_recorded_default_and_the_game_goes_on() -> None:
    fake = FakeEndpoint("garbage")
    try:
        record = _numeron(_llm(get("numeron"), fake.base_url, ":retries=1"))
    finally:
        fake.close()
    assert record.outcome is not None
    steps = _llm_steps(record)
    assert steps and all(s.default == "error" and "not JSON" in (s.note or "") for s in steps)
    assert len(fake.requests) == 2 * len(steps)  # one retry each, within the clock


def test_an_unreachable_endpoint_is_a_recorded_default() -> None:
    url = f"http://127.0.0.1:{_closed_port()}/v1"
    record = _numeron(_llm(get("numeron"), url))
    assert record.outcome is not None
    steps = _llm_steps(record)
    assert steps and all(s.default == "error" for s in steps)
    assert all("endpoint failed" in (s.note or "") for s in steps)


def test_a_slow_endpoint_is_defaulted_by_the_seats_clock_not_after_it() -> None:
    fake = FakeEndpoint("slow", sleep=5.0)
    limit = 1.0
    try:
        started = time.monotonic()
        record = _numeron(_llm(get("numeron"), fake.base_url), time_limit=limit)
        spent = time.monotonic() - started
    finally:
        fake.close()
    steps = _llm_steps(record)
    assert steps and all(s.default is not None for s in steps)
    assert all((s.ms or 0) < limit * 1000 + 500 for s in steps), [s.ms for s in steps]
    assert "endpoint failed" in (steps[0].note or "")
    assert spent < len(steps) * (limit + 1.0) + 30


def test_the_model_talks_only_in_channels_open_to_its_seat() -> None:
    fake = FakeEndpoint("first", stray="team:nowhere")
    game = get("smuggling")
    rules = game.make_rules({"team_size": 1, "small_games": 2})
    try:
        bots = [_llm(game, fake.base_url), make_bot(game, "random")]
        record = play(game, rules, bots, 3, time_limit=10)
    finally:
        fake.close()
    offered: set[str] = set()
    for request in fake.requests:
        say = request["response_format"]["json_schema"]["schema"]["properties"].get("say")
        if say is not None:
            offered |= set(say["items"]["properties"]["channel"]["enum"])
    said = [s.talk for s in record.steps if s.talk is not None and s.seat == 0]
    assert said and {t.channel for t in said} <= offered
    assert "team:nowhere" not in offered and all(t.text != "stray line" for t in said)
    assert "team:south" not in offered  # seat 0 plays for the north


class _Marked(type(get("numeron"))):  # type: ignore[misc]
    """Numeron with a marker in each seat's hidden state: its view and a private event."""

    def view(self, state: Any, seat: int | None) -> Any:
        out = dict(super().view(state, seat))
        if seat is not None:
            out["marker"] = f"HIDDEN-MARKER-{seat}"
        return out

    def apply(self, state: Any, seat: int, action: Any) -> Any:
        new, events = super().apply(state, seat, action)
        private = [Event("note", f"HIDDEN-MARKER-{s}", audience=frozenset({s})) for s in (0, 1)]
        return new, [*events, *private]


def test_no_prompt_holds_another_seats_hidden_information(endpoint: FakeEndpoint) -> None:
    base = get("numeron")
    game = _Marked(views=type(base.views), bots=dict(base.bots()))
    bots = [_llm(game, endpoint.base_url), _llm(game, endpoint.base_url)]
    for bot in bots:
        bot.bind_game(game)
    record = play(game, None, bots, 2, time_limit=10)
    assert record.outcome is not None
    mine = {0: 0, 1: 0}
    for request in endpoint.requests:
        text = "\n".join(m["content"] for m in request["messages"])
        seat = 0 if "seat 0" in request["messages"][0]["content"] else 1
        assert f"HIDDEN-MARKER-{1 - seat}" not in text
        mine[seat] += f"HIDDEN-MARKER-{seat}" in text
    assert mine[0] and mine[1]
