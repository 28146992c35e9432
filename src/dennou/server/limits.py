"""The host's limits: every resource a client can make the server spend is bounded here.

One frozen struct, documented field by field in ``docs/security.md`` (a test keeps the two in
step) and set on the command line with ``dennou serve --limit NAME=VALUE`` (repeatable).
"""

from __future__ import annotations

import typing
from typing import Annotated, Any

import msgspec
from msgspec import Meta

from dennou.core.errors import ConfigError


class Limits(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """Bounds on what clients may make the host do (defaults suit a public contest server)."""

    # --- messages and connections ---------------------------------------------------------
    message_bytes: Annotated[
        int, Meta(ge=256, description="largest WebSocket message or HTTP body, in bytes")
    ] = 16 * 1024
    frame_bytes: Annotated[
        int, Meta(ge=1024, description="a WebSocket frame above this closes the socket (1009)")
    ] = 1 << 20
    json_depth: Annotated[int, Meta(ge=2, description="deepest nesting of a JSON message")] = 32
    rate: Annotated[float, Meta(gt=0, description="messages per second per connection")] = 50.0
    burst: Annotated[float, Meta(ge=1, description="messages at once per connection")] = 100.0
    header_timeout: Annotated[
        float,
        Meta(
            gt=0, description="seconds an HTTP request head (request line, headers) has to arrive"
        ),
    ] = 10.0
    pending_per_address: Annotated[
        int,
        Meta(ge=1, description="connections per IP address still sending a request head"),
    ] = 32
    hello_timeout: Annotated[
        float, Meta(gt=0, description="seconds a new WebSocket has to say hello")
    ] = 10.0
    body_timeout: Annotated[
        float, Meta(gt=0, description="seconds an HTTP request body has to arrive")
    ] = 10.0
    send_queue_bytes: Annotated[
        int,
        Meta(
            ge=65536,
            description="bytes queued for a client that does not read before it is dropped",
        ),
    ] = 4 << 20
    connections_per_address: Annotated[
        int, Meta(ge=1, description="open WebSockets per client IP address")
    ] = 64
    connections_per_account: Annotated[
        int, Meta(ge=1, description="open WebSockets per account")
    ] = 8
    # --- accounts and tables --------------------------------------------------------------
    accounts_per_address: Annotated[
        int, Meta(ge=1, description="accounts one IP address may register per hour")
    ] = 20
    tables_per_account: Annotated[
        int,
        Meta(ge=1, description="tables an account may have waiting or playing that it created"),
    ] = 10
    model_seats_per_account: Annotated[
        int,
        Meta(
            ge=0,
            description="seats of declared language models (serve --llm) on tables an account "
            "created that are waiting or playing",
        ),
    ] = 4
    tournaments_per_account: Annotated[
        int,
        Meta(ge=1, description="tournaments an account may have created, running or paused"),
    ] = 3
    waiting_table_ttl: Annotated[
        float,
        Meta(gt=0, description="seconds a waiting table with nobody connected is kept open"),
    ] = 1800.0
    table_steps: Annotated[
        int,
        Meta(ge=100, description="steps after which a game still on ends, nobody winning"),
    ] = 100_000
    table_loads: Annotated[
        int,
        Meta(ge=1, le=64, description="tables not in memory restored at once (off the loop)"),
    ] = 2
    uecda_tables_per_address: Annotated[
        int,
        Meta(
            ge=1,
            description="UECda tables not yet started at which clients of one IP address sit",
        ),
    ] = 2
    page_size: Annotated[int, Meta(ge=1, description="tables in a page when none is asked")] = 50
    page_max: Annotated[
        int, Meta(ge=1, description="most tables (or games that are over) in one page")
    ] = 200
    games_page_size: Annotated[
        int, Meta(ge=1, description="games that are over in a page when none is asked")
    ] = 30
    tournaments_listed: Annotated[
        int, Meta(ge=1, description="most tournaments one listing answers (the newest)")
    ] = 200
    seats_wait: Annotated[
        float, Meta(ge=0, description="longest wait of a tournament seats poll, seconds")
    ] = 30.0
    seats_known: Annotated[
        int, Meta(ge=0, description="most tables a tournament seats poll names as known")
    ] = 1000
    reports_per_account: Annotated[
        int,
        Meta(ge=1, description="reports of talk by one account waiting for the operators"),
    ] = 20
    rating_points: Annotated[
        int, Meta(ge=1, description="most points of a player's rating chart in one answer")
    ] = 1000
    # --- sign-in --------------------------------------------------------------------------
    sign_in_per_address: Annotated[
        int, Meta(ge=1, description="sign-in attempts one IP address may make per minute")
    ] = 20
    sign_in_failures_per_account: Annotated[
        int,
        Meta(ge=1, description="failed sign-ins to one account per hour before more wait"),
    ] = 20
    password_hashes: Annotated[
        int, Meta(ge=1, le=64, description="passwords hashed at once (argon2: 64 MiB each)")
    ] = 2
    session_ttl: Annotated[
        int, Meta(ge=1, description="seconds a browser session lasts after sign-in")
    ] = 30 * 24 * 3600
    sessions_per_account: Annotated[
        int, Meta(ge=1, description="browser sessions an account keeps (the oldest go first)")
    ] = 20
    tokens_per_account: Annotated[int, Meta(ge=1, description="API tokens an account may hold")] = (
        20
    )
    # --- talk -----------------------------------------------------------------------------
    talk_rate_account: Annotated[
        float, Meta(gt=0, description="talk lines per second per account (all its tables)")
    ] = 1.0
    talk_burst_account: Annotated[
        float, Meta(ge=1, description="talk lines at once per account")
    ] = 5.0
    talk_rate_table: Annotated[
        float, Meta(gt=0, description="talk lines per second per table (everyone together)")
    ] = 5.0
    talk_burst_table: Annotated[float, Meta(ge=1, description="talk lines at once per table")] = (
        20.0
    )
    mutes_per_table: Annotated[
        int, Meta(ge=1, description="accounts a table's owner or an operator may mute there")
    ] = 100
    # --- clocks ---------------------------------------------------------------------------
    time_limit_min: Annotated[
        float, Meta(gt=0, description="shortest clock a table may set (seconds per decision)")
    ] = 1.0
    time_limit_max: Annotated[
        float, Meta(gt=0, description="longest clock a table may set (seconds per decision)")
    ] = 3600.0
    time_limit_default: Annotated[
        float, Meta(gt=0, description="clock of a table that sets none, where the game has none")
    ] = 60.0
    time_bank_max: Annotated[
        float,
        Meta(ge=0, description="longest time bank a table may give each seat, seconds"),
    ] = 3600.0
    absent_grace_min: Annotated[
        float, Meta(gt=0, description="shortest wait for a disconnected seat a table may set")
    ] = 1.0
    absent_grace_max: Annotated[
        float, Meta(gt=0, description="longest wait for a disconnected seat a table may set")
    ] = 600.0
    absent_grace_default: Annotated[
        float, Meta(gt=0, description="wait for a disconnected seat when the table sets none")
    ] = 5.0
    claim_grace_min: Annotated[
        float,
        Meta(gt=0, description="shortest time the others must be away before a claim, seconds"),
    ] = 30.0
    claim_grace_clocks: Annotated[
        float,
        Meta(ge=0, description="time the others must be away before a claim, in table clocks"),
    ] = 2.0
    reveal_pace: Annotated[
        float,
        Meta(ge=0, le=60, description="seconds before each chance step while people watch"),
    ] = 0.8
    deal_pause: Annotated[
        float,
        Meta(ge=0, le=60, description="seconds before the next deal of a set while people watch"),
    ] = 4.0
    # --- replays ---------------------------------------------------------------------------
    replay_cache_bytes: Annotated[
        int, Meta(ge=1 << 20, description="memory the replays kept for the browser may use")
    ] = 256 << 20
    replay_steps: Annotated[
        int, Meta(ge=1, description="most steps in a record file replayed for the browser")
    ] = 50_000
    replay_frames: Annotated[int, Meta(ge=1, description="most replay frames in one answer")] = 100
    record_file_bytes: Annotated[
        int, Meta(ge=1024, description="largest record file sent to be replayed, in bytes")
    ] = 8 * 1024 * 1024
    replay_rate_address: Annotated[
        float, Meta(gt=0, description="record-file replay requests per second per IP address")
    ] = 2.0
    replay_burst_address: Annotated[
        float, Meta(ge=1, description="record-file replay requests at once per IP address")
    ] = 30.0
    # --- bots -----------------------------------------------------------------------------
    bot_workers: Annotated[
        int, Meta(ge=1, le=64, description="worker processes that run built-in bots")
    ] = 2
    engine_workers: Annotated[
        int,
        Meta(ge=1, le=64, description="worker processes for expensive engine steps and views"),
    ] = 1
    bot_queue: Annotated[
        int,
        Meta(
            ge=1,
            description="bot decisions one account may have waiting per worker before its "
            "tables wait too",
        ),
    ] = 256
    bot_seconds_per_minute: Annotated[
        float,
        Meta(
            gt=0,
            description="seconds of bot thinking per minute per account (all its tables; "
            "past it they wait)",
        ),
    ] = 60.0
    bot_overrun_grace: Annotated[
        float,
        Meta(
            ge=0,
            description="seconds a bot may think past its clock (the seat defaulted) before "
            "its worker is killed",
        ),
    ] = 3.0

    def __post_init__(self) -> None:
        if self.time_limit_min > self.time_limit_max:
            raise ValueError("time_limit_min > time_limit_max")
        if not self.time_limit_min <= self.time_limit_default <= self.time_limit_max:
            raise ValueError("time_limit_default is outside [time_limit_min, time_limit_max]")
        if self.absent_grace_min > self.absent_grace_max:
            raise ValueError("absent_grace_min > absent_grace_max")
        if not self.absent_grace_min <= self.absent_grace_default <= self.absent_grace_max:
            raise ValueError("absent_grace_default is outside its bounds")

    def with_options(self, options: dict[str, Any]) -> Limits:
        """These limits with some replaced (values may be strings, as from a command line).

        Raises:
            ConfigError: An unknown limit or an impossible value.
        """
        unknown = set(options) - set(self.__struct_fields__)
        if unknown:
            raise ConfigError(
                f"unknown limit {sorted(unknown)[0]!r}; limits: {', '.join(self.__struct_fields__)}"
            )
        data = {**msgspec.structs.asdict(self), **options}
        try:
            return msgspec.convert(data, Limits, strict=False)
        except msgspec.ValidationError as exc:
            raise ConfigError(f"invalid limits: {exc}") from None


def parse_limits(items: list[str], base: Limits | None = None) -> Limits:
    """Limits from ``NAME=VALUE`` strings (``dennou serve --limit``).

    Raises:
        ConfigError: Not ``NAME=VALUE``, an unknown name, or an impossible value.
    """
    options: dict[str, Any] = {}
    for item in items:
        name, sep, value = item.partition("=")
        if not sep:
            raise ConfigError(f"--limit {item!r}: write NAME=VALUE")
        options[name.strip().replace("-", "_")] = value.strip()
    return (base or Limits()).with_options(options)


def describe() -> list[tuple[str, Any, str]]:
    """``(name, default, description)`` of every limit (for the docs and ``--help``)."""
    hints = typing.get_type_hints(Limits, include_extras=True)
    out = []
    for field in msgspec.structs.fields(Limits):
        hint = hints[field.name]
        description = ""
        for meta in getattr(hint, "__metadata__", ()):
            if isinstance(meta, Meta) and meta.description:
                description = meta.description
        out.append((field.name, field.default, description))
    return out


__all__ = ["Limits", "describe", "parse_limits"]
