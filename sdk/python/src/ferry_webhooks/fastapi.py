"""FastAPI (Starlette) integration: an endpoint that verifies, dedupes and handles."""

from typing import Any, Awaitable, Callable

from starlette.requests import Request
from starlette.responses import JSONResponse

from ._handler import WebhookProcessor


def webhook_endpoint(secret: str, handler: Callable[..., Any], **options: Any) -> Callable[[Request], Awaitable[JSONResponse]]:
    """Return a FastAPI/Starlette endpoint for Ferry webhooks.

    ``app.add_api_route("/webhooks", webhook_endpoint(SECRET, handle, deduper=d), methods=["POST"])``

    ``options`` are WebhookProcessor's: deduper, raw, tolerance,
    future_tolerance, logger. The handler may be sync or async.
    """
    processor = WebhookProcessor(secret, handler, **options)

    async def endpoint(request: Request) -> JSONResponse:
        body = await request.body()
        status, reply = await processor.ahandle(request.headers, body)
        return JSONResponse(reply, status_code=status)

    return endpoint
