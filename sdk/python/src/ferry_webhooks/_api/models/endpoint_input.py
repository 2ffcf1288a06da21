from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.endpoint_input_format import check_endpoint_input_format
from ..models.endpoint_input_format import EndpointInputFormat
from ..models.endpoint_input_kind import check_endpoint_input_kind
from ..models.endpoint_input_kind import EndpointInputKind
from ..types import UNSET, Unset
from typing import cast

if TYPE_CHECKING:
  from ..models.endpoint_input_headers import EndpointInputHeaders





T = TypeVar("T", bound="EndpointInput")



@_attrs_define
class EndpointInput:
    """ 
        Attributes:
            customer (str | Unset): the uid of one of the tenant's customers, makes the endpoint that customer's: it
                receives only the events sent for it. It cannot change later.
            description (str | Unset): a label of yours
            event_types (list[str] | Unset): event types, or patterns ending in * (order.*; * alone: every type); empty:
                every type
            filter_ (str | Unset): CEL expression over event (id, type, created_at, data) and request (method, path,
                headers, query of a source's captured request; empty otherwise); the endpoint gets an event only when it is
                true; empty: every event. Invalid: 422 with the compiler's message
            format_ (EndpointInputFormat | Unset): envelope (default): the JSON envelope; raw: the body an inbound source
                captured, with its content type (events from no source: their data)
            headers (EndpointInputHeaders | Unset): custom headers sent with every attempt (not webhook-*, hop-by-hop or
                Content-Length/Type)
            kind (EndpointInputKind | Unset): http (default): Ferry pushes to url; queue: consumers pull
            max_in_flight (int | None | Unset): attempts at once at most (1-256, default 16)
            propagate_trace (bool | Unset): propagate_trace sends each attempt's traceparent (default false).
            rate_limit_per_second (int | None | Unset): attempts per second at most; absent or null: unlimited
            signature_timestamp (str | Unset): event (default) or attempt.
            timeout_seconds (int | None | Unset): how long an attempt waits for the answer (1-30, default 10)
            transformation (str | Unset): JavaScript defining function handler(webhook) { ... return webhook }, run once per
                delivery at fan-out (50 ms, bounded memory, no network or timers); webhook is {event: {id, type, created_at,
                data}, payload, headers, cancel}: it may change payload (any JSON value) and headers (not webhook-*, hop-by-hop
                or Content-Length/Type) or set cancel. The result is stored: retries and replays send the same bytes. Empty:
                none. http endpoints only. Invalid: 422 with the engine's message, line and column
            url (str | Unset): required for kind http; none for kind queue
     """

    customer: str | Unset = UNSET
    description: str | Unset = UNSET
    event_types: list[str] | Unset = UNSET
    filter_: str | Unset = UNSET
    format_: EndpointInputFormat | Unset = UNSET
    headers: EndpointInputHeaders | Unset = UNSET
    kind: EndpointInputKind | Unset = UNSET
    max_in_flight: int | None | Unset = UNSET
    propagate_trace: bool | Unset = UNSET
    rate_limit_per_second: int | None | Unset = UNSET
    signature_timestamp: str | Unset = UNSET
    timeout_seconds: int | None | Unset = UNSET
    transformation: str | Unset = UNSET
    url: str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.endpoint_input_headers import EndpointInputHeaders
        customer = self.customer

        description = self.description

        event_types: list[str] | Unset = UNSET
        if not isinstance(self.event_types, Unset):
            event_types = self.event_types



        filter_ = self.filter_

        format_: str | Unset = UNSET
        if not isinstance(self.format_, Unset):
            format_ = self.format_


        headers: dict[str, Any] | Unset = UNSET
        if not isinstance(self.headers, Unset):
            headers = self.headers.to_dict()

        kind: str | Unset = UNSET
        if not isinstance(self.kind, Unset):
            kind = self.kind


        max_in_flight: int | None | Unset
        if isinstance(self.max_in_flight, Unset):
            max_in_flight = UNSET
        else:
            max_in_flight = self.max_in_flight

        propagate_trace = self.propagate_trace

        rate_limit_per_second: int | None | Unset
        if isinstance(self.rate_limit_per_second, Unset):
            rate_limit_per_second = UNSET
        else:
            rate_limit_per_second = self.rate_limit_per_second

        signature_timestamp = self.signature_timestamp

        timeout_seconds: int | None | Unset
        if isinstance(self.timeout_seconds, Unset):
            timeout_seconds = UNSET
        else:
            timeout_seconds = self.timeout_seconds

        transformation = self.transformation

        url = self.url


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
        })
        if customer is not UNSET:
            field_dict["customer"] = customer
        if description is not UNSET:
            field_dict["description"] = description
        if event_types is not UNSET:
            field_dict["event_types"] = event_types
        if filter_ is not UNSET:
            field_dict["filter"] = filter_
        if format_ is not UNSET:
            field_dict["format"] = format_
        if headers is not UNSET:
            field_dict["headers"] = headers
        if kind is not UNSET:
            field_dict["kind"] = kind
        if max_in_flight is not UNSET:
            field_dict["max_in_flight"] = max_in_flight
        if propagate_trace is not UNSET:
            field_dict["propagate_trace"] = propagate_trace
        if rate_limit_per_second is not UNSET:
            field_dict["rate_limit_per_second"] = rate_limit_per_second
        if signature_timestamp is not UNSET:
            field_dict["signature_timestamp"] = signature_timestamp
        if timeout_seconds is not UNSET:
            field_dict["timeout_seconds"] = timeout_seconds
        if transformation is not UNSET:
            field_dict["transformation"] = transformation
        if url is not UNSET:
            field_dict["url"] = url

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.endpoint_input_headers import EndpointInputHeaders
        d = dict(src_dict)
        customer = d.pop("customer", UNSET)

        description = d.pop("description", UNSET)

        event_types = cast(list[str], d.pop("event_types", UNSET))


        filter_ = d.pop("filter", UNSET)

        _format_ = d.pop("format", UNSET)
        format_: EndpointInputFormat | Unset
        if isinstance(_format_,  Unset):
            format_ = UNSET
        else:
            format_ = check_endpoint_input_format(_format_)




        _headers = d.pop("headers", UNSET)
        headers: EndpointInputHeaders | Unset
        if isinstance(_headers,  Unset):
            headers = UNSET
        else:
            headers = EndpointInputHeaders.from_dict(_headers)




        _kind = d.pop("kind", UNSET)
        kind: EndpointInputKind | Unset
        if isinstance(_kind,  Unset):
            kind = UNSET
        else:
            kind = check_endpoint_input_kind(_kind)




        def _parse_max_in_flight(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        max_in_flight = _parse_max_in_flight(d.pop("max_in_flight", UNSET))


        propagate_trace = d.pop("propagate_trace", UNSET)

        def _parse_rate_limit_per_second(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        rate_limit_per_second = _parse_rate_limit_per_second(d.pop("rate_limit_per_second", UNSET))


        signature_timestamp = d.pop("signature_timestamp", UNSET)

        def _parse_timeout_seconds(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        timeout_seconds = _parse_timeout_seconds(d.pop("timeout_seconds", UNSET))


        transformation = d.pop("transformation", UNSET)

        url = d.pop("url", UNSET)

        endpoint_input = cls(
            customer=customer,
            description=description,
            event_types=event_types,
            filter_=filter_,
            format_=format_,
            headers=headers,
            kind=kind,
            max_in_flight=max_in_flight,
            propagate_trace=propagate_trace,
            rate_limit_per_second=rate_limit_per_second,
            signature_timestamp=signature_timestamp,
            timeout_seconds=timeout_seconds,
            transformation=transformation,
            url=url,
        )


        endpoint_input.additional_properties = d
        return endpoint_input

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
