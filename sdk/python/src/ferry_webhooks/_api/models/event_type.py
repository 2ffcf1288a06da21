from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.event_type_validation import check_event_type_validation
from ..models.event_type_validation import EventTypeValidation
from ..types import UNSET, Unset
from dateutil.parser import isoparse
from typing import cast
import datetime

if TYPE_CHECKING:
  from ..models.event_type_version import EventTypeVersion
  from ..models.event_type_warning import EventTypeWarning





T = TypeVar("T", bound="EventType")



@_attrs_define
class EventType:
    """ 
        Attributes:
            created_at (datetime.datetime): when the type was added to the catalog
            deprecated (bool): events of the type are still accepted; the portal marks it
            deprecated_at (datetime.datetime | None): when the type was marked deprecated.
            description (str): what the event means, for readers of the portal
            group (str): a heading the portal groups types under; may be empty
            latest_version (int): the highest version number (0: no version yet).
            name (str): the event type's name, e.g. invoice.paid
            updated_at (datetime.datetime): when the type or its versions last changed
            validation (EventTypeValidation): what ingest does with data that does not match the latest version's schema.
            recent_warnings (list[EventTypeWarning] | Unset): latest validation warnings (warn mode), newest first; only in
                GET /event-types/{name}
            versions (list[EventTypeVersion] | Unset): newest first; only in GET /event-types/{name}
     """

    created_at: datetime.datetime
    deprecated: bool
    deprecated_at: datetime.datetime | None
    description: str
    group: str
    latest_version: int
    name: str
    updated_at: datetime.datetime
    validation: EventTypeValidation
    recent_warnings: list[EventTypeWarning] | Unset = UNSET
    versions: list[EventTypeVersion] | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.event_type_version import EventTypeVersion
        from ..models.event_type_warning import EventTypeWarning
        created_at = self.created_at.isoformat()

        deprecated = self.deprecated

        deprecated_at: None | str
        if isinstance(self.deprecated_at, datetime.datetime):
            deprecated_at = self.deprecated_at.isoformat()
        else:
            deprecated_at = self.deprecated_at

        description = self.description

        group = self.group

        latest_version = self.latest_version

        name = self.name

        updated_at = self.updated_at.isoformat()

        validation: str = self.validation

        recent_warnings: list[dict[str, Any]] | Unset = UNSET
        if not isinstance(self.recent_warnings, Unset):
            recent_warnings = []
            for recent_warnings_item_data in self.recent_warnings:
                recent_warnings_item = recent_warnings_item_data.to_dict()
                recent_warnings.append(recent_warnings_item)



        versions: list[dict[str, Any]] | Unset = UNSET
        if not isinstance(self.versions, Unset):
            versions = []
            for versions_item_data in self.versions:
                versions_item = versions_item_data.to_dict()
                versions.append(versions_item)




        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "created_at": created_at,
            "deprecated": deprecated,
            "deprecated_at": deprecated_at,
            "description": description,
            "group": group,
            "latest_version": latest_version,
            "name": name,
            "updated_at": updated_at,
            "validation": validation,
        })
        if recent_warnings is not UNSET:
            field_dict["recent_warnings"] = recent_warnings
        if versions is not UNSET:
            field_dict["versions"] = versions

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.event_type_version import EventTypeVersion
        from ..models.event_type_warning import EventTypeWarning
        d = dict(src_dict)
        created_at = isoparse(d.pop("created_at"))




        deprecated = d.pop("deprecated")

        def _parse_deprecated_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                deprecated_at_type_0 = isoparse(data)



                return deprecated_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        deprecated_at = _parse_deprecated_at(d.pop("deprecated_at"))


        description = d.pop("description")

        group = d.pop("group")

        latest_version = d.pop("latest_version")

        name = d.pop("name")

        updated_at = isoparse(d.pop("updated_at"))




        validation = check_event_type_validation(d.pop("validation"))




        _recent_warnings = d.pop("recent_warnings", UNSET)
        recent_warnings: list[EventTypeWarning] | Unset = UNSET
        if _recent_warnings is not UNSET:
            recent_warnings = []
            for recent_warnings_item_data in _recent_warnings:
                recent_warnings_item = EventTypeWarning.from_dict(recent_warnings_item_data)



                recent_warnings.append(recent_warnings_item)


        _versions = d.pop("versions", UNSET)
        versions: list[EventTypeVersion] | Unset = UNSET
        if _versions is not UNSET:
            versions = []
            for versions_item_data in _versions:
                versions_item = EventTypeVersion.from_dict(versions_item_data)



                versions.append(versions_item)


        event_type = cls(
            created_at=created_at,
            deprecated=deprecated,
            deprecated_at=deprecated_at,
            description=description,
            group=group,
            latest_version=latest_version,
            name=name,
            updated_at=updated_at,
            validation=validation,
            recent_warnings=recent_warnings,
            versions=versions,
        )


        event_type.additional_properties = d
        return event_type

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
