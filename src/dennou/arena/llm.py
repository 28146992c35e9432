"""Language-model players: any OpenAI-compatible chat-completions endpoint plays as a bot.

``llm`` (``llm:model=gpt-4o-mini:lang=ja``) plays every game: for each decision it sends the
model what the seat may know and nothing more (the game's rules summary, the seat's own view,
the events it saw, its clock, the legal actions and the channels it may talk in now) and asks
for a reply constrained by a JSON Schema built from the legal actions (an ``enum`` when they
are listed, their description when the space is large). The engine validates the action; the
reply's optional ``say`` lines go only to channels open to the seat now, bounded in number and
length (the host's talk limits still apply).

The endpoint follows the OpenAI conventions: ``OPENAI_BASE_URL`` and ``OPENAI_API_KEY`` from
the environment unless options say otherwise (``base_url``; ``api_key_env`` names the variable
holding the key, so a key never appears in a spec, a record or a log). It works with llama.cpp,
vLLM, Ollama's compatible endpoint and hosted APIs.

Failure is a recorded default, never a stall: an unreachable endpoint, no reply before the
seat's clock, a reply that is not the schema's JSON or names an illegal action raise
:class:`LLMError` (a :class:`~dennou.core.bot.NoAnswer`), so the rules' default applies and the
record's note says why. Retries happen only while the clock allows.

Every exchange (the messages sent, the raw reply, tokens, latency) is appended as a JSON line
to the file named by ``DENNOU_LLM_LOG``, if set: an operator's audit log, never part of a
public record.
"""

from __future__ import annotations

import contextlib
import importlib
import inspect
import json
import os
import random
import re
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Annotated, Any, Literal

from msgspec import Meta

from dennou.core.actions import Action
from dennou.core.bot import Bot, NoAnswer
from dennou.core.errors import ConfigError, GameError
from dennou.core.game import JSON, Event, Game, Seat, to_json
from dennou.core.talk import MAX_TALK
from dennou.core.turns import legal_parts

PREFIX = "llm"
"""The bot's name; a spec is ``llm`` or ``llm:key=value:...`` (values may hold ``:``)."""

LOG_ENV = "DENNOU_LLM_LOG"
"""A file path: every exchange with a model is appended there as a JSON line (operators only)."""

DEFAULT_CLOCK = 60.0
"""Seconds per decision where the host gives no clock."""

MARGIN = 0.25
"""Seconds kept back from the clock: the answer still has to reach the table."""

MIN_ATTEMPT = 0.05
"""A retry starts only with at least this many seconds left on the clock."""

MAX_REPLY = 1 << 20
"""Longest reply text read (characters); a longer one is not an answer."""

Lang = Literal["en", "ja"]
SchemaMode = Literal["auto", "json_schema", "json_object"]


class LLMError(NoAnswer):
    """The model gave no usable answer: the rules' default applies (the message says why)."""


def is_llm(spec: str) -> bool:
    """Whether a bot spec names the language-model bot (``llm`` or ``llm:...``)."""
    head = spec.strip().split(":", 1)[0].strip()
    return head == PREFIX


_OPTION = re.compile(r":(?=\s*[A-Za-z_][A-Za-z0-9_]*\s*=)")


def parse_llm_spec(spec: str) -> dict[str, str]:
    """The options of ``llm:key=value:...``, where a value may contain ``:`` (a URL).

    Raises:
        ConfigError: An option is not ``key=value``.
    """
    _, _, rest = spec.strip().partition(":")
    options: dict[str, str] = {}
    if not rest.strip():
        return options
    for part in _OPTION.split(rest):
        key, sep, value = part.partition("=")
        if not sep or not key.strip():
            raise ConfigError(f"bot option {part!r} in {spec!r} is not key=value")
        options[key.strip()] = value.strip()
    return options


@dataclass
class Exchange:
    """One request to the model and what came back (for the audit log and benchmarks)."""

    ms: float
    prompt_tokens: int = 0
    completion_tokens: int = 0
    error: str | None = None


@dataclass
class LLMStats:
    """What a bot's exchanges cost: one entry per request."""

    exchanges: list[Exchange] = field(default_factory=list)
    defaults: int = 0


