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






T = TypeVar("T", bound="EndpointHealthData")



@_attrs_define
class EndpointHealthData:
    """ 
        Attributes:
            endpoint_id (UUID): the endpoint the event is about
            failing_since (datetime.datetime): since when every attempt to it has failed
            url (str): its URL
            reason (str | Unset): why it is failing or was disabled, e.g. the last status
            recovered_at (datetime.datetime | Unset): when it answered 2xx again (ferry.endpoint.recovered only)
     """

    endpoint_id: UUID
    failing_since: datetime.datetime
    url: str
    reason: str | Unset = UNSET
    recovered_at: datetime.datetime | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        endpoint_id = str(self.endpoint_id)

        failing_since = self.failing_since.isoformat()

        url = self.url

        reason = self.reason

        recovered_at: str | Unset = UNSET
        if not isinstance(self.recovered_at, Unset):
            recovered_at = self.recovered_at.isoformat()


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "endpoint_id": endpoint_id,
            "failing_since": failing_since,
            "url": url,
        })
        if reason is not UNSET:
            field_dict["reason"] = reason
        if recovered_at is not UNSET:
            field_dict["recovered_at"] = recovered_at

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        endpoint_id = UUID(d.pop("endpoint_id"))




        failing_since = isoparse(d.pop("failing_since"))




        url = d.pop("url")

        reason = d.pop("reason", UNSET)

        _recovered_at = d.pop("recovered_at", UNSET)
        recovered_at: datetime.datetime | Unset
        if isinstance(_recovered_at,  Unset):
            recovered_at = UNSET
        else:
            recovered_at = isoparse(_recovered_at)




        endpoint_health_data = cls(
            endpoint_id=endpoint_id,
            failing_since=failing_since,
            url=url,
            reason=reason,
            recovered_at=recovered_at,
        )


        endpoint_health_data.additional_properties = d
        return endpoint_health_data

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
