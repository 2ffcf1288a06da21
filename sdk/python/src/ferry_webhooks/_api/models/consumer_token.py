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






T = TypeVar("T", bound="ConsumerToken")



@_attrs_define
class ConsumerToken:
    """ 
        Attributes:
            created_at (datetime.datetime): when the token was created
            endpoint_id (UUID): the queue endpoint the token may pull from
            id (UUID): the token's id
            name (str): the label given at creation
            prefix (str): visible prefix of the token, e.g. fqc_ab12cd
            revoked_at (datetime.datetime | None): when it was revoked; null while it works
     """

    created_at: datetime.datetime
    endpoint_id: UUID
    id: UUID
    name: str
    prefix: str
    revoked_at: datetime.datetime | None
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        created_at = self.created_at.isoformat()

        endpoint_id = str(self.endpoint_id)

        id = str(self.id)

        name = self.name

        prefix = self.prefix

        revoked_at: None | str
        if isinstance(self.revoked_at, datetime.datetime):
            revoked_at = self.revoked_at.isoformat()
        else:
            revoked_at = self.revoked_at


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "created_at": created_at,
            "endpoint_id": endpoint_id,
            "id": id,
            "name": name,
            "prefix": prefix,
            "revoked_at": revoked_at,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        created_at = isoparse(d.pop("created_at"))




        endpoint_id = UUID(d.pop("endpoint_id"))




        id = UUID(d.pop("id"))




        name = d.pop("name")

        prefix = d.pop("prefix")

        def _parse_revoked_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                revoked_at_type_0 = isoparse(data)



                return revoked_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        revoked_at = _parse_revoked_at(d.pop("revoked_at"))


        consumer_token = cls(
            created_at=created_at,
            endpoint_id=endpoint_id,
            id=id,
            name=name,
            prefix=prefix,
            revoked_at=revoked_at,
        )


        consumer_token.additional_properties = d
        return consumer_token

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
