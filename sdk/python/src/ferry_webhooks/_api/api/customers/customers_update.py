from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.customer_patch import CustomerPatch
from ...models.customer_view import CustomerView
from ...models.error import Error
from typing import cast



def _get_kwargs(
    uid: str,
    *,
    body: CustomerPatch,

) -> dict[str, Any]:
    headers: dict[str, Any] = {}


    

    

    _kwargs: dict[str, Any] = {
        "method": "patch",
        "url": "/customers/{uid}".format(uid=quote(str(uid), safe=""),),
    }

    _kwargs["json"] = body.to_dict()


    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> CustomerView | Error | None:
    if response.status_code == 200:
        response_200 = CustomerView.from_dict(response.json())



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
    body: CustomerPatch,

) -> Response[CustomerView | Error]:
    """ Update a customer

     Changes the fields sent; the others stay.

    Args:
        uid (str):
        body (CustomerPatch):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[CustomerView | Error]
     """


    kwargs = _get_kwargs(
        uid=uid,
body=body,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    uid: str,
    *,
    client: AuthenticatedClient,
    body: CustomerPatch,

) -> CustomerView | Error | None:
    """ Update a customer

     Changes the fields sent; the others stay.

    Args:
        uid (str):
        body (CustomerPatch):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        CustomerView | Error
     """


    return sync_detailed(
        uid=uid,
client=client,
body=body,

    ).parsed

async def asyncio_detailed(
    uid: str,
    *,
    client: AuthenticatedClient,
    body: CustomerPatch,

) -> Response[CustomerView | Error]:
    """ Update a customer

     Changes the fields sent; the others stay.

    Args:
        uid (str):
        body (CustomerPatch):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[CustomerView | Error]
     """


    kwargs = _get_kwargs(
        uid=uid,
body=body,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    uid: str,
    *,
    client: AuthenticatedClient,
    body: CustomerPatch,

) -> CustomerView | Error | None:
    """ Update a customer

     Changes the fields sent; the others stay.

    Args:
        uid (str):
        body (CustomerPatch):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        CustomerView | Error
     """


    return (await asyncio_detailed(
        uid=uid,
client=client,
body=body,

    )).parsed
