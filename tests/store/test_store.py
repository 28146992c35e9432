"""The store against SQLite and a real PostgreSQL: the same tests, the same schema."""

from __future__ import annotations

import asyncio
import time

import msgspec
import pytest
import sqlalchemy as sa
from alembic import command
from alembic.config import Config

from dennou.arena.play import play
from dennou.core import record as rec
from dennou.core.bot import RandomBot
from dennou.core.errors import StoreError
from dennou.core.game import TalkLine
from dennou.core.record import Step
from dennou.games import REGISTRY
from dennou.store import AsyncStore, Store, TableRow, hash_token, schema
from dennou.store.schema import metadata
from dennou.store.store import MIGRATIONS


def table_row(table_id: str = "t1", status: str = "waiting") -> TableRow:
    return TableRow(
        id=table_id,
        game="numeron",
        version=1,
        rules={"digits": 3},
        seats=[{"kind": "open"}, {"kind": "bot", "bot": "random"}],
        options={"absent_grace": 5.0},
        players=None,
        status=status,
        seed=2**40 + 7,
        created_by="ann",
        created_at=time.time(),
    )


def test_migrated_schema_matches_the_metadata(store: Store) -> None:
    inspector = sa.inspect(store.engine)
    assert set(inspector.get_table_names()) >= set(metadata.tables)
    for name, table in metadata.tables.items():
        assert {c["name"] for c in inspector.get_columns(name)} == set(table.columns.keys())
    Store(store.url).close()  # migrating again is a no-op


def test_accounts_keep_only_a_hash_of_the_token(store: Store) -> None:
    token = store.create_account("ann")
    assert token is not None
    assert store.account_for_token(token) == "ann"
    assert store.account_for_token(token + "x") is None
    with store.engine.connect() as conn:
        stored = conn.execute(sa.text("SELECT token_hash FROM api_tokens")).scalar_one()
    assert stored == hash_token(token) and token not in stored
    with pytest.raises(StoreError, match="taken"):
        store.create_account("ann")
    assert store.account_exists("ann") and not store.account_exists("bob")


def test_tables_steps_and_records_round_trip(store: Store) -> None:
    game = REGISTRY["numeron"]
    record = play(game, None, [RandomBot(), RandomBot()], seed=4, max_steps=60_000)
    store.create_table(table_row())
    store.update_table("t1", status="playing", players=record.players, rules=record.rules)
    steps = list(record.steps)
    steps.append(Step(None, talk=TalkLine(None, "guest", "public", "gg")))
    store.append_steps(("t1", i, s) for i, s in enumerate(steps[:10]))
    store.append_steps(("t1", i, s) for i, s in enumerate(steps[10:], 10))
    assert store.steps("t1") == steps
    with pytest.raises(StoreError):
        store.append_steps([("t1", 3, steps[3])])
    assert [t.id for t in store.tables(["playing"])] == ["t1"]
    loaded = store.record("t1")
    assert loaded is not None and loaded.steps == steps and loaded.seed == 2**40 + 7
    store.finish_table(
        "t1",
        record.outcome or {},
        [
            {
                "account": "ann",
                "game": "numeron",
                "seat": 0,
                "result": "win",
                "score": 1.0,
                "rank": 1,
            }
        ],
        [("ann", "hilo", "balance", 1200)],
    )
    row = store.get_table("t1")
    assert row is not None and row.status == "finished" and row.outcome == record.outcome
    [again] = rec.loads(store.record("t1").dumps())  # type: ignore[union-attr]
    assert again.steps == steps
    history = store.history("ann")
    assert [(h["table_id"], h["result"]) for h in history] == [("t1", "win")]
    assert store.game_accounts("ann") == {"hilo": {"balance": 1200}}
    store.set_game_account("ann", "hilo", "balance", 900)
    assert store.game_accounts("ann", "hilo") == {"hilo": {"balance": 900}}


@pytest.mark.parametrize("threaded", [False, True])
def test_async_store_group_commits_in_order(store: Store, threaded: bool) -> None:
    store.create_table(table_row())
    async_store = AsyncStore(store, threaded=threaded)

    async def write() -> None:
        await asyncio.gather(
            *(
                async_store.append_step("t1", i, Step(0, action={"type": "x", "i": i}))
                for i in range(200)
            )
        )
        assert await async_store.call(store.account_exists, "nobody") is False

    asyncio.run(write())
    assert [s.action["i"] for s in store.steps("t1")] == list(range(200))  # type: ignore[index]
    assert async_store.commits < 200  # grouped
    async_store.close()


