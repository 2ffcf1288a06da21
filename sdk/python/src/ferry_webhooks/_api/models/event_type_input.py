from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.event_type_input_validation import check_event_type_input_validation
from ..models.event_type_input_validation import EventTypeInputValidation
from ..types import UNSET, Unset
from typing import cast






T = TypeVar("T", bound="EventTypeInput")



@_attrs_define
class EventTypeInput:
    """ 
        Attributes:
            deprecated (bool | Unset): mark the type deprecated (events are still accepted)
            description (str | Unset): what the event means, for readers of the portal
            examples (list[Any | None] | Unset): example payloads of version 1; each must match the schema
            group (str | Unset): a heading the portal groups types under
            name (str | Unset): the type's name: 1-100 letters, digits and . _ : - /; not ferry.*
            schema (Any | None | Unset): JSON Schema draft 2020-12 of version 1
            validation (EventTypeInputValidation | Unset): default off; warn and reject need a schema
     """

    deprecated: bool | Unset = UNSET
    description: str | Unset = UNSET
    examples: list[Any | None] | Unset = UNSET
    group: str | Unset = UNSET
    name: str | Unset = UNSET
    schema: Any | None | Unset = UNSET
    validation: EventTypeInputValidation | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        deprecated = self.deprecated

        description = self.description

        examples: list[Any | None] | Unset = UNSET
        if not isinstance(self.examples, Unset):
            examples = []
            for examples_item_data in self.examples:
                examples_item: Any | None
                examples_item = examples_item_data
                examples.append(examples_item)



        group = self.group

        name = self.name

        schema: Any | None | Unset
        if isinstance(self.schema, Unset):
            schema = UNSET
        else:
            schema = self.schema

        validation: str | Unset = UNSET
        if not isinstance(self.validation, Unset):
            validation = self.validation



        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
        })
        if deprecated is not UNSET:
            field_dict["deprecated"] = deprecated
        if description is not UNSET:
            field_dict["description"] = description
        if examples is not UNSET:
            field_dict["examples"] = examples
        if group is not UNSET:
            field_dict["group"] = group
        if name is not UNSET:
            field_dict["name"] = name
        if schema is not UNSET:
            field_dict["schema"] = schema
        if validation is not UNSET:
            field_dict["validation"] = validation

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        deprecated = d.pop("deprecated", UNSET)

        description = d.pop("description", UNSET)

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


        group = d.pop("group", UNSET)

        name = d.pop("name", UNSET)

        def _parse_schema(data: object) -> Any | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Any | None | Unset, data)

        schema = _parse_schema(d.pop("schema", UNSET))


        _validation = d.pop("validation", UNSET)
        validation: EventTypeInputValidation | Unset
        if isinstance(_validation,  Unset):
            validation = UNSET
        else:
            validation = check_event_type_input_validation(_validation)




        event_type_input = cls(
            deprecated=deprecated,
            description=description,
            examples=examples,
            group=group,
            name=name,
            schema=schema,
            validation=validation,
        )


        event_type_input.additional_properties = d
        return event_type_input

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
