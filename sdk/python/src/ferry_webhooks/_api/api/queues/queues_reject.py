from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.error import Error
from ...models.queue_settled import QueueSettled
from ...models.reject_input import RejectInput
from typing import cast
from uuid import UUID



def _get_kwargs(
    endpoint_id: UUID,
    *,
    body: RejectInput,

) -> dict[str, Any]:
    headers: dict[str, Any] = {}


    

    

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/queues/{endpoint_id}/reject".format(endpoint_id=quote(str(endpoint_id), safe=""),),
    }

    _kwargs["json"] = body.to_dict()


    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Error | QueueSettled | None:
    if response.status_code == 200:
        response_200 = QueueSettled.from_dict(response.json())



        return response_200

    if response.status_code == 400:
        response_400 = Error.from_dict(response.json())



        return response_400

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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[Error | QueueSettled]:
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
    body: RejectInput,

) -> Response[Error | QueueSettled]:
    """ Reject messages

     Drops leased messages for good, keeping the reason on the attempt.

    Args:
        endpoint_id (UUID):
        body (RejectInput):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | QueueSettled]
     """


    kwargs = _get_kwargs(
        endpoint_id=endpoint_id,
body=body,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    endpoint_id: UUID,
    *,
    client: AuthenticatedClient,
    body: RejectInput,

) -> Error | QueueSettled | None:
    """ Reject messages

     Drops leased messages for good, keeping the reason on the attempt.

    Args:
        endpoint_id (UUID):
        body (RejectInput):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | QueueSettled
     """


    return sync_detailed(
        endpoint_id=endpoint_id,
client=client,
body=body,

    ).parsed

async def asyncio_detailed(
    endpoint_id: UUID,
    *,
    client: AuthenticatedClient,
    body: RejectInput,

) -> Response[Error | QueueSettled]:
    """ Reject messages

     Drops leased messages for good, keeping the reason on the attempt.

    Args:
        endpoint_id (UUID):
        body (RejectInput):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | QueueSettled]
     """


    kwargs = _get_kwargs(
        endpoint_id=endpoint_id,
body=body,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    endpoint_id: UUID,
    *,
    client: AuthenticatedClient,
    body: RejectInput,

) -> Error | QueueSettled | None:
    """ Reject messages

     Drops leased messages for good, keeping the reason on the attempt.

    Args:
        endpoint_id (UUID):
        body (RejectInput):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | QueueSettled
     """


    return (await asyncio_detailed(
        endpoint_id=endpoint_id,
client=client,
body=body,

    )).parsed
