from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast






T = TypeVar("T", bound="EventInput")



@_attrs_define
class EventInput:
    """ 
        Attributes:
            data (Any | None): any JSON value but null (payload up to 256 KiB)
            type_ (str): event type, e.g. invoice.paid
            customer (str | Unset): the uid of one of the tenant's customers, sends the event to that customer's endpoints
                only (and the tenant's own).
            idempotency_key (str | Unset): same key within 24 h returns the original event (or send Idempotency-Key)
     """

    data: Any | None
    type_: str
    customer: str | Unset = UNSET
    idempotency_key: str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        data: Any | None
        data = self.data

        type_ = self.type_

        customer = self.customer

        idempotency_key = self.idempotency_key


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "data": data,
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
        def _parse_data(data: object) -> Any | None:
            if data is None:
                return data
            return cast(Any | None, data)

        data = _parse_data(d.pop("data"))


        type_ = d.pop("type")

        customer = d.pop("customer", UNSET)

        idempotency_key = d.pop("idempotency_key", UNSET)

        event_input = cls(
            data=data,
            type_=type_,
            customer=customer,
            idempotency_key=idempotency_key,
        )


        event_input.additional_properties = d
        return event_input

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