_TEXT: dict[str, dict[str, str]] = {
    "en": {
        "system": (
            "You are playing the game {title} as seat {seat} ({name}). Play to win. Reply with "
            'one JSON object only: "action" is your move, copied exactly from the legal '
            'actions; "say" (optional) is a list of lines to say, each in one of the channels '
            "open to you now. Talk in English. Others may lie; so may you."
        ),
        "rules": "Rules summary:",
        "seat": "You are seat {seat} ({name}); players: {players}.",
        "clock": "You have {left:.1f} seconds for this decision.",
        "view": "What you see now (JSON):",
        "events": "Recent events you saw, oldest first:",
        "legal": "Legal actions (reply with one of these exactly, as the action string):",
        "space": (
            "There are {count} legal actions, described here (reply with one action's JSON "
            "object written as a string):"
        ),
        "sample": "Some of them:",
        "talk": "You may talk now in: {channels} (at most {lines} lines of {chars} characters).",
        "silent": 'You may not talk now: leave "say" out.',
    },
    "ja": {
        "system": (
            "あなたはゲーム「{title}」の席 {seat}（{name}）のプレイヤーです。勝つように"
            'プレイしてください。JSON オブジェクト一つだけで答えます。"action" は合法手の'
            '一覧からそのまま写した手、"say"（任意）は今話せるチャンネルで言う発言の'
            "リストです。発言は日本語で。相手は嘘をつくかもしれません。あなたも構いません。"
        ),
        "rules": "ルールの要約:",
        "seat": "あなたは席 {seat}（{name}）。プレイヤー: {players}。",
        "clock": "この判断の持ち時間は {left:.1f} 秒です。",
        "view": "今あなたに見えているもの（JSON）:",
        "events": "あなたが見た最近の出来事（古い順）:",
        "legal": "合法手（action にはこのどれかをそのまま文字列で書く）:",
        "space": "合法手は {count} 通り。次の説明に合う手の JSON を文字列で書く:",
        "sample": "その例:",
        "talk": "今話せるチャンネル: {channels}（{lines} 行まで、各 {chars} 文字まで）。",
        "silent": '今は話せません。"say" は書かないこと。',
    },
}


def rules_summary(game: Game[Any, Any], limit: int) -> str:
    """The game's rules summary: its package's docstring (it ships with the game), bounded.

    A game defined outside a package of its own is summarised by its class's docstring.
    """
    module = type(game).__module__
    package = module.rpartition(".")[0]
    doc = ""
    if package.rpartition(".")[2] == game.spec.name:
        with contextlib.suppress(ImportError):
            doc = inspect.getdoc(importlib.import_module(package)) or ""
    if not doc:
        doc = inspect.getdoc(type(game)) or ""
    return doc[:limit]


