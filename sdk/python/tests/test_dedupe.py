"""The store contract (memory, PostgreSQL, Redis) and Deduper."""

from __future__ import annotations

import threading
import time
import uuid
from datetime import timedelta
from typing import Iterator, List

import pytest

import ferry_webhooks as fw
from conftest import service


class Clock:
    def __init__(self) -> None:
        self.t = 1000.0

    def __call__(self) -> float:
        return self.t


@pytest.fixture(params=["memory", "postgres", "redis"])
def store_and_sleep(request: pytest.FixtureRequest) -> Iterator[tuple]:
    if request.param == "memory":
        clock = Clock()

        def advance(s: float) -> None:
            clock.t += s

        yield fw.MemoryStore(clock), advance
    elif request.param == "postgres":
        import psycopg

        from ferry_webhooks.postgres import PostgresStore

        url = service("FERRY_TEST_DATABASE_URL")
        schema = "sdk_py_" + uuid.uuid4().hex[:12]
        with psycopg.connect(url, autocommit=True) as conn:
            conn.execute(f"CREATE SCHEMA {schema}")
        try:
            store = PostgresStore(url, table=f"{schema}.dedupe")
            store.create_table()
            yield store, time.sleep
        finally:
            with psycopg.connect(url, autocommit=True) as conn:
                conn.execute(f"DROP SCHEMA {schema} CASCADE")
    else:
        import redis

        from ferry_webhooks.redis import RedisStore

        client = redis.Redis.from_url(service("FERRY_TEST_REDIS_URL"))
        try:
            client.ping()
        except redis.ConnectionError as e:
            pytest.fail(f"Redis at FERRY_TEST_REDIS_URL does not answer; start it with `bash scripts/sdk.sh redis`: {e}")
        prefix = "sdk-py-test:" + uuid.uuid4().hex + ":"

        class Prefixed:
            def claim(self, key: str, lease: timedelta) -> fw.Claim:
                return RedisStore(client).claim(prefix + key, lease)

            def complete(self, key: str, ttl: timedelta) -> None:
                RedisStore(client).complete(prefix + key, ttl)

            def release(self, key: str) -> None:
                RedisStore(client).release(prefix + key)

        yield Prefixed(), time.sleep
        for k in client.scan_iter(prefix + "*"):
            client.delete(k)
        client.close()


MIN = timedelta(minutes=1)


def test_claim_in_progress_complete_done(store_and_sleep: tuple) -> None:
    s, _ = store_and_sleep
    assert s.claim("k1", MIN) is fw.Claim.CLAIMED
    assert s.claim("k1", MIN) is fw.Claim.IN_PROGRESS
    assert s.claim("k2", MIN) is fw.Claim.CLAIMED
    s.complete("k1", fw.MIN_TTL)
    assert s.claim("k1", MIN) is fw.Claim.DONE
    s.release("k1")  # never frees a completed key
    assert s.claim("k1", MIN) is fw.Claim.DONE


def test_release_frees_the_key(store_and_sleep: tuple) -> None:
    s, _ = store_and_sleep
    assert s.claim("r", MIN) is fw.Claim.CLAIMED
    s.release("r")
    assert s.claim("r", MIN) is fw.Claim.CLAIMED


def test_expired_lease_is_taken_over(store_and_sleep: tuple) -> None:
    s, sleep = store_and_sleep
    assert s.claim("l", timedelta(seconds=1)) is fw.Claim.CLAIMED
    sleep(1.5)
    assert s.claim("l", MIN) is fw.Claim.CLAIMED


def test_one_winner_among_concurrent_claims(store_and_sleep: tuple) -> None:
    s, _ = store_and_sleep
    results: List[fw.Claim] = []
    lock = threading.Lock()

    def claim() -> None:
        c = s.claim("c", MIN)
        with lock:
            results.append(c)

    threads = [threading.Thread(target=claim) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert results.count(fw.Claim.CLAIMED) == 1


def test_deduper_releases_on_failure_and_remembers_success() -> None:
    d = fw.Deduper(fw.MemoryStore())
    calls: List[int] = []

    def fail() -> None:
        calls.append(1)
        raise RuntimeError("database down")

    with pytest.raises(RuntimeError):
        d.run("e1", fail)
    assert d.run("e1", lambda: calls.append(2)) is fw.Outcome.PROCESSED
    assert d.run("e1", lambda: calls.append(3)) is fw.Outcome.DUPLICATE
    assert calls == [1, 2]


def test_deduper_rejects_short_ttl() -> None:
    with pytest.raises(ValueError):
        fw.Deduper(fw.MemoryStore(), ttl=timedelta(days=1))


def test_memory_store_expires_keys() -> None:
    clock = Clock()
    s = fw.MemoryStore(clock)
    s.claim("old", MIN)
    s.complete("old", fw.MIN_TTL)
    clock.t += fw.MIN_TTL.total_seconds() - 1
    assert s.claim("old", MIN) is fw.Claim.DONE
    clock.t += 2
    assert s.claim("old", MIN) is fw.Claim.CLAIMED
    for i in range(2048):
        s.claim(f"k{i}", timedelta(seconds=1))
    clock.t += 3600
    for i in range(1024):
        s.claim(f"n{i}", timedelta(seconds=1))
    assert len(s) <= 1100


def test_store_error_is_reported() -> None:
    class Down:
        def claim(self, key: str, lease: timedelta) -> fw.Claim:
            raise ConnectionError("refused")

        def complete(self, key: str, ttl: timedelta) -> None:
            raise ConnectionError("refused")

        def release(self, key: str) -> None:
            raise ConnectionError("refused")

    ran: List[int] = []
    with pytest.raises(fw.StoreError):
        fw.Deduper(Down()).run("x", lambda: ran.append(1))
    assert ran == []


