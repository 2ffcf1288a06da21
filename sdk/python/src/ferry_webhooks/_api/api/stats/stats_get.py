from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.error import Error
from ...models.stats_get_window import check_stats_get_window
from ...models.stats_get_window import StatsGetWindow
from ...models.tenant_stats import TenantStats
from ...types import UNSET, Unset
from typing import cast



def _get_kwargs(
    *,
    window: StatsGetWindow | Unset = UNSET,
    customer: str | Unset = UNSET,

) -> dict[str, Any]:
    

    

    params: dict[str, Any] = {}

    json_window: str | Unset = UNSET
    if not isinstance(window, Unset):
        json_window = window

    params["window"] = json_window

    params["customer"] = customer


    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}


    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/stats",
        "params": params,
    }


    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Error | TenantStats | None:
    if response.status_code == 200:
        response_200 = TenantStats.from_dict(response.json())



        return response_200

    if response.status_code == 401:
        response_401 = Error.from_dict(response.json())



        return response_401

    if response.status_code == 403:
        response_403 = Error.from_dict(response.json())



        return response_403

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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[Error | TenantStats]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    window: StatsGetWindow | Unset = UNSET,
    customer: str | Unset = UNSET,

) -> Response[Error | TenantStats]:
    """ Tenant stats

     The tenant's delivery counts, latency and backlog over a window, optionally for one customer's
    endpoints.

    Args:
        window (StatsGetWindow | Unset):
        customer (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | TenantStats]
     """


    kwargs = _get_kwargs(
        window=window,
customer=customer,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    *,
    client: AuthenticatedClient,
    window: StatsGetWindow | Unset = UNSET,
    customer: str | Unset = UNSET,

) -> Error | TenantStats | None:
    """ Tenant stats

     The tenant's delivery counts, latency and backlog over a window, optionally for one customer's
    endpoints.

    Args:
        window (StatsGetWindow | Unset):
        customer (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | TenantStats
     """


    return sync_detailed(
        client=client,
window=window,
customer=customer,

    ).parsed

async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    window: StatsGetWindow | Unset = UNSET,
    customer: str | Unset = UNSET,

) -> Response[Error | TenantStats]:
    """ Tenant stats

     The tenant's delivery counts, latency and backlog over a window, optionally for one customer's
    endpoints.

    Args:
        window (StatsGetWindow | Unset):
        customer (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | TenantStats]
     """


    kwargs = _get_kwargs(
        window=window,
customer=customer,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    *,
    client: AuthenticatedClient,
    window: StatsGetWindow | Unset = UNSET,
    customer: str | Unset = UNSET,

) -> Error | TenantStats | None:
    """ Tenant stats

     The tenant's delivery counts, latency and backlog over a window, optionally for one customer's
    endpoints.

    Args:
        window (StatsGetWindow | Unset):
        customer (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | TenantStats
     """


    return (await asyncio_detailed(
        client=client,
window=window,
customer=customer,

    )).parsed
