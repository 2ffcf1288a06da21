"""Ferry's sender SDK: a tenant's backend sends events and manages
endpoints, replays, customers, portal sessions, event types and sources.

A small layer over ``ferry_webhooks._api``, the client openapi-python-client
generates from Ferry's OpenAPI document (scripts/sendersdk.sh). It adds
retries (429 after Retry-After; 503 and network errors when repeatable), an
Idempotency-Key on every creating POST (random unless given, the same
across retries), generators that follow ``next_cursor``, and
:class:`FerryError` for error answers. ``Ferry.api`` is the generated
client, for every other operation, behind the same retries.
:class:`AsyncFerry` makes the same calls for asyncio.

Install with the ``client`` extra: ``pip install 'ferry-webhooks[client]'``.
"""

from __future__ import annotations

import builtins
import json
import secrets
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from typing import Any, TypeVar
from uuid import UUID

import httpx

from ._api.api.customers import customers_delete, customers_get, customers_list, customers_put, customers_update
from ._api.api.endpoints import (
    endpoints_create,
    endpoints_delete,
    endpoints_get,
    endpoints_list,
    endpoints_secret_get,
    endpoints_secret_rotate,
    endpoints_update,
)
from ._api.api.event_types import event_types_create, event_types_delete, event_types_get, event_types_list, event_types_update
from ._api.api.events import events_attempts_list, events_create, events_get, events_list
from ._api.api.portal import portal_sessions_create
from ._api.api.replays import events_replay, replays_cancel, replays_create, replays_get, replays_list
from ._api.api.sources import sources_create, sources_delete, sources_get, sources_list, sources_update
from ._api.client import AuthenticatedClient
from ._api.models import (
    Attempt,
    BulkReplayInput,
    CustomerInput,
    CustomerPatch,
    CustomerView,
    Endpoint,
    EndpointCreated,
    EndpointInput,
    EndpointPatch,
    EventAccepted,
    EventDetail,
    EventInput,
    EventType,
    EventTypeInput,
    EventTypePatch,
    PortalSessionInput,
    PortalSessionMinted,
    ReplayEventInput,
    ReplayJob,
    ReplayResult,
    SecretInfo,
    Source,
    SourceInput,
    SourcePatch,
)
from ._api.types import Response
from ._retry import AsyncRetryTransport, RetryPolicy, RetryTransport, retry_after

__all__ = ["AsyncFerry", "AsyncRetryTransport", "Ferry", "FerryError", "Page", "RetryPolicy", "RetryTransport"]

T = TypeVar("T")


class FerryError(Exception):
    """An answer from Ferry other than 2xx, in Ferry's error shape
    (``{"error": {"code", "message", "field"}}``); a body in another shape
    (a proxy's page) gets the code ``http_<status>``."""

    def __init__(self, status: int, code: str, message: str, field: str | None = None,
                 request_id: str | None = None, retry_after: float | None = None) -> None:
        self.status, self.code, self.message, self.field = status, code, message, field
        #: The answer's X-Request-Id: quote it to support.
        self.request_id = request_id
        #: Retry-After of a 429 or 503, in seconds.
        self.retry_after = retry_after
        where = f" (field {field})" if field else ""
        rid = f" [request {request_id}]" if request_id else ""
        super().__init__(f"ferry: {status} {code}{where}: {message}{rid}")

    @classmethod
    def from_response(cls, status: int, headers: Any, content: bytes) -> FerryError:
        import time

        try:
            err = json.loads(content)["error"]
            code, message, field = str(err["code"]), str(err.get("message", "")), err.get("field")
        except (ValueError, KeyError, TypeError):
            code, message, field = f"http_{status}", content[:200].decode("utf-8", "replace"), None
        return cls(status, code, message, field if isinstance(field, str) else None,
                   headers.get("X-Request-Id"), retry_after(headers.get("Retry-After"), time.time()))


def _ok(response: Response[Any]) -> Any:
    if not 200 <= response.status_code < 300:
        raise FerryError.from_response(int(response.status_code), response.headers, response.content)
    return response.parsed


def _key(idempotency_key: str | None) -> str:
    return idempotency_key or "fry-sdk-" + secrets.token_hex(16)


