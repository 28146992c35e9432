"""Command functions for ``dennou serve`` and ``dennou bot run`` (typer-compatible).

The project CLI registers them (``app.command("serve")(serve)``); ``python -m dennou.server``
runs them directly.
"""

from __future__ import annotations

import asyncio
import errno
import json
import os
import socket
import sys
import urllib.parse
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from dennou import __version__
from dennou.core.errors import ConfigError, DennouError
from dennou.core.urls import FORMS, host_urls

if TYPE_CHECKING:
    from dennou.core.bot import Bot
    from dennou.core.game import Game
    from dennou.server.hub import Hub

CHECK_MESSAGES_ENV = "DENNOU_CHECK_MESSAGES"
"""Test mode: a file path; the server checks every message it sends against the protocol's JSON
Schemas and appends each one that does not validate to that file (the test servers read it)."""


def command_line() -> typer.Typer:
    """The ``dennou`` command line without its commands: the root's help and ``--version``."""
    app = typer.Typer(
        help="dennou (電脳): Japanese mind games — engines, bots, matches, replays.",
        no_args_is_help=True,
        add_completion=False,
        pretty_exceptions_enable=False,
    )
    app.callback()(_options)
    return app


def serve_command_line() -> typer.Typer:
    """``dennou`` with only its ``serve`` command: ``dennou serve`` starts without the others."""
    app = command_line()
    app.command("serve")(serve)
    return app


def run_command_line(app: typer.Typer, plain: tuple[str, ...] = ()) -> None:
    """Run ``app``; an error is one line on stderr (exit code 2), not a traceback.

    Args:
        app: The command line.
        plain: Commands whose options read plain values without Pydantic
            (:mod:`dennou.server.plainoptions`).
    """
    root = click_command(app)
    if plain:
        from dennou.server.plainoptions import plain_values

        plain_values(root)
        for name in plain:
            plain_values(root.commands[name])
    try:
        # without standalone mode, click returns a typer.Exit's code rather than raising it
        code = root(standalone_mode=False)
        if isinstance(code, int) and code:
            sys.exit(code)
    except typer.Exit as exc:
        sys.exit(exc.exit_code)
    except (typer.Abort, KeyboardInterrupt):
        sys.exit(130)
    except typer.TyperException as exc:  # a bad option or argument: what, and where to look
        ctx = getattr(exc, "ctx", None)
        more = f" (see: {ctx.command_path} --help)" if ctx is not None else ""
        format_message = getattr(exc, "format_message", None)
        message = format_message() if callable(format_message) else str(exc)
        _fail(f"{message}{more}".replace("\n", " "), int(getattr(exc, "exit_code", 2)))
    except DennouError as exc:
        _fail(exc.message)
    except OSError as exc:  # a file or a host that cannot be reached
        _fail(str(exc) or type(exc).__name__)
    except Exception as exc:
        if type(exc).__module__.partition(".")[0] not in ("httpx", "httpcore", "websockets"):
            raise
        _fail(f"cannot reach the server: {exc or type(exc).__name__}")


def click_command(app: typer.Typer) -> Any:
    """``app`` as click runs it, on/off flags shown without a value placeholder.

    Typer shows a ``<bool>`` type beside every flag, as if ``--json true`` were accepted.
    """
    root = typer.main.get_command(app)

    def plain(cmd: Any) -> None:  # typer's own click: duck-typed
        for param in cmd.params:
            if getattr(param, "is_flag", False):
                param.metavar = ""
        help_option = cmd.get_help_option

        def get_help_option(ctx: Any) -> Any:
            option = help_option(ctx)
            if option is not None:
                option.metavar = ""
            return option

        cmd.get_help_option = get_help_option
        for sub in getattr(cmd, "commands", {}).values():
            plain(sub)

    plain(root)
    return root


def _fail(message: str, code: int = 2) -> None:
    from rich.console import Console

    Console(stderr=True, highlight=False, soft_wrap=True).print(f"error: {message}", markup=False)
    sys.exit(code)


def _version(value: bool) -> None:
    if value:
        print(f"dennou {__version__}")
        raise typer.Exit()


