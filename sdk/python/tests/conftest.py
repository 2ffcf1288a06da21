"""Shared fixtures: the test vectors and the services store tests need."""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import os
import pathlib
import time
import uuid
from typing import Any, Dict, Tuple

import pytest

VECTORS = pathlib.Path(__file__).resolve().parents[2] / "testvectors.json"
SECRET = "whsec_" + base64.b64encode(b"\x05" * 32).decode()


@pytest.fixture(scope="session")
def vectors() -> Dict[str, Any]:
    return json.loads(VECTORS.read_text(encoding="utf-8"))


def service(env: str) -> str:
    """The service URL in env, or fail (never skip) saying how to start it."""
    value = os.environ.get(env)
    if not value:
        pytest.fail(
            f"{env} is not set: this test needs the service. From the repository root run "
            "`make sdk-test`, or start PostgreSQL with `make services` and Redis with "
            "`bash scripts/sdk.sh redis`, then export the URLs (scripts/env.sh, `bash scripts/sdk.sh env`).",
            pytrace=False,
        )
    return value


def signed(data: Any = None, *, secret: str = SECRET, created: float | None = None, event_id: str | None = None) -> Tuple[Dict[str, str], bytes]:
    """Headers and body of a delivery as Ferry sends it."""
    event_id = event_id or str(uuid.uuid4())
    created = time.time() if created is None else created
    stamp = time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(created)) + ".000Z"
    body = json.dumps({"id": event_id, "type": "order.created", "created_at": stamp, "data": data or {}}, separators=(",", ":")).encode()
    ts = str(int(created))
    key = base64.b64decode(secret[len("whsec_"):])
    sig = base64.b64encode(hmac.new(key, f"{event_id}.{ts}.".encode() + body, hashlib.sha256).digest()).decode()
    return {"webhook-id": event_id, "webhook-timestamp": ts, "webhook-signature": "v1," + sig, "content-type": "application/json"}, body
