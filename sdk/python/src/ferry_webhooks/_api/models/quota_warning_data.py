from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset







T = TypeVar("T", bound="QuotaWarningData")



@_attrs_define
class QuotaWarningData:
    """ 
        Attributes:
            limit (int): events the plan includes per month
            percent (int): the threshold crossed: 80 or 100.
            period (str): the month, "2026-11".
            used (int): events accepted this month so far
     """

    limit: int
    percent: int
    period: str
    used: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        limit = self.limit

        percent = self.percent

        period = self.period

        used = self.used


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "limit": limit,
            "percent": percent,
            "period": period,
            "used": used,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        limit = d.pop("limit")

        percent = d.pop("percent")

        period = d.pop("period")

        used = d.pop("used")

        quota_warning_data = cls(
            limit=limit,
            percent=percent,
            period=period,
            used=used,
        )


        quota_warning_data.additional_properties = d
        return quota_warning_data

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