class LLMBot(Bot):
    """A language model behind an OpenAI-compatible chat-completions endpoint.

    Args:
        model: The model name (default: ``OPENAI_MODEL``, else the endpoint's first model).
        base_url: The endpoint (default: ``OPENAI_BASE_URL``, else OpenAI's).
        api_key_env: The environment variable holding the API key (the key itself is never an
            option).
        temperature: Sampling temperature.
        max_tokens: Most tokens in one reply.
        timeout: Seconds one request may take (the seat's clock cuts it shorter).
        retries: Further requests after a failed one, while the clock allows.
        lang: Language of the prompt and of the talk (``en`` or ``ja``).
        talk: Whether the model may talk (``say`` lines) where the seat may.
        say_lines: Most lines said with one decision.
        say_chars: Most characters per line said.
        schema_mode: How the schema is sent: ``json_schema`` (OpenAI structured outputs),
            ``json_object`` (a JSON object with the schema: llama-cpp-python), or ``auto``
            (the first, then the second for good if the endpoint refuses it).
        events: Most recent events quoted in the prompt.
        view_chars: Most characters of the view quoted in the prompt.
        rules_chars: Most characters of the rules summary.
    """

    name = PREFIX

    def __init__(
        self,
        model: str = "",
        base_url: str = "",
        api_key_env: str = "OPENAI_API_KEY",
        temperature: Annotated[float, Meta(ge=0.0, le=2.0)] = 0.7,
        max_tokens: Annotated[int, Meta(ge=16, le=65536)] = 512,
        timeout: Annotated[float, Meta(gt=0.0, le=3600.0)] = 60.0,
        retries: Annotated[int, Meta(ge=0, le=5)] = 1,
        lang: Lang = "en",
        talk: bool = True,
        say_lines: Annotated[int, Meta(ge=0, le=5)] = 2,
        say_chars: Annotated[int, Meta(ge=1, le=MAX_TALK)] = 200,
        schema_mode: SchemaMode = "auto",
        events: Annotated[int, Meta(ge=0, le=1000)] = 40,
        view_chars: Annotated[int, Meta(ge=100, le=1_000_000)] = 12_000,
        rules_chars: Annotated[int, Meta(ge=0, le=100_000)] = 2_000,
    ) -> None:
        if not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", api_key_env):
            raise ConfigError(f"bot 'llm': api_key_env {api_key_env!r} is not a variable name")
        self.model = model
        self.base_url = base_url
        self.api_key_env = api_key_env
        self.temperature = temperature
        self.max_tokens = max_tokens
        self.timeout = timeout
        self.retries = retries
        self.lang: Lang = lang
        self.talk = talk
        self.say_lines = say_lines
        self.say_chars = say_chars
        self.schema_mode: SchemaMode = schema_mode
        self.max_events = events
        self.view_chars = view_chars
        self.rules_chars = rules_chars
        self.game: Game[Any, Any] | None = None
        self.seat: Seat = 0
        self.players: list[str] = []
        self.stats = LLMStats()
        self._events: list[str] = []
        self._channels: list[str] = []
        self._decisions = 0
        self._client: Any = None
        self._lock = threading.Lock()

    # --- the Bot contract -----------------------------------------------------------------
    def bind_game(self, game: Game[Any, Any]) -> None:
        """Say which game this bot plays (its rules summary and action codec come from it)."""
        self.game = game

    def reset(self, *, seat: Seat, rules: Any, players: Sequence[str]) -> None:
        """Start a new game as ``seat``."""
        self.seat = seat
        self.players = list(players)
        self._events = []
        self._channels = []
        self._decisions = 0
        # the client library loads now, off the clock (it takes seconds on a busy machine)
        with contextlib.suppress(LLMError):
            self._client_for()

    def observe(self, events: Sequence[Event]) -> None:
        """Keep the text of the events this seat saw (the latest go into the prompt)."""
        for event in events:
            if event.text:
                self._events.append(event.text[:300])
        if len(self._events) > 4 * max(self.max_events, 1):
            del self._events[: -self.max_events]

    def chat(
        self, view: JSON, channels: frozenset[str], rng: random.Random
    ) -> Sequence[tuple[str, str]]:
        """Keep the open channels for the decision: the model talks with its answer."""
        self._channels = sorted(channels) if self.talk else []
        return ()

    def act(self, view: JSON, legal: Sequence[Action], rng: random.Random) -> Action:
        """Ask the model and return its action.

        Raises:
            LLMError: No usable answer before the clock (the rules' default applies).
        """
        game = self.game
        if game is None:
            raise ConfigError("the llm bot needs its game (bind_game)")
        channels, self._channels = self._channels, []
        deadline = self.deadline if self.deadline is not None else time.monotonic() + DEFAULT_CLOCK
        self._decisions += 1
        listed, count, description, sample = legal_parts(game, legal, self._decisions, self.seat)
        choices = labels(listed) if listed is not None else None
        messages = self._messages(
            game, view, deadline, choices, count, description, sample, channels
        )
        examples = [_compact(a) for a in sample or []]
        schema = self._schema(choices, description, channels, examples)
        problem = "no request was made"
        attempt = 0
        while True:
            left = deadline - MARGIN - time.monotonic()
            if left < MIN_ATTEMPT or attempt > self.retries:
                break
            attempt += 1
            try:
                reply = self._request(messages, schema, min(left, self.timeout))
                action, say = self._parse(game, reply, choices, listed)
            except LLMError as exc:
                problem = str(exc)
                continue
            self._say(say, channels)
            return action
        self.stats.defaults += 1
        raise LLMError(f"llm: {problem}")

    # --- the prompt -----------------------------------------------------------------------
    def _messages(
        self,
        game: Game[Any, Any],
        view: JSON,
        deadline: float,
        choices: list[str] | None,
        count: int,
        description: dict[str, Any] | None,
        sample: list[dict[str, Any]] | None,
        channels: list[str],
    ) -> list[dict[str, str]]:
        text = _TEXT[self.lang]
        name = self.players[self.seat] if self.seat < len(self.players) else str(self.seat)
        system = text["system"].format(title=game.spec.title, seat=self.seat, name=name)
        summary = rules_summary(game, self.rules_chars)
        if summary:
            system += f"\n\n{text['rules']}\n{summary}"
        parts = [
            text["seat"].format(seat=self.seat, name=name, players=", ".join(self.players)),
            text["clock"].format(left=max(deadline - time.monotonic(), 0.0)),
            text["view"],
            json.dumps(to_json(view), ensure_ascii=False, separators=(",", ":"))[: self.view_chars],
        ]
        recent = self._events[-self.max_events :] if self.max_events else []
        if recent:
            parts += [text["events"], *recent]
        if choices is not None:
            parts += [text["legal"], *choices]
        else:
            parts += [
                text["space"].format(count=count),
                json.dumps(description or {}, ensure_ascii=False),
                text["sample"],
                *[_compact(a) for a in sample or []],
            ]
        if channels and self.say_lines:
            parts.append(
                text["talk"].format(
                    channels=", ".join(channels), lines=self.say_lines, chars=self.say_chars
                )
            )
        else:
            parts.append(text["silent"])
        return [
            {"role": "system", "content": system},
            {"role": "user", "content": "\n".join(parts)},
        ]

    def _schema(
        self,
        choices: list[str] | None,
        description: dict[str, Any] | None,
        channels: list[str],
        sample: list[str],
    ) -> dict[str, Any]:
        action: dict[str, Any]
        if choices is not None:
            action = {"type": "string", "enum": choices}
        else:
            about = json.dumps(description or {}, ensure_ascii=False)[:2000]
            action = {"type": "string", "maxLength": 1000, "description": about}
            if sample:
                action["examples"] = sample
        properties: dict[str, Any] = {"action": action}
        if channels and self.say_lines:
            properties["say"] = {
                "type": "array",
                "maxItems": self.say_lines,
                "items": {
                    "type": "object",
                    "properties": {
                        "channel": {"type": "string", "enum": channels},
                        "text": {"type": "string", "minLength": 1, "maxLength": self.say_chars},
                    },
                    "required": ["channel", "text"],
                    "additionalProperties": False,
                },
            }
        return {
            "type": "object",
            "properties": properties,
            "required": ["action"],
            "additionalProperties": False,
        }

    # --- the request ----------------------------------------------------------------------
    def _client_for(self) -> Any:
        if self._client is None:
            try:
                import openai
            except ImportError:
                raise LLMError(
                    "llm: the openai package is not installed (pip install 'dennou[llm]')"
                ) from None
            key = os.environ.get(self.api_key_env) or "none"
            self._client = openai.OpenAI(base_url=self.base_url or None, api_key=key, max_retries=0)
        return self._client

    def _model_for(self, client: Any, timeout: float) -> str:
        if not self.model:
            self.model = os.environ.get("OPENAI_MODEL", "")
        if not self.model:
            try:
                models = client.models.list(timeout=timeout)
                first = next(iter(models), None)
            except Exception as exc:
                raise LLMError(f"cannot list the endpoint's models: {_why(exc)}") from None
            if first is None:
                raise LLMError("the endpoint lists no model: give one (llm:model=NAME)")
            self.model = str(first.id)
        return self.model

    def _request(
        self, messages: list[dict[str, str]], schema: dict[str, Any], budget: float
    ) -> str:
        client = self._client_for()
        started = time.monotonic()
        model = self._model_for(client, budget)
        budget -= time.monotonic() - started
        mode = "json_object" if self.schema_mode == "json_object" else "json_schema"
        exchange = Exchange(ms=0.0)
        raw: str | None = None
        try:
            try:
                response = self._create(client, model, messages, schema, mode, budget)
            except Exception as exc:
                if self.schema_mode != "auto" or not _refused_format(exc):
                    raise
                # the endpoint does not know OpenAI's structured outputs: use the schema the
                # llama-cpp-python way from now on
                self.schema_mode = "json_object"
                left = budget - (time.monotonic() - started)
                if left < MIN_ATTEMPT:
                    raise
                response = self._create(client, model, messages, schema, "json_object", left)
        except Exception as exc:
            exchange.error = _why(exc)
            exchange.ms = (time.monotonic() - started) * 1000
            self._log(messages, None, exchange, model)
            self.stats.exchanges.append(exchange)
            raise LLMError(f"the endpoint failed: {exchange.error}") from None
        exchange.ms = (time.monotonic() - started) * 1000
        usage = getattr(response, "usage", None)
        if usage is not None:
            exchange.prompt_tokens = int(getattr(usage, "prompt_tokens", 0) or 0)
            exchange.completion_tokens = int(getattr(usage, "completion_tokens", 0) or 0)
        with contextlib.suppress(AttributeError, IndexError, TypeError):
            raw = response.choices[0].message.content
        self.stats.exchanges.append(exchange)
        self._log(messages, raw, exchange, model)
        if not isinstance(raw, str):
            raise LLMError("the reply has no text")
        return raw

    def _create(
        self,
        client: Any,
        model: str,
        messages: list[dict[str, str]],
        schema: dict[str, Any],
        mode: str,
        budget: float,
    ) -> Any:
        if budget < MIN_ATTEMPT:
            raise TimeoutError("no time left on the clock")
        response_format: dict[str, Any]
        if mode == "json_schema":
            response_format = {
                "type": "json_schema",
                "json_schema": {"name": "decision", "schema": schema, "strict": False},
            }
        else:
            response_format = {"type": "json_object", "schema": schema}
        return client.chat.completions.create(
            model=model,
            messages=messages,
            temperature=self.temperature,
            max_tokens=self.max_tokens,
            response_format=response_format,
            timeout=budget,
        )

    def _parse(
        self,
        game: Game[Any, Any],
        raw: str,
        choices: list[str] | None,
        listed: list[dict[str, Any]] | None,
    ) -> tuple[Action, Any]:
        if len(raw) > MAX_REPLY:
            raise LLMError(f"the reply is longer than {MAX_REPLY} characters")
        try:
            reply = json.loads(raw, strict=False)  # control characters inside strings too
        except ValueError:
            raise LLMError(f"the reply is not JSON: {raw[:200]!r}") from None
        if not isinstance(reply, dict) or not isinstance(reply.get("action"), str):
            raise LLMError(f"the reply has no action string: {raw[:200]!r}")
        text = reply["action"]
        data: Any
        if choices is not None and listed is not None:
            if text not in choices:
                raise LLMError(f"the reply's action is not a legal one: {text[:200]!r}")
            data = listed[choices.index(text)]
        else:
            try:
                data = json.loads(text, strict=False)
            except ValueError:
                data = text  # a game's text form of an action is accepted too
        try:
            action = game.parse_action(data)
        except GameError as exc:
            raise LLMError(f"the reply's action is not an action: {exc}"[:500]) from None
        return action, reply.get("say")

    def _say(self, say: Any, channels: list[str]) -> None:
        if not isinstance(say, list) or self.say is None:
            return
        for item in say[: self.say_lines]:
            if not isinstance(item, dict):
                continue
            channel, text = item.get("channel"), item.get("text")
            if channel in channels and isinstance(text, str) and text.strip():
                self.say(channel, text[: self.say_chars])

    def _log(
        self, messages: list[dict[str, str]], raw: str | None, exchange: Exchange, model: str
    ) -> None:
        path = os.environ.get(LOG_ENV)
        if not path:
            return
        entry = {
            "time": time.time(),
            "game": self.game.spec.name if self.game is not None else None,
            "seat": self.seat,
            "model": model,
            "base_url": self.base_url or os.environ.get("OPENAI_BASE_URL", ""),
            "messages": messages,
            "reply": raw,
            "ms": round(exchange.ms, 3),
            "prompt_tokens": exchange.prompt_tokens,
            "completion_tokens": exchange.completion_tokens,
            "error": exchange.error,
        }
        line = json.dumps(entry) + "\n"  # ASCII: no character a reader splits lines at
        with self._lock, contextlib.suppress(OSError), open(path, "a", encoding="utf-8") as out:
            out.write(line)

    def __deepcopy__(self, memo: dict[int, Any]) -> LLMBot:
        # a copy plays another game: the same options, its own client and statistics
        copy = LLMBot(**self.options())
        copy.game = self.game
        return copy

    def options(self) -> dict[str, Any]:
        """The options this bot was built with."""
        return {
            "model": self.model,
            "base_url": self.base_url,
            "api_key_env": self.api_key_env,
            "temperature": self.temperature,
            "max_tokens": self.max_tokens,
            "timeout": self.timeout,
            "retries": self.retries,
            "lang": self.lang,
            "talk": self.talk,
            "say_lines": self.say_lines,
            "say_chars": self.say_chars,
            "schema_mode": self.schema_mode,
            "events": self.max_events,
            "view_chars": self.view_chars,
            "rules_chars": self.rules_chars,
        }


