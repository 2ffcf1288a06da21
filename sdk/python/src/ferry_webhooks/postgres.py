"""A dedupe Store in a PostgreSQL table keyed by the dedupe key (psycopg 3)."""

from __future__ import annotations

import re
from contextlib import AbstractContextManager
from datetime import timedelta
from typing import Any, Callable, Union

from .dedupe import Claim

DEFAULT_TABLE = "ferry_webhook_dedupe"
_TABLE = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)?$")


class PostgresStore:
    """Dedupe keys in PostgreSQL; expiry uses the database's clock.

    ``connect`` is a conninfo string, or a callable returning a connection
    context manager, e.g. ``pool.connection`` of a psycopg_pool.ConnectionPool.
    """

    def __init__(self, connect: Union[str, Callable[[], AbstractContextManager[Any]]], table: str = DEFAULT_TABLE) -> None:
        if not _TABLE.match(table):
            raise ValueError(f"invalid table name {table!r}")
        if isinstance(connect, str):
            import psycopg

            conninfo = connect
            self._connect: Callable[[], AbstractContextManager[Any]] = lambda: psycopg.connect(conninfo)
        else:
            self._connect = connect
        self.table = table

    def create_table(self) -> None:
        """Create the table if missing."""
        with self._connect() as conn:
            conn.execute(
                f"CREATE TABLE IF NOT EXISTS {self.table} ("
                "key text PRIMARY KEY, done boolean NOT NULL DEFAULT false, expires_at timestamptz NOT NULL)"
            )

    def claim(self, key: str, lease: timedelta) -> Claim:
        ms = int(lease.total_seconds() * 1000)
        for _ in range(3):
            with self._connect() as conn:
                row = conn.execute(
                    f"INSERT INTO {self.table} AS t (key, done, expires_at) "
                    "VALUES (%s, false, now() + %s::bigint * interval '1 millisecond') "
                    "ON CONFLICT (key) DO UPDATE SET done = false, expires_at = EXCLUDED.expires_at "
                    "WHERE t.expires_at <= now() RETURNING key",
                    (key, ms),
                ).fetchone()
                if row is not None:
                    return Claim.CLAIMED
                row = conn.execute(
                    f"SELECT done FROM {self.table} WHERE key = %s AND expires_at > now()", (key,)
                ).fetchone()
            if row is not None:
                return Claim.DONE if row[0] else Claim.IN_PROGRESS
        raise RuntimeError(f"claim {key}: row kept changing")

    def complete(self, key: str, ttl: timedelta) -> None:
        with self._connect() as conn:
            conn.execute(
                f"INSERT INTO {self.table} AS t (key, done, expires_at) "
                "VALUES (%s, true, now() + %s::bigint * interval '1 millisecond') "
                "ON CONFLICT (key) DO UPDATE SET done = true, expires_at = EXCLUDED.expires_at",
                (key, int(ttl.total_seconds() * 1000)),
            )

    def release(self, key: str) -> None:
        with self._connect() as conn:
            conn.execute(f"DELETE FROM {self.table} WHERE key = %s AND NOT done", (key,))

    def purge(self) -> int:
        """Delete expired keys; run it daily. Returns how many were deleted."""
        with self._connect() as conn:
            return int(conn.execute(f"DELETE FROM {self.table} WHERE expires_at <= now()").rowcount)
