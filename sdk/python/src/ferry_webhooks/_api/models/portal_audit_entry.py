from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from dateutil.parser import isoparse
from typing import cast
from uuid import UUID
import datetime

if TYPE_CHECKING:
  from ..models.portal_external_user import PortalExternalUser





T = TypeVar("T", bound="PortalAuditEntry")



@_attrs_define
class PortalAuditEntry:
    """ 
        Attributes:
            action (str): what they did, e.g. endpoint.created or endpoint.secret.revealed
            at (datetime.datetime): when
            customer (str): the customer's uid
            external_user (PortalExternalUser):
            id (int): the entry's id
            session_id (UUID): the portal session the user acted in
            target (str): what it was done to, e.g. the endpoint id
     """

    action: str
    at: datetime.datetime
    customer: str
    external_user: PortalExternalUser
    id: int
    session_id: UUID
    target: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.portal_external_user import PortalExternalUser
        action = self.action

        at = self.at.isoformat()

        customer = self.customer

        external_user = self.external_user.to_dict()

        id = self.id

        session_id = str(self.session_id)

        target = self.target


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "action": action,
            "at": at,
            "customer": customer,
            "external_user": external_user,
            "id": id,
            "session_id": session_id,
            "target": target,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.portal_external_user import PortalExternalUser
        d = dict(src_dict)
        action = d.pop("action")

        at = isoparse(d.pop("at"))




        customer = d.pop("customer")

        external_user = PortalExternalUser.from_dict(d.pop("external_user"))




        id = d.pop("id")

        session_id = UUID(d.pop("session_id"))




        target = d.pop("target")

        portal_audit_entry = cls(
            action=action,
            at=at,
            customer=customer,
            external_user=external_user,
            id=id,
            session_id=session_id,
            target=target,
        )


        portal_audit_entry.additional_properties = d
        return portal_audit_entry

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
