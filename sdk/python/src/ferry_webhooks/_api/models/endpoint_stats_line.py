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






T = TypeVar("T", bound="EndpointStatsLine")



@_attrs_define
class EndpointStatsLine:
    """ 
        Attributes:
            attempts (int): attempts in the window
            endpoint_id (UUID): the endpoint
            failed (int): deliveries that were dropped or exhausted in the window
            last_success_at (datetime.datetime | None): start of the latest successful attempt in the window; null if none
            next_retry_at (datetime.datetime | None): the earliest scheduled retry; null if none
            pending (int): deliveries waiting for their first attempt now
            retrying (int): deliveries waiting for a retry now
            succeeded (int): deliveries that succeeded in the window
            success_rate (float | None): succeeded / (succeeded + failed); null when none finished
     """

    attempts: int
    endpoint_id: UUID
    failed: int
    last_success_at: datetime.datetime | None
    next_retry_at: datetime.datetime | None
    pending: int
    retrying: int
    succeeded: int
    success_rate: float | None
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        attempts = self.attempts

        endpoint_id = str(self.endpoint_id)

        failed = self.failed

        last_success_at: None | str
        if isinstance(self.last_success_at, datetime.datetime):
            last_success_at = self.last_success_at.isoformat()
        else:
            last_success_at = self.last_success_at

        next_retry_at: None | str
        if isinstance(self.next_retry_at, datetime.datetime):
            next_retry_at = self.next_retry_at.isoformat()
        else:
            next_retry_at = self.next_retry_at

        pending = self.pending

        retrying = self.retrying

        succeeded = self.succeeded

        success_rate: float | None
        success_rate = self.success_rate


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "attempts": attempts,
            "endpoint_id": endpoint_id,
            "failed": failed,
            "last_success_at": last_success_at,
            "next_retry_at": next_retry_at,
            "pending": pending,
            "retrying": retrying,
            "succeeded": succeeded,
            "success_rate": success_rate,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        attempts = d.pop("attempts")

        endpoint_id = UUID(d.pop("endpoint_id"))




        failed = d.pop("failed")

        def _parse_last_success_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                last_success_at_type_0 = isoparse(data)



                return last_success_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        last_success_at = _parse_last_success_at(d.pop("last_success_at"))


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


        pending = d.pop("pending")

        retrying = d.pop("retrying")

        succeeded = d.pop("succeeded")

        def _parse_success_rate(data: object) -> float | None:
            if data is None:
                return data
            return cast(float | None, data)

        success_rate = _parse_success_rate(d.pop("success_rate"))


        endpoint_stats_line = cls(
            attempts=attempts,
            endpoint_id=endpoint_id,
            failed=failed,
            last_success_at=last_success_at,
            next_retry_at=next_retry_at,
            pending=pending,
            retrying=retrying,
            succeeded=succeeded,
            success_rate=success_rate,
        )


        endpoint_stats_line.additional_properties = d
        return endpoint_stats_line

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
