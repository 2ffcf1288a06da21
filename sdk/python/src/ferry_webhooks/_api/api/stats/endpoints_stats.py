from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.endpoints_stats_window import check_endpoints_stats_window
from ...models.endpoints_stats_window import EndpointsStatsWindow
from ...models.error import Error
from ...models.stats import Stats
from ...types import UNSET, Unset
from typing import cast
from uuid import UUID



def _get_kwargs(
    id: UUID,
    *,
    window: EndpointsStatsWindow | Unset = UNSET,

) -> dict[str, Any]:
    

    

    params: dict[str, Any] = {}

    json_window: str | Unset = UNSET
    if not isinstance(window, Unset):
        json_window = window

    params["window"] = json_window


    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}


    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/endpoints/{id}/stats".format(id=quote(str(id), safe=""),),
        "params": params,
    }


    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Error | Stats | None:
    if response.status_code == 200:
        response_200 = Stats.from_dict(response.json())



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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[Error | Stats]:
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
    window: EndpointsStatsWindow | Unset = UNSET,

) -> Response[Error | Stats]:
    """ An endpoint's stats

     Deliveries by status and outcome, latency percentiles, errors by class and the backlog of one
    endpoint over a window.

    Args:
        id (UUID):
        window (EndpointsStatsWindow | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | Stats]
     """


    kwargs = _get_kwargs(
        id=id,
window=window,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    id: UUID,
    *,
    client: AuthenticatedClient,
    window: EndpointsStatsWindow | Unset = UNSET,

) -> Error | Stats | None:
    """ An endpoint's stats

     Deliveries by status and outcome, latency percentiles, errors by class and the backlog of one
    endpoint over a window.

    Args:
        id (UUID):
        window (EndpointsStatsWindow | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | Stats
     """


    return sync_detailed(
        id=id,
client=client,
window=window,

    ).parsed

async def asyncio_detailed(
    id: UUID,
    *,
    client: AuthenticatedClient,
    window: EndpointsStatsWindow | Unset = UNSET,

) -> Response[Error | Stats]:
    """ An endpoint's stats

     Deliveries by status and outcome, latency percentiles, errors by class and the backlog of one
    endpoint over a window.

    Args:
        id (UUID):
        window (EndpointsStatsWindow | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | Stats]
     """


    kwargs = _get_kwargs(
        id=id,
window=window,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    id: UUID,
    *,
    client: AuthenticatedClient,
    window: EndpointsStatsWindow | Unset = UNSET,

) -> Error | Stats | None:
    """ An endpoint's stats

     Deliveries by status and outcome, latency percentiles, errors by class and the backlog of one
    endpoint over a window.

    Args:
        id (UUID):
        window (EndpointsStatsWindow | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | Stats
     """


    return (await asyncio_detailed(
        id=id,
client=client,
window=window,

    )).parsed
