from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from dateutil.parser import isoparse
from typing import cast
import datetime






T = TypeVar("T", bound="Backlog")



@_attrs_define
class Backlog:
    """ 
        Attributes:
            next_retry_at (datetime.datetime | None): the earliest scheduled retry, if any.
            oldest_age_seconds (int): the age of the oldest pending or retrying delivery (0 when there is none).
            pending (int): deliveries waiting for their first attempt
            retrying (int): deliveries waiting for a retry
     """

    next_retry_at: datetime.datetime | None
    oldest_age_seconds: int
    pending: int
    retrying: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        next_retry_at: None | str
        if isinstance(self.next_retry_at, datetime.datetime):
            next_retry_at = self.next_retry_at.isoformat()
        else:
            next_retry_at = self.next_retry_at

        oldest_age_seconds = self.oldest_age_seconds

        pending = self.pending

        retrying = self.retrying


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "next_retry_at": next_retry_at,
            "oldest_age_seconds": oldest_age_seconds,
            "pending": pending,
            "retrying": retrying,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        def _parse_next_retry_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                next_retry_at_type_0 = isoparse(data)



                return next_retry_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        next_retry_at = _parse_next_retry_at(d.pop("next_retry_at"))


        oldest_age_seconds = d.pop("oldest_age_seconds")

        pending = d.pop("pending")

        retrying = d.pop("retrying")

        backlog = cls(
            next_retry_at=next_retry_at,
            oldest_age_seconds=oldest_age_seconds,
            pending=pending,
            retrying=retrying,
        )


        backlog.additional_properties = d
        return backlog

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
