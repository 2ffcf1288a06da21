from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from dateutil.parser import isoparse
from typing import cast
from uuid import UUID
import datetime






T = TypeVar("T", bound="TestEventData")



@_attrs_define
class TestEventData:
    """ 
        Attributes:
            endpoint_id (UUID): the endpoint the test was sent to
            message (str): always "Test event from Ferry"
            sent_at (datetime.datetime): when the test was sent (RFC 3339)
     """

    endpoint_id: UUID
    message: str
    sent_at: datetime.datetime
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        endpoint_id = str(self.endpoint_id)

        message = self.message

        sent_at = self.sent_at.isoformat()


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "endpoint_id": endpoint_id,
            "message": message,
            "sent_at": sent_at,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        endpoint_id = UUID(d.pop("endpoint_id"))




        message = d.pop("message")

        sent_at = isoparse(d.pop("sent_at"))




        test_event_data = cls(
            endpoint_id=endpoint_id,
            message=message,
            sent_at=sent_at,
        )


        test_event_data.additional_properties = d
        return test_event_data

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
