"""Command functions for ``dennou serve`` and ``dennou bot run`` (typer-compatible).

The project CLI registers them (``app.command("serve")(serve)``); ``python -m dennou.server``
runs them directly.
"""

from __future__ import annotations

import asyncio
import importlib
import inspect
import json
import sys
from typing import Annotated, Any

import typer

from dennou.core.bot import Bot
from dennou.core.errors import ConfigError
from dennou.core.game import Game


def serve(
    host: Annotated[str, typer.Option(help="interface to listen on")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="TCP port")] = 8000,
    db: Annotated[
        str | None, typer.Option(help="database URL (postgresql://...); default: SQLite")
    ] = None,
    data_dir: Annotated[str, typer.Option(help="directory of the SQLite file")] = "./data",
    rate: Annotated[float, typer.Option(help="messages per second per connection")] = 50.0,
    burst: Annotated[float, typer.Option(help="message burst per connection")] = 100.0,
    log_level: Annotated[str, typer.Option(help="uvicorn log level")] = "warning",
) -> None:
    """Host every game: WebSocket at /ws, lobby API at /api, status page at /."""
    import uvicorn

    from dennou.server.app import create_app

    # The store's writer thread (server databases) and the event loop hand the GIL to each other
    # for every step; the default 5 ms switch interval would add up to that to each hand-off.
    sys.setswitchinterval(0.0005)
    app = create_app(db, data_dir, rate=rate, burst=burst)
    uvicorn.run(
        app,
        host=host,
        port=port,
        log_level=log_level,
        ws_max_size=1 << 20,
        ws_per_message_deflate=False,  # compressing every view costs more CPU than it saves
        ws_ping_interval=20,
        ws_ping_timeout=20,
        lifespan="on",
    )


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
    tournament: Annotated[
        str | None, typer.Option(help="a tournament id: play every seat it gives you")
    ] = None,
) -> None:
    """Run a bot on a server: take a seat and play until the game ends."""
    from dennou.client import run_bot

    if not token:
        raise typer.BadParameter("a token is needed (--token or DENNOU_TOKEN)")
    if tournament is not None:  # issue 14: a remote entrant of a host tournament
        from dennou.client.tournament import play_tournament

        played = asyncio.run(
            play_tournament(load_bot(target), server, token, tournament, seed=seed)
        )
        for result in played:
            print(
                json.dumps({"table": result.table, "seat": result.seat, "outcome": result.outcome})
            )
        return
    if (table is None) == (join is None):
        raise typer.BadParameter("give exactly one of --table and --join")
    bot = load_bot(target)
    for _ in range(games):
        result = asyncio.run(run_bot(bot, server, token, table=table, join=join, seed=seed))
        print(json.dumps({"table": result.table, "seat": result.seat, "outcome": result.outcome}))
        table = None if join is not None else table
        if join is None:
            break
