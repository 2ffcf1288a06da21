from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from dateutil.parser import isoparse
from typing import cast
import datetime






T = TypeVar("T", bound="EventTypeWarning")



@_attrs_define
class EventTypeWarning:
    """ 
        Attributes:
            at (datetime.datetime): when the event was accepted with the warning
            field (str): the failing value, e.g. data/amount
            message (str): the validator's message
            version (int): the version whose schema the data failed
     """

    at: datetime.datetime
    field: str
    message: str
    version: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        at = self.at.isoformat()

        field = self.field

        message = self.message

        version = self.version


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "at": at,
            "field": field,
            "message": message,
            "version": version,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        at = isoparse(d.pop("at"))




        field = d.pop("field")

        message = d.pop("message")

        version = d.pop("version")

        event_type_warning = cls(
            at=at,
            field=field,
            message=message,
            version=version,
        )


        event_type_warning.additional_properties = d
        return event_type_warning

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
