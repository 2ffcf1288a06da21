"""Every shared test vector, verified by the Python SDK."""

from __future__ import annotations

import base64
import datetime as dt

import pytest

import ferry_webhooks as fw
from conftest import VECTORS

import json

_FILE = json.loads(VECTORS.read_text(encoding="utf-8"))

CODES = {
    "missing_header": fw.MissingHeaderError,
    "invalid_signature": fw.InvalidSignatureError,
    "invalid_secret": fw.InvalidSecretError,
    "timestamp_out_of_window": fw.TimestampOutOfWindowError,
    "invalid_envelope": fw.InvalidEnvelopeError,
}


def test_default_window_matches_the_vectors() -> None:
    assert fw.DEFAULT_TOLERANCE.total_seconds() == _FILE["tolerance_seconds"]
    assert fw.DEFAULT_FUTURE_TOLERANCE.total_seconds() == _FILE["future_tolerance_seconds"]
    assert set(CODES) == set(_FILE["errors"])


@pytest.mark.parametrize("v", _FILE["vectors"], ids=[v["name"] for v in _FILE["vectors"]])
def test_vector(v: dict) -> None:
    body = base64.b64decode(v["body_base64"])
    headers = dict(v["headers"])
    now = float(v["now"])
    if v["expect"] == "valid" and v["format"] == "raw":
        m = fw.verify_signature(v["secret"], headers, body, now=now)
        assert m.id == headers["webhook-id"]
        with pytest.raises(fw.InvalidEnvelopeError):
            fw.verify(v["secret"], headers, body, now=now)
    elif v["expect"] == "valid":
        e = fw.verify(v["secret"], headers, body, now=now)
        want = v["envelope"]
        assert (e.id, e.type, e.data) == (want["id"], want["type"], want["data"])
        assert e.created_at.strftime("%Y-%m-%dT%H:%M:%S.") + f"{e.created_at.microsecond // 1000:03d}Z" == want["created_at"]
        assert e.created_at.tzinfo is not None
        # str bodies (decoded text) verify the same.
        assert fw.verify(v["secret"], headers, body.decode("utf-8"), now=now) == e
        # Header names are matched whatever their case.
        upper = {k.upper(): val for k, val in headers.items()}
        assert fw.verify(v["secret"], upper, body, now=dt.datetime.fromtimestamp(now, dt.timezone.utc)) == e
    else:
        err = CODES[v["expect"]]
        with pytest.raises(err) as info:
            fw.verify(v["secret"], headers, body, now=now)
        assert info.value.code == v["expect"]
        assert isinstance(info.value, fw.WebhookVerificationError)
        for code, other in CODES.items():
            if code != v["expect"]:
                assert not isinstance(info.value, other)


@pytest.mark.parametrize("v", _FILE["vectors"], ids=[v["name"] for v in _FILE["vectors"]])
def test_webhook_class_vector(v: dict) -> None:
    body = base64.b64decode(v["body_base64"])
    headers = dict(v["headers"])
    clock = lambda: float(v["now"])  # noqa: E731
    if v["expect"] == "invalid_secret":
        with pytest.raises(fw.InvalidSecretError):
            fw.Webhook(v["secret"], clock=clock)
        return
    wh = fw.Webhook(v["secret"], clock=clock)
    if v["expect"] == "valid" and v["format"] == "raw":
        assert wh.verify_signature(body, headers).id == headers["webhook-id"]
        with pytest.raises(fw.InvalidEnvelopeError):
            wh.verify(body, headers)
    elif v["expect"] == "valid":
        e = wh.verify(body, headers)
        assert e == fw.verify(v["secret"], headers, body, now=float(v["now"]))
        assert (e.id, e.type, e.data) == (v["envelope"]["id"], v["envelope"]["type"], v["envelope"]["data"])
    else:
        with pytest.raises(CODES[v["expect"]]) as info:
            wh.verify(body, headers)
        assert info.value.code == v["expect"]


def test_webhook_class_window() -> None:
    v = next(x for x in _FILE["vectors"] if x["expect"] == "valid" and x["format"] == "envelope")
    body = base64.b64decode(v["body_base64"])
    wh = fw.Webhook(v["secret"], tolerance=dt.timedelta(seconds=1), clock=lambda: float(v["now"]))
    with pytest.raises(fw.TimestampOutOfWindowError):
        wh.verify(body, v["headers"])