def _options(
    version: Annotated[
        bool,
        typer.Option(
            "--version", callback=_version, is_eager=True, help="print the version and exit"
        ),
    ] = False,
) -> None:
    """Japanese mind games — engines, bots, matches, replays (電脳)."""


def serve(
    host: Annotated[str, typer.Option(help="interface to listen on")] = "127.0.0.1",
    port: Annotated[
        int, typer.Option(min=0, max=65535, help="TCP port (0: any free port, printed)")
    ] = 8000,
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
    uecda_port: Annotated[
        int | None,
        typer.Option(
            min=0, max=65535, help="also accept UECda (protocol 20070) clients on this TCP port"
        ),
    ] = None,
    uecda_games: Annotated[
        int, typer.Option(min=1, max=10_000, help="games in each UECda table's set")
    ] = 10,
    uecda_bots: Annotated[
        str, typer.Option(help="built-in bots for the seats no UECda client takes (a,b,...)")
    ] = "",
    uecda_fill_after: Annotated[
        float, typer.Option(min=0.0, help="seconds before those bots sit down")
    ] = 30.0,
    warm: Annotated[
        bool,
        typer.Option(
            help="compile the bots' native code in a background process at start (dennou warm)"
        ),
    ] = True,
    secure_cookies: Annotated[
        bool,
        typer.Option(
            help="the host is reached over HTTPS (a proxy terminates TLS): Secure cookies, HSTS"
        ),
    ] = False,
    broker: Annotated[
        str | None,
        typer.Option(
            help="a Redis URL (redis://host:port/0): run as one process of a cluster sharing "
            "--db (PostgreSQL) and this broker (docs/architecture.md)",
            envvar="DENNOU_BROKER",
        ),
    ] = None,
    site: Annotated[
        str,
        typer.Option(
            help="the cluster's name: its processes share it (their keys in the broker)",
            envvar="DENNOU_SITE",
        ),
    ] = "dennou",
    remote_bots: Annotated[
        bool,
        typer.Option(
            help="with --broker: built-in bots think in `dennou cluster bots` processes fed "
            "from the broker, not in worker processes of this one"
        ),
    ] = False,
    llm: Annotated[
        list[str] | None,
        typer.Option(
            help="seat a language model as a bot (repeatable): NAME=URL[,model=M][,key_env=VAR]"
            " (an OpenAI-compatible endpoint; the key is read from $VAR, default OPENAI_API_KEY)"
        ),
    ] = None,
    llm_log: Annotated[
        str | None,
        typer.Option(help="append every exchange with a model here (operators only; JSON lines)"),
    ] = None,
) -> None:
    """Host every game: the web page at /, the lobby API at /api (docs at /docs), WebSocket /ws."""
    import uvicorn
    from starlette.applications import Starlette
    from starlette.middleware import Middleware

    from dennou.server.boot import STARTUP_FAILURE, Booting
    from dennou.server.collector import LongLivedObjects
    from dennou.server.httpprotocol import host_http_protocol
    from dennou.server.limits import parse_limits
    from dennou.server.security import SecurityHeaders
    from dennou.server.wsprotocol import HostWebSocketProtocol
    from dennou.web import routes as web_routes

    try:
        limits = parse_limits(list(limit or []))
    except ConfigError as exc:
        raise typer.BadParameter(exc.message, param_hint="--limit") from None
    operators = [o for item in operator or [] for o in item.split(",") if o.strip()]
    if broker is not None and not (db or "").startswith("postgresql"):
        raise typer.BadParameter(
            "a cluster's processes share one PostgreSQL: give --db postgresql://...",
            param_hint="--broker",
        )
    if remote_bots and broker is None:
        raise typer.BadParameter("remote bots are fed from the broker: give --broker too")
    models = _declare_models(llm or [], llm_log)
    uecda = None
    if uecda_port is not None:
        from dennou.uecda.listener import UecdaOptions, parse_bots

        try:
            bots = parse_bots(uecda_bots)
        except ConfigError as exc:
            raise typer.BadParameter(exc.message, param_hint="--uecda-bots") from None
        options = UecdaOptions(games=uecda_games, bots=bots, fill_after=uecda_fill_after)
        uecda = (host, uecda_port, options)

    # bind first: a busy port is one line, and the banner shows what is really bound
    listening = listen(host, port)
    bound_host, bound_port = listening.getsockname()[:2]
    shown = f"[{bound_host}]" if ":" in bound_host else bound_host

    def started(hub: Hub) -> None:
        base = f"http://{shown}:{bound_port}"
        lines = [
            f"dennou {__version__} serving {len(hub.games)} games",
            f"  web page   {base}/",
            f"  API        {base}/api   (interactive docs {base}/docs)",
            f"  WebSocket  ws://{shown}:{bound_port}/ws",
            f"  data       {_where(db, data_dir)}",
        ]
        if hub.cluster is not None:
            lines.append(f"  cluster    {hub.cluster.name} (broker {_where(broker, '')})")
        if uecda is not None:
            lines.append(f"  UECda      {shown}:{hub_uecda_port(hub)} (protocol 20070)")
        if operators:
            lines.append(f"  operators  {', '.join(operators)}")
        if models:
            lines.append(f"  models     {', '.join(models)}")
        print("\n".join(lines), flush=True)
        LongLivedObjects().install()

    if warm:
        warm_in_background()
    # The store's writer thread and the event loop hand the GIL to each other for every step;
    # the default 5 ms switch interval would add up to that to each hand-off.
    sys.setswitchinterval(0.0005)

    def build() -> Starlette:
        from dennou.server.app import create_app

        return create_app(
            db,
            data_dir,
            limits=limits,
            operators=operators,
            on_start=started,
            rate=rate,
            burst=burst,
            check_messages=os.environ.get(CHECK_MESSAGES_ENV) or None,
            uecda=uecda,
            secure_cookies=secure_cookies,
            broker=broker,
            site=site,
            remote_bots=remote_bots,
        )

    def stop() -> None:
        server.should_exit = True

    # The pages answer while the store opens and the host's modules load (dennou.server.boot).
    pages = Starlette(
        routes=web_routes.routes(),
        middleware=[Middleware(SecurityHeaders, hsts=secure_cookies)],
    )
    app = Booting(build, pages, on_failure=stop)
    config = uvicorn.Config(
        app,
        host=bound_host,
        port=bound_port,
        log_level=log_level,
        ws_max_size=limits.frame_bytes,
        ws=HostWebSocketProtocol,
        http=host_http_protocol(limits),  # request heads have a deadline (docs/security.md)
        ws_per_message_deflate=False,  # compressing every view costs more CPU than it saves
        ws_ping_interval=20,
        ws_ping_timeout=20,
        lifespan="on",
    )
    server = uvicorn.Server(config)
    server.run(sockets=[listening])
    if app.failed:
        sys.exit(STARTUP_FAILURE)