class Page(list[T]):
    """One page of a list, newest first; ``next_cursor`` is None on the last."""

    def __init__(self, items: list[T], next_cursor: str | None) -> None:
        super().__init__(items)
        self.next_cursor = next_cursor


def _page(body: Any) -> Page[Any]:
    cursor = body.next_cursor
    return Page(list(body.data), cursor if isinstance(cursor, str) else None)


def _pages(list_page: Callable[..., Page[T]], query: dict[str, Any]) -> Iterator[T]:
    while True:
        page = list_page(**query)
        yield from page
        if not page.next_cursor:
            return
        query = {**query, "cursor": page.next_cursor}


async def _aok(response: Awaitable[Response[Any]]) -> Any:
    return _ok(await response)


async def _apages(list_page: Callable[..., Awaitable[Page[T]]], query: dict[str, Any]) -> AsyncIterator[T]:
    while True:
        page = await list_page(**query)
        for item in page:
            yield item
        if not page.next_cursor:
            return
        query = {**query, "cursor": page.next_cursor}


def _client(api_key: str, base_url: str, timeout: float,
            transport: httpx.BaseTransport | httpx.AsyncBaseTransport) -> AuthenticatedClient:
    if not api_key:
        raise ValueError("ferry: an API key is required")
    return AuthenticatedClient(
        base_url=base_url.rstrip("/") + "/api/v1",
        token=api_key,
        timeout=httpx.Timeout(timeout),
        httpx_args={"transport": transport},
    )


def _event_input(type: str, data: Any, customer: str | None) -> EventInput:
    body: dict[str, Any] = {"type": type, "data": data}
    if customer is not None:
        body["customer"] = customer
    return EventInput.from_dict(body)


def _replay_input(endpoint_id: str | None) -> ReplayEventInput:
    return ReplayEventInput.from_dict({"endpoint_id": endpoint_id} if endpoint_id else {})


def _query(query: dict[str, Any]) -> dict[str, Any]:
    # The generated functions name the query parameter "type" type_.
    return {("type_" if k == "type" else k): v for k, v in query.items()}


class Ferry:
    """Calls Ferry's API as one tenant::

        ferry = Ferry(api_key, base_url="https://ferry.example.com")
        ferry.events.create(type="invoice.paid", data={"amount": 4200})
    """

    def __init__(self, api_key: str, *, base_url: str, retry: RetryPolicy | None = None,
                 transport: httpx.BaseTransport | None = None, timeout: float = 30.0) -> None:
        #: The generated client for every operation, behind the same retries.
        self.api = _client(api_key, base_url, timeout, RetryTransport(transport, retry))
        self.events = Events(self.api)
        self.endpoints = Endpoints(self.api)
        self.replays = Replays(self.api)
        self.customers = Customers(self.api)
        self.event_types = EventTypes(self.api)
        self.sources = Sources(self.api)

    def close(self) -> None:
        self.api.get_httpx_client().close()

    def __enter__(self) -> Ferry:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class Events:
    def __init__(self, api: AuthenticatedClient) -> None:
        self._api = api

    def create(self, *, type: str, data: Any, customer: str | None = None,
               idempotency_key: str | None = None) -> EventAccepted:
        """Sends an event; retries reuse one Idempotency-Key, so they make one event."""
        r: EventAccepted = _ok(events_create.sync_detailed(
            client=self._api, body=_event_input(type, data, customer), idempotency_key=_key(idempotency_key)))
        return r

    def get(self, id: str) -> EventDetail:
        r: EventDetail = _ok(events_get.sync_detailed(UUID(id), client=self._api))
        return r

    def list(self, **query: Any) -> Page[EventDetail]:
        """One page; query: type, customer, status, endpoint_id, since, until, limit, cursor."""
        return _page(_ok(events_list.sync_detailed(client=self._api, **_query(query))))

    def all(self, **query: Any) -> Iterator[EventDetail]:
        """Every event matching query, page after page."""
        return _pages(self.list, query)

    def attempts(self, id: str) -> builtins.list[Attempt]:
        return list(_ok(events_attempts_list.sync_detailed(UUID(id), client=self._api)).data)

    def replay(self, id: str, *, endpoint_id: str | None = None, idempotency_key: str | None = None) -> ReplayResult:
        r: ReplayResult = _ok(events_replay.sync_detailed(
            UUID(id), client=self._api, body=_replay_input(endpoint_id), idempotency_key=_key(idempotency_key)))
        return r


