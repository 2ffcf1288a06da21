from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset






T = TypeVar("T", bound="SourceDedupeInput")



@_attrs_define
class SourceDedupeInput:
    """ 
        Attributes:
            header (str | Unset): the key is this request header
            json_path (str | Unset): the key is at this dotted path in the JSON body
     """

    header: str | Unset = UNSET
    json_path: str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        header = self.header

        json_path = self.json_path


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
        })
        if header is not UNSET:
            field_dict["header"] = header
        if json_path is not UNSET:
            field_dict["json_path"] = json_path

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        header = d.pop("header", UNSET)

        json_path = d.pop("json_path", UNSET)

        source_dedupe_input = cls(
            header=header,
            json_path=json_path,
        )


        source_dedupe_input.additional_properties = d
        return source_dedupe_input

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