@pytest.mark.parametrize("threaded", [False, True])
def test_a_failed_step_write_fails_only_its_caller(store: Store, threaded: bool) -> None:
    store.create_table(table_row())
    async_store = AsyncStore(store, threaded=threaded)

    async def write() -> tuple[BaseException | None, ...]:
        return await asyncio.gather(
            async_store.append_step("t1", 0, Step(0, action={"type": "a"})),
            async_store.append_step("t1", 0, Step(0, action={"type": "dup"})),
            async_store.append_step("t1", 1, Step(0, action={"type": "b"})),
            return_exceptions=True,
        )

    outcomes = asyncio.run(write())
    assert outcomes[0] is None and isinstance(outcomes[1], StoreError) and outcomes[2] is None
    assert [s.action["type"] for s in store.steps("t1")] == ["a", "b"]  # type: ignore[index]
    async_store.close()


@pytest.mark.parametrize("threaded", [False, True])
def test_async_store_serves_one_event_loop_after_another_and_skips_cancelled_callers(
    store: Store, threaded: bool
) -> None:
    """Callers are resumed on their own loop, once per flush; a caller that gave up waiting
    (cancelled) still has its step written, and the others are resumed as usual."""
    store.create_table(table_row())
    async_store = AsyncStore(store, threaded=threaded)

    async def first() -> None:
        given_up = asyncio.ensure_future(
            async_store.append_step("t1", 0, Step(0, action={"type": "x", "i": 0}))
        )
        rest = [
            async_store.append_step("t1", i, Step(0, action={"type": "x", "i": i}))
            for i in range(1, 50)
        ]
        await asyncio.sleep(0)  # the first append is queued, then its caller gives up
        given_up.cancel()
        await asyncio.gather(*rest)

    async def second() -> int:
        await async_store.append_step("t1", 50, Step(0, action={"type": "x", "i": 50}))
        return len(await async_store.call(store.steps, "t1"))

    asyncio.run(first())
    assert asyncio.run(second()) == 51
    assert [s.action["i"] for s in store.steps("t1")] == list(range(51))  # type: ignore[index]
    async_store.close()


def test_a_lost_writer_connection_fails_one_write_and_the_next_reconnects(store: Store) -> None:
    """The step writer keeps its own connection between transactions; if the database drops it
    (a PostgreSQL restart, an administrator ending the session), that write fails with a
    StoreError, nothing half-written stays, and the next write opens a new connection."""
    store.create_table(table_row())
    store.append_steps([("t1", 0, Step(0, action={"type": "a"}))])
    writer = store._writer
    assert writer is not None
    if store.sqlite:
        writer.connection.dbapi_connection.close()  # type: ignore[union-attr]
    else:
        with store.engine.connect() as admin:
            pid = writer.exec_driver_sql("SELECT pg_backend_pid()").scalar_one()
            writer.commit()
            admin.execute(sa.text("SELECT pg_terminate_backend(:pid)"), {"pid": pid})
    with pytest.raises(StoreError):
        store.append_steps([("t1", 1, Step(0, action={"type": "lost"}))])
    store.append_steps([("t1", 1, Step(0, action={"type": "b"}))])
    assert [s.action["type"] for s in store.steps("t1")] == ["a", "b"]  # type: ignore[index]


