from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.error import Error
from ...models.queue_stats import QueueStats
from typing import cast
from uuid import UUID



def _get_kwargs(
    endpoint_id: UUID,

) -> dict[str, Any]:
    

    

    

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/queues/{endpoint_id}".format(endpoint_id=quote(str(endpoint_id), safe=""),),
    }


    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Error | QueueStats | None:
    if response.status_code == 200:
        response_200 = QueueStats.from_dict(response.json())



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

    if response.status_code == 429:
        response_429 = Error.from_dict(response.json())



        return response_429

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[Error | QueueStats]:
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

) -> Response[Error | QueueStats]:
    """ Queue stats

     A pull queue's depth, in-flight count, oldest age and dead count.

    Args:
        endpoint_id (UUID):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | QueueStats]
     """


    kwargs = _get_kwargs(
        endpoint_id=endpoint_id,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    endpoint_id: UUID,
    *,
    client: AuthenticatedClient,

) -> Error | QueueStats | None:
    """ Queue stats

     A pull queue's depth, in-flight count, oldest age and dead count.

    Args:
        endpoint_id (UUID):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | QueueStats
     """


    return sync_detailed(
        endpoint_id=endpoint_id,
client=client,

    ).parsed

async def asyncio_detailed(
    endpoint_id: UUID,
    *,
    client: AuthenticatedClient,

) -> Response[Error | QueueStats]:
    """ Queue stats

     A pull queue's depth, in-flight count, oldest age and dead count.

    Args:
        endpoint_id (UUID):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | QueueStats]
     """


    kwargs = _get_kwargs(
        endpoint_id=endpoint_id,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    endpoint_id: UUID,
    *,
    client: AuthenticatedClient,

) -> Error | QueueStats | None:
    """ Queue stats

     A pull queue's depth, in-flight count, oldest age and dead count.

    Args:
        endpoint_id (UUID):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | QueueStats
     """


    return (await asyncio_detailed(
        endpoint_id=endpoint_id,
client=client,

    )).parsed
