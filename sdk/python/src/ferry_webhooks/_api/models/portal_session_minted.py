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






T = TypeVar("T", bound="PortalSessionMinted")



@_attrs_define
class PortalSessionMinted:
    """ 
        Attributes:
            expires_at (datetime.datetime): when the link and the session expire
            session_id (UUID): the session's id
            url (str): url opens the portal; its fragment carries the single-use code.
     """

    expires_at: datetime.datetime
    session_id: UUID
    url: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        expires_at = self.expires_at.isoformat()

        session_id = str(self.session_id)

        url = self.url


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "expires_at": expires_at,
            "session_id": session_id,
            "url": url,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        expires_at = isoparse(d.pop("expires_at"))




        session_id = UUID(d.pop("session_id"))




        url = d.pop("url")

        portal_session_minted = cls(
            expires_at=expires_at,
            session_id=session_id,
            url=url,
        )


        portal_session_minted.additional_properties = d
        return portal_session_minted

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
