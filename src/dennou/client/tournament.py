"""Play a host tournament as a remote entrant: every table the tournament seats you at.

The tournament holds a seat for your account at each of your matches as they come up;
:func:`play_tournament` hears of each from the host (a ``seat`` message pushed over a
WebSocket, with the long poll ``GET /api/tournaments/{id}/seats?known=`` as the fallback and to
learn that the tournament is over), plays each with :func:`dennou.client.run_bot` (several at
once if the host runs several tables), and returns when the tournament is over. It rides out a
host restart: lost connections are retried for ``reconnect_for`` seconds, and each table
resumes where it was.

Example::

    import asyncio
    from dennou.client.tournament import play_tournament
    from dennou.core.bot import RandomBot

    asyncio.run(play_tournament(RandomBot(), "ws://127.0.0.1:8000/ws", token, "u1a2b3c4d5"))
"""

from __future__ import annotations

import asyncio
import copy
import time
from collections.abc import Callable
from typing import Any

import httpx
from websockets.exceptions import ConnectionClosed, InvalidHandshake

from dennou.client import Client, GameResult, ServerError, run_bot
from dennou.client.urls import host_urls
from dennou.core.bot import Bot
from dennou.core.game import Game

__all__ = ["create_tournament", "http_url", "play_tournament", "watch_tournament"]


def http_url(server: str) -> str:
    """The HTTP base of a host given in any form (``ws://h:p/ws`` -> ``http://h:p``)."""
    return host_urls(server).http


async def play_tournament(
    bot: Bot | Callable[[Game[Any, Any]], Bot],
    server: str,
    token: str,
    tournament: str,
    *,
    seed: int | None = None,
    reconnect_for: float = 60.0,
    on_table: Callable[[dict[str, Any]], None] | None = None,
    keep_messages: bool = False,
) -> list[GameResult]:
    """Accept the tournament's invitation, then play every seat it gives this account.

    Returns when the tournament is over.

    Args:
        bot: A bot (copied for each table) or a factory given the game (called per table).
        server: The WebSocket URL (``ws://127.0.0.1:8000/ws``).
        token: The account's token.
        tournament: The tournament id.
        seed: Seeds the bot's choices (see :func:`run_bot`); the same seed, the same choices.
        reconnect_for: How long to keep retrying a lost host.
        on_table: Called with each new seat (``{"table", "seat", "match"}``).
        keep_messages: Keep every message of every table (tests use it).

    Returns:
        What each table gave, in the order the tables finished.

    Raises:
        ServerError: The host refused (an unknown tournament, a bad token).
        ConnectionError: The host was unreachable for longer than ``reconnect_for``.
    """
    base = http_url(server)
    headers = {"authorization": f"Bearer {token}"}
    playing: dict[str, asyncio.Task[GameResult]] = {}
    finished: list[asyncio.Task[GameResult]] = []
    lost_at: float | None = None

    def for_table() -> Bot | Callable[[Game[Any, Any]], Bot]:
        return copy.deepcopy(bot) if isinstance(bot, Bot) else bot

    async def play_table(table: str) -> GameResult:
        # a seat can be listed just before the host goes down: the first connection may then
        # fail too, and is retried like a lost one
        started = time.monotonic()
        while True:
            try:
                return await run_bot(
                    for_table(),
                    server,
                    token,
                    table=table,
                    seed=seed,
                    reconnect_for=reconnect_for,
                    keep_messages=keep_messages,
                )
            except ConnectionError:
                if time.monotonic() - started > reconnect_for:
                    raise
                await asyncio.sleep(0.2)
            except ServerError as exc:
                # the push listener holds one of the account's connections: a table needs it
                # more (the long poll still finds every seat)
                if exc.code != "limit_reached" or listener.done():
                    raise
                listener.cancel()
                await asyncio.sleep(0.2)

    def take(seat: dict[str, Any]) -> None:
        if seat["table"] in playing:
            return
        if on_table is not None:
            on_table(seat)
        task = asyncio.create_task(play_table(seat["table"]))
        task.add_done_callback(finished.append)
        playing[seat["table"]] = task

    def check_failures() -> None:
        for task in finished:
            if not task.cancelled() and task.exception() is not None:
                task.result()  # a table that failed fails the whole run

    listener = asyncio.create_task(_listen(server, token, tournament, take))
    try:
        async with httpx.AsyncClient(timeout=60) as http:
            await _accept(http, base, tournament, headers)
            while True:
                check_failures()
                try:
                    # the long poll answers when a seat we do not know appears (the push usually
                    # brings it first) or the tournament is over; else after POLL_WAIT seconds
                    reply = await http.get(
                        f"{base}/api/tournaments/{tournament}/seats",
                        params={"wait": POLL_WAIT, "known": ",".join(playing)},
                        headers=headers,
                    )
                    lost_at = None
                except httpx.HTTPError as exc:
                    now = time.monotonic()
                    lost_at = lost_at or now
                    if now - lost_at > reconnect_for:
                        raise ConnectionError(f"lost {base} for {reconnect_for:g} s") from exc
                    await asyncio.sleep(0.2)
                    continue
                if reply.status_code >= 500:
                    await asyncio.sleep(0.2)
                    continue
                data = reply.json()
                if reply.status_code >= 400:
                    raise ServerError(data)
                for seat in data["seats"]:
                    take(seat)
                if data["status"] in ("finished", "cancelled"):
                    await asyncio.gather(*playing.values())
                    return [task.result() for task in finished]
    finally:
        listener.cancel()
        for task in playing.values():  # a failure leaves no table playing on
            task.cancel()


