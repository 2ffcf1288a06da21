from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.event_type_patch_validation_type_1 import check_event_type_patch_validation_type_1
from ..models.event_type_patch_validation_type_1 import EventTypePatchValidationType1
from ..models.event_type_patch_validation_type_2_type_1 import check_event_type_patch_validation_type_2_type_1
from ..models.event_type_patch_validation_type_2_type_1 import EventTypePatchValidationType2Type1
from ..models.event_type_patch_validation_type_3_type_1 import check_event_type_patch_validation_type_3_type_1
from ..models.event_type_patch_validation_type_3_type_1 import EventTypePatchValidationType3Type1
from ..types import UNSET, Unset
from typing import cast






T = TypeVar("T", bound="EventTypePatch")



@_attrs_define
class EventTypePatch:
    """ 
        Attributes:
            deprecated (bool | None | Unset): true marks the type deprecated, false lifts the mark
            description (None | str | Unset): a new description
            group (None | str | Unset): a new group
            validation (EventTypePatchValidationType1 | EventTypePatchValidationType2Type1 |
                EventTypePatchValidationType3Type1 | None | Unset): what ingest does with data that does not match the latest
                schema
     """

    deprecated: bool | None | Unset = UNSET
    description: None | str | Unset = UNSET
    group: None | str | Unset = UNSET
    validation: EventTypePatchValidationType1 | EventTypePatchValidationType2Type1 | EventTypePatchValidationType3Type1 | None | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        deprecated: bool | None | Unset
        if isinstance(self.deprecated, Unset):
            deprecated = UNSET
        else:
            deprecated = self.deprecated

        description: None | str | Unset
        if isinstance(self.description, Unset):
            description = UNSET
        else:
            description = self.description

        group: None | str | Unset
        if isinstance(self.group, Unset):
            group = UNSET
        else:
            group = self.group

        validation: None | str | Unset
        if isinstance(self.validation, Unset):
            validation = UNSET
        elif isinstance(self.validation, str):
            validation = self.validation
        elif isinstance(self.validation, str):
            validation = self.validation
        elif isinstance(self.validation, str):
            validation = self.validation
        else:
            validation = self.validation


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
        })
        if deprecated is not UNSET:
            field_dict["deprecated"] = deprecated
        if description is not UNSET:
            field_dict["description"] = description
        if group is not UNSET:
            field_dict["group"] = group
        if validation is not UNSET:
            field_dict["validation"] = validation

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        def _parse_deprecated(data: object) -> bool | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(bool | None | Unset, data)

        deprecated = _parse_deprecated(d.pop("deprecated", UNSET))


        def _parse_description(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        description = _parse_description(d.pop("description", UNSET))


        def _parse_group(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        group = _parse_group(d.pop("group", UNSET))


        def _parse_validation(data: object) -> EventTypePatchValidationType1 | EventTypePatchValidationType2Type1 | EventTypePatchValidationType3Type1 | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                validation_type_1 = check_event_type_patch_validation_type_1(data)



                return validation_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, str):
                    raise TypeError()
                validation_type_2_type_1 = check_event_type_patch_validation_type_2_type_1(data)



                return validation_type_2_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, str):
                    raise TypeError()
                validation_type_3_type_1 = check_event_type_patch_validation_type_3_type_1(data)



                return validation_type_3_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(EventTypePatchValidationType1 | EventTypePatchValidationType2Type1 | EventTypePatchValidationType3Type1 | None | Unset, data)

        validation = _parse_validation(d.pop("validation", UNSET))


        event_type_patch = cls(
            deprecated=deprecated,
            description=description,
            group=group,
            validation=validation,
        )


        event_type_patch.additional_properties = d
        return event_type_patch

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