def _declare_models(items: list[str], log: str | None) -> list[str]:
    """Declare ``--llm`` models (checked now: a bad one stops the start) and the audit log."""
    if log:
        from dennou.arena.llm import LOG_ENV

        # bot workers are spawned from this process: they inherit the variable
        os.environ[LOG_ENV] = str(Path(log).resolve())
    if not items:  # the games (and their bots' modules) load with the host, not before it
        return []
    from dennou.arena.bots import GENERIC_BOTS
    from dennou.arena.llm import declare_model, parse_declaration
    from dennou.games import REGISTRY

    taken = set(GENERIC_BOTS)
    for name in REGISTRY:
        taken |= set(REGISTRY[name].bots())
    shown = []
    for item in items:
        try:
            name, options = parse_declaration(item)
        except ConfigError as exc:
            raise typer.BadParameter(exc.message, param_hint="--llm") from None
        if name in taken:
            raise typer.BadParameter(f"{name!r} is a built-in bot's name", param_hint="--llm")
        taken.add(name)
        declare_model(name, options)
        shown.append(f"{name} ({options['base_url']})")
    return shown


def listen(host: str, port: int) -> socket.socket:
    """A listening TCP socket on ``host:port``.

    Raises:
        DennouError: The address cannot be had (in use, not this machine's): one line saying so.
    """
    try:
        family, kind, proto, _, address = socket.getaddrinfo(
            host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE
        )[0]
        sock = socket.socket(family, kind, proto)
    except OSError as exc:
        raise DennouError(f"cannot listen on {host}:{port}: {exc.strerror or exc}") from None
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(address)
        sock.listen(2048)
    except OSError as exc:
        sock.close()
        why = "the port is in use" if exc.errno == errno.EADDRINUSE else exc.strerror or exc
        raise DennouError(
            f"cannot listen on {host}:{port}: {why} (choose another with --port)"
        ) from None
    sock.set_inheritable(True)
    return sock