# --- models a host's operator declared --------------------------------------------------------
_DECLARED: dict[str, dict[str, Any]] = {}

SEAT_OPTIONS = ("temperature", "max_tokens", "lang", "talk", "say_lines", "say_chars")
"""Options a table's creator may give a declared model (``gpt:lang=ja``); the endpoint, the
model, the key and the timeouts are the operator's."""

_NAME = re.compile(r"[a-z][a-z0-9_-]{0,31}")


def parse_declaration(text: str) -> tuple[str, dict[str, Any]]:
    """``NAME=URL[,model=M][,key_env=VAR][,option=value...]`` as a name and bot options.

    Raises:
        ConfigError: A bad name, no URL, or an option :class:`LLMBot` does not take.
    """
    name, sep, rest = text.strip().partition("=")
    name = name.strip()
    if not sep or not _NAME.fullmatch(name):
        raise ConfigError(
            f"--llm {text!r}: want NAME=URL[,model=M,key_env=VAR] with NAME of 1-32 lowercase "
            "letters, digits, - and _"
        )
    url, *items = [part.strip() for part in rest.split(",")]
    if not re.fullmatch(r"https?://\S+", url):
        raise ConfigError(f"--llm {name}: {url!r} is not an http(s) URL")
    options: dict[str, str] = {"base_url": url}
    for item in items:
        key, sep, value = item.partition("=")
        if not sep:
            raise ConfigError(f"--llm {name}: {item!r} is not key=value")
        key = "api_key_env" if key.strip() == "key_env" else key.strip()
        if key == "base_url":
            raise ConfigError(f"--llm {name}: the URL comes first (NAME=URL,...)")
        options[key] = value.strip()
    from dennou.core.options import bot_options

    return name, bot_options(LLMBot, options, name=f"--llm {name}")


