"""The ``llm`` bot against a real llama.cpp server (``llama_cpp.server``) with a tiny model.

The model's weights are random, so its play is nonsense, but schema-constrained decoding makes
every reply fit the schema: the whole path (prompt, schema, server round trip, parsing, talk,
defaults) is the real one.
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import pytest

from dennou.arena.bots import make_bot
from dennou.arena.play import play
from dennou.games import REGISTRY, get

from .tinymodel import LlamaServer

OPPONENT = {
    "numeron": "solver",
    "daifugo": "greedy",
    "smuggling": "greedy",
    "pandemic": "belief",
    "chairs": "heuristic",
}
"""A built-in bot of each game that the model plays against (``random`` where none is named)."""

SMALL = {
    "smuggling": {"team_size": 1, "small_games": 2},
    "hilo": {"max_games": 1, "max_rounds": 1},
    "daifugo": {"games": 1, "jokers": 0},  # without jokers, a few legal plays per hand
    "pandemic": {"rounds": 1, "ticks": 2},
}
"""Rules that keep a test game short (each of the model's decisions costs seconds of an
unoptimised llama.cpp's CPU: the path is under test, not the length of the game)."""


SHORT = {
    "schema_mode": "json_object",
    "max_tokens": 250,
    "say_chars": 40,
    "events": 8,
    "view_chars": 1000,
    "rules_chars": 300,
    "retries": 0,
}
"""The model's options in these tests. Short prompts and replies: the path is under test, not
the model (a random one reads nothing anyway, and writes a described action as nonsense up to
``max_tokens``); each token costs CPU time on an unoptimised llama.cpp. Lines of at most 40
characters keep a reply that talks within ``max_tokens`` more often than 200 did within 400. No
second request after a bad reply: the fake endpoint's tests check retries, and the README's
command here keeps the default."""


def llm_spec(llama: LlamaServer, extra: str = "") -> str:
    """A seat of the model as a bot spec, with :data:`SHORT`'s options and ``extra``."""
    options = "".join(f":{k}={v}" for k, v in SHORT.items())
    return f"llm:base_url={llama.base_url}:model=tiny{options}{extra}"


def declared(llama: LlamaServer) -> str:
    """The model as a host's operator declares it (``--llm tiny=...``), with :data:`SHORT`."""
    return llama.base_url + "".join(f",{k}={v}" for k, v in SHORT.items())


def test_the_tiny_model_is_a_few_hundred_kb_llama_gguf(model_file: Path) -> None:
    import gguf

    assert 50_000 < model_file.stat().st_size < 1_000_000
    reader = gguf.GGUFReader(str(model_file))
    arch = reader.fields["general.architecture"]
    assert bytes(arch.parts[arch.data[0]]).decode() == "llama"


def test_schema_constrained_completions_answer_the_schema(llama: LlamaServer) -> None:
    import openai

    client: Any = openai.OpenAI(base_url=llama.base_url, api_key="none", max_retries=0)
    choices = ["{number:012,type:call}", "{type:pass}", "三"]
    schema = {
        "type": "object",
        "properties": {"action": {"type": "string", "enum": choices}},
        "required": ["action"],
        "additionalProperties": False,
    }
    for seed in range(5):
        started = time.monotonic()
        reply = client.chat.completions.create(
            model="tiny",
            messages=[{"role": "user", "content": "choose"}],
            response_format={"type": "json_object", "schema": schema},
            max_tokens=100,
            temperature=1.0,
            seed=seed,
            timeout=30,
        )
        assert time.monotonic() - started < 30
        content = reply.choices[0].message.content
        assert content is not None and json.loads(content)["action"] in choices


@pytest.mark.parametrize("name", [n for n in REGISTRY if REGISTRY[n].spec.decisions])
def test_every_game_is_played_to_its_end_by_the_llm_bot_against_built_in_bots(
    llama: LlamaServer, name: str
) -> None:
    game = get(name)
    rules = game.make_rules(SMALL.get(name))
    players = max(game.spec.min_players, 2)
    opponent = OPPONENT.get(name, "random")
    bots = [make_bot(game, llm_spec(llama))]
    bots += [make_bot(game, opponent if i == 1 else "random") for i in range(1, players)]
    record = play(game, rules, bots, seed=5, time_limit=30)
    assert record.outcome is not None
    mine = [s for s in record.steps if s.seat == 0 and s.talk is None]
    assert mine
    # each decision is the model's answer or a default that says why (a random model rarely
    # writes a legal action where the space is described rather than listed)
    assert all(s.default is None or "llm:" in (s.note or "") for s in mine), mine[:3]


def test_at_a_liar_game_table_the_model_talks_only_in_channels_open_to_it(
    llama: LlamaServer,
) -> None:
    game = get("smuggling")
    rules = game.make_rules({"team_size": 2, "small_games": 2})
    # a second request after a bad reply is a second chance to talk
    spec = llm_spec(llama, ":say_lines=2:max_tokens=400:retries=1")
    bots: list[Any] = [make_bot(game, spec)]
    bots += [make_bot(game, "greedy") for _ in range(3)]
    open_to_model: list[frozenset[str]] = []
    original = game.talk_channels

    said = []
    state_before: list[Any] = [None]

    def on_step(step: Any, state: Any) -> None:
        if step.talk is not None and step.seat == 0:
            said.append((step.talk.channel, original(state_before[0], 0)))
        state_before[0] = state

    state_before[0] = game.new(rules, [f"p{i}" for i in range(4)])
    record = play(game, rules, bots, seed=7, time_limit=30, on_step=on_step)
    assert record.outcome is not None
    for channel, channels in said:
        open_to_model.append(channels)
        assert channel in channels, (channel, channels)
    assert all(not c.startswith("team:south") for c, _ in said)  # seat 0 plays for the north


def test_a_host_table_with_a_model_seat_plays_to_its_end_against_the_real_server(
    llama: LlamaServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from .test_llm_host import model_host, play_on_host

    server = model_host(tmp_path, declared(llama), monkeypatch)
    server.start()
    try:
        token = server.register("cho")
        _, record = play_on_host(server, token, ["bot:tiny", "bot:solver"])
    finally:
        server.stop()
    lines = [json.loads(line) for line in record.splitlines()]
    mine = [line for line in lines if line.get("seat") == 0 and line.get("type") == "step"]
    assert mine and all("action" in line or "llm:" in line.get("note", "") for line in mine)
    log = [json.loads(line) for line in (tmp_path / "llm.log").read_text().splitlines()]
    assert log and all(entry["error"] is None for entry in log[:3]), log[:3]


def test_the_readmes_model_command_plays_smuggling_once_openai_base_url_is_set(
    llama: LlamaServer,
) -> None:
    """README, "Language-model players": its one command, with the endpoint in the environment."""
    import subprocess

    from ..cli.readme import blocks
    from ..cli.run import ROOT, environment

    [block] = [
        b for b in blocks(ROOT / "README.md") if b.section.startswith("Language-model players")
    ]
    install, _, command = block.text.strip().partition(" && ")
    assert install == "pip install -e '.[llm]'", install
    env = environment(
        {"OPENAI_BASE_URL": llama.base_url, "OPENAI_API_KEY": "none", "OPENAI_MODEL": "tiny"}
    )
    done = subprocess.run(
        ["bash", "-c", command], cwd=ROOT, env=env, capture_output=True, text=True, timeout=280
    )
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    assert "llm" in done.stdout and "greedy" in done.stdout, done.stdout
