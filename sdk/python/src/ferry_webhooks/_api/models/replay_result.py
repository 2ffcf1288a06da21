from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast
from uuid import UUID






T = TypeVar("T", bound="ReplayResult")



@_attrs_define
class ReplayResult:
    """ 
        Attributes:
            deliveries (list[UUID] | None): the deliveries sent again
            event_id (UUID): the event replayed
     """

    deliveries: list[UUID] | None
    event_id: UUID
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        deliveries: list[str] | None
        if isinstance(self.deliveries, list):
            deliveries = []
            for deliveries_type_0_item_data in self.deliveries:
                deliveries_type_0_item = str(deliveries_type_0_item_data)
                deliveries.append(deliveries_type_0_item)


        else:
            deliveries = self.deliveries

        event_id = str(self.event_id)


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "deliveries": deliveries,
            "event_id": event_id,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        def _parse_deliveries(data: object) -> list[UUID] | None:
            if data is None:
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                deliveries_type_0 = []
                _deliveries_type_0 = data
                for deliveries_type_0_item_data in (_deliveries_type_0):
                    deliveries_type_0_item = UUID(deliveries_type_0_item_data)



                    deliveries_type_0.append(deliveries_type_0_item)

                return deliveries_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[UUID] | None, data)

        deliveries = _parse_deliveries(d.pop("deliveries"))


        event_id = UUID(d.pop("event_id"))




        replay_result = cls(
            deliveries=deliveries,
            event_id=event_id,
        )


        replay_result.additional_properties = d
        return replay_result

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
