from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast

if TYPE_CHECKING:
  from ..models.event_type_import_skip import EventTypeImportSkip





T = TypeVar("T", bound="EventTypeImportResult")



@_attrs_define
class EventTypeImportResult:
    """ 
        Attributes:
            created (list[str]): the new event types (with version 1).
            skipped (list[EventTypeImportSkip]): the webhooks left alone, and why.
            updated (list[str]): existing types whose schema changed: they got a new version.
     """

    created: list[str]
    skipped: list[EventTypeImportSkip]
    updated: list[str]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.event_type_import_skip import EventTypeImportSkip
        created = self.created



        skipped = []
        for skipped_item_data in self.skipped:
            skipped_item = skipped_item_data.to_dict()
            skipped.append(skipped_item)



        updated = self.updated




        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "created": created,
            "skipped": skipped,
            "updated": updated,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.event_type_import_skip import EventTypeImportSkip
        d = dict(src_dict)
        created = cast(list[str], d.pop("created"))


        skipped = []
        _skipped = d.pop("skipped")
        for skipped_item_data in (_skipped):
            skipped_item = EventTypeImportSkip.from_dict(skipped_item_data)



            skipped.append(skipped_item)


        updated = cast(list[str], d.pop("updated"))


        event_type_import_result = cls(
            created=created,
            skipped=skipped,
            updated=updated,
        )


        event_type_import_result.additional_properties = d
        return event_type_import_result

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
