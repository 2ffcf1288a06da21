from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.endpoint_patch_format_type_1 import check_endpoint_patch_format_type_1
from ..models.endpoint_patch_format_type_1 import EndpointPatchFormatType1
from ..models.endpoint_patch_format_type_2_type_1 import check_endpoint_patch_format_type_2_type_1
from ..models.endpoint_patch_format_type_2_type_1 import EndpointPatchFormatType2Type1
from ..models.endpoint_patch_format_type_3_type_1 import check_endpoint_patch_format_type_3_type_1
from ..models.endpoint_patch_format_type_3_type_1 import EndpointPatchFormatType3Type1
from ..types import UNSET, Unset
from typing import cast

if TYPE_CHECKING:
  from ..models.endpoint_patch_headers_type_0 import EndpointPatchHeadersType0





T = TypeVar("T", bound="EndpointPatch")



@_attrs_define
class EndpointPatch:
    """ 
        Attributes:
            description (None | str | Unset): a new label
            enabled (bool | None | Unset): false stops sending; true resumes (and clears a disabled reason)
            event_types (list[str] | None | Unset): event types, or patterns ending in * (order.*; * alone: every type);
                empty: every type
            filter_ (None | str | Unset): CEL expression over event (id, type, created_at, data) and request (method, path,
                headers, query of a source's captured request; empty otherwise); the endpoint gets an event only when it is
                true; empty: every event. Invalid: 422 with the compiler's message
            format_ (EndpointPatchFormatType1 | EndpointPatchFormatType2Type1 | EndpointPatchFormatType3Type1 | None |
                Unset): envelope (default): the JSON envelope; raw: the body an inbound source captured, with its content type
                (events from no source: their data)
            headers (EndpointPatchHeadersType0 | None | Unset): replaces the custom headers as a whole
            max_in_flight (int | None | Unset): attempts at once at most (1-256)
            propagate_trace (bool | None | Unset): send each attempt's W3C traceparent header
            rate_limit_per_second (int | None | Unset): 0 removes the limit
            signature_timestamp (None | str | Unset): event (every attempt signed with the event time) or attempt
            timeout_seconds (int | None | Unset): how long an attempt waits for the answer (1-30)
            transformation (None | str | Unset): JavaScript defining function handler(webhook) { ... return webhook }, run
                once per delivery at fan-out (50 ms, bounded memory, no network or timers); webhook is {event: {id, type,
                created_at, data}, payload, headers, cancel}: it may change payload (any JSON value) and headers (not webhook-*,
                hop-by-hop or Content-Length/Type) or set cancel. The result is stored: retries and replays send the same bytes.
                Empty: none. http endpoints only. Invalid: 422 with the engine's message, line and column
            url (None | str | Unset): a new URL (http endpoints)
     """

    description: None | str | Unset = UNSET
    enabled: bool | None | Unset = UNSET
    event_types: list[str] | None | Unset = UNSET
    filter_: None | str | Unset = UNSET
    format_: EndpointPatchFormatType1 | EndpointPatchFormatType2Type1 | EndpointPatchFormatType3Type1 | None | Unset = UNSET
    headers: EndpointPatchHeadersType0 | None | Unset = UNSET
    max_in_flight: int | None | Unset = UNSET
    propagate_trace: bool | None | Unset = UNSET
    rate_limit_per_second: int | None | Unset = UNSET
    signature_timestamp: None | str | Unset = UNSET
    timeout_seconds: int | None | Unset = UNSET
    transformation: None | str | Unset = UNSET
    url: None | str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.endpoint_patch_headers_type_0 import EndpointPatchHeadersType0
        description: None | str | Unset
        if isinstance(self.description, Unset):
            description = UNSET
        else:
            description = self.description

        enabled: bool | None | Unset
        if isinstance(self.enabled, Unset):
            enabled = UNSET
        else:
            enabled = self.enabled

        event_types: list[str] | None | Unset
        if isinstance(self.event_types, Unset):
            event_types = UNSET
        elif isinstance(self.event_types, list):
            event_types = self.event_types


        else:
            event_types = self.event_types

        filter_: None | str | Unset
        if isinstance(self.filter_, Unset):
            filter_ = UNSET
        else:
            filter_ = self.filter_

        format_: None | str | Unset
        if isinstance(self.format_, Unset):
            format_ = UNSET
        elif isinstance(self.format_, str):
            format_ = self.format_
        elif isinstance(self.format_, str):
            format_ = self.format_
        elif isinstance(self.format_, str):
            format_ = self.format_
        else:
            format_ = self.format_

        headers: dict[str, Any] | None | Unset
        if isinstance(self.headers, Unset):
            headers = UNSET
        elif isinstance(self.headers, EndpointPatchHeadersType0):
            headers = self.headers.to_dict()
        else:
            headers = self.headers

        max_in_flight: int | None | Unset
        if isinstance(self.max_in_flight, Unset):
            max_in_flight = UNSET
        else:
            max_in_flight = self.max_in_flight

        propagate_trace: bool | None | Unset
        if isinstance(self.propagate_trace, Unset):
            propagate_trace = UNSET
        else:
            propagate_trace = self.propagate_trace

        rate_limit_per_second: int | None | Unset
        if isinstance(self.rate_limit_per_second, Unset):
            rate_limit_per_second = UNSET
        else:
            rate_limit_per_second = self.rate_limit_per_second

        signature_timestamp: None | str | Unset
        if isinstance(self.signature_timestamp, Unset):
            signature_timestamp = UNSET
        else:
            signature_timestamp = self.signature_timestamp

        timeout_seconds: int | None | Unset
        if isinstance(self.timeout_seconds, Unset):
            timeout_seconds = UNSET
        else:
            timeout_seconds = self.timeout_seconds

        transformation: None | str | Unset
        if isinstance(self.transformation, Unset):
            transformation = UNSET
        else:
            transformation = self.transformation

        url: None | str | Unset
        if isinstance(self.url, Unset):
            url = UNSET
        else:
            url = self.url


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
        })
        if description is not UNSET:
            field_dict["description"] = description
        if enabled is not UNSET:
            field_dict["enabled"] = enabled
        if event_types is not UNSET:
            field_dict["event_types"] = event_types
        if filter_ is not UNSET:
            field_dict["filter"] = filter_
        if format_ is not UNSET:
            field_dict["format"] = format_
        if headers is not UNSET:
            field_dict["headers"] = headers
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
        from ..models.endpoint_patch_headers_type_0 import EndpointPatchHeadersType0
        d = dict(src_dict)
        def _parse_description(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        description = _parse_description(d.pop("description", UNSET))


        def _parse_enabled(data: object) -> bool | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(bool | None | Unset, data)

        enabled = _parse_enabled(d.pop("enabled", UNSET))


        def _parse_event_types(data: object) -> list[str] | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                event_types_type_0 = cast(list[str], data)

                return event_types_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[str] | None | Unset, data)

        event_types = _parse_event_types(d.pop("event_types", UNSET))


        def _parse_filter_(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        filter_ = _parse_filter_(d.pop("filter", UNSET))


        def _parse_format_(data: object) -> EndpointPatchFormatType1 | EndpointPatchFormatType2Type1 | EndpointPatchFormatType3Type1 | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                format_type_1 = check_endpoint_patch_format_type_1(data)



                return format_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, str):
                    raise TypeError()
                format_type_2_type_1 = check_endpoint_patch_format_type_2_type_1(data)



                return format_type_2_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, str):
                    raise TypeError()
                format_type_3_type_1 = check_endpoint_patch_format_type_3_type_1(data)



                return format_type_3_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(EndpointPatchFormatType1 | EndpointPatchFormatType2Type1 | EndpointPatchFormatType3Type1 | None | Unset, data)

        format_ = _parse_format_(d.pop("format", UNSET))


        def _parse_headers(data: object) -> EndpointPatchHeadersType0 | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                headers_type_0 = EndpointPatchHeadersType0.from_dict(data)



                return headers_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(EndpointPatchHeadersType0 | None | Unset, data)

        headers = _parse_headers(d.pop("headers", UNSET))


        def _parse_max_in_flight(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        max_in_flight = _parse_max_in_flight(d.pop("max_in_flight", UNSET))


        def _parse_propagate_trace(data: object) -> bool | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(bool | None | Unset, data)

        propagate_trace = _parse_propagate_trace(d.pop("propagate_trace", UNSET))


        def _parse_rate_limit_per_second(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        rate_limit_per_second = _parse_rate_limit_per_second(d.pop("rate_limit_per_second", UNSET))


        def _parse_signature_timestamp(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        signature_timestamp = _parse_signature_timestamp(d.pop("signature_timestamp", UNSET))


        def _parse_timeout_seconds(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        timeout_seconds = _parse_timeout_seconds(d.pop("timeout_seconds", UNSET))


        def _parse_transformation(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        transformation = _parse_transformation(d.pop("transformation", UNSET))


        def _parse_url(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        url = _parse_url(d.pop("url", UNSET))


        endpoint_patch = cls(
            description=description,
            enabled=enabled,
            event_types=event_types,
            filter_=filter_,
            format_=format_,
            headers=headers,
            max_in_flight=max_in_flight,
            propagate_trace=propagate_trace,
            rate_limit_per_second=rate_limit_per_second,
            signature_timestamp=signature_timestamp,
            timeout_seconds=timeout_seconds,
            transformation=transformation,
            url=url,
        )


        endpoint_patch.additional_properties = d
        return endpoint_patch

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
