from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.bulk_replay_input import BulkReplayInput
from ...models.error import Error
from ...models.replay_job import ReplayJob
from ...types import UNSET, Unset
from typing import cast



def _get_kwargs(
    *,
    body: BulkReplayInput | Unset = UNSET,
    idempotency_key: str | Unset = UNSET,

) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(idempotency_key, Unset):
        headers["Idempotency-Key"] = idempotency_key



    

    

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/replays",
    }

    
    if not isinstance(body, Unset):
        _kwargs["json"] = body.to_dict()


    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Error | ReplayJob | None:
    if response.status_code == 202:
        response_202 = ReplayJob.from_dict(response.json())



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

    if response.status_code == 404:
        response_404 = Error.from_dict(response.json())



        return response_404

    if response.status_code == 409:
        response_409 = Error.from_dict(response.json())



        return response_409

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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[Error | ReplayJob]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    body: BulkReplayInput | Unset = UNSET,
    idempotency_key: str | Unset = UNSET,

) -> Response[Error | ReplayJob]:
    """ Start a bulk replay

     Starts re-sending every delivery a filter selects (endpoint, status, event type, time range) in the
    background. Follow it with replays.get.

    Args:
        idempotency_key (str | Unset):
        body (BulkReplayInput | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | ReplayJob]
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
    body: BulkReplayInput | Unset = UNSET,
    idempotency_key: str | Unset = UNSET,

) -> Error | ReplayJob | None:
    """ Start a bulk replay

     Starts re-sending every delivery a filter selects (endpoint, status, event type, time range) in the
    background. Follow it with replays.get.

    Args:
        idempotency_key (str | Unset):
        body (BulkReplayInput | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | ReplayJob
     """


    return sync_detailed(
        client=client,
body=body,
idempotency_key=idempotency_key,

    ).parsed

async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    body: BulkReplayInput | Unset = UNSET,
    idempotency_key: str | Unset = UNSET,

) -> Response[Error | ReplayJob]:
    """ Start a bulk replay

     Starts re-sending every delivery a filter selects (endpoint, status, event type, time range) in the
    background. Follow it with replays.get.

    Args:
        idempotency_key (str | Unset):
        body (BulkReplayInput | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | ReplayJob]
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
    body: BulkReplayInput | Unset = UNSET,
    idempotency_key: str | Unset = UNSET,

) -> Error | ReplayJob | None:
    """ Start a bulk replay

     Starts re-sending every delivery a filter selects (endpoint, status, event type, time range) in the
    background. Follow it with replays.get.

    Args:
        idempotency_key (str | Unset):
        body (BulkReplayInput | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | ReplayJob
     """


    return (await asyncio_detailed(
        client=client,
body=body,
idempotency_key=idempotency_key,

    )).parsed
