from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.error import Error
from ...models.event_accepted import EventAccepted
from ...models.event_input import EventInput
from ...types import UNSET, Unset
from typing import cast



def _get_kwargs(
    *,
    body: EventInput,
    idempotency_key: str | Unset = UNSET,

) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(idempotency_key, Unset):
        headers["Idempotency-Key"] = idempotency_key



    

    

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/events",
    }

    _kwargs["json"] = body.to_dict()


    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Error | EventAccepted | None:
    if response.status_code == 202:
        response_202 = EventAccepted.from_dict(response.json())



        return response_202

    if response.status_code == 400:
        response_400 = Error.from_dict(response.json())



        return response_400

    if response.status_code == 401:
        response_401 = Error.from_dict(response.json())



        return response_401

    if response.status_code == 402:
        response_402 = Error.from_dict(response.json())



        return response_402

    if response.status_code == 403:
        response_403 = Error.from_dict(response.json())



        return response_403

    if response.status_code == 413:
        response_413 = Error.from_dict(response.json())



        return response_413

    if response.status_code == 422:
        response_422 = Error.from_dict(response.json())



        return response_422

    if response.status_code == 429:
        response_429 = Error.from_dict(response.json())



        return response_429

    if response.status_code == 503:
        response_503 = Error.from_dict(response.json())



        return response_503

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[Error | EventAccepted]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    body: EventInput,
    idempotency_key: str | Unset = UNSET,

) -> Response[Error | EventAccepted]:
    """ Send an event

     Accepts an event and fans it out to every enabled endpoint whose event types and filter match. 202
    means it is stored durably: it will be delivered (or dead-lettered). Send an Idempotency-Key header
    (or idempotency_key) to make retries safe.

    Args:
        idempotency_key (str | Unset):
        body (EventInput):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | EventAccepted]
     """


    kwargs = _get_kwargs(
        body=body,
idempotency_key=idempotency_key,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    *,
    client: AuthenticatedClient,
    body: EventInput,
    idempotency_key: str | Unset = UNSET,

) -> Error | EventAccepted | None:
    """ Send an event

     Accepts an event and fans it out to every enabled endpoint whose event types and filter match. 202
    means it is stored durably: it will be delivered (or dead-lettered). Send an Idempotency-Key header
    (or idempotency_key) to make retries safe.

    Args:
        idempotency_key (str | Unset):
        body (EventInput):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | EventAccepted
     """


    return sync_detailed(
        client=client,
body=body,
idempotency_key=idempotency_key,

    ).parsed

async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    body: EventInput,
    idempotency_key: str | Unset = UNSET,

) -> Response[Error | EventAccepted]:
    """ Send an event

     Accepts an event and fans it out to every enabled endpoint whose event types and filter match. 202
    means it is stored durably: it will be delivered (or dead-lettered). Send an Idempotency-Key header
    (or idempotency_key) to make retries safe.

    Args:
        idempotency_key (str | Unset):
        body (EventInput):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | EventAccepted]
     """


    kwargs = _get_kwargs(
        body=body,
idempotency_key=idempotency_key,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    *,
    client: AuthenticatedClient,
    body: EventInput,
    idempotency_key: str | Unset = UNSET,

) -> Error | EventAccepted | None:
    """ Send an event

     Accepts an event and fans it out to every enabled endpoint whose event types and filter match. 202
    means it is stored durably: it will be delivered (or dead-lettered). Send an Idempotency-Key header
    (or idempotency_key) to make retries safe.

    Args:
        idempotency_key (str | Unset):
        body (EventInput):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | EventAccepted
     """


    return (await asyncio_detailed(
        client=client,
body=body,
idempotency_key=idempotency_key,

    )).parsed
