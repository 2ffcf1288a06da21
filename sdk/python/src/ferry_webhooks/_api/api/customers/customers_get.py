from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.customer_view import CustomerView
from ...models.error import Error
from typing import cast



def _get_kwargs(
    uid: str,

) -> dict[str, Any]:
    

    

    

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/customers/{uid}".format(uid=quote(str(uid), safe=""),),
    }


    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> CustomerView | Error | None:
    if response.status_code == 200:
        response_200 = CustomerView.from_dict(response.json())



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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[CustomerView | Error]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    uid: str,
    *,
    client: AuthenticatedClient,

) -> Response[CustomerView | Error]:
    """ Get a customer

     One customer by its uid, with the health of its endpoints.

    Args:
        uid (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[CustomerView | Error]
     """


    kwargs = _get_kwargs(
        uid=uid,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    uid: str,
    *,
    client: AuthenticatedClient,

) -> CustomerView | Error | None:
    """ Get a customer

     One customer by its uid, with the health of its endpoints.

    Args:
        uid (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        CustomerView | Error
     """


    return sync_detailed(
        uid=uid,
client=client,

    ).parsed

async def asyncio_detailed(
    uid: str,
    *,
    client: AuthenticatedClient,

) -> Response[CustomerView | Error]:
    """ Get a customer

     One customer by its uid, with the health of its endpoints.

    Args:
        uid (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[CustomerView | Error]
     """


    kwargs = _get_kwargs(
        uid=uid,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    uid: str,
    *,
    client: AuthenticatedClient,

) -> CustomerView | Error | None:
    """ Get a customer

     One customer by its uid, with the health of its endpoints.

    Args:
        uid (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        CustomerView | Error
     """


    return (await asyncio_detailed(
        uid=uid,
client=client,

    )).parsed
