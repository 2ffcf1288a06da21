from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.error import Error
from ...models.revoke_input import RevokeInput
from ...models.revoked import Revoked
from ...types import UNSET, Unset
from typing import cast



def _get_kwargs(
    uid: str,
    *,
    body: RevokeInput | Unset = UNSET,

) -> dict[str, Any]:
    headers: dict[str, Any] = {}


    

    

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/customers/{uid}/portal-sessions/revoke".format(uid=quote(str(uid), safe=""),),
    }

    
    if not isinstance(body, Unset):
        _kwargs["json"] = body.to_dict()


    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Error | Revoked | None:
    if response.status_code == 200:
        response_200 = Revoked.from_dict(response.json())



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

    if response.status_code == 429:
        response_429 = Error.from_dict(response.json())



        return response_429

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[Error | Revoked]:
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
    body: RevokeInput | Unset = UNSET,

) -> Response[Error | Revoked]:
    """ Revoke a customer's portal sessions

     Revokes the customer's portal sessions, all of them or those of one external user; their tokens stop
    working at once.

    Args:
        uid (str):
        body (RevokeInput | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | Revoked]
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
    body: RevokeInput | Unset = UNSET,

) -> Error | Revoked | None:
    """ Revoke a customer's portal sessions

     Revokes the customer's portal sessions, all of them or those of one external user; their tokens stop
    working at once.

    Args:
        uid (str):
        body (RevokeInput | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | Revoked
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
    body: RevokeInput | Unset = UNSET,

) -> Response[Error | Revoked]:
    """ Revoke a customer's portal sessions

     Revokes the customer's portal sessions, all of them or those of one external user; their tokens stop
    working at once.

    Args:
        uid (str):
        body (RevokeInput | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | Revoked]
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
    body: RevokeInput | Unset = UNSET,

) -> Error | Revoked | None:
    """ Revoke a customer's portal sessions

     Revokes the customer's portal sessions, all of them or those of one external user; their tokens stop
    working at once.

    Args:
        uid (str):
        body (RevokeInput | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | Revoked
     """


    return (await asyncio_detailed(
        uid=uid,
client=client,
body=body,

    )).parsed