def warm_in_background() -> None:
    """Start ``dennou warm`` in a low-priority process.

    The first bot decisions on a fresh install then load compiled code instead of compiling it
    within a table's clock.
    """
    import subprocess

    def lower_priority() -> None:
        os.nice(10)

    subprocess.Popen(
        [sys.executable, "-m", "dennou", "warm", "--quiet"],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        preexec_fn=lower_priority,  # safe: no threads exist yet at this point
    )


def hub_uecda_port(hub: Any) -> int:
    """The port the host's UECda listener took (``--uecda-port 0``: whichever was free)."""
    return int(hub.uecda.port) if hub.uecda is not None else 0


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


def _log_bridge_to_stderr() -> None:
    """Show the program's stderr and the bridge's reports (``dennou.bridge``) on stderr."""
    import logging

    bridge_log = logging.getLogger("dennou.bridge")
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(logging.Formatter("bot %(message)s"))
    bridge_log.addHandler(handler)
    bridge_log.setLevel(logging.INFO)
    bridge_log.propagate = False


def bot_run(
    target: Annotated[
        str | None,
        typer.Argument(help="module:Class of a Bot, or a built-in bot spec (or give --cmd)"),
    ] = None,
    server: Annotated[
        str, typer.Option(help=f"the host: {FORMS}", envvar="DENNOU_SERVER")
    ] = "ws://127.0.0.1:8000/ws",
    token: Annotated[str, typer.Option(help="your account's token", envvar="DENNOU_TOKEN")] = "",
    table: Annotated[str | None, typer.Option(help="table id to join")] = None,
    join: Annotated[str | None, typer.Option(help="game to join (or open a table of)")] = None,
    games: Annotated[int, typer.Option(min=1, help="games to play one after another")] = 1,
    seed: Annotated[int | None, typer.Option(help="seed of the bot's choices")] = None,
    as_json: Annotated[
        bool, typer.Option("--json", help="print one JSON line per game (progress to stderr)")
    ] = False,
    tournament: Annotated[
        str | None, typer.Option(help="a tournament id: play every seat it gives you")
    ] = None,
    cmd: Annotated[
        str | None,
        typer.Option(
            help="a program that plays over JSON lines on stdin/stdout (docs/protocol.md, "
            'the engine bridge), e.g. "./mybot --depth 3"; restarted for each game'
        ),
    ] = None,
) -> None:
    """Run a bot on a server: check it can play the game, take a seat, play, report the result.

    The bot is tried on a decision of the game before it takes a seat, so a bot that cannot play
    it never holds one. Ctrl-C before the game begins gives the seat back. With --cmd, the bot is
    a program in any language (its stderr and the bridge's reports go to stderr).
    """
    from rich.console import Console

    from dennou.arena.bots import load_bot
    from dennou.core import native

    if (target is None) == (cmd is None):
        raise typer.BadParameter("give a bot (module:Class or a bot spec) or --cmd, not both")
    if cmd is not None:
        from dennou.arena.bridge import COMMAND, command_argv

        try:
            command_argv(cmd)
        except ConfigError as exc:
            raise typer.BadParameter(exc.message) from None
        target = COMMAND + cmd
        _log_bridge_to_stderr()
    assert target is not None
    if not token:
        raise typer.BadParameter("a token is needed (--token or DENNOU_TOKEN)")
    server = host_urls(server).ws
    # the seat's clock bounds each decision: no first decision waits for a compiler
    native.set_mode(os.environ.get(native.ENV, "play-on"))
    note = Console(stderr=True, highlight=False, soft_wrap=True)
    native.on_fallback(
        lambda code: note.print(
            f"compiling the {code.name} code in the background (`dennou warm` does it ahead); "
            "playing the fallback meanwhile",
            markup=False,
        )
    )
    if tournament is not None:  # a remote entrant of a host tournament
        import httpx

        from dennou.client import ServerError
        from dennou.client.tournament import play_tournament

        tell = Console(stderr=as_json, highlight=False, soft_wrap=True)

        def seated(info: dict[str, Any]) -> None:
            tell.print(
                f"tournament {tournament}: playing table {info['table']} as seat {info['seat']}",
                markup=False,
            )

        try:
            played = asyncio.run(
                play_tournament(
                    load_bot(target), server, token, tournament, seed=seed, on_table=seated
                )
            )
        except ServerError as exc:
            raise DennouError(f"the server refused: {exc.message}") from None
        except (ConnectionError, OSError, httpx.HTTPError) as exc:
            raise unreachable(server, exc) from None
        for result in played:
            line = {"table": result.table, "seat": result.seat, "outcome": result.outcome}
            if as_json:
                print(json.dumps(line), flush=True)
            else:
                tell.print(f"table {result.table}: {_result_text(result)}", markup=False)
        if not as_json:
            tell.print(
                f"tournament {tournament} is over: {len(played)} of your games played", markup=False
            )
        return
    if (table is None) == (join is None):
        raise typer.BadParameter("give exactly one of --table and --join")
    say = Console(stderr=as_json, highlight=False, soft_wrap=True)
    target_bot = load_bot(target)
    try:
        for number in range(1, games + 1):
            if games > 1:
                say.print(f"game {number} of {games}", markup=False)
            result = asyncio.run(
                _run_one(target, target_bot, server, token, table, join, seed, say)
            )
            if as_json:
                line = {"table": result.table, "seat": result.seat, "outcome": result.outcome}
                print(json.dumps(line), flush=True)
            if join is None:
                break
    except KeyboardInterrupt:
        say.print("stopped", markup=False)
        raise typer.Exit(130) from None
    except DennouError as exc:  # one line, whichever command line runs this
        Console(stderr=True, highlight=False, soft_wrap=True).print(
            f"error: {exc.message}", markup=False
        )
        raise typer.Exit(2) from None


