from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset






T = TypeVar("T", bound="TestEventInput")



@_attrs_define
class TestEventInput:
    """ 
        Attributes:
            event_type (str | Unset): send the event-type catalog's first example of this type (default: ferry.test)
            example (int | Unset): which example of the latest version (from 0)
     """

    event_type: str | Unset = UNSET
    example: int | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        event_type = self.event_type

        example = self.example


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
        })
        if event_type is not UNSET:
            field_dict["event_type"] = event_type
        if example is not UNSET:
            field_dict["example"] = example

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        event_type = d.pop("event_type", UNSET)

        example = d.pop("example", UNSET)

        test_event_input = cls(
            event_type=event_type,
            example=example,
        )


        test_event_input.additional_properties = d
        return test_event_input

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
