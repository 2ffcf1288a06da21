from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast






T = TypeVar("T", bound="PortalThemeInput")



@_attrs_define
class PortalThemeInput:
    """ 
        Attributes:
            dark (bool | None | Unset): dark mode; absent: the browser decides
            logo_url (str | Unset): https URL of a logo shown in the header
            primary_color (str | Unset): accent color, #rrggbb
     """

    dark: bool | None | Unset = UNSET
    logo_url: str | Unset = UNSET
    primary_color: str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        dark: bool | None | Unset
        if isinstance(self.dark, Unset):
            dark = UNSET
        else:
            dark = self.dark

        logo_url = self.logo_url

        primary_color = self.primary_color


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
        })
        if dark is not UNSET:
            field_dict["dark"] = dark
        if logo_url is not UNSET:
            field_dict["logo_url"] = logo_url
        if primary_color is not UNSET:
            field_dict["primary_color"] = primary_color

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        def _parse_dark(data: object) -> bool | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(bool | None | Unset, data)

        dark = _parse_dark(d.pop("dark", UNSET))


        logo_url = d.pop("logo_url", UNSET)

        primary_color = d.pop("primary_color", UNSET)

        portal_theme_input = cls(
            dark=dark,
            logo_url=logo_url,
            primary_color=primary_color,
        )


        portal_theme_input.additional_properties = d
        return portal_theme_input

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
