from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast

if TYPE_CHECKING:
  from ..models.routing_test_result_headers_type_0 import RoutingTestResultHeadersType0





T = TypeVar("T", bound="RoutingTestResult")



@_attrs_define
class RoutingTestResult:
    """ 
        Attributes:
            cancelled (bool): the transformation cancelled the delivery: nothing would be sent
            headers (None | RoutingTestResultHeadersType0): the custom headers sent with it (the endpoint's, as its
                transformation left them); Ferry's webhook-* headers come on top
            matched (bool): the event type matches and the filter accepts the event
            payload (Any | None): the body the endpoint would receive, after its transformation; null when cancelled or
                failed
            error (str | Unset): why the transformation failed (the delivery would be dropped with error class
                transformation_error)
            filter_error (str | Unset): the filter's compile or evaluation error (counts as not matched)
     """

    cancelled: bool
    headers: None | RoutingTestResultHeadersType0
    matched: bool
    payload: Any | None
    error: str | Unset = UNSET
    filter_error: str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.routing_test_result_headers_type_0 import RoutingTestResultHeadersType0
        cancelled = self.cancelled

        headers: dict[str, Any] | None
        if isinstance(self.headers, RoutingTestResultHeadersType0):
            headers = self.headers.to_dict()
        else:
            headers = self.headers

        matched = self.matched

        payload: Any | None
        payload = self.payload

        error = self.error

        filter_error = self.filter_error


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "cancelled": cancelled,
            "headers": headers,
            "matched": matched,
            "payload": payload,
        })
        if error is not UNSET:
            field_dict["error"] = error
        if filter_error is not UNSET:
            field_dict["filter_error"] = filter_error

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.routing_test_result_headers_type_0 import RoutingTestResultHeadersType0
        d = dict(src_dict)
        cancelled = d.pop("cancelled")

        def _parse_headers(data: object) -> None | RoutingTestResultHeadersType0:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                headers_type_0 = RoutingTestResultHeadersType0.from_dict(data)



                return headers_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | RoutingTestResultHeadersType0, data)

        headers = _parse_headers(d.pop("headers"))


        matched = d.pop("matched")

        def _parse_payload(data: object) -> Any | None:
            if data is None:
                return data
            return cast(Any | None, data)

        payload = _parse_payload(d.pop("payload"))


        error = d.pop("error", UNSET)

        filter_error = d.pop("filter_error", UNSET)

        routing_test_result = cls(
            cancelled=cancelled,
            headers=headers,
            matched=matched,
            payload=payload,
            error=error,
            filter_error=filter_error,
        )


        routing_test_result.additional_properties = d
        return routing_test_result

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