def declare_model(name: str, options: dict[str, Any]) -> None:
    """Seat ``name`` as a bot on this host: an :class:`LLMBot` built with ``options``."""
    _DECLARED[name] = dict(options)


def forget_models() -> None:
    """Forget every declared model."""
    _DECLARED.clear()


def declared_models() -> list[str]:
    """The names of the models declared on this host."""
    return sorted(_DECLARED)


def model_seats(seats: Sequence[dict[str, Any]]) -> int:
    """How many of a table's seat specs (``{"kind": "bot", "bot": spec}``) are declared models."""
    return sum(
        1
        for seat in seats
        if seat.get("kind") == "bot" and str(seat.get("bot", "")).split(":")[0] in _DECLARED
    )


def declared_model_options(name: str, options: dict[str, str]) -> dict[str, Any] | None:
    """The bot options of declared model ``name`` with a seat's ``options`` (``None``: none).

    Raises:
        ConfigError: A seat option outside :data:`SEAT_OPTIONS`, or a bad value.
    """
    declared = _DECLARED.get(name)
    if declared is None:
        return None
    from dennou.core.options import bot_options

    extra = set(options) - set(SEAT_OPTIONS)
    if extra:
        raise ConfigError(
            f"bot {name!r}: {', '.join(sorted(extra))} is the operator's; a seat may set "
            f"{', '.join(SEAT_OPTIONS)}"
        )
    return {**declared, **bot_options(LLMBot, options, name=name)}