async def _run_one(
    target: str,
    made: Bot | Any,
    server: str,
    token: str,
    table: str | None,
    join: str | None,
    seed: int | None,
    say: Any,
) -> Any:
    """Check the bot against the game, then play one game with it, saying what happens."""
    import httpx

    from dennou.client import ServerError, run_bot
    from dennou.games import REGISTRY

    rules: dict[str, Any] = {}
    seats: int | None = None
    try:
        if table is not None:
            async with httpx.AsyncClient(timeout=10) as http:
                reply = await http.get(f"{_http_base(server)}/api/tables/{table}")
            if reply.status_code == 404:
                raise ConfigError(f"no table {table!r} on {server}")
            reply.raise_for_status()
            info = reply.json()
            if info["status"] == "finished":
                raise ConfigError(f"table {table} has finished")
            game_name, rules, seats = info["game"], info["rules"], len(info["seats"])
        else:
            assert join is not None
            game_name = join
        if game_name not in REGISTRY:
            raise ConfigError(f"unknown game {game_name!r}; games: {', '.join(REGISTRY)}")
        game = REGISTRY[game_name]
        bot = _build(target, made, game)
        check_bot(game, game.make_rules(rules), bot, seats)
        report = _Reporter(say, server, table)
        return await run_bot(
            bot, server, token, table=table, join=join, seed=seed, on_message=report
        )
    except ServerError as exc:
        raise DennouError(f"the server refused: {exc.message}") from None
    except (ConnectionError, OSError, httpx.HTTPError) as exc:
        raise unreachable(server, exc) from None


def _result_text(result: Any) -> str:
    """``seat 1, rank 2 of 3, score 0.5`` of a remote bot's game."""
    ranks, scores = result.outcome.get("ranks", []), result.outcome.get("scores", [])
    seat = result.seat
    if not 0 <= seat < len(ranks):
        return f"seat {seat}, no result"
    return f"seat {seat}, rank {ranks[seat]} of {len(ranks)}, score {scores[seat]:g}"


def unreachable(server: str, exc: BaseException) -> DennouError:
    """The one-line error of a host that cannot be reached."""
    return DennouError(
        f"cannot reach a dennou server at {server} ({_reason(exc)}); start one with "
        "`dennou serve`, or pass --server (or DENNOU_SERVER)"
    )


