from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from dateutil.parser import isoparse
from typing import cast
import datetime






T = TypeVar("T", bound="EventTypeVersion")



@_attrs_define
class EventTypeVersion:
    """ 
        Attributes:
            created_at (datetime.datetime): when the version was added
            examples (list[Any | None]): example payloads, each matching the schema
            schema (Any | None): JSON Schema draft 2020-12
            version (int): the version number, from 1
     """

    created_at: datetime.datetime
    examples: list[Any | None]
    schema: Any | None
    version: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        created_at = self.created_at.isoformat()

        examples = []
        for examples_item_data in self.examples:
            examples_item: Any | None
            examples_item = examples_item_data
            examples.append(examples_item)



        schema: Any | None
        schema = self.schema

        version = self.version


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "created_at": created_at,
            "examples": examples,
            "schema": schema,
            "version": version,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        created_at = isoparse(d.pop("created_at"))




        examples = []
        _examples = d.pop("examples")
        for examples_item_data in (_examples):
            def _parse_examples_item(data: object) -> Any | None:
                if data is None:
                    return data
                return cast(Any | None, data)

            examples_item = _parse_examples_item(examples_item_data)

            examples.append(examples_item)


        def _parse_schema(data: object) -> Any | None:
            if data is None:
                return data
            return cast(Any | None, data)

        schema = _parse_schema(d.pop("schema"))


        version = d.pop("version")

        event_type_version = cls(
            created_at=created_at,
            examples=examples,
            schema=schema,
            version=version,
        )


        event_type_version.additional_properties = d
        return event_type_version

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
