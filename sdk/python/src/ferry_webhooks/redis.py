"""A dedupe Store in Redis (redis-py): SET NX EX per key, expired by Redis."""

from __future__ import annotations

import math
from datetime import timedelta
from typing import Any

from .dedupe import Claim

_RELEASE = 'if redis.call("GET", KEYS[1]) == ARGV[1] then return redis.call("DEL", KEYS[1]) end return 0'


class RedisStore:
    """Dedupe keys in Redis; ``client`` is a redis.Redis (or compatible) client."""

    def __init__(self, client: Any) -> None:
        self.client = client

    def claim(self, key: str, lease: timedelta) -> Claim:
        seconds = max(1, math.ceil(lease.total_seconds()))
        for _ in range(3):
            if self.client.set(key, "processing", nx=True, ex=seconds):
                return Claim.CLAIMED
            state = self.client.get(key)
            if state is None:
                continue  # expired or released in between
            if state in (b"done", "done"):
                return Claim.DONE
            return Claim.IN_PROGRESS
        raise RuntimeError(f"claim {key}: key kept changing")

    def complete(self, key: str, ttl: timedelta) -> None:
        self.client.set(key, "done", ex=max(1, math.ceil(ttl.total_seconds())))

    def release(self, key: str) -> None:
        self.client.eval(_RELEASE, 1, key, "processing")
