"""Django integration: a decorator that turns a handler into a webhook view."""

from __future__ import annotations

import functools
import inspect
from typing import Any, Callable

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.views.decorators.csrf import csrf_exempt

from ._handler import WebhookProcessor

View = Callable[[HttpRequest], HttpResponse]


def ferry_webhook(secret: str, **options: Any) -> Callable[[Callable[..., Any]], View]:
    """Turn ``handler(envelope)`` into a Django view for Ferry webhooks.

    .. code-block:: python

        @ferry_webhook(settings.FERRY_WEBHOOK_SECRET, deduper=deduper)
        def webhooks(event: Envelope) -> None: ...

        urlpatterns = [path("webhooks", webhooks)]

    The view reads ``request.body`` (the raw bytes the signature covers),
    is exempt from CSRF checks (Ferry authenticates by signature, not by
    cookie), answers 405 to anything but POST, and otherwise answers as
    the other adapters do. ``options`` are WebhookProcessor's: deduper,
    raw, tolerance, future_tolerance, logger. The handler must be
    synchronous: Django runs sync views in its thread pool under ASGI.
    """

    def decorate(handler: Callable[..., Any]) -> View:
        if inspect.iscoroutinefunction(handler):
            raise TypeError("ferry_webhook needs a synchronous handler")
        processor = WebhookProcessor(secret, handler, **options)

        @functools.wraps(handler)
        def view(request: HttpRequest) -> HttpResponse:
            if request.method != "POST":
                response = JsonResponse({"status": "method_not_allowed"}, status=405)
                response["Allow"] = "POST"
                return response
            status, body = processor.handle(request.headers, request.body)
            return JsonResponse(body, status=status)

        exempt: View = csrf_exempt(view)
        return exempt

    return decorate
