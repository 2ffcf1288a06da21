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






T = TypeVar("T", bound="Event")



@_attrs_define
class Event:
    """ 
        Attributes:
            created_at (datetime.datetime): when Ferry accepted the event
            data (Any | None): the JSON payload
            id (UUID): the event's id, sent as webhook-id
            type_ (str): the event type, e.g. invoice.paid
            customer (str | Unset): the uid of the customer the event was sent for: only that customer's endpoints (and the
                tenant's own) receive it.
            idempotency_key (str | Unset): the idempotency key it was sent with; absent without one
     """

    created_at: datetime.datetime
    data: Any | None
    id: UUID
    type_: str
    customer: str | Unset = UNSET
    idempotency_key: str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        created_at = self.created_at.isoformat()

        data: Any | None
        data = self.data

        id = str(self.id)

        type_ = self.type_

        customer = self.customer

        idempotency_key = self.idempotency_key


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "created_at": created_at,
            "data": data,
            "id": id,
            "type": type_,
        })
        if customer is not UNSET:
            field_dict["customer"] = customer
        if idempotency_key is not UNSET:
            field_dict["idempotency_key"] = idempotency_key

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        created_at = isoparse(d.pop("created_at"))




        def _parse_data(data: object) -> Any | None:
            if data is None:
                return data
            return cast(Any | None, data)

        data = _parse_data(d.pop("data"))


        id = UUID(d.pop("id"))




        type_ = d.pop("type")

        customer = d.pop("customer", UNSET)

        idempotency_key = d.pop("idempotency_key", UNSET)

        event = cls(
            created_at=created_at,
            data=data,
            id=id,
            type_=type_,
            customer=customer,
            idempotency_key=idempotency_key,
        )


        event.additional_properties = d
        return event

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
