"""Command functions for ``dennou serve`` and ``dennou bot run`` (typer-compatible).

The project CLI registers them (``app.command("serve")(serve)``); ``python -m dennou.server``
runs them directly.
"""

from __future__ import annotations

import asyncio
import importlib
import inspect
import json
import os
import sys
from typing import Annotated, Any

import typer

from dennou.core.bot import Bot
from dennou.core.errors import ConfigError
from dennou.core.game import Game

CHECK_MESSAGES_ENV = "DENNOU_CHECK_MESSAGES"
"""Test mode: a file path; the server checks every message it sends against the protocol's JSON
Schemas and appends each one that does not validate to that file (the test servers read it)."""


def serve(
    host: Annotated[str, typer.Option(help="interface to listen on")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="TCP port")] = 8000,
    db: Annotated[
        str | None, typer.Option(help="database URL (postgresql://...); default: SQLite")
    ] = None,
    data_dir: Annotated[str, typer.Option(help="directory of the SQLite file")] = "./data",
    limit: Annotated[
        list[str] | None,
        typer.Option(
            help="a host limit, NAME=VALUE (repeatable; docs/security.md lists them), "
            "e.g. --limit tables_per_account=20"
        ),
    ] = None,
    operator: Annotated[
        list[str] | None,
        typer.Option(
            help="an account that operates this host (repeatable): it may seed any table",
            envvar="DENNOU_OPERATORS",
        ),
    ] = None,
    rate: Annotated[
        float | None, typer.Option(help="messages per second per connection (= --limit rate=)")
    ] = None,
    burst: Annotated[
        float | None, typer.Option(help="message burst per connection (= --limit burst=)")
    ] = None,
    log_level: Annotated[str, typer.Option(help="uvicorn log level")] = "warning",
) -> None:
    """Host every game: the web page at /, the lobby API at /api (docs at /docs), WebSocket /ws."""
    import uvicorn

    from dennou.server.app import create_app
    from dennou.server.hub import Hub
    from dennou.server.limits import parse_limits

    try:
        limits = parse_limits(list(limit or []))
    except ConfigError as exc:
        raise typer.BadParameter(exc.message, param_hint="--limit") from None
    operators = [o for item in operator or [] for o in item.split(",") if o.strip()]

    def started(hub: Hub) -> None:
        shown = "localhost" if host in ("127.0.0.1", "::1") else host
        base = f"http://{shown}:{port}"
        lines = [
            f"dennou {_version()} serving {len(hub.games)} games",
            f"  web page   {base}/",
            f"  API        {base}/api   (interactive docs {base}/docs)",
            f"  WebSocket  ws://{shown}:{port}/ws",
            f"  data       {_where(db, data_dir)}",
        ]
        if operators:
            lines.append(f"  operators  {', '.join(operators)}")
        print("\n".join(lines), flush=True)

    # The store's writer thread and the event loop hand the GIL to each other for every step;
    # the default 5 ms switch interval would add up to that to each hand-off.
    sys.setswitchinterval(0.0005)
    app = create_app(
        db,
        data_dir,
        limits=limits,
        operators=operators,
        on_start=started,
        rate=rate,
        burst=burst,
        check_messages=os.environ.get(CHECK_MESSAGES_ENV) or None,
    )
    uvicorn.run(
        app,
        host=host,
        port=port,
        log_level=log_level,
        ws_max_size=limits.frame_bytes,
        ws_per_message_deflate=False,  # compressing every view costs more CPU than it saves
        ws_ping_interval=20,
        ws_ping_timeout=20,
        lifespan="on",
    )


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("dennou")
    except PackageNotFoundError:  # pragma: no cover - running from a source tree
        return "(source)"


def _where(db: str | None, data_dir: str) -> str:
    """Where the data lives, for people: the SQLite file, or the database URL without password."""
    if db is None:
        from pathlib import Path

        return f"{(Path(data_dir) / 'dennou.sqlite3').resolve()} (SQLite)"
    scheme, sep, rest = db.partition("://")
    if sep and "@" in rest:
        credentials, _, location = rest.rpartition("@")
        user = credentials.split(":", 1)[0]
        return f"{scheme}://{user}@{location}"
    return db


def load_bot(target: str) -> Bot | Any:
    """A bot from ``package.module:Class``, or a factory of a built-in bot spec.

    ``package.module:Class`` is built with no arguments (or with the game, if its constructor
    takes ``game``); a built-in spec (``random``,
    ``montecarlo:ms=500``) is built for the game once the table's game is known.

    Raises:
        ConfigError: The target names nothing usable.
    """
    module_name, sep, attribute = target.partition(":")
    if sep and "." in module_name and "=" not in attribute:
        try:
            module = importlib.import_module(module_name)
        except ImportError as exc:
            raise ConfigError(f"cannot import {module_name}: {exc}") from None
        obj = getattr(module, attribute, None)
        if obj is None:
            raise ConfigError(f"{module_name} has no {attribute!r}")
        if isinstance(obj, type) and "game" in inspect.signature(obj).parameters:
            return obj  # built per game: Class(game)
        bot = obj() if isinstance(obj, type) else obj
        if not isinstance(bot, Bot):
            raise ConfigError(f"{target} is not a dennou.core.bot.Bot")
        return bot

    def factory(game: Game[Any, Any]) -> Bot:
        from dennou.arena.bots import make_bot

        return make_bot(game, target)

    return factory


def bot_run(
    target: Annotated[str, typer.Argument(help="module:Class of a Bot, or a built-in bot spec")],
    server: Annotated[str, typer.Option(help="WebSocket URL")] = "ws://127.0.0.1:8000/ws",
    token: Annotated[str, typer.Option(help="your account's token", envvar="DENNOU_TOKEN")] = "",
    table: Annotated[str | None, typer.Option(help="table id to join")] = None,
    join: Annotated[str | None, typer.Option(help="game to join (or open a table of)")] = None,
    games: Annotated[int, typer.Option(help="games to play one after another")] = 1,
    seed: Annotated[int | None, typer.Option(help="seed of the bot's choices")] = None,
) -> None:
    """Run a bot on a server: take a seat and play until the game ends."""
    from dennou.client import run_bot

    if not token:
        raise typer.BadParameter("a token is needed (--token or DENNOU_TOKEN)")
    if (table is None) == (join is None):
        raise typer.BadParameter("give exactly one of --table and --join")
    bot = load_bot(target)
    for _ in range(games):
        result = asyncio.run(run_bot(bot, server, token, table=table, join=join, seed=seed))
        print(json.dumps({"table": result.table, "seat": result.seat, "outcome": result.outcome}))
        table = None if join is not None else table
        if join is None:
            break
