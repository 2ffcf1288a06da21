from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from dateutil.parser import isoparse
from typing import cast
import datetime






T = TypeVar("T", bound="StatsPoint")



@_attrs_define
class StatsPoint:
    """ 
        Attributes:
            failed (int): deliveries that were dropped or exhausted in the hour
            hour (datetime.datetime): start of the hour (UTC)
            succeeded (int): deliveries that succeeded in the hour
     """

    failed: int
    hour: datetime.datetime
    succeeded: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        failed = self.failed

        hour = self.hour.isoformat()

        succeeded = self.succeeded


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "failed": failed,
            "hour": hour,
            "succeeded": succeeded,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        failed = d.pop("failed")

        hour = isoparse(d.pop("hour"))




        succeeded = d.pop("succeeded")

        stats_point = cls(
            failed=failed,
            hour=hour,
            succeeded=succeeded,
        )


        stats_point.additional_properties = d
        return stats_point

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
