from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast






T = TypeVar("T", bound="NackInput")



@_attrs_define
class NackInput:
    """ 
        Attributes:
            receipts (list[str]): receipts of leased messages (1-100)
            delay_seconds (int | None | Unset): back in the queue after this long (0-43200); absent: the retry schedule
     """

    receipts: list[str]
    delay_seconds: int | None | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        receipts = self.receipts



        delay_seconds: int | None | Unset
        if isinstance(self.delay_seconds, Unset):
            delay_seconds = UNSET
        else:
            delay_seconds = self.delay_seconds


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "receipts": receipts,
        })
        if delay_seconds is not UNSET:
            field_dict["delay_seconds"] = delay_seconds

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        receipts = cast(list[str], d.pop("receipts"))


        def _parse_delay_seconds(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        delay_seconds = _parse_delay_seconds(d.pop("delay_seconds", UNSET))


        nack_input = cls(
            receipts=receipts,
            delay_seconds=delay_seconds,
        )


        nack_input.additional_properties = d
        return nack_input

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
