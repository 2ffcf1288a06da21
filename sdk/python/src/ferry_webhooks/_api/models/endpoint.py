from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.endpoint_format import check_endpoint_format
from ..models.endpoint_format import EndpointFormat
from ..models.endpoint_kind import check_endpoint_kind
from ..models.endpoint_kind import EndpointKind
from ..types import UNSET, Unset
from dateutil.parser import isoparse
from typing import cast
from uuid import UUID
import datetime

if TYPE_CHECKING:
  from ..models.endpoint_headers_type_0 import EndpointHeadersType0
  from ..models.filter_errors import FilterErrors





T = TypeVar("T", bound="Endpoint")



@_attrs_define
class Endpoint:
    """ 
        Attributes:
            created_at (datetime.datetime): when the endpoint was created
            customer (None | str): the uid of the customer the endpoint belongs to; null for the tenant's own endpoints.
            description (str): a label of yours
            enabled (bool): false: nothing is sent (disabled by you, or by Ferry after failing for days)
            event_types (list[str] | None): event types, or patterns ending in * (order.*; * alone: every type); empty:
                every type
            failing_since (datetime.datetime | None): since when every attempt has failed; null while healthy
            filter_ (str): CEL expression over event (id, type, created_at, data) and request (method, path, headers, query
                of a source's captured request; empty otherwise); the endpoint gets an event only when it is true; empty: every
                event. Invalid: 422 with the compiler's message
            filter_errors (FilterErrors | None): the filter could not be evaluated on some events since it was last saved
                (they were not sent here); null when never.
            format_ (EndpointFormat): envelope: the JSON envelope; raw: the body an inbound source captured
            headers (EndpointHeadersType0 | None): custom headers sent with every attempt (values redacted for viewers and
                staff)
            id (UUID): the endpoint's id
            kind (EndpointKind): http: Ferry pushes to url; queue: consumers pull
            max_in_flight (int): attempts to the endpoint at once at most
            propagate_trace (bool): propagate_trace sends each attempt's W3C traceparent header when Ferry traces
                (OpenTelemetry on).
            rate_limit_per_second (int | None): null: unlimited
            signature_timestamp (str): event (every attempt signed with the event's time) or attempt (each with its own).
            timeout_seconds (int): how long an attempt waits for the answer
            transformation (str): JavaScript defining function handler(webhook) { ... return webhook }, run once per
                delivery at fan-out (50 ms, bounded memory, no network or timers); webhook is {event: {id, type, created_at,
                data}, payload, headers, cancel}: it may change payload (any JSON value) and headers (not webhook-*, hop-by-hop
                or Content-Length/Type) or set cancel. The result is stored: retries and replays send the same bytes. Empty:
                none. http endpoints only. Invalid: 422 with the engine's message, line and column
            updated_at (datetime.datetime): when the endpoint last changed
            url (str): empty for kind queue
            disabled_reason (str | Unset): why Ferry disabled the endpoint; absent when enabled or disabled by hand
     """

    created_at: datetime.datetime
    customer: None | str
    description: str
    enabled: bool
    event_types: list[str] | None
    failing_since: datetime.datetime | None
    filter_: str
    filter_errors: FilterErrors | None
    format_: EndpointFormat
    headers: EndpointHeadersType0 | None
    id: UUID
    kind: EndpointKind
    max_in_flight: int
    propagate_trace: bool
    rate_limit_per_second: int | None
    signature_timestamp: str
    timeout_seconds: int
    transformation: str
    updated_at: datetime.datetime
    url: str
    disabled_reason: str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.endpoint_headers_type_0 import EndpointHeadersType0
        from ..models.filter_errors import FilterErrors
        created_at = self.created_at.isoformat()

        customer: None | str
        customer = self.customer

        description = self.description

        enabled = self.enabled

        event_types: list[str] | None
        if isinstance(self.event_types, list):
            event_types = self.event_types


        else:
            event_types = self.event_types

        failing_since: None | str
        if isinstance(self.failing_since, datetime.datetime):
            failing_since = self.failing_since.isoformat()
        else:
            failing_since = self.failing_since

        filter_ = self.filter_

        filter_errors: dict[str, Any] | None
        if isinstance(self.filter_errors, FilterErrors):
            filter_errors = self.filter_errors.to_dict()
        else:
            filter_errors = self.filter_errors

        format_: str = self.format_

        headers: dict[str, Any] | None
        if isinstance(self.headers, EndpointHeadersType0):
            headers = self.headers.to_dict()
        else:
            headers = self.headers

        id = str(self.id)

        kind: str = self.kind

        max_in_flight = self.max_in_flight

        propagate_trace = self.propagate_trace

        rate_limit_per_second: int | None
        rate_limit_per_second = self.rate_limit_per_second

        signature_timestamp = self.signature_timestamp

        timeout_seconds = self.timeout_seconds

        transformation = self.transformation

        updated_at = self.updated_at.isoformat()

        url = self.url

        disabled_reason = self.disabled_reason


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "created_at": created_at,
            "customer": customer,
            "description": description,
            "enabled": enabled,
            "event_types": event_types,
            "failing_since": failing_since,
            "filter": filter_,
            "filter_errors": filter_errors,
            "format": format_,
            "headers": headers,
            "id": id,
            "kind": kind,
            "max_in_flight": max_in_flight,
            "propagate_trace": propagate_trace,
            "rate_limit_per_second": rate_limit_per_second,
            "signature_timestamp": signature_timestamp,
            "timeout_seconds": timeout_seconds,
            "transformation": transformation,
            "updated_at": updated_at,
            "url": url,
        })
        if disabled_reason is not UNSET:
            field_dict["disabled_reason"] = disabled_reason

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.endpoint_headers_type_0 import EndpointHeadersType0
        from ..models.filter_errors import FilterErrors
        d = dict(src_dict)
        created_at = isoparse(d.pop("created_at"))




        def _parse_customer(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        customer = _parse_customer(d.pop("customer"))


        description = d.pop("description")

        enabled = d.pop("enabled")

        def _parse_event_types(data: object) -> list[str] | None:
            if data is None:
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                event_types_type_0 = cast(list[str], data)

                return event_types_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[str] | None, data)

        event_types = _parse_event_types(d.pop("event_types"))


        def _parse_failing_since(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                failing_since_type_0 = isoparse(data)



                return failing_since_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        failing_since = _parse_failing_since(d.pop("failing_since"))


        filter_ = d.pop("filter")

        def _parse_filter_errors(data: object) -> FilterErrors | None:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                filter_errors_type_0 = FilterErrors.from_dict(data)



                return filter_errors_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(FilterErrors | None, data)

        filter_errors = _parse_filter_errors(d.pop("filter_errors"))


        format_ = check_endpoint_format(d.pop("format"))




        def _parse_headers(data: object) -> EndpointHeadersType0 | None:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                headers_type_0 = EndpointHeadersType0.from_dict(data)



                return headers_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(EndpointHeadersType0 | None, data)

        headers = _parse_headers(d.pop("headers"))


        id = UUID(d.pop("id"))




        kind = check_endpoint_kind(d.pop("kind"))




        max_in_flight = d.pop("max_in_flight")

        propagate_trace = d.pop("propagate_trace")

        def _parse_rate_limit_per_second(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        rate_limit_per_second = _parse_rate_limit_per_second(d.pop("rate_limit_per_second"))


        signature_timestamp = d.pop("signature_timestamp")

        timeout_seconds = d.pop("timeout_seconds")

        transformation = d.pop("transformation")

        updated_at = isoparse(d.pop("updated_at"))




        url = d.pop("url")

        disabled_reason = d.pop("disabled_reason", UNSET)

        endpoint = cls(
            created_at=created_at,
            customer=customer,
            description=description,
            enabled=enabled,
            event_types=event_types,
            failing_since=failing_since,
            filter_=filter_,
            filter_errors=filter_errors,
            format_=format_,
            headers=headers,
            id=id,
            kind=kind,
            max_in_flight=max_in_flight,
            propagate_trace=propagate_trace,
            rate_limit_per_second=rate_limit_per_second,
            signature_timestamp=signature_timestamp,
            timeout_seconds=timeout_seconds,
            transformation=transformation,
            updated_at=updated_at,
            url=url,
            disabled_reason=disabled_reason,
        )


        endpoint.additional_properties = d
        return endpoint

    @property
    def additional_keys(self) -> list[str]:
        return list(self.additional_properties.keys())

    def __getitem__(self, key: str) -> Any:
        return self.additional_properties[key]

    def __setitem__(self, key: str, value: Any) -> None:
        self.additional_properties[key] = value

    def __delitem__(self, key: str) -> None:
        del self.additional_properties[key]

    def __contains__(self, key: str) -> bool:
        return key in self.additional_properties
