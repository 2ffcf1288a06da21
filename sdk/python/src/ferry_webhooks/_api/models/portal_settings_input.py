from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast

if TYPE_CHECKING:
  from ..models.portal_theme_input import PortalThemeInput





T = TypeVar("T", bound="PortalSettingsInput")



@_attrs_define
class PortalSettingsInput:
    """ 
        Attributes:
            allowed_origins (list[str] | Unset): origins (https://app.example.com) that may frame the portal
            theme (PortalThemeInput | Unset):
     """

    allowed_origins: list[str] | Unset = UNSET
    theme: PortalThemeInput | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.portal_theme_input import PortalThemeInput
        allowed_origins: list[str] | Unset = UNSET
        if not isinstance(self.allowed_origins, Unset):
            allowed_origins = self.allowed_origins



        theme: dict[str, Any] | Unset = UNSET
        if not isinstance(self.theme, Unset):
            theme = self.theme.to_dict()


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
        })
        if allowed_origins is not UNSET:
            field_dict["allowed_origins"] = allowed_origins
        if theme is not UNSET:
            field_dict["theme"] = theme

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.portal_theme_input import PortalThemeInput
        d = dict(src_dict)
        allowed_origins = cast(list[str], d.pop("allowed_origins", UNSET))


        _theme = d.pop("theme", UNSET)
        theme: PortalThemeInput | Unset
        if isinstance(_theme,  Unset):
            theme = UNSET
        else:
            theme = PortalThemeInput.from_dict(_theme)




        portal_settings_input = cls(
            allowed_origins=allowed_origins,
            theme=theme,
        )


        portal_settings_input.additional_properties = d
        return portal_settings_input

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