class Endpoints:
    def __init__(self, api: AuthenticatedClient) -> None:
        self._api = api

    def create(self, *, idempotency_key: str | None = None, **fields: Any) -> EndpointCreated:
        """Adds an endpoint (fields: url, description, event_types, …); the answer carries its secret."""
        r: EndpointCreated = _ok(endpoints_create.sync_detailed(
            client=self._api, body=EndpointInput.from_dict(fields), idempotency_key=_key(idempotency_key)))
        return r

    def get(self, id: str) -> Endpoint:
        r: Endpoint = _ok(endpoints_get.sync_detailed(UUID(id), client=self._api))
        return r

    def list(self, **query: Any) -> Page[Endpoint]:
        return _page(_ok(endpoints_list.sync_detailed(client=self._api, **query)))

    def all(self, **query: Any) -> Iterator[Endpoint]:
        return _pages(self.list, query)

    def update(self, id: str, **fields: Any) -> Endpoint:
        r: Endpoint = _ok(endpoints_update.sync_detailed(UUID(id), client=self._api, body=EndpointPatch.from_dict(fields)))
        return r

    def delete(self, id: str) -> None:
        _ok(endpoints_delete.sync_detailed(UUID(id), client=self._api))

    def rotate_secret(self, id: str) -> SecretInfo:
        """A new signing secret; the previous one keeps signing alongside it for a while."""
        r: SecretInfo = _ok(endpoints_secret_rotate.sync_detailed(UUID(id), client=self._api))
        return r

    def secret(self, id: str) -> SecretInfo:
        r: SecretInfo = _ok(endpoints_secret_get.sync_detailed(UUID(id), client=self._api))
        return r


class Replays:
    def __init__(self, api: AuthenticatedClient) -> None:
        self._api = api

    def create(self, *, idempotency_key: str | None = None, **filters: Any) -> ReplayJob:
        """Starts a bulk replay (filters: endpoint_id, event_type, since, until, status)."""
        r: ReplayJob = _ok(replays_create.sync_detailed(
            client=self._api, body=BulkReplayInput.from_dict(filters), idempotency_key=_key(idempotency_key)))
        return r

    def get(self, id: str) -> ReplayJob:
        r: ReplayJob = _ok(replays_get.sync_detailed(UUID(id), client=self._api))
        return r

    def cancel(self, id: str) -> ReplayJob:
        r: ReplayJob = _ok(replays_cancel.sync_detailed(UUID(id), client=self._api))
        return r

    def list(self, **query: Any) -> Page[ReplayJob]:
        return _page(_ok(replays_list.sync_detailed(client=self._api, **query)))

    def all(self, **query: Any) -> Iterator[ReplayJob]:
        return _pages(self.list, query)


class Customers:
    def __init__(self, api: AuthenticatedClient) -> None:
        self._api = api

    def upsert(self, uid: str, **fields: Any) -> CustomerView:
        """Creates the customer uid or updates it (PUT: safe to retry without a key)."""
        r: CustomerView = _ok(customers_put.sync_detailed(uid, client=self._api, body=CustomerInput.from_dict(fields)))
        return r

    def get(self, uid: str) -> CustomerView:
        """The customer, with the health of its endpoints (endpoints.total, .failing, .disabled)."""
        r: CustomerView = _ok(customers_get.sync_detailed(uid, client=self._api))
        return r

    def update(self, uid: str, **fields: Any) -> CustomerView:
        r: CustomerView = _ok(customers_update.sync_detailed(uid, client=self._api, body=CustomerPatch.from_dict(fields)))
        return r

    def delete(self, uid: str) -> None:
        _ok(customers_delete.sync_detailed(uid, client=self._api))

    def list(self, **query: Any) -> Page[CustomerView]:
        return _page(_ok(customers_list.sync_detailed(client=self._api, **query)))

    def all(self, **query: Any) -> Iterator[CustomerView]:
        return _pages(self.list, query)

    def portal_session(self, uid: str, *, idempotency_key: str | None = None, **options: Any) -> PortalSessionMinted:
        """Mints a customer portal session (options: external_user, capabilities, ttl_seconds …)."""
        r: PortalSessionMinted = _ok(portal_sessions_create.sync_detailed(
            uid, client=self._api, body=PortalSessionInput.from_dict(options), idempotency_key=_key(idempotency_key)))
        return r


