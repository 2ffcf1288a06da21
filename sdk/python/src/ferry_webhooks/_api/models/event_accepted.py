from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from dateutil.parser import isoparse
from typing import cast
from uuid import UUID
import datetime






T = TypeVar("T", bound="EventAccepted")



@_attrs_define
class EventAccepted:
    """ 
        Attributes:
            created_at (datetime.datetime): when Ferry accepted the event
            id (UUID): the event's id, sent to receivers as webhook-id
            type_ (str): the event type
            schema_warning (str | Unset): how data fails its type's schema (validation warn); absent when it matches
     """

    created_at: datetime.datetime
    id: UUID
    type_: str
    schema_warning: str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        created_at = self.created_at.isoformat()

        id = str(self.id)

        type_ = self.type_

        schema_warning = self.schema_warning


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "created_at": created_at,
            "id": id,
            "type": type_,
        })
        if schema_warning is not UNSET:
            field_dict["schema_warning"] = schema_warning

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        created_at = isoparse(d.pop("created_at"))




        id = UUID(d.pop("id"))




        type_ = d.pop("type")

        schema_warning = d.pop("schema_warning", UNSET)

        event_accepted = cls(
            created_at=created_at,
            id=id,
            type_=type_,
            schema_warning=schema_warning,
        )


        event_accepted.additional_properties = d
        return event_accepted

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