def _reason(exc: BaseException) -> str:
    while exc.__cause__ is not None:
        exc = exc.__cause__
    return str(exc) or type(exc).__name__


def _build(target: str, made: Bot | Any, game: Game[Any, Any]) -> Bot:
    """The bot for ``game`` (a built-in spec is built for it; a class taking ``game`` too)."""
    from dennou.core.bot import Bot

    bot = made if isinstance(made, Bot) else made(game)
    if not isinstance(bot, Bot):
        raise ConfigError(f"{target} did not make a dennou.core.bot.Bot for {game.spec.name}")
    return bot


def check_bot(game: Game[Any, Any], rules: Any, bot: Bot, players: int | None = None) -> None:
    """Try ``bot`` on the first decision of a game of ``rules``; raise if it cannot play it.

    A game where nobody decides anything (10-card stud) needs no check.

    Raises:
        ConfigError: The bot raised, or chose something that is not a legal action.
    """
    from dennou.arena.warmup import first_decision
    from dennou.core.rng import make_rng

    spec = game.spec
    n = players or min(max(game.default_players(rules), spec.min_players), spec.max_players)
    names = [f"p{i}" for i in range(n)]
    rng = make_rng(0, "check")
    found = first_decision(game, rules, names, rng)
    if found is None:
        return
    state, seat = found
    legal = game.legal_actions(state, seat)
    try:
        bot.reset(seat=seat, rules=rules, players=names)
        action = game.parse_action(bot.act(game.view(state, seat), legal, rng))
    except Exception as exc:
        raise ConfigError(
            f"the bot cannot play {game.spec.name}: on its first decision it raised "
            f"{type(exc).__name__}: {exc}"
        ) from None
    finally:
        bot.end(None)  # a trial, not a game: a program it runs stops (and restarts to play)
    if action not in legal:
        raise ConfigError(
            f"the bot cannot play {game.spec.name}: on its first decision it chose "
            f"{action}, which is not legal"
        )


class _Reporter:
    """Says what a remote bot is doing: waiting at a table, playing, the result."""

    def __init__(self, say: Any, server: str, table: str | None) -> None:
        self.say = say
        self.http = _http_base(server)
        self.table = table
        self.seat: int | None = None
        self.playing = False
        self.last = ""

    def line(self, text: str) -> None:
        if text != self.last:
            self.say.print(text, markup=False)
            self.last = text

    def __call__(self, msg: dict[str, Any]) -> None:
        kind = msg.get("type")
        if kind in ("view", "turn") and isinstance(msg.get("seat"), int):
            self.seat = msg["seat"]
        if kind == "table" and isinstance(msg.get("table"), dict):
            info = msg["table"]
            self.table = info["id"]
            if info["status"] == "waiting":
                seats = info["seats"]
                open_seats = sum(1 for s in seats if s["kind"] == "open")
                self.line(
                    f"waiting at table {info['id']} ({info['game']}): {len(seats) - open_seats}"
                    f" of {len(seats)} seats taken, {open_seats} open"
                )
        elif kind in ("view", "turn") and not self.playing and isinstance(msg.get("view"), dict):
            self.playing = True
            view = msg["view"]
            players = view.get("players")
            who = ", ".join(f"{i} {p}" for i, p in enumerate(players)) if players else "?"
            self.line(
                f"playing {view.get('game')} at table {msg['table']} as seat {self.seat}"
                f" (seats: {who})"
            )
        elif kind == "end":
            outcome = msg["outcome"]
            seat = self.seat
            ranks, scores = outcome.get("ranks", []), outcome.get("scores", [])
            if seat is not None and seat < len(ranks):
                self.line(
                    f"result: rank {ranks[seat]} of {len(ranks)}, score {scores[seat]:g} "
                    f"(record: {self.http}/api/tables/{msg['table']}/record)"
                )


def _http_base(server: str) -> str:
    """``http://host:port`` of a WebSocket URL (``ws://host:port/ws``)."""
    parts = urllib.parse.urlsplit(server)
    scheme = "https" if parts.scheme == "wss" else "http"
    return f"{scheme}://{parts.netloc}"
