from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.delivery_status import check_delivery_status
from ..models.delivery_status import DeliveryStatus
from dateutil.parser import isoparse
from typing import cast
from uuid import UUID
import datetime






T = TypeVar("T", bound="Delivery")



@_attrs_define
class Delivery:
    """ 
        Attributes:
            attempt_count (int): attempts made so far
            created_at (datetime.datetime): when the event was fanned out to the endpoint
            endpoint_id (UUID): the endpoint delivered to
            event_id (UUID): the event delivered
            first_attempt_at (datetime.datetime | None): when the first attempt started; null before it
            id (UUID): the delivery's id
            last_attempt_at (datetime.datetime | None): when the latest attempt started; null before the first
            next_attempt_at (datetime.datetime | None): when the next attempt is due; null when none is scheduled
            status (DeliveryStatus): pending, retrying, succeeded, dropped or exhausted
            updated_at (datetime.datetime): when the delivery last changed
     """

    attempt_count: int
    created_at: datetime.datetime
    endpoint_id: UUID
    event_id: UUID
    first_attempt_at: datetime.datetime | None
    id: UUID
    last_attempt_at: datetime.datetime | None
    next_attempt_at: datetime.datetime | None
    status: DeliveryStatus
    updated_at: datetime.datetime
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        attempt_count = self.attempt_count

        created_at = self.created_at.isoformat()

        endpoint_id = str(self.endpoint_id)

        event_id = str(self.event_id)

        first_attempt_at: None | str
        if isinstance(self.first_attempt_at, datetime.datetime):
            first_attempt_at = self.first_attempt_at.isoformat()
        else:
            first_attempt_at = self.first_attempt_at

        id = str(self.id)

        last_attempt_at: None | str
        if isinstance(self.last_attempt_at, datetime.datetime):
            last_attempt_at = self.last_attempt_at.isoformat()
        else:
            last_attempt_at = self.last_attempt_at

        next_attempt_at: None | str
        if isinstance(self.next_attempt_at, datetime.datetime):
            next_attempt_at = self.next_attempt_at.isoformat()
        else:
            next_attempt_at = self.next_attempt_at

        status: str = self.status

        updated_at = self.updated_at.isoformat()


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "attempt_count": attempt_count,
            "created_at": created_at,
            "endpoint_id": endpoint_id,
            "event_id": event_id,
            "first_attempt_at": first_attempt_at,
            "id": id,
            "last_attempt_at": last_attempt_at,
            "next_attempt_at": next_attempt_at,
            "status": status,
            "updated_at": updated_at,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        attempt_count = d.pop("attempt_count")

        created_at = isoparse(d.pop("created_at"))




        endpoint_id = UUID(d.pop("endpoint_id"))




        event_id = UUID(d.pop("event_id"))




        def _parse_first_attempt_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                first_attempt_at_type_0 = isoparse(data)



                return first_attempt_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        first_attempt_at = _parse_first_attempt_at(d.pop("first_attempt_at"))


        id = UUID(d.pop("id"))




        def _parse_last_attempt_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                last_attempt_at_type_0 = isoparse(data)



                return last_attempt_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        last_attempt_at = _parse_last_attempt_at(d.pop("last_attempt_at"))


        def _parse_next_attempt_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                next_attempt_at_type_0 = isoparse(data)



                return next_attempt_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        next_attempt_at = _parse_next_attempt_at(d.pop("next_attempt_at"))


        status = check_delivery_status(d.pop("status"))




        updated_at = isoparse(d.pop("updated_at"))




        delivery = cls(
            attempt_count=attempt_count,
            created_at=created_at,
            endpoint_id=endpoint_id,
            event_id=event_id,
            first_attempt_at=first_attempt_at,
            id=id,
            last_attempt_at=last_attempt_at,
            next_attempt_at=next_attempt_at,
            status=status,
            updated_at=updated_at,
        )


        delivery.additional_properties = d
        return delivery

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