class EventTypes:
    def __init__(self, api: AuthenticatedClient) -> None:
        self._api = api

    def create(self, *, idempotency_key: str | None = None, **fields: Any) -> EventType:
        r: EventType = _ok(event_types_create.sync_detailed(
            client=self._api, body=EventTypeInput.from_dict(fields), idempotency_key=_key(idempotency_key)))
        return r

    def get(self, name: str) -> EventType:
        r: EventType = _ok(event_types_get.sync_detailed(name, client=self._api))
        return r

    def update(self, name: str, **fields: Any) -> EventType:
        r: EventType = _ok(event_types_update.sync_detailed(name, client=self._api, body=EventTypePatch.from_dict(fields)))
        return r

    def delete(self, name: str) -> None:
        _ok(event_types_delete.sync_detailed(name, client=self._api))

    def list(self, **query: Any) -> Page[EventType]:
        return _page(_ok(event_types_list.sync_detailed(client=self._api, **query)))

    def all(self, **query: Any) -> Iterator[EventType]:
        return _pages(self.list, query)


class Sources:
    def __init__(self, api: AuthenticatedClient) -> None:
        self._api = api

    def create(self, *, idempotency_key: str | None = None, **fields: Any) -> Source:
        """Adds an inbound source; the answer carries its ingest URL."""
        r: Source = _ok(sources_create.sync_detailed(
            client=self._api, body=SourceInput.from_dict(fields), idempotency_key=_key(idempotency_key)))
        return r

    def get(self, id: str) -> Source:
        r: Source = _ok(sources_get.sync_detailed(UUID(id), client=self._api))
        return r

    def update(self, id: str, **fields: Any) -> Source:
        r: Source = _ok(sources_update.sync_detailed(UUID(id), client=self._api, body=SourcePatch.from_dict(fields)))
        return r

    def delete(self, id: str) -> None:
        _ok(sources_delete.sync_detailed(UUID(id), client=self._api))

    def list(self, **query: Any) -> Page[Source]:
        return _page(_ok(sources_list.sync_detailed(client=self._api, **query)))

    def all(self, **query: Any) -> Iterator[Source]:
        return _pages(self.list, query)


class AsyncFerry:
    """Ferry for asyncio: the same calls as :class:`Ferry`, awaited, and
    ``all`` as async iterators::

        async with AsyncFerry(api_key, base_url="https://ferry.example.com") as ferry:
            await ferry.events.create(type="invoice.paid", data={"amount": 4200})
            async for ev in ferry.events.all(type="invoice.paid"):
                ...
    """

    def __init__(self, api_key: str, *, base_url: str, retry: RetryPolicy | None = None,
                 transport: httpx.AsyncBaseTransport | None = None, timeout: float = 30.0) -> None:
        #: The generated client for every other operation, behind the same
        #: retries: its ``asyncio`` functions, and its blocking ones too (on
        #: a client of their own, which ``transport`` does not replace).
        self.api = _client(api_key, base_url, timeout, AsyncRetryTransport(transport, retry))
        self.api.set_httpx_client(_client(api_key, base_url, timeout, RetryTransport(None, retry)).get_httpx_client())
        self.events = AsyncEvents(self.api)
        self.endpoints = AsyncEndpoints(self.api)
        self.replays = AsyncReplays(self.api)
        self.customers = AsyncCustomers(self.api)
        self.event_types = AsyncEventTypes(self.api)
        self.sources = AsyncSources(self.api)

    async def aclose(self) -> None:
        self.api.get_httpx_client().close()
        await self.api.get_async_httpx_client().aclose()

    async def __aenter__(self) -> AsyncFerry:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.aclose()


