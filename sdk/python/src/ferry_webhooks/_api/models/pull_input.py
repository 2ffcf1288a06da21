from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast






T = TypeVar("T", bound="PullInput")



@_attrs_define
class PullInput:
    """ 
        Attributes:
            max_ (int | None | Unset): 1-100, default 1
            visibility_seconds (int | None | Unset): lease length (1-43200, default 30)
            wait_seconds (int | None | Unset): long-poll up to this long when empty (0-30, default 0)
     """

    max_: int | None | Unset = UNSET
    visibility_seconds: int | None | Unset = UNSET
    wait_seconds: int | None | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        max_: int | None | Unset
        if isinstance(self.max_, Unset):
            max_ = UNSET
        else:
            max_ = self.max_

        visibility_seconds: int | None | Unset
        if isinstance(self.visibility_seconds, Unset):
            visibility_seconds = UNSET
        else:
            visibility_seconds = self.visibility_seconds

        wait_seconds: int | None | Unset
        if isinstance(self.wait_seconds, Unset):
            wait_seconds = UNSET
        else:
            wait_seconds = self.wait_seconds


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
        })
        if max_ is not UNSET:
            field_dict["max"] = max_
        if visibility_seconds is not UNSET:
            field_dict["visibility_seconds"] = visibility_seconds
        if wait_seconds is not UNSET:
            field_dict["wait_seconds"] = wait_seconds

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        def _parse_max_(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        max_ = _parse_max_(d.pop("max", UNSET))


        def _parse_visibility_seconds(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        visibility_seconds = _parse_visibility_seconds(d.pop("visibility_seconds", UNSET))


        def _parse_wait_seconds(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        wait_seconds = _parse_wait_seconds(d.pop("wait_seconds", UNSET))


        pull_input = cls(
            max_=max_,
            visibility_seconds=visibility_seconds,
            wait_seconds=wait_seconds,
        )


        pull_input.additional_properties = d
        return pull_input

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
