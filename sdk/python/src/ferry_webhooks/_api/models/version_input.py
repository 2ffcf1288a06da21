from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast






T = TypeVar("T", bound="VersionInput")



@_attrs_define
class VersionInput:
    """ 
        Attributes:
            schema (Any | None): JSON Schema draft 2020-12
            examples (list[Any | None] | Unset): each must match the schema
     """

    schema: Any | None
    examples: list[Any | None] | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        schema: Any | None
        schema = self.schema

        examples: list[Any | None] | Unset = UNSET
        if not isinstance(self.examples, Unset):
            examples = []
            for examples_item_data in self.examples:
                examples_item: Any | None
                examples_item = examples_item_data
                examples.append(examples_item)




        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "schema": schema,
        })
        if examples is not UNSET:
            field_dict["examples"] = examples

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        def _parse_schema(data: object) -> Any | None:
            if data is None:
                return data
            return cast(Any | None, data)

        schema = _parse_schema(d.pop("schema"))


        _examples = d.pop("examples", UNSET)
        examples: list[Any | None] | Unset = UNSET
        if _examples is not UNSET:
            examples = []
            for examples_item_data in _examples:
                def _parse_examples_item(data: object) -> Any | None:
                    if data is None:
                        return data
                    return cast(Any | None, data)

                examples_item = _parse_examples_item(examples_item_data)

                examples.append(examples_item)


        version_input = cls(
            schema=schema,
            examples=examples,
        )


        version_input.additional_properties = d
        return version_input

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
