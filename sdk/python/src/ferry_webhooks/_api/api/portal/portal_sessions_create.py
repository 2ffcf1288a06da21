from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.error import Error
from ...models.portal_session_input import PortalSessionInput
from ...models.portal_session_minted import PortalSessionMinted
from ...types import UNSET, Unset
from typing import cast



def _get_kwargs(
    uid: str,
    *,
    body: PortalSessionInput,
    idempotency_key: str | Unset = UNSET,

) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(idempotency_key, Unset):
        headers["Idempotency-Key"] = idempotency_key



    

    

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/customers/{uid}/portal-sessions".format(uid=quote(str(uid), safe=""),),
    }

    _kwargs["json"] = body.to_dict()


    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Error | PortalSessionMinted | None:
    if response.status_code == 201:
        response_201 = PortalSessionMinted.from_dict(response.json())



        return response_201

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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[Error | PortalSessionMinted]:
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
    body: PortalSessionInput,
    idempotency_key: str | Unset = UNSET,

) -> Response[Error | PortalSessionMinted]:
    """ Mint a customer portal session

     Mints a customer portal session for one of your customers and returns a single-use link (and its
    code) to open the embedded portal with. The session's capabilities say what the customer's user may
    do.

    Args:
        uid (str):
        idempotency_key (str | Unset):
        body (PortalSessionInput):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | PortalSessionMinted]
     """


    kwargs = _get_kwargs(
        uid=uid,
body=body,
idempotency_key=idempotency_key,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    uid: str,
    *,
    client: AuthenticatedClient,
    body: PortalSessionInput,
    idempotency_key: str | Unset = UNSET,

) -> Error | PortalSessionMinted | None:
    """ Mint a customer portal session

     Mints a customer portal session for one of your customers and returns a single-use link (and its
    code) to open the embedded portal with. The session's capabilities say what the customer's user may
    do.

    Args:
        uid (str):
        idempotency_key (str | Unset):
        body (PortalSessionInput):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | PortalSessionMinted
     """


    return sync_detailed(
        uid=uid,
client=client,
body=body,
idempotency_key=idempotency_key,

    ).parsed

async def asyncio_detailed(
    uid: str,
    *,
    client: AuthenticatedClient,
    body: PortalSessionInput,
    idempotency_key: str | Unset = UNSET,

) -> Response[Error | PortalSessionMinted]:
    """ Mint a customer portal session

     Mints a customer portal session for one of your customers and returns a single-use link (and its
    code) to open the embedded portal with. The session's capabilities say what the customer's user may
    do.

    Args:
        uid (str):
        idempotency_key (str | Unset):
        body (PortalSessionInput):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | PortalSessionMinted]
     """


    kwargs = _get_kwargs(
        uid=uid,
body=body,
idempotency_key=idempotency_key,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    uid: str,
    *,
    client: AuthenticatedClient,
    body: PortalSessionInput,
    idempotency_key: str | Unset = UNSET,

) -> Error | PortalSessionMinted | None:
    """ Mint a customer portal session

     Mints a customer portal session for one of your customers and returns a single-use link (and its
    code) to open the embedded portal with. The session's capabilities say what the customer's user may
    do.

    Args:
        uid (str):
        idempotency_key (str | Unset):
        body (PortalSessionInput):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | PortalSessionMinted
     """


    return (await asyncio_detailed(
        uid=uid,
client=client,
body=body,
idempotency_key=idempotency_key,

    )).parsed