class AsyncEvents:
    def __init__(self, api: AuthenticatedClient) -> None:
        self._api = api

    async def create(self, *, type: str, data: Any, customer: str | None = None,
                     idempotency_key: str | None = None) -> EventAccepted:
        """Sends an event; retries reuse one Idempotency-Key, so they make one event."""
        r: EventAccepted = await _aok(events_create.asyncio_detailed(
            client=self._api, body=_event_input(type, data, customer), idempotency_key=_key(idempotency_key)))
        return r

    async def get(self, id: str) -> EventDetail:
        r: EventDetail = await _aok(events_get.asyncio_detailed(UUID(id), client=self._api))
        return r

    async def list(self, **query: Any) -> Page[EventDetail]:
        """One page; query: type, customer, status, endpoint_id, since, until, limit, cursor."""
        return _page(await _aok(events_list.asyncio_detailed(client=self._api, **_query(query))))

    def all(self, **query: Any) -> AsyncIterator[EventDetail]:
        """Every event matching query, page after page."""
        return _apages(self.list, query)

    async def attempts(self, id: str) -> builtins.list[Attempt]:
        return list((await _aok(events_attempts_list.asyncio_detailed(UUID(id), client=self._api))).data)

    async def replay(self, id: str, *, endpoint_id: str | None = None, idempotency_key: str | None = None) -> ReplayResult:
        r: ReplayResult = await _aok(events_replay.asyncio_detailed(
            UUID(id), client=self._api, body=_replay_input(endpoint_id), idempotency_key=_key(idempotency_key)))
        return r


class AsyncEndpoints:
    def __init__(self, api: AuthenticatedClient) -> None:
        self._api = api

    async def create(self, *, idempotency_key: str | None = None, **fields: Any) -> EndpointCreated:
        """Adds an endpoint (fields: url, description, event_types, customer, …); the answer carries its secret."""
        r: EndpointCreated = await _aok(endpoints_create.asyncio_detailed(
            client=self._api, body=EndpointInput.from_dict(fields), idempotency_key=_key(idempotency_key)))
        return r

    async def get(self, id: str) -> Endpoint:
        r: Endpoint = await _aok(endpoints_get.asyncio_detailed(UUID(id), client=self._api))
        return r

    async def list(self, **query: Any) -> Page[Endpoint]:
        return _page(await _aok(endpoints_list.asyncio_detailed(client=self._api, **query)))

    def all(self, **query: Any) -> AsyncIterator[Endpoint]:
        return _apages(self.list, query)

    async def update(self, id: str, **fields: Any) -> Endpoint:
        r: Endpoint = await _aok(endpoints_update.asyncio_detailed(UUID(id), client=self._api, body=EndpointPatch.from_dict(fields)))
        return r

    async def delete(self, id: str) -> None:
        await _aok(endpoints_delete.asyncio_detailed(UUID(id), client=self._api))

    async def rotate_secret(self, id: str) -> SecretInfo:
        """A new signing secret; the previous one keeps signing alongside it for a while."""
        r: SecretInfo = await _aok(endpoints_secret_rotate.asyncio_detailed(UUID(id), client=self._api))
        return r

    async def secret(self, id: str) -> SecretInfo:
        r: SecretInfo = await _aok(endpoints_secret_get.asyncio_detailed(UUID(id), client=self._api))
        return r


class AsyncReplays:
    def __init__(self, api: AuthenticatedClient) -> None:
        self._api = api

    async def create(self, *, idempotency_key: str | None = None, **filters: Any) -> ReplayJob:
        """Starts a bulk replay (filters: endpoint_id, event_type, since, until, status)."""
        r: ReplayJob = await _aok(replays_create.asyncio_detailed(
            client=self._api, body=BulkReplayInput.from_dict(filters), idempotency_key=_key(idempotency_key)))
        return r

    async def get(self, id: str) -> ReplayJob:
        r: ReplayJob = await _aok(replays_get.asyncio_detailed(UUID(id), client=self._api))
        return r

    async def cancel(self, id: str) -> ReplayJob:
        r: ReplayJob = await _aok(replays_cancel.asyncio_detailed(UUID(id), client=self._api))
        return r

    async def list(self, **query: Any) -> Page[ReplayJob]:
        return _page(await _aok(replays_list.asyncio_detailed(client=self._api, **query)))

    def all(self, **query: Any) -> AsyncIterator[ReplayJob]:
        return _apages(self.list, query)


