from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast
from uuid import UUID

if TYPE_CHECKING:
  from ..models.portal_external_user_input import PortalExternalUserInput
  from ..models.portal_theme_input import PortalThemeInput





T = TypeVar("T", bound="PortalSessionInput")



@_attrs_define
class PortalSessionInput:
    """ 
        Attributes:
            capabilities (list[str] | Unset): what the user may do: view, manage_endpoints, view_secret, rotate_secret,
                replay, send_test, manage_routing (default: view)
            endpoint_ids (list[UUID] | Unset): limit the session to these endpoints of the customer (default: all)
            external_user (PortalExternalUserInput | Unset):
            read_only (bool | Unset): forbid every write, whatever the capabilities
            theme (None | PortalThemeInput | Unset): this session's look, over the portal settings' theme
            ttl_seconds (int | Unset): session lifetime in seconds (default 3600)
     """

    capabilities: list[str] | Unset = UNSET
    endpoint_ids: list[UUID] | Unset = UNSET
    external_user: PortalExternalUserInput | Unset = UNSET
    read_only: bool | Unset = UNSET
    theme: None | PortalThemeInput | Unset = UNSET
    ttl_seconds: int | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.portal_external_user_input import PortalExternalUserInput
        from ..models.portal_theme_input import PortalThemeInput
        capabilities: list[str] | Unset = UNSET
        if not isinstance(self.capabilities, Unset):
            capabilities = self.capabilities



        endpoint_ids: list[str] | Unset = UNSET
        if not isinstance(self.endpoint_ids, Unset):
            endpoint_ids = []
            for endpoint_ids_item_data in self.endpoint_ids:
                endpoint_ids_item = str(endpoint_ids_item_data)
                endpoint_ids.append(endpoint_ids_item)



        external_user: dict[str, Any] | Unset = UNSET
        if not isinstance(self.external_user, Unset):
            external_user = self.external_user.to_dict()

        read_only = self.read_only

        theme: dict[str, Any] | None | Unset
        if isinstance(self.theme, Unset):
            theme = UNSET
        elif isinstance(self.theme, PortalThemeInput):
            theme = self.theme.to_dict()
        else:
            theme = self.theme

        ttl_seconds = self.ttl_seconds


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
        })
        if capabilities is not UNSET:
            field_dict["capabilities"] = capabilities
        if endpoint_ids is not UNSET:
            field_dict["endpoint_ids"] = endpoint_ids
        if external_user is not UNSET:
            field_dict["external_user"] = external_user
        if read_only is not UNSET:
            field_dict["read_only"] = read_only
        if theme is not UNSET:
            field_dict["theme"] = theme
        if ttl_seconds is not UNSET:
            field_dict["ttl_seconds"] = ttl_seconds

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.portal_external_user_input import PortalExternalUserInput
        from ..models.portal_theme_input import PortalThemeInput
        d = dict(src_dict)
        capabilities = cast(list[str], d.pop("capabilities", UNSET))


        _endpoint_ids = d.pop("endpoint_ids", UNSET)
        endpoint_ids: list[UUID] | Unset = UNSET
        if _endpoint_ids is not UNSET:
            endpoint_ids = []
            for endpoint_ids_item_data in _endpoint_ids:
                endpoint_ids_item = UUID(endpoint_ids_item_data)



                endpoint_ids.append(endpoint_ids_item)


        _external_user = d.pop("external_user", UNSET)
        external_user: PortalExternalUserInput | Unset
        if isinstance(_external_user,  Unset):
            external_user = UNSET
        else:
            external_user = PortalExternalUserInput.from_dict(_external_user)




        read_only = d.pop("read_only", UNSET)

        def _parse_theme(data: object) -> None | PortalThemeInput | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                theme_type_0 = PortalThemeInput.from_dict(data)



                return theme_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | PortalThemeInput | Unset, data)

        theme = _parse_theme(d.pop("theme", UNSET))


        ttl_seconds = d.pop("ttl_seconds", UNSET)

        portal_session_input = cls(
            capabilities=capabilities,
            endpoint_ids=endpoint_ids,
            external_user=external_user,
            read_only=read_only,
            theme=theme,
            ttl_seconds=ttl_seconds,
        )


        portal_session_input.additional_properties = d
        return portal_session_input

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
