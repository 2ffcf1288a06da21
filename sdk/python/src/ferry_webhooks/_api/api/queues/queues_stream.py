from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.error import Error
from ...types import UNSET, Unset
from typing import cast
from uuid import UUID



def _get_kwargs(
    endpoint_id: UUID,
    *,
    visibility_seconds: int | Unset = UNSET,

) -> dict[str, Any]:
    

    

    params: dict[str, Any] = {}

    params["visibility_seconds"] = visibility_seconds


    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}


    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/queues/{endpoint_id}/stream".format(endpoint_id=quote(str(endpoint_id), safe=""),),
        "params": params,
    }


    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Any | Error | None:
    if response.status_code == 200:
        response_200 = cast(Any, None)
        return response_200

    if response.status_code == 401:
        response_401 = Error.from_dict(response.json())



        return response_401

    if response.status_code == 403:
        response_403 = Error.from_dict(response.json())



        return response_403

    if response.status_code == 404:
        response_404 = Error.from_dict(response.json())



        return response_404

    if response.status_code == 422:
        response_422 = Error.from_dict(response.json())



        return response_422

    if response.status_code == 429:
        response_429 = Error.from_dict(response.json())



        return response_429

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[Any | Error]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    endpoint_id: UUID,
    *,
    client: AuthenticatedClient,
    visibility_seconds: int | Unset = UNSET,

) -> Response[Any | Error]:
    """ Stream messages

     Server-sent events (text/event-stream): each event message carries one pulled message as data;
    settle it as a pulled one.

    Args:
        endpoint_id (UUID):
        visibility_seconds (int | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | Error]
     """


    kwargs = _get_kwargs(
        endpoint_id=endpoint_id,
visibility_seconds=visibility_seconds,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    endpoint_id: UUID,
    *,
    client: AuthenticatedClient,
    visibility_seconds: int | Unset = UNSET,

) -> Any | Error | None:
    """ Stream messages

     Server-sent events (text/event-stream): each event message carries one pulled message as data;
    settle it as a pulled one.

    Args:
        endpoint_id (UUID):
        visibility_seconds (int | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | Error
     """


    return sync_detailed(
        endpoint_id=endpoint_id,
client=client,
visibility_seconds=visibility_seconds,

    ).parsed

async def asyncio_detailed(
    endpoint_id: UUID,
    *,
    client: AuthenticatedClient,
    visibility_seconds: int | Unset = UNSET,

) -> Response[Any | Error]:
    """ Stream messages

     Server-sent events (text/event-stream): each event message carries one pulled message as data;
    settle it as a pulled one.

    Args:
        endpoint_id (UUID):
        visibility_seconds (int | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | Error]
     """


    kwargs = _get_kwargs(
        endpoint_id=endpoint_id,
visibility_seconds=visibility_seconds,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    endpoint_id: UUID,
    *,
    client: AuthenticatedClient,
    visibility_seconds: int | Unset = UNSET,

) -> Any | Error | None:
    """ Stream messages

     Server-sent events (text/event-stream): each event message carries one pulled message as data;
    settle it as a pulled one.

    Args:
        endpoint_id (UUID):
        visibility_seconds (int | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | Error
     """


    return (await asyncio_detailed(
        endpoint_id=endpoint_id,
client=client,
visibility_seconds=visibility_seconds,

    )).parsed