POLL_WAIT = 30
"""Seconds a seats poll waits for a new seat (the host's most)."""


async def _listen(
    server: str, token: str, tournament: str, take: Callable[[dict[str, Any]], None]
) -> None:
    """Take every seat the host pushes (``seat`` messages) on a connection of our own.

    Best effort: the long poll finds every seat anyway, so a lost connection is opened again
    after a pause and a refused one (the account's connection limit) is given up.
    """
    while True:
        try:
            client = await Client.open(server, token)
        except ServerError:
            return
        except (OSError, TimeoutError, ConnectionError, InvalidHandshake, ConnectionClosed):
            await asyncio.sleep(1.0)
            continue
        try:
            while (msg := await client.messages.get()) is not None:
                if msg.get("type") == "seat" and msg.get("tournament") == tournament:
                    take({k: msg[k] for k in ("table", "seat", "match")})
        finally:
            await client.close()
        await asyncio.sleep(1.0)


async def _accept(
    http: httpx.AsyncClient, base: str, tournament: str, headers: dict[str, str]
) -> None:
    """Accept the tournament's invitation (again, harmlessly, when it was accepted before).

    Raises:
        ServerError: The host refused (not an entrant, no such tournament, a bad token).
        httpx.HTTPError: The host cannot be reached (the first contact is not retried).
    """
    reply = await http.post(f"{base}/api/tournaments/{tournament}/accept", headers=headers)
    if reply.status_code >= 400:
        raise ServerError(reply.json())


def create_tournament(server: str, token: str, body: dict[str, Any]) -> dict[str, Any]:
    """Create a tournament on a host (``POST /api/tournaments``); returns its info.

    Args:
        server: The host's HTTP (or WebSocket) URL.
        token: The owner's token.
        body: The request (see ``CreateTournament`` in ``dennou.server.tournaments``).

    Raises:
        ServerError: The host refused it (the message says why).
    """
    reply = httpx.post(
        f"{http_url(server)}/api/tournaments",
        json=body,
        headers={"authorization": f"Bearer {token}"},
        timeout=60,
    )
    data: dict[str, Any] = reply.json()
    if reply.status_code >= 400:
        raise ServerError(data)
    return data


def watch_tournament(
    server: str,
    tournament: str,
    on_update: Callable[[dict[str, Any]], None],
    *,
    every: float = 1.0,
) -> dict[str, Any]:
    """Follow a host tournament's standings until it is over; returns the last standings.

    Raises:
        ServerError: No such tournament.
    """
    url = f"{http_url(server)}/api/tournaments/{tournament}/standings"
    last_error: Exception | None = None
    with httpx.Client(timeout=60) as http:
        while True:
            try:
                reply = http.get(url)
            except httpx.HTTPError as exc:  # a host restart: keep watching
                last_error = exc
                time.sleep(every)
                continue
            data: dict[str, Any] = reply.json()
            if reply.status_code >= 400:
                raise ServerError(data) from last_error
            on_update(data)
            if data["status"] in ("finished", "cancelled"):
                return data
            time.sleep(every)
