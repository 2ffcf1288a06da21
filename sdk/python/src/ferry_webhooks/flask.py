"""Flask integration: a view function that verifies, dedupes and handles."""

from __future__ import annotations

from typing import Any, Callable, Tuple

from flask import jsonify, request

from ._handler import WebhookProcessor


def webhook_view(secret: str, handler: Callable[..., Any], **options: Any) -> Callable[[], Tuple[Any, int]]:
    """Return a Flask view for Ferry webhooks.

    ``app.add_url_rule("/webhooks", view_func=webhook_view(SECRET, handle, deduper=d), methods=["POST"])``

    ``options`` are WebhookProcessor's: deduper, raw, tolerance,
    future_tolerance, logger. The handler must be synchronous.
    """
    processor = WebhookProcessor(secret, handler, **options)

    def view() -> Tuple[Any, int]:
        status, body = processor.handle(request.headers, request.get_data(cache=False))
        return jsonify(body), status

    view.__name__ = "ferry_webhook_" + str(id(processor))
    return view
