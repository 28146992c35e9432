"""``dennou uecda-serve`` and ``dennou uecda-client`` (typer-compatible command functions).

``uecda-serve`` is a UECda server (as the organisers' ``tndhms``) backed by the host's tables and
store: clients connect, play a set of ``--games`` games, and it prints the standings. The full
host (``dennou serve --uecda-port P``) does the same next to the web app.
"""

from __future__ import annotations

import asyncio
import sys
import time
from typing import TYPE_CHECKING, Annotated, Any

import typer

from dennou.core.errors import ConfigError, DennouError
from dennou.uecda import DEFAULT_PORT, PROTOCOL

if TYPE_CHECKING:
    from dennou.server.limits import Limits

Bots = Annotated[
    str,
    typer.Option(
        help="built-in bots (comma-separated, used in turn) for the seats no client takes "
        "--fill-after seconds after a table's first client came; empty: wait for five clients"
    ),
]
FillAfter = Annotated[
    float, typer.Option(min=0.0, help="seconds to wait for clients before the bots sit down")
]
Games = Annotated[int, typer.Option(min=1, max=10_000, help="games in each table's set")]
TimeLimit = Annotated[
    float, typer.Option(min=0.1, max=3600.0, help="seconds a client has for each decision")
]


def uecda_serve(
    port: Annotated[int, typer.Option(min=0, max=65535, help="TCP port (0: any)")] = (DEFAULT_PORT),
    host: Annotated[str, typer.Option(help="interface to listen on")] = "127.0.0.1",
    games: Games = 10,
    sets: Annotated[int, typer.Option(min=0, help="tables to play before exiting (0: never)")] = 1,
    bots: Bots = "",
    fill_after: FillAfter = 5.0,
    time_limit: TimeLimit = 10.0,
    db: Annotated[
        str | None, typer.Option(help="database URL (postgresql://...); default: SQLite")
    ] = None,
    data_dir: Annotated[str, typer.Option(help="directory of the SQLite file")] = "./data",
    deals: Annotated[
        str | None,
        typer.Option(
            help="JSON file of the hands each game deals ([game][player] = cards as dealt): "
            "to compare this server with another one on the same deals"
        ),
    ] = None,
    limit: Annotated[
        list[str] | None,
        typer.Option(
            help="a host limit, NAME=VALUE (repeatable; docs/security.md lists them), "
            "e.g. --limit uecda_tables_per_address=4"
        ),
    ] = None,
) -> None:
    """A UECda (protocol 20070) server on dennou's tables: plays sets and prints the points."""
    from dennou.uecda.listener import UecdaOptions, parse_bots, read_deals

    try:
        limits = serve_limits(list(limit or []))
    except ConfigError as exc:
        raise typer.BadParameter(exc.message, param_hint="--limit") from None

    try:
        options = UecdaOptions(
            games=games, bots=parse_bots(bots), fill_after=fill_after, time_limit=time_limit
        )
    except ConfigError as exc:
        raise typer.BadParameter(exc.message, param_hint="--bots") from None
    if deals is not None:
        try:
            options.deals = read_deals(deals)
        except (OSError, ValueError) as exc:
            raise typer.BadParameter(str(exc), param_hint="--deals") from None
    try:
        asyncio.run(_serve(host, port, options, sets, db, data_dir, limits))
    except KeyboardInterrupt:
        raise typer.Exit(130) from None


def serve_limits(items: list[str]) -> Limits:
    """``uecda-serve``'s limits: the host's, with ``--limit NAME=VALUE`` items on top.

    Nobody can watch this server's tables (it has no web app), so its deals are not paced for
    people (``deal_pause`` and ``reveal_pace`` 0, as on the organisers' server) unless an item
    sets them.

    Raises:
        ConfigError: An item is not ``NAME=VALUE``, names no limit, or has an impossible value.
    """
    from dennou.server.limits import Limits, parse_limits

    return parse_limits(items, Limits(deal_pause=0, reveal_pace=0))


async def _serve(
    host: str, port: int, options: Any, sets: int, db: str | None, data_dir: str, limits: Limits
) -> None:
    from dennou.server.hub import Hub
    from dennou.server.table import TableActor
    from dennou.store import AsyncStore, Store, database_url
    from dennou.uecda.listener import UecdaListener

    store = AsyncStore(Store(database_url(db, data_dir)))
    if options.time_limit < limits.time_limit_min:  # this server's operator sets the clock
        limits = limits.with_options({"time_limit_min": options.time_limit})
    hub = Hub(store, None, limits=limits)
    await hub.start()
    started: list[TableActor] = []
    listener = UecdaListener(hub, host=host, port=port, options=options, on_table=started.append)
    await listener.start()
    fill = f"; bots {','.join(options.bots)} after {options.fill_after:g} s" if options.bots else ""
    print(
        f"dennou UECda server (protocol {PROTOCOL}) on {host}:{listener.port}: "
        f"{options.games} games a set{fill}; "
        + (f"{sets} set(s), then exits" if sets else "until stopped"),
        flush=True,
    )
    reported: set[str] = set()
    try:
        while not sets or len(reported) < sets:
            for actor in started:
                if actor.id not in reported and actor.status in ("finished", "aborted"):
                    reported.add(actor.id)
                    _report(actor)
            await asyncio.sleep(0.1)
    finally:
        await listener.stop()
        await hub.stop()
        store.close()


def _report(actor: Any) -> None:
    """The standings of a finished table, one line per seat, best first."""
    players = actor.row.players or []
    outcome = actor.outcome
    if outcome is None:
        print(f"table {actor.id}: aborted", flush=True)
        return
    scores = outcome["scores"]
    print(f"table {actor.id} ({actor.game.spec.name}): points", flush=True)
    for seat in sorted(range(len(players)), key=lambda s: -scores[s]):
        print(f"  player {seat}  {players[seat]:<24} {scores[seat]:g}", flush=True)


def uecda_client(
    bot: Annotated[str, typer.Argument(help="a built-in Daifugo bot spec, or module:Class")],
    host: Annotated[str, typer.Option(help="the UECda server")] = "127.0.0.1",
    port: Annotated[int, typer.Option(min=1, max=65535, help="its TCP port")] = (DEFAULT_PORT),
    name: Annotated[str, typer.Option(help="the name sent in the profile (14 characters)")] = "",
    seed: Annotated[int | None, typer.Option(help="seed of the bot's choices")] = None,
    timeout: Annotated[
        float, typer.Option(min=1.0, help="seconds to wait for the server's next message")
    ] = 600.0,
) -> None:
    """Play a dennou bot on a UECda server (protocol 20070) until the server says all is over."""
    from dennou.arena.bots import load_bot
    from dennou.uecda.client import play

    try:
        loaded = load_bot(bot)
    except ConfigError as exc:
        raise typer.BadParameter(exc.message, param_hint="BOT") from None
    started = time.monotonic()
    try:
        summary = play(
            loaded,
            host,
            port,
            name=name or bot.split(":")[0][:14],
            seed=seed,
            timeout=timeout,
            progress=lambda line: print(line, file=sys.stderr, flush=True),
        )
    except DennouError as exc:
        print(f"dennou: {exc.message}", file=sys.stderr)
        raise typer.Exit(1) from None
    except OSError as exc:
        print(f"dennou: cannot play on {host}:{port}: {exc}", file=sys.stderr)
        raise typer.Exit(1) from None
    print(
        f"player {summary.player}: {summary.games} games in {time.monotonic() - started:.1f} s, "
        f"{summary.points} points, {summary.rejected} plays rejected",
        flush=True,
    )


__all__ = ["uecda_client", "uecda_serve"]
