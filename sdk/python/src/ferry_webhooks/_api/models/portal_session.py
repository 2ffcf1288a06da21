from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from dateutil.parser import isoparse
from typing import cast
from uuid import UUID
import datetime

if TYPE_CHECKING:
  from ..models.portal_customer import PortalCustomer
  from ..models.portal_external_user import PortalExternalUser
  from ..models.portal_theme import PortalTheme





T = TypeVar("T", bound="PortalSession")



@_attrs_define
class PortalSession:
    """ 
        Attributes:
            capabilities (list[str] | None): what the user may do: view, manage_endpoints, view_secret, rotate_secret,
                replay, send_test, manage_routing
            created_at (datetime.datetime): when it was minted
            customer (PortalCustomer):
            endpoint_ids (list[UUID] | None): the endpoints the session may see; empty: all of the customer
            expires_at (datetime.datetime): when the session ends
            external_user (PortalExternalUser):
            id (UUID): the session's id
            read_only (bool): true: no writes at all, whatever the capabilities
            theme (PortalTheme):
            revoked_at (datetime.datetime | Unset): when it was revoked; absent while it works
     """

    capabilities: list[str] | None
    created_at: datetime.datetime
    customer: PortalCustomer
    endpoint_ids: list[UUID] | None
    expires_at: datetime.datetime
    external_user: PortalExternalUser
    id: UUID
    read_only: bool
    theme: PortalTheme
    revoked_at: datetime.datetime | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.portal_customer import PortalCustomer
        from ..models.portal_external_user import PortalExternalUser
        from ..models.portal_theme import PortalTheme
        capabilities: list[str] | None
        if isinstance(self.capabilities, list):
            capabilities = self.capabilities


        else:
            capabilities = self.capabilities

        created_at = self.created_at.isoformat()

        customer = self.customer.to_dict()

        endpoint_ids: list[str] | None
        if isinstance(self.endpoint_ids, list):
            endpoint_ids = []
            for endpoint_ids_type_0_item_data in self.endpoint_ids:
                endpoint_ids_type_0_item = str(endpoint_ids_type_0_item_data)
                endpoint_ids.append(endpoint_ids_type_0_item)


        else:
            endpoint_ids = self.endpoint_ids

        expires_at = self.expires_at.isoformat()

        external_user = self.external_user.to_dict()

        id = str(self.id)

        read_only = self.read_only

        theme = self.theme.to_dict()

        revoked_at: str | Unset = UNSET
        if not isinstance(self.revoked_at, Unset):
            revoked_at = self.revoked_at.isoformat()


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "capabilities": capabilities,
            "created_at": created_at,
            "customer": customer,
            "endpoint_ids": endpoint_ids,
            "expires_at": expires_at,
            "external_user": external_user,
            "id": id,
            "read_only": read_only,
            "theme": theme,
        })
        if revoked_at is not UNSET:
            field_dict["revoked_at"] = revoked_at

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.portal_customer import PortalCustomer
        from ..models.portal_external_user import PortalExternalUser
        from ..models.portal_theme import PortalTheme
        d = dict(src_dict)
        def _parse_capabilities(data: object) -> list[str] | None:
            if data is None:
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                capabilities_type_0 = cast(list[str], data)

                return capabilities_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[str] | None, data)

        capabilities = _parse_capabilities(d.pop("capabilities"))


        created_at = isoparse(d.pop("created_at"))




        customer = PortalCustomer.from_dict(d.pop("customer"))




        def _parse_endpoint_ids(data: object) -> list[UUID] | None:
            if data is None:
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                endpoint_ids_type_0 = []
                _endpoint_ids_type_0 = data
                for endpoint_ids_type_0_item_data in (_endpoint_ids_type_0):
                    endpoint_ids_type_0_item = UUID(endpoint_ids_type_0_item_data)



                    endpoint_ids_type_0.append(endpoint_ids_type_0_item)

                return endpoint_ids_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[UUID] | None, data)

        endpoint_ids = _parse_endpoint_ids(d.pop("endpoint_ids"))


        expires_at = isoparse(d.pop("expires_at"))




        external_user = PortalExternalUser.from_dict(d.pop("external_user"))




        id = UUID(d.pop("id"))




        read_only = d.pop("read_only")

        theme = PortalTheme.from_dict(d.pop("theme"))




        _revoked_at = d.pop("revoked_at", UNSET)
        revoked_at: datetime.datetime | Unset
        if isinstance(_revoked_at,  Unset):
            revoked_at = UNSET
        else:
            revoked_at = isoparse(_revoked_at)




        portal_session = cls(
            capabilities=capabilities,
            created_at=created_at,
            customer=customer,
            endpoint_ids=endpoint_ids,
            expires_at=expires_at,
            external_user=external_user,
            id=id,
            read_only=read_only,
            theme=theme,
            revoked_at=revoked_at,
        )


        portal_session.additional_properties = d
        return portal_session

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
