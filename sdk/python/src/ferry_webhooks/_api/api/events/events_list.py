from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.error import Error
from ...models.events_list_response_200 import EventsListResponse200
from ...models.events_list_status import check_events_list_status
from ...models.events_list_status import EventsListStatus
from ...types import UNSET, Unset
from dateutil.parser import isoparse
from typing import cast
from uuid import UUID
import datetime



def _get_kwargs(
    *,
    type_: str | Unset = UNSET,
    customer: str | Unset = UNSET,
    status: EventsListStatus | Unset = UNSET,
    endpoint_id: UUID | Unset = UNSET,
    since: datetime.datetime | Unset = UNSET,
    until: datetime.datetime | Unset = UNSET,
    limit: int | Unset = UNSET,
    cursor: str | Unset = UNSET,

) -> dict[str, Any]:
    

    

    params: dict[str, Any] = {}

    params["type"] = type_

    params["customer"] = customer

    json_status: str | Unset = UNSET
    if not isinstance(status, Unset):
        json_status = status

    params["status"] = json_status

    json_endpoint_id: str | Unset = UNSET
    if not isinstance(endpoint_id, Unset):
        json_endpoint_id = str(endpoint_id)
    params["endpoint_id"] = json_endpoint_id

    json_since: str | Unset = UNSET
    if not isinstance(since, Unset):
        json_since = since.isoformat()
    params["since"] = json_since

    json_until: str | Unset = UNSET
    if not isinstance(until, Unset):
        json_until = until.isoformat()
    params["until"] = json_until

    params["limit"] = limit

    params["cursor"] = cursor


    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}


    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/events",
        "params": params,
    }


    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Error | EventsListResponse200 | None:
    if response.status_code == 200:
        response_200 = EventsListResponse200.from_dict(response.json())



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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[Error | EventsListResponse200]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    type_: str | Unset = UNSET,
    customer: str | Unset = UNSET,
    status: EventsListStatus | Unset = UNSET,
    endpoint_id: UUID | Unset = UNSET,
    since: datetime.datetime | Unset = UNSET,
    until: datetime.datetime | Unset = UNSET,
    limit: int | Unset = UNSET,
    cursor: str | Unset = UNSET,

) -> Response[Error | EventsListResponse200]:
    """ List events

     Your events, newest first, with their deliveries; filter by type, customer, status, endpoint and
    time.

    Args:
        type_ (str | Unset):
        customer (str | Unset):
        status (EventsListStatus | Unset):
        endpoint_id (UUID | Unset):
        since (datetime.datetime | Unset):
        until (datetime.datetime | Unset):
        limit (int | Unset):
        cursor (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | EventsListResponse200]
     """


    kwargs = _get_kwargs(
        type_=type_,
customer=customer,
status=status,
endpoint_id=endpoint_id,
since=since,
until=until,
limit=limit,
cursor=cursor,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    *,
    client: AuthenticatedClient,
    type_: str | Unset = UNSET,
    customer: str | Unset = UNSET,
    status: EventsListStatus | Unset = UNSET,
    endpoint_id: UUID | Unset = UNSET,
    since: datetime.datetime | Unset = UNSET,
    until: datetime.datetime | Unset = UNSET,
    limit: int | Unset = UNSET,
    cursor: str | Unset = UNSET,

) -> Error | EventsListResponse200 | None:
    """ List events

     Your events, newest first, with their deliveries; filter by type, customer, status, endpoint and
    time.

    Args:
        type_ (str | Unset):
        customer (str | Unset):
        status (EventsListStatus | Unset):
        endpoint_id (UUID | Unset):
        since (datetime.datetime | Unset):
        until (datetime.datetime | Unset):
        limit (int | Unset):
        cursor (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | EventsListResponse200
     """


    return sync_detailed(
        client=client,
type_=type_,
customer=customer,
status=status,
endpoint_id=endpoint_id,
since=since,
until=until,
limit=limit,
cursor=cursor,

    ).parsed

async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    type_: str | Unset = UNSET,
    customer: str | Unset = UNSET,
    status: EventsListStatus | Unset = UNSET,
    endpoint_id: UUID | Unset = UNSET,
    since: datetime.datetime | Unset = UNSET,
    until: datetime.datetime | Unset = UNSET,
    limit: int | Unset = UNSET,
    cursor: str | Unset = UNSET,

) -> Response[Error | EventsListResponse200]:
    """ List events

     Your events, newest first, with their deliveries; filter by type, customer, status, endpoint and
    time.

    Args:
        type_ (str | Unset):
        customer (str | Unset):
        status (EventsListStatus | Unset):
        endpoint_id (UUID | Unset):
        since (datetime.datetime | Unset):
        until (datetime.datetime | Unset):
        limit (int | Unset):
        cursor (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | EventsListResponse200]
     """


    kwargs = _get_kwargs(
        type_=type_,
customer=customer,
status=status,
endpoint_id=endpoint_id,
since=since,
until=until,
limit=limit,
cursor=cursor,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    *,
    client: AuthenticatedClient,
    type_: str | Unset = UNSET,
    customer: str | Unset = UNSET,
    status: EventsListStatus | Unset = UNSET,
    endpoint_id: UUID | Unset = UNSET,
    since: datetime.datetime | Unset = UNSET,
    until: datetime.datetime | Unset = UNSET,
    limit: int | Unset = UNSET,
    cursor: str | Unset = UNSET,

) -> Error | EventsListResponse200 | None:
    """ List events

     Your events, newest first, with their deliveries; filter by type, customer, status, endpoint and
    time.

    Args:
        type_ (str | Unset):
        customer (str | Unset):
        status (EventsListStatus | Unset):
        endpoint_id (UUID | Unset):
        since (datetime.datetime | Unset):
        until (datetime.datetime | Unset):
        limit (int | Unset):
        cursor (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | EventsListResponse200
     """


    return (await asyncio_detailed(
        client=client,
type_=type_,
customer=customer,
status=status,
endpoint_id=endpoint_id,
since=since,
until=until,
limit=limit,
cursor=cursor,

    )).parsed