class AsyncCustomers:
    def __init__(self, api: AuthenticatedClient) -> None:
        self._api = api

    async def upsert(self, uid: str, **fields: Any) -> CustomerView:
        """Creates the customer uid or updates it (PUT: safe to retry without a key)."""
        r: CustomerView = await _aok(customers_put.asyncio_detailed(uid, client=self._api, body=CustomerInput.from_dict(fields)))
        return r

    async def get(self, uid: str) -> CustomerView:
        """The customer, with the health of its endpoints (endpoints.total, .failing, .disabled)."""
        r: CustomerView = await _aok(customers_get.asyncio_detailed(uid, client=self._api))
        return r

    async def update(self, uid: str, **fields: Any) -> CustomerView:
        r: CustomerView = await _aok(customers_update.asyncio_detailed(uid, client=self._api, body=CustomerPatch.from_dict(fields)))
        return r

    async def delete(self, uid: str) -> None:
        await _aok(customers_delete.asyncio_detailed(uid, client=self._api))

    async def list(self, **query: Any) -> Page[CustomerView]:
        return _page(await _aok(customers_list.asyncio_detailed(client=self._api, **query)))

    def all(self, **query: Any) -> AsyncIterator[CustomerView]:
        return _apages(self.list, query)

    async def portal_session(self, uid: str, *, idempotency_key: str | None = None, **options: Any) -> PortalSessionMinted:
        """Mints a customer portal session (options: external_user, capabilities, ttl_seconds …)."""
        r: PortalSessionMinted = await _aok(portal_sessions_create.asyncio_detailed(
            uid, client=self._api, body=PortalSessionInput.from_dict(options), idempotency_key=_key(idempotency_key)))
        return r


class AsyncEventTypes:
    def __init__(self, api: AuthenticatedClient) -> None:
        self._api = api

    async def create(self, *, idempotency_key: str | None = None, **fields: Any) -> EventType:
        r: EventType = await _aok(event_types_create.asyncio_detailed(
            client=self._api, body=EventTypeInput.from_dict(fields), idempotency_key=_key(idempotency_key)))
        return r

    async def get(self, name: str) -> EventType:
        r: EventType = await _aok(event_types_get.asyncio_detailed(name, client=self._api))
        return r

    async def update(self, name: str, **fields: Any) -> EventType:
        r: EventType = await _aok(event_types_update.asyncio_detailed(name, client=self._api, body=EventTypePatch.from_dict(fields)))
        return r

    async def delete(self, name: str) -> None:
        await _aok(event_types_delete.asyncio_detailed(name, client=self._api))

    async def list(self, **query: Any) -> Page[EventType]:
        return _page(await _aok(event_types_list.asyncio_detailed(client=self._api, **query)))

    def all(self, **query: Any) -> AsyncIterator[EventType]:
        return _apages(self.list, query)


class AsyncSources:
    def __init__(self, api: AuthenticatedClient) -> None:
        self._api = api

    async def create(self, *, idempotency_key: str | None = None, **fields: Any) -> Source:
        """Adds an inbound source; the answer carries its ingest URL."""
        r: Source = await _aok(sources_create.asyncio_detailed(
            client=self._api, body=SourceInput.from_dict(fields), idempotency_key=_key(idempotency_key)))
        return r

    async def get(self, id: str) -> Source:
        r: Source = await _aok(sources_get.asyncio_detailed(UUID(id), client=self._api))
        return r

    async def update(self, id: str, **fields: Any) -> Source:
        r: Source = await _aok(sources_update.asyncio_detailed(UUID(id), client=self._api, body=SourcePatch.from_dict(fields)))
        return r

    async def delete(self, id: str) -> None:
        await _aok(sources_delete.asyncio_detailed(UUID(id), client=self._api))

    async def list(self, **query: Any) -> Page[Source]:
        return _page(await _aok(sources_list.asyncio_detailed(client=self._api, **query)))

    def all(self, **query: Any) -> AsyncIterator[Source]:
        return _apages(self.list, query)
