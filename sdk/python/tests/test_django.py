"""Django integration through Django's test client, CSRF checks on."""

from __future__ import annotations

import time
from typing import Any, List

import django
import pytest
from django.conf import settings
from django.urls import path

import ferry_webhooks as fw
from conftest import SECRET, signed

if not settings.configured:
    settings.configure(
        SECRET_KEY="ferry-sdk-tests",
        ROOT_URLCONF=__name__,
        ALLOWED_HOSTS=["testserver"],
        MIDDLEWARE=["django.middleware.csrf.CsrfViewMiddleware"],
        INSTALLED_APPS=[],
        DATABASES={},
    )
    django.setup()

from django.test import Client  # noqa: E402  (needs the settings above)

from ferry_webhooks.django import ferry_webhook  # noqa: E402

seen: List[Any] = []


@ferry_webhook(SECRET, deduper=fw.Deduper(fw.MemoryStore()))
def webhooks(event: fw.Envelope) -> None:
    seen.append(event)
    if len(seen) == 1:
        raise RuntimeError("database down")
    assert event.data == {"n": 7} and event.type == "order.created"


urlpatterns = [path("webhooks", webhooks)]


def test_django_view() -> None:
    client = Client(enforce_csrf_checks=True)

    def post(headers: dict, body: bytes) -> tuple:
        extra = {k: v for k, v in headers.items() if k != "content-type"}
        r = client.post("/webhooks", data=body, content_type="application/json", headers=extra)
        return r.status_code, r.json()

    headers, body = signed({"n": 7}, created=time.time() - 50 * 3600)
    assert post(headers, body) == (500, {"status": "handler_failed"})
    assert post(headers, body) == (200, {"status": "processed"})
    assert post(headers, body) == (200, {"status": "duplicate"})
    assert post(dict(headers, **{"webhook-signature": "v1,AAAA"}), body) == (401, {"status": "invalid_signature"})
    missing = {k: v for k, v in headers.items() if k != "webhook-id"}
    assert post(missing, body) == (401, {"status": "missing_header"})
    assert len(seen) == 2
    r = client.get("/webhooks")
    assert r.status_code == 405 and r["Allow"] == "POST"


def test_django_rejects_async_handlers_and_bad_secrets() -> None:
    async def handle(event: fw.Envelope) -> None: ...

    with pytest.raises(TypeError):
        ferry_webhook(SECRET)(handle)
    with pytest.raises(fw.InvalidSecretError):
        ferry_webhook("whsec_short")(lambda e: None)
