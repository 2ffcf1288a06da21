from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from dateutil.parser import isoparse
from typing import cast
import datetime






T = TypeVar("T", bound="FilterErrors")



@_attrs_define
class FilterErrors:
    """ 
        Attributes:
            count (int): events the filter failed on since it was saved
            last_at (datetime.datetime): when the latest one happened
            last_error (str): the latest evaluation error
     """

    count: int
    last_at: datetime.datetime
    last_error: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        count = self.count

        last_at = self.last_at.isoformat()

        last_error = self.last_error


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "count": count,
            "last_at": last_at,
            "last_error": last_error,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        count = d.pop("count")

        last_at = isoparse(d.pop("last_at"))




        last_error = d.pop("last_error")

        filter_errors = cls(
            count=count,
            last_at=last_at,
            last_error=last_error,
        )


        filter_errors.additional_properties = d
        return filter_errors

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
