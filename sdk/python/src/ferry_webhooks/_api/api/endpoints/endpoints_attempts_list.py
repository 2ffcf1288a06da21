from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.endpoints_attempts_list_outcome import check_endpoints_attempts_list_outcome
from ...models.endpoints_attempts_list_outcome import EndpointsAttemptsListOutcome
from ...models.endpoints_attempts_list_response_200 import EndpointsAttemptsListResponse200
from ...models.error import Error
from ...types import UNSET, Unset
from typing import cast
from uuid import UUID



def _get_kwargs(
    id: UUID,
    *,
    outcome: EndpointsAttemptsListOutcome | Unset = UNSET,
    limit: int | Unset = UNSET,
    cursor: str | Unset = UNSET,

) -> dict[str, Any]:
    

    

    params: dict[str, Any] = {}

    json_outcome: str | Unset = UNSET
    if not isinstance(outcome, Unset):
        json_outcome = outcome

    params["outcome"] = json_outcome

    params["limit"] = limit

    params["cursor"] = cursor


    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}


    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/endpoints/{id}/attempts".format(id=quote(str(id), safe=""),),
        "params": params,
    }


    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> EndpointsAttemptsListResponse200 | Error | None:
    if response.status_code == 200:
        response_200 = EndpointsAttemptsListResponse200.from_dict(response.json())



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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[EndpointsAttemptsListResponse200 | Error]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    id: UUID,
    *,
    client: AuthenticatedClient,
    outcome: EndpointsAttemptsListOutcome | Unset = UNSET,
    limit: int | Unset = UNSET,
    cursor: str | Unset = UNSET,

) -> Response[EndpointsAttemptsListResponse200 | Error]:
    """ List an endpoint's attempts

     The delivery attempts to this endpoint, newest first, optionally of one outcome.

    Args:
        id (UUID):
        outcome (EndpointsAttemptsListOutcome | Unset):
        limit (int | Unset):
        cursor (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[EndpointsAttemptsListResponse200 | Error]
     """


    kwargs = _get_kwargs(
        id=id,
outcome=outcome,
limit=limit,
cursor=cursor,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    id: UUID,
    *,
    client: AuthenticatedClient,
    outcome: EndpointsAttemptsListOutcome | Unset = UNSET,
    limit: int | Unset = UNSET,
    cursor: str | Unset = UNSET,

) -> EndpointsAttemptsListResponse200 | Error | None:
    """ List an endpoint's attempts

     The delivery attempts to this endpoint, newest first, optionally of one outcome.

    Args:
        id (UUID):
        outcome (EndpointsAttemptsListOutcome | Unset):
        limit (int | Unset):
        cursor (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        EndpointsAttemptsListResponse200 | Error
     """


    return sync_detailed(
        id=id,
client=client,
outcome=outcome,
limit=limit,
cursor=cursor,

    ).parsed

async def asyncio_detailed(
    id: UUID,
    *,
    client: AuthenticatedClient,
    outcome: EndpointsAttemptsListOutcome | Unset = UNSET,
    limit: int | Unset = UNSET,
    cursor: str | Unset = UNSET,

) -> Response[EndpointsAttemptsListResponse200 | Error]:
    """ List an endpoint's attempts

     The delivery attempts to this endpoint, newest first, optionally of one outcome.

    Args:
        id (UUID):
        outcome (EndpointsAttemptsListOutcome | Unset):
        limit (int | Unset):
        cursor (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[EndpointsAttemptsListResponse200 | Error]
     """


    kwargs = _get_kwargs(
        id=id,
outcome=outcome,
limit=limit,
cursor=cursor,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    id: UUID,
    *,
    client: AuthenticatedClient,
    outcome: EndpointsAttemptsListOutcome | Unset = UNSET,
    limit: int | Unset = UNSET,
    cursor: str | Unset = UNSET,

) -> EndpointsAttemptsListResponse200 | Error | None:
    """ List an endpoint's attempts

     The delivery attempts to this endpoint, newest first, optionally of one outcome.

    Args:
        id (UUID):
        outcome (EndpointsAttemptsListOutcome | Unset):
        limit (int | Unset):
        cursor (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        EndpointsAttemptsListResponse200 | Error
     """


    return (await asyncio_detailed(
        id=id,
client=client,
outcome=outcome,
limit=limit,
cursor=cursor,

    )).parsed
