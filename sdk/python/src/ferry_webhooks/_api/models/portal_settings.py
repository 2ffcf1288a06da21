from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast

if TYPE_CHECKING:
  from ..models.portal_theme import PortalTheme





T = TypeVar("T", bound="PortalSettings")



@_attrs_define
class PortalSettings:
    """ 
        Attributes:
            allowed_origins (list[str] | None): allowed_origins may frame the portal (frame-ancestors); none: no page may.
            theme (PortalTheme):
     """

    allowed_origins: list[str] | None
    theme: PortalTheme
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.portal_theme import PortalTheme
        allowed_origins: list[str] | None
        if isinstance(self.allowed_origins, list):
            allowed_origins = self.allowed_origins


        else:
            allowed_origins = self.allowed_origins

        theme = self.theme.to_dict()


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "allowed_origins": allowed_origins,
            "theme": theme,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.portal_theme import PortalTheme
        d = dict(src_dict)
        def _parse_allowed_origins(data: object) -> list[str] | None:
            if data is None:
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                allowed_origins_type_0 = cast(list[str], data)

                return allowed_origins_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[str] | None, data)

        allowed_origins = _parse_allowed_origins(d.pop("allowed_origins"))


        theme = PortalTheme.from_dict(d.pop("theme"))




        portal_settings = cls(
            allowed_origins=allowed_origins,
            theme=theme,
        )


        portal_settings.additional_properties = d
        return portal_settings

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
