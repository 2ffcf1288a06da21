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






T = TypeVar("T", bound="DeliveryExhaustedData")



@_attrs_define
class DeliveryExhaustedData:
    """ 
        Attributes:
            attempt_count (int): attempts made
            delivery_id (UUID): the delivery that ran out of retries
            endpoint_id (UUID): the endpoint it was for
            event_id (UUID): its event
            event_type (str): its event's type
            last_attempt_at (datetime.datetime): when the last attempt started
     """

    attempt_count: int
    delivery_id: UUID
    endpoint_id: UUID
    event_id: UUID
    event_type: str
    last_attempt_at: datetime.datetime
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        attempt_count = self.attempt_count

        delivery_id = str(self.delivery_id)

        endpoint_id = str(self.endpoint_id)

        event_id = str(self.event_id)

        event_type = self.event_type

        last_attempt_at = self.last_attempt_at.isoformat()


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "attempt_count": attempt_count,
            "delivery_id": delivery_id,
            "endpoint_id": endpoint_id,
            "event_id": event_id,
            "event_type": event_type,
            "last_attempt_at": last_attempt_at,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        attempt_count = d.pop("attempt_count")

        delivery_id = UUID(d.pop("delivery_id"))




        endpoint_id = UUID(d.pop("endpoint_id"))




        event_id = UUID(d.pop("event_id"))




        event_type = d.pop("event_type")

        last_attempt_at = isoparse(d.pop("last_attempt_at"))




        delivery_exhausted_data = cls(
            attempt_count=attempt_count,
            delivery_id=delivery_id,
            endpoint_id=endpoint_id,
            event_id=event_id,
            event_type=event_type,
            last_attempt_at=last_attempt_at,
        )


        delivery_exhausted_data.additional_properties = d
        return delivery_exhausted_data

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