def test_a_database_that_cannot_be_reached_fails_a_step_write_with_a_store_error(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    store.create_table(table_row())
    real = store.engine.connect

    def refused() -> sa.Connection:
        raise sa.exc.OperationalError("connect", {}, ConnectionRefusedError("refused"))

    monkeypatch.setattr(store.engine, "connect", refused)
    with pytest.raises(StoreError, match="the database failed"):
        store.append_steps([("t1", 0, Step(0, action={"type": "a"}))])
    monkeypatch.setattr(store.engine, "connect", real)
    store.append_steps([("t1", 0, Step(0, action={"type": "a"}))])
    assert len(store.steps("t1")) == 1


def test_migrating_keeps_each_accounts_token_and_fills_its_name_skeletons(store_url: str) -> None:
    """An account registered before API tokens and sessions had tables keeps its token."""
    from alembic import command
    from alembic.config import Config

    from dennou.store.store import MIGRATIONS

    engine = sa.create_engine(store_url)
    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    with engine.begin() as conn:
        cfg.attributes["connection"] = conn
        command.upgrade(cfg, "0003")
        conn.execute(
            sa.text(
                "INSERT INTO accounts (name, name_key, token_hash, created_at)"
                " VALUES ('Ann', 'ann', :h, 1.0)"
            ),
            {"h": hash_token("old-token")},
        )
    engine.dispose()
    store = Store(store_url)
    try:
        assert store.account_for_token("old-token") == "Ann"
        assert [t["name"] for t in store.api_tokens("Ann")] == ["first token"]
        with pytest.raises(StoreError, match="taken"):
            store.create_account("AnN")
        with pytest.raises(StoreError, match="taken"):
            store.create_account("\u0410nn")  # Cyrillic А: the same skeleton
    finally:
        store.close()


def test_api_tokens_and_sessions_are_kept_apart_and_revoked_by_their_owner(store: Store) -> None:
    assert store.create_account("ann", token_name=None) is None
    store.create_account("ben")
    token_id, token, _ = store.create_api_token("ann", "bot", most=2)
    assert store.account_for_token(token) == "ann"
    with pytest.raises(StoreError, match="at most 1"):
        store.create_api_token("ann", "more", most=1)
    assert store.revoke_api_token("ben", token_id) is None  # not ben's to revoke
    assert store.account_for_token(token) == "ann"
    assert store.revoke_api_token("ann", token_id) == hash_token(token)
    assert store.account_for_token(token) is None
    secret = store.create_session("ann", 60, most=2)
    assert store.account_for_session(secret) == "ann"
    assert store.account_for_token(secret) is None  # a session is no API token
    newer = [store.create_session("ann", 60, most=2) for _ in range(2)]
    assert store.account_for_session(secret) is None  # the oldest made room
    store.end_session(newer[0])
    assert store.account_for_session(newer[0]) is None
    assert store.account_for_session(newer[1]) == "ann"
    expired = store.create_session("ben", -1, most=2)
    assert store.account_for_session(expired) is None


def test_aborts_are_counted_and_only_counted_tables_keep_results_after_the_migration(
    store: Store,
) -> None:
    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    with store.engine.begin() as conn:
        cfg.attributes["connection"] = conn
        command.downgrade(cfg, "0003")
    kinds = {
        "practice": {"practice": True},
        "casual": {},
        "rated": {"rated": True},
        "cup": {"tournament": "c1", "match": 0},
    }
    for table_id, options in kinds.items():
        row = msgspec.structs.replace(table_row(table_id, "finished"), options=options)
        store.create_table(row)
    with store.engine.begin() as conn:
        conn.execute(
            schema.results.insert(),
            [
                {
                    "account": "ann",
                    "table_id": table_id,
                    "game": "numeron",
                    "seat": 0,
                    "result": "win",
                    "score": 1.0,
                    "rank": 1,
                    "finished_at": 1.0,
                }
                for table_id in kinds
            ],
        )
    store.migrate()
    assert sorted(h["table_id"] for h in store.history("ann")) == ["cup", "rated"]
    store.create_table(table_row("t9", "playing"))
    store.finish_table("t9", None, [], [], status="aborted", aborted_by="ann")
    assert store.aborts("ann") == 1 and store.aborts("ben") == 0


def test_a_lease_has_one_owner_until_it_expires_and_unowned_tables_are_listed(
    store: Store,
) -> None:
    now = 1000.0
    store.create_table(table_row("t1"))
    store.create_table(table_row("t2", status="playing"))
    store.create_table(table_row("t3", status="finished"))
    assert store.unowned_tables(10, now) == ["t1", "t2"]
    assert store.take_lease("t1", "a", 3.0, now) == "a"
    assert store.take_lease("t1", "b", 3.0, now + 1) == "a"  # a's, and not expired
    assert store.lease_owner("t1", now + 1) == "a"
    assert store.unowned_tables(10, now + 1) == ["t2"]
    assert store.renew_leases("a", 3.0, now + 2) == {"t1"}  # valid until now + 5
    assert store.take_lease("t1", "b", 3.0, now + 4.9) == "a"
    assert store.take_lease("t1", "b", 3.0, now + 5.1) == "b"  # a stopped renewing
    assert store.renew_leases("a", 3.0, now + 5.2) == set()  # a learns that it lost t1
    assert store.unowned_tables(10, now + 5.2) == ["t2"]
    store.release_leases("b")
    assert store.lease_owner("t1", now + 5.3) is None
    assert store.open_tables_by("ann") == 2