def labels(actions: Sequence[Any]) -> list[str]:
    r"""A label per listed action: its compact JSON without quotes (``{number:012,type:call}``).

    Labels hold no ``"`` or ``\\``, so a schema's ``enum`` of them needs no escapes (some
    endpoints' grammar converters mishandle escaped quotes); a label repeated is numbered.
    """
    out: list[str] = []
    seen: set[str] = set()
    for i, action in enumerate(actions):
        label = _compact(action).replace('"', "").replace("\\", "")
        if label in seen:
            label = f"{i}:{label}"
        seen.add(label)
        out.append(label)
    return out


def _compact(data: Any) -> str:
    return json.dumps(data, ensure_ascii=False, separators=(",", ":"), sort_keys=True)


def _why(exc: BaseException) -> str:
    return f"{type(exc).__name__}: {exc}"[:300]


def _refused_format(exc: BaseException) -> bool:
    """Whether the endpoint refused the request itself (a 400 or 422), not the connection."""
    status = getattr(exc, "status_code", None)
    return status in (400, 422)


__all__ = [
    "LOG_ENV",
    "PREFIX",
    "SEAT_OPTIONS",
    "Exchange",
    "LLMBot",
    "LLMError",
    "LLMStats",
    "declare_model",
    "declared_model_options",
    "declared_models",
    "forget_models",
    "is_llm",
    "labels",
    "model_seats",
    "parse_declaration",
    "parse_llm_spec",
    "rules_summary",
]
