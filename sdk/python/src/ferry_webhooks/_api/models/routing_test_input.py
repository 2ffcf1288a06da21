from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast

if TYPE_CHECKING:
  from ..models.routing_test_event import RoutingTestEvent
  from ..models.routing_test_request import RoutingTestRequest





T = TypeVar("T", bound="RoutingTestInput")



@_attrs_define
class RoutingTestInput:
    """ 
        Attributes:
            event (RoutingTestEvent):
            filter_ (None | str | Unset): an unsaved filter to try instead of the endpoint's
            request (None | RoutingTestRequest | Unset): a sample captured request, as filters see request for events from
                sources (absent: empty)
            transformation (None | str | Unset): an unsaved transformation to try instead of the endpoint's
     """

    event: RoutingTestEvent
    filter_: None | str | Unset = UNSET
    request: None | RoutingTestRequest | Unset = UNSET
    transformation: None | str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.routing_test_event import RoutingTestEvent
        from ..models.routing_test_request import RoutingTestRequest
        event = self.event.to_dict()

        filter_: None | str | Unset
        if isinstance(self.filter_, Unset):
            filter_ = UNSET
        else:
            filter_ = self.filter_

        request: dict[str, Any] | None | Unset
        if isinstance(self.request, Unset):
            request = UNSET
        elif isinstance(self.request, RoutingTestRequest):
            request = self.request.to_dict()
        else:
            request = self.request

        transformation: None | str | Unset
        if isinstance(self.transformation, Unset):
            transformation = UNSET
        else:
            transformation = self.transformation


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "event": event,
        })
        if filter_ is not UNSET:
            field_dict["filter"] = filter_
        if request is not UNSET:
            field_dict["request"] = request
        if transformation is not UNSET:
            field_dict["transformation"] = transformation

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.routing_test_event import RoutingTestEvent
        from ..models.routing_test_request import RoutingTestRequest
        d = dict(src_dict)
        event = RoutingTestEvent.from_dict(d.pop("event"))




        def _parse_filter_(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        filter_ = _parse_filter_(d.pop("filter", UNSET))


        def _parse_request(data: object) -> None | RoutingTestRequest | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                request_type_0 = RoutingTestRequest.from_dict(data)



                return request_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | RoutingTestRequest | Unset, data)

        request = _parse_request(d.pop("request", UNSET))


        def _parse_transformation(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        transformation = _parse_transformation(d.pop("transformation", UNSET))


        routing_test_input = cls(
            event=event,
            filter_=filter_,
            request=request,
            transformation=transformation,
        )


        routing_test_input.additional_properties = d
        return routing_test_input

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
